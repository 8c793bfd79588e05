"""``python -m bot`` (what ``make run`` runs): with a token, the bot on Discord; without one, the
local Discord emulator and a console to play through it."""

from __future__ import annotations

import logging
import sys

import aiohttp
import discord

from bot.core.settings import ConfigError, load_config
from bot.runtime import runner
from bot.runtime.logs import setup_logging
from bot.store import StoreUnavailable

log = logging.getLogger("bot")


def main() -> int:
    try:
        config = load_config()
    except ConfigError as exc:
        print(f"config.toml: {exc}", file=sys.stderr)
        return 2
    setup_logging(config.log_level, secrets=config.secrets)
    try:
        if config.has_token:
            from bot.runtime.app import run

            runner.run(run(config))
        else:
            from bot.runtime.console import run_console

            if config.log_level == "INFO":
                # The console is the conversation; the bot's routine INFO lines would drown it.
                setup_logging("WARNING", secrets=config.secrets)
            runner.run(run_console(config))
    except KeyboardInterrupt:
        pass
    except StoreUnavailable as exc:
        log.error("%s", exc)  # names the server, never the password
        return 1
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN or [discord] token")
        return 1
    except (aiohttp.ClientError, OSError) as exc:
        # Through the logger, whose filter redacts the token should a message ever carry it.
        log.error("cannot reach the Discord API (%s): %s", config.api_base or "discord.com", exc)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
