"""Settings, each declared once: a field of ``Config`` made by ``setting()`` says its type and
default, its key in ``config.toml``, its environment variable (which wins over the file), how a
value is read and checked, and its help text. The loader, the environment mapping, the
variables workers drop and ``config.example.toml`` (``python -m bot.core.settings`` writes it) all
come from these declarations.

The token and the database address (which may hold a password) are kept out of ``repr`` so they
never reach a log line, and errors never repeat them."""

from __future__ import annotations

import logging
import os
import re
import sys
import textwrap
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import Field, dataclass, field, fields
from pathlib import Path
from typing import Any

from bot.core.database_url import is_postgres, password_of
from words import LANGUAGES

DEFAULT_CONFIG_FILE = "config.toml"
#: The environment variable naming another settings file.
CONFIG_FILE_VARIABLE = "BOT_CONFIG"


class ConfigError(ValueError):
    """A setting has a value we cannot use; the message names the setting, never the token."""


class _ShowingTheValue(ConfigError):
    """A refusal whose message ends with the value refused, when it cannot be a secret."""

    def __init__(self, message: str, value: Any) -> None:
        super().__init__(message)
        self.value = value


#: Longer than any word a setting takes (levels, scopes, languages): a value this long in the
#: wrong place is more likely a pasted secret than a typo.
LONGEST_SHOWN = 16
#: A Discord bot token: three base64url parts joined by dots.
_TOKEN_SHAPE = re.compile(r"[\w-]{20,}\.[\w-]{4,}\.[\w-]{20,}")


def shown(value: object, secrets: tuple[str, ...] = ()) -> str:
    """``value`` quoted for an error message, unless it may be a secret (the token, anything
    shaped like a token, or any long value): then only a note that it is not shown, so a token
    pasted into the wrong setting never reaches the screen or a log."""
    text = str(value).strip()
    folded = text.casefold()
    if (
        len(text) > LONGEST_SHOWN
        or _TOKEN_SHAPE.search(text)
        or any(s and (s.casefold() in folded or folded in s.casefold()) for s in secrets if s)
    ):
        return "(a value that looks like a secret, not shown)"
    return repr(text)


# How a value from the file or the environment becomes the setting's value. A reader is given
# the value and the setting's name (for its error), and raises ConfigError when it cannot.
Reader = Callable[[Any, str], Any]


def text(value: Any, name: str) -> str:
    return str(value)


def whole_number(low: int, high: int) -> Reader:
    def read(value: Any, name: str) -> int:
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{name} must be a whole number") from None
        if not low <= number <= high:
            raise ConfigError(f"{name} must be between {low} and {high}")
        return number

    return read


def one_of(*words: str) -> Reader:
    """One of ``words``, in any case."""

    def read(value: Any, name: str) -> str:
        word = str(value).lower()
        if word not in words:
            raise ConfigError(f"{name} must be {', '.join(words[:-1])} or {words[-1]}")
        return word

    return read


def ids(value: Any, name: str) -> tuple[int, ...]:
    """A TOML list of numbers, or from the environment numbers separated by commas or spaces."""
    if isinstance(value, str):
        value = [part for part in value.replace(",", " ").split() if part]
    try:
        return tuple(int(v) for v in value)
    except (TypeError, ValueError):
        raise ConfigError(f"{name} must be a list of numeric Discord ids") from None


def lowercase_names(value: Any, name: str) -> tuple[str, ...]:
    return tuple(str(v).lower() for v in value)


def yes_or_no(value: Any, name: str) -> bool:
    """A TOML boolean, or from the environment 1/0, true/false, yes/no, on/off."""
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off", ""):
        return False
    raise ConfigError(f"{name} must be true or false")


def log_level(value: Any, name: str) -> str:
    level = str(value).upper()
    if not isinstance(logging.getLevelName(level), int):
        raise _ShowingTheValue(f"{name} must be DEBUG, INFO, WARNING or ERROR", value)
    return level


def language(value: Any, name: str) -> str:
    if value not in LANGUAGES:
        raise ConfigError(f"{name} must be one of {', '.join(LANGUAGES)}")
    return str(value)


def database(value: Any, name: str) -> str:
    """A file path, ``sqlite:///path`` or a PostgreSQL URL (the value may hold a password, so
    the error does not repeat it)."""
    target = str(value).strip()
    if not target or (
        "://" in target and not (target.startswith("sqlite:///") or is_postgres(target))
    ):
        raise ConfigError(
            f"{name} must be a file path, sqlite:///path or "
            "postgresql://user:password@host:port/database"
        )
    return target


@dataclass(frozen=True)
class Setting:
    """Where a setting is written and what it means (the field of ``Config`` has the rest)."""

    #: Table and key in ``config.toml``.
    section: str
    key: str
    #: The environment variable that overrides the file; empty: the file only.
    variable: str
    read: Reader
    help: str
    #: How the environment variable is written, when an example helps ("0,1").
    variable_example: str = ""
    #: The value may be a secret: kept out of ``repr``, and worker processes drop its variable.
    secret: bool = False
    #: Read from the environment only: the file may not hold it (a secret that must never be
    #: committed with a config file).
    env_only: bool = False


def setting(default: Any, at: str, read: Reader, help: str, env: str = "", *,
            example: str = "", secret: bool = False, env_only: bool = False) -> Any:
    """A field of ``Config``: its ``default``, its place ``at`` in the file ("table.key"), how a
    value is ``read``, its ``help`` text and its ``env``ironment variable."""
    section, _, key = at.partition(".")
    return field(default=default, repr=not secret, metadata={"setting": Setting(
        section, key, env, read, " ".join(help.split()), example, secret, env_only)})


def web_origin(value: Any, name: str) -> str:
    """An http(s) origin (scheme, host, port: the board is served at the root of its host),
    without a trailing slash."""
    url = str(value).strip().rstrip("/")
    if url and not re.fullmatch(r"https?://[^/\s?#@]+", url):
        raise _ShowingTheValue(f"{name} must be an http:// or https:// origin, with no path",
                               value)
    return url


@dataclass(frozen=True)
class Config:
    # [discord]
    token: str = setting(
        "", "discord.token", text, env="DISCORD_TOKEN", secret=True, help="""
        The bot token from https://discord.com/developers/applications (Bot > Reset Token);
        empty: no Discord, `make run` starts the local Discord emulator and its console.
        Prefer the environment: never commit a token.""")
    owner_ids: tuple[int, ...] = setting(
        (), "discord.owner_ids", ids, env="BOT_OWNER_IDS", example="comma-separated", help="""
        Users who may run owner-only commands (/sync). Empty: the application's owner (or
        team).""")
    guild_ids: tuple[int, ...] = setting(
        (), "discord.guild_ids", ids, env="BOT_GUILD_IDS", help="""
        Guilds (servers) where /sync scope:guilds and sync_on_start = "guilds" publish the
        commands instantly; useful while testing, since a global sync can take up to an hour
        to appear.""")
    sync_on_start: str = setting(
        "off", "discord.sync_on_start", one_of("off", "global", "guilds"),
        env="BOT_SYNC_ON_START", help="""
        Publish the command tree at every start: "off" (use /sync), "global" or "guilds".""")
    api_base: str = setting(
        "", "discord.api_base", text, env="DISCORD_API_BASE", help="""
        Talk to another Discord-compatible server (a proxy, a test double, the emulator)
        instead of Discord: its REST base. Empty: Discord itself.""")
    gateway_url: str = setting(
        "", "discord.gateway_url", text, env="DISCORD_GATEWAY_URL", help="""
        That server's gateway URL. Empty: Discord's gateway.""")
    shard_count: int = setting(
        0, "discord.shard_count", whole_number(0, 100_000), env="BOT_SHARD_COUNT", help="""
        Sharding, for a bot in many servers run as several processes on one PostgreSQL
        database: how many shards the bot has in all (0: not sharded, this process runs the
        whole bot). Discord sends a server's events to shard (server id >> 22) %
        shard_count.""")
    shard_ids: tuple[int, ...] = setting(
        (), "discord.shard_ids", ids, env="BOT_SHARD_IDS", example='e.g. "0,1"', help="""
        The shards this process runs, numbers from 0 to shard_count - 1 (empty: all of
        them).""")
    client_id: str = setting(
        "", "discord.client_id", text, env="DISCORD_CLIENT_ID", help="""
        The application's OAuth2 client id, for the web board's sign-in. Empty: the
        application id Discord gives the bot when it logs in.""")
    client_secret: str = setting(
        "", "discord.client_secret", text, env="DISCORD_CLIENT_SECRET", secret=True,
        env_only=True, help="""
        The application's OAuth2 client secret (OAuth2 > Reset Secret), which the web board
        needs to sign players in; it also signs the board's session cookies. Read from the
        environment only, never from this file.""")
    # [database]
    database: str = setting(
        "data/boardgames.db", "database.path", database, env="BOT_DATABASE", secret=True,
        help="""
        The SQLite file (created with its folder if missing; WAL mode) or sqlite:///path, or
        a PostgreSQL database for several processes:
        "postgresql://user:password@host:5432/boardgames" (the database must exist; the bot
        creates its tables). Prefer the environment for a password.""")
    outbox_history_days: int = setting(
        30, "database.outbox_history_days", whole_number(1, 36_500),
        env="BOT_OUTBOX_HISTORY_DAYS", help="""
        Messages already posted stay in the outbox this many days, then are deleted.""")
    database_pool_size: int = setting(
        10, "database.pool_size", whole_number(2, 1000), env="BOT_DATABASE_POOL_SIZE", help="""
        PostgreSQL: connections each bot process opens (2-1000). Each write transaction and
        each read holds one while it runs, so this is how many run at once per process; the
        server's max_connections must allow processes x pool_size, plus one per process.
        SQLite ignores it.""")
    # [bot]
    log_level: str = setting(
        "INFO", "bot.log_level", log_level, env="BOT_LOG_LEVEL", help="""
        DEBUG, INFO, WARNING or ERROR. DEBUG adds a line per command (its name, who, where:
        never its options), board drawn, outbox row delivered and AI move thought (discord.py
        and the database drivers stay at INFO). The token is redacted from every log line, and
        no level logs hidden game information (seeds, piles, hands).""")
    default_language: str = setting(
        "en", "bot.default_language", language, env="BOT_LANGUAGE", help="""
        Language of the posts in game threads ("en" or "fr"), which answer no one in
        particular. Replies to a command use the language of the person's Discord client.""")
    heavy_workers: int = setting(
        1, "bot.heavy_workers", whole_number(1, 64), env="BOT_HEAVY_WORKERS", help="""
        Replays, tournament brackets and rules diagrams are drawn away from the moves, by this
        many workers (1-64).""")
    heavy_pool: str = setting(
        "process", "bot.heavy_pool", one_of("process", "thread"), env="BOT_HEAVY_POOL",
        help="""
        What those workers are: processes ("process", at a lower priority than the bot) or
        threads of the bot's own process ("thread"; slows the moves while they draw).""")
    board_workers: int = setting(
        1, "bot.board_workers", whole_number(1, 64), env="BOT_BOARD_WORKERS", help="""
        Move boards are drawn by this many workers of their own (1-64), at the bot's
        priority.""")
    board_pool: str = setting(
        "process", "bot.board_pool", one_of("process", "thread"), env="BOT_BOARD_POOL",
        help="""
        What those workers are: processes ("process": drawing in a thread of the bot costs it
        more CPU than the drawing itself) or threads of the bot's process ("thread", as the
        tests' bots do, which would otherwise start a process each).""")
    ai_pool: str = setting(
        "process", "bot.ai_pool", one_of("process", "thread"), env="BOT_AI_POOL", help="""
        The AI thinks (its moves, hints, and the evaluations of post-game reviews, after the
        moves and hints people wait for) in worker processes ("process", at a lower priority
        than the bot) or threads of the bot's process ("thread": tests that replace a job by
        a local function).""")
    ai_games_per_user: int = setting(
        5, "bot.ai_games_per_user", whole_number(1, 1000), env="BOT_AI_GAMES_PER_USER",
        help="""
        Fair use of the AI: how many games against the AI one person plays at once (/play
        level: beyond is refused until one ends). Everyone's AI moves and hints take turns,
        person by person, whatever this is.""")
    ai_hints_per_user: int = setting(
        1, "bot.ai_hints_per_user", whole_number(1, 100), env="BOT_AI_HINTS_PER_USER", help="""
        How many of one person's /hint requests are thought at once (one more is told to wait
        a moment).""")
    # [web]
    web_port: int = setting(
        0, "web.port", whole_number(0, 65535), env="BOT_WEB_PORT", help="""
        The port the web board listens on; 0: no web board. It needs public_url and
        DISCORD_CLIENT_SECRET.""")
    web_host: str = setting(
        "127.0.0.1", "web.host", text, env="BOT_WEB_HOST", help="""
        The address the web board listens on: 127.0.0.1 behind a reverse proxy on the same
        host, 0.0.0.0 in a container.""")
    web_public_url: str = setting(
        "", "web.public_url", web_origin, env="BOT_WEB_PUBLIC_URL", help="""
        The origin players open the web board at (https://boards.example.org, served at its
        root: no path): its links
        in Discord and the sign-in's redirect, <public_url>/auth/callback, which must be
        registered in the developer portal (OAuth2 > Redirects).""")
    # [correspondence]
    vacation_days_per_year: int = setting(
        30, "correspondence.vacation_days_per_year", whole_number(0, 366),
        env="BOT_VACATION_DAYS", help="""
        Vacation days each player may take per calendar year with /vacation (their games'
        clocks stop meanwhile).""")
    challenge_expiry_days: int = setting(
        7, "correspondence.challenge_expiry_days", whole_number(1, 365),
        env="BOT_CHALLENGE_EXPIRY_DAYS", help="""
        A challenge (or table) nobody takes up closes after this many days, 1 to 365; its
        message then says it expired.""")
    seek_expiry_days: int = setting(
        7, "correspondence.seek_expiry_days", whole_number(1, 365), env="BOT_SEEK_EXPIRY_DAYS",
        help="""
        A seek (/seek) nobody joins closes after this many days, 1 to 365; its message then
        says it expired.""")
    # [emulator]
    emulator_users: tuple[str, ...] = setting(
        ("alice", "bob", "carol", "dave"), "emulator.users", lowercase_names, help="""
        The users you can act as in the local console (/as <name>).""")
    images_dir: str = setting(
        "emulator-out", "emulator.images_dir", text, help="""
        The folder where the local console writes every image the bot sends (a folder per run
        inside it; earlier runs' folders are removed).""")
    keep_local_database: bool = setting(
        False, "emulator.keep_database", yes_or_no, env="BOT_KEEP_LOCAL_DATABASE",
        example="=1", help="""
        Each run of the local console has a fresh database, a boardgames-local-* folder in
        the temporary directory, removed when the console stops; true keeps it (its path is
        printed).""")

    @property
    def has_token(self) -> bool:
        return bool(self.token.strip())

    @property
    def secrets(self) -> tuple[str, ...]:
        """What the logs must never show: the token, the client secret and the database
        password."""
        return tuple(s for s in (self.token, self.client_secret, password_of(self.database))
                     if s)

    @property
    def web_enabled(self) -> bool:
        """Whether the web board runs (``web_port`` set; ``load_config`` checks the rest)."""
        return self.web_port != 0


#: What each table of the file is for, written above it in ``config.example.toml``.
SECTIONS = {
    "discord": "",
    "database": "",
    "bot": "",
    "web": "The web board: play by clicking on the board, in a browser or a Discord Activity.",
    "correspondence": "Correspondence play (games over days, each move on a clock).",
    "emulator": "Only used without a token (the local console).",
}


def settings() -> Iterator[tuple[Field[Any], Setting]]:
    """Each field of ``Config`` with its declaration, in the order of ``Config``."""
    for each in fields(Config):
        yield each, each.metadata["setting"]


#: Environment variables that may hold secrets (the token; a database address with its
#: password): the bot's worker processes drop them (``bot.workers.pool``,
#: ``bot.workers.board_process``).
SECRET_VARIABLES = frozenset(s.variable for _, s in settings() if s.secret and s.variable)


def _named(each: Field[Any], declared: Setting) -> str:
    """The setting's name in errors, with its place in the file when that differs."""
    if each.name == declared.key:
        return each.name
    return f"{each.name} ([{declared.section}] {declared.key})"


def _check_shards(values: dict[str, Any]) -> None:
    total, chosen = values["shard_count"], values["shard_ids"]
    if total == 0:
        if chosen:
            raise ConfigError("shard_ids needs shard_count (how many shards there are in all)")
        return
    if any(not 0 <= shard < total for shard in chosen) or len(set(chosen)) != len(chosen):
        raise ConfigError(f"shard_ids must be different numbers from 0 to {total - 1}")
    values["shard_ids"] = tuple(sorted(chosen))


def _check_web(values: dict[str, Any]) -> None:
    if not values["web_port"]:
        return
    if not values["web_public_url"]:
        raise ConfigError("web_port needs web_public_url ([web] public_url), the address "
                          "players open the board at")
    if not values["client_secret"]:
        raise ConfigError("web_port needs the application's client secret in the environment "
                          "variable DISCORD_CLIENT_SECRET")


def load_config(
    path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None
) -> Config:
    """Read ``path`` (default: ``$BOT_CONFIG``, or ``config.toml`` if it exists), then each
    setting's environment variable, which wins when it is set and not empty."""
    env = os.environ if env is None else env
    path = Path(path or env.get(CONFIG_FILE_VARIABLE) or DEFAULT_CONFIG_FILE)
    data: dict[str, Any] = {}
    if path.exists():
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    given: dict[str, Any] = {}
    for each, declared in settings():
        if declared.variable and env.get(declared.variable):
            given[each.name] = env[declared.variable]
        elif declared.key in data.get(declared.section, {}):
            if declared.env_only:
                raise ConfigError(f"{_named(each, declared)} is read from the environment only "
                                  f"({declared.variable}): remove it from {path}")
            given[each.name] = data[declared.section][declared.key]
    secrets = (str(given.get("token", "")), str(given.get("client_secret", "")))
    values = {each.name: each.default for each, _ in settings()}
    for each, declared in settings():
        if each.name not in given:
            continue
        try:
            values[each.name] = declared.read(given[each.name], _named(each, declared))
        except _ShowingTheValue as refused:
            raise ConfigError(f"{refused}, not {shown(refused.value, secrets)}") from None
    _check_shards(values)
    _check_web(values)
    return Config(**values)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


EXAMPLE_HEADER = """\
# Copy to config.toml (ignored by git) and edit. Environment variables (in brackets) override
# the file; BOT_CONFIG names another file. Without a token, `make run` starts the local Discord
# emulator and its console instead of connecting to Discord.
# Written by `python -m bot.core.settings` from the settings declared in bot/core/settings.py.
"""


def example_file() -> str:
    """``config.example.toml``: every setting with its help, environment variable and default."""
    lines = [EXAMPLE_HEADER.rstrip("\n")]
    section = None
    for each, declared in settings():
        if declared.section != section:
            section = declared.section
            lines += ["", f"[{section}]"]
            if SECTIONS[section]:
                lines += textwrap.wrap(SECTIONS[section], 98, initial_indent="# ",
                                       subsequent_indent="# ")
        help = declared.help
        if declared.variable:
            variable = declared.variable
            if declared.variable_example:
                joiner = "" if declared.variable_example.startswith("=") else ", "
                variable += joiner + declared.variable_example
            help += f" [{variable}]"
        lines += textwrap.wrap(help, 98, initial_indent="# ", subsequent_indent="# ",
                               break_on_hyphens=False, break_long_words=False)
        if declared.env_only:
            continue
        lines.append(f"{declared.key} = {_toml(each.default)}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(example_file())
