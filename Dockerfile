# The bot in a slim image: non-root, the database on a volume, the same entry point as make run.
#   docker build -t boardgames-bot .
#   docker run -d --name boardgames -e DISCORD_TOKEN=... -v boardgames-data:/data boardgames-bot
# Discord's Embedded App SDK for the web board's Activity page (package.json pins it).
FROM node:20-slim AS sdk
WORKDIR /sdk
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# What the project ships, not a list kept by hand (a package left out of a list once broke the
# image): the whole tree minus .dockerignore (tests, benchmarks, local data), installed as
# pyproject.toml says, then the source removed, so the bot runs from what pip installed.
WORKDIR /src
COPY . .
RUN pip install . \
    && rm -rf /src \
    && useradd --system --create-home --uid 10001 bot \
    && mkdir -p /data /app \
    && chown bot:bot /data /app

WORKDIR /app
# The web board serves the SDK from the working directory's node_modules.
COPY --from=sdk /sdk/node_modules /app/node_modules
USER bot
# Settings come from the environment (see config.example.toml); mount a config.toml at
# /app/config.toml to use a file instead.
ENV BOT_DATABASE=/data/boardgames.db
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
