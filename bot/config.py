"""Settings: ``config.toml`` (every key documented in ``config.example.toml``), then the
environment, which wins. The token and the database address (which may hold a password) are
kept out of ``repr`` so they never reach a log line, and errors never repeat a value."""

from __future__ import annotations

import logging
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from bot.i18n import LANGUAGES
from bot.store.url import is_postgres, password_of

DEFAULT_CONFIG_FILE = "config.toml"


class ConfigError(ValueError):
    """A setting has a value we cannot use; the message names the setting, never the token."""


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


@dataclass(frozen=True)
class Config:
    #: The bot token; empty means "no Discord: run against the local emulator".
    token: str = field(default="", repr=False)
    #: REST base and gateway URL of a Discord-compatible server; empty means Discord itself.
    api_base: str = ""
    gateway_url: str = ""
    #: SQLite file (or ``sqlite:///path``), or ``postgresql://user:password@host:port/db``.
    database: str = field(default="data/boardgames.db", repr=False)
    #: Delivered outbox rows (the messages already posted) are kept this many days.
    outbox_history_days: int = 30
    #: PostgreSQL: connections of this process's pool (transactions running at once).
    database_pool_size: int = 10
    #: Discord shards: how many the bot has in all (0: not sharded, one process runs the whole
    #: bot), and which of them this process runs (empty: all of them).
    shard_count: int = 0
    shard_ids: tuple[int, ...] = ()
    log_level: str = "INFO"
    #: Users allowed to run owner-only commands (/sync). Empty: the application's owner.
    owner_ids: tuple[int, ...] = ()
    #: Guilds where commands are synced (instantly) by /sync guilds and by sync_on_start.
    guild_ids: tuple[int, ...] = ()
    #: Sync the command tree at every start: "off", "global" or "guilds".
    sync_on_start: str = "off"
    #: Language of messages that answer no one in particular (posts in game threads).
    default_language: str = "en"
    #: Local console: the users you can act as, and where images are written.
    emulator_users: tuple[str, ...] = ("alice", "bob", "carol", "dave")
    images_dir: str = "emulator-out"
    #: Keep the local console's database (a ``boardgames-local-*`` folder in the temporary
    #: directory) after the run instead of removing it at exit.
    keep_local_database: bool = False
    #: Correspondence play: vacation days each player may take per calendar year.
    vacation_days_per_year: int = 30
    #: A challenge nobody took up is closed (its message says it expired) after this many days.
    challenge_expiry_days: int = 7
    #: A seek nobody joined is closed (its message says it expired) after this many days.
    seek_expiry_days: int = 7
    #: Replays, brackets and diagrams are drawn by this many workers, "process"es (default:
    #: they never slow the bot's own process) or "thread"s (``bot.workers``).
    heavy_workers: int = 1
    heavy_pool: str = "process"
    #: Move boards are drawn by this many workers of their own (``bot.boards``): "process"es
    #: (default: drawing in a thread of the bot costs it more CPU than the drawing) or
    #: "thread"s (the tests' bots, which would otherwise start a process each).
    board_workers: int = 1
    board_pool: str = "process"
    #: The AI thinks (moves, hints, the reviews' evaluations) in "process"es (default) or
    #: "thread"s (tests that replace a job by a local function).
    ai_pool: str = "process"
    #: Fair use of the AI: games against it one person plays at once, and hints of one person
    #: being thought at once (one more is told to wait a moment).
    ai_games_per_user: int = 5
    ai_hints_per_user: int = 1

    @property
    def has_token(self) -> bool:
        return bool(self.token.strip())

    @property
    def secrets(self) -> tuple[str, ...]:
        """What the logs must never show: the token and the database password."""
        return tuple(s for s in (self.token, password_of(self.database)) if s)


#: Environment variables that may hold secrets (the token; a database address with its
#: password): the bot's worker processes drop them (``bot.workers``, ``bot.drawing_process``).
SECRET_VARIABLES = frozenset({"DISCORD_TOKEN", "BOT_DATABASE"})


def _ids(value: Any, setting: str) -> tuple[int, ...]:
    if isinstance(value, str):
        value = [part for part in value.replace(",", " ").split() if part]
    try:
        return tuple(int(v) for v in value)
    except (TypeError, ValueError):
        raise ConfigError(f"{setting} must be a list of numeric Discord ids") from None


def _whole_number(value: Any, setting: str, low: int, high: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{setting} must be a whole number") from None
    if not low <= number <= high:
        raise ConfigError(f"{setting} must be between {low} and {high}")
    return number


def _yes_or_no(value: Any, setting: str) -> bool:
    """A TOML boolean, or from the environment 1/0, true/false, yes/no."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off", ""):
        return False
    raise ConfigError(f"{setting} must be true or false")


def _database(value: Any) -> str:
    """A file path, ``sqlite:///path`` or a PostgreSQL URL (the value may hold a password, so
    the error does not repeat it)."""
    text = str(value).strip()
    if not text or ("://" in text and not (text.startswith("sqlite:///") or is_postgres(text))):
        raise ConfigError(
            "database must be a file path, sqlite:///path or "
            "postgresql://user:password@host:port/database"
        )
    return text


def _shards(count: Any, ids: Any) -> tuple[int, tuple[int, ...]]:
    total = _whole_number(count, "shard_count", 0, 100_000)
    chosen = _ids(ids, "shard_ids")
    if total == 0:
        if chosen:
            raise ConfigError("shard_ids needs shard_count (how many shards there are in all)")
        return 0, ()
    if any(not 0 <= shard < total for shard in chosen) or len(set(chosen)) != len(chosen):
        raise ConfigError(f"shard_ids must be different numbers from 0 to {total - 1}")
    return total, tuple(sorted(chosen))


def load_config(
    path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None
) -> Config:
    """Read ``path`` (default: ``$BOT_CONFIG`` or ``config.toml`` if it exists) and the
    environment (``DISCORD_TOKEN``, ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``,
    ``BOT_DATABASE``, ``BOT_LOG_LEVEL``, ``BOT_OWNER_IDS``, ``BOT_GUILD_IDS``,
    ``BOT_SYNC_ON_START``, ``BOT_LANGUAGE``, ``BOT_VACATION_DAYS``,
    ``BOT_CHALLENGE_EXPIRY_DAYS``, ``BOT_HEAVY_WORKERS``,
    ``BOT_HEAVY_POOL``, ``BOT_OUTBOX_HISTORY_DAYS``, ``BOT_DATABASE_POOL_SIZE``,
    ``BOT_SHARD_COUNT``, ``BOT_SHARD_IDS``, ``BOT_KEEP_LOCAL_DATABASE``,
    ``BOT_AI_GAMES_PER_USER``, ``BOT_AI_HINTS_PER_USER``)."""
    env = os.environ if env is None else env
    path = Path(path or env.get("BOT_CONFIG") or DEFAULT_CONFIG_FILE)
    data: dict[str, Any] = {}
    if path.exists():
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    discord_ = data.get("discord", {})
    bot = data.get("bot", {})
    database = data.get("database", {})
    emulator = data.get("emulator", {})
    correspondence = data.get("correspondence", {})
    values: dict[str, Any] = {
        "token": discord_.get("token", ""),
        "api_base": discord_.get("api_base", ""),
        "gateway_url": discord_.get("gateway_url", ""),
        "owner_ids": discord_.get("owner_ids", ()),
        "guild_ids": discord_.get("guild_ids", ()),
        "sync_on_start": discord_.get("sync_on_start", "off"),
        "database": database.get("path", Config.database),
        "outbox_history_days": database.get("outbox_history_days", Config.outbox_history_days),
        "database_pool_size": database.get("pool_size", Config.database_pool_size),
        "shard_count": discord_.get("shard_count", Config.shard_count),
        "shard_ids": discord_.get("shard_ids", ()),
        "log_level": bot.get("log_level", Config.log_level),
        "default_language": bot.get("default_language", Config.default_language),
        "emulator_users": emulator.get("users", Config.emulator_users),
        "images_dir": emulator.get("images_dir", Config.images_dir),
        "keep_local_database": emulator.get("keep_database", Config.keep_local_database),
        "vacation_days_per_year": correspondence.get(
            "vacation_days_per_year", Config.vacation_days_per_year
        ),
        "challenge_expiry_days": correspondence.get(
            "challenge_expiry_days", Config.challenge_expiry_days
        ),
        "seek_expiry_days": correspondence.get("seek_expiry_days", Config.seek_expiry_days),
        "heavy_workers": bot.get("heavy_workers", Config.heavy_workers),
        "heavy_pool": bot.get("heavy_pool", Config.heavy_pool),
        "board_workers": bot.get("board_workers", Config.board_workers),
        "board_pool": bot.get("board_pool", Config.board_pool),
        "ai_pool": bot.get("ai_pool", Config.ai_pool),
        "ai_games_per_user": bot.get("ai_games_per_user", Config.ai_games_per_user),
        "ai_hints_per_user": bot.get("ai_hints_per_user", Config.ai_hints_per_user),
    }
    overrides = {
        "DISCORD_TOKEN": "token",
        "DISCORD_API_BASE": "api_base",
        "DISCORD_GATEWAY_URL": "gateway_url",
        "BOT_DATABASE": "database",
        "BOT_LOG_LEVEL": "log_level",
        "BOT_OWNER_IDS": "owner_ids",
        "BOT_GUILD_IDS": "guild_ids",
        "BOT_SYNC_ON_START": "sync_on_start",
        "BOT_LANGUAGE": "default_language",
        "BOT_VACATION_DAYS": "vacation_days_per_year",
        "BOT_CHALLENGE_EXPIRY_DAYS": "challenge_expiry_days",
        "BOT_SEEK_EXPIRY_DAYS": "seek_expiry_days",
        "BOT_HEAVY_WORKERS": "heavy_workers",
        "BOT_HEAVY_POOL": "heavy_pool",
        "BOT_BOARD_WORKERS": "board_workers",
        "BOT_BOARD_POOL": "board_pool",
        "BOT_AI_POOL": "ai_pool",
        "BOT_AI_GAMES_PER_USER": "ai_games_per_user",
        "BOT_AI_HINTS_PER_USER": "ai_hints_per_user",
        "BOT_OUTBOX_HISTORY_DAYS": "outbox_history_days",
        "BOT_DATABASE_POOL_SIZE": "database_pool_size",
        "BOT_SHARD_COUNT": "shard_count",
        "BOT_SHARD_IDS": "shard_ids",
        "BOT_KEEP_LOCAL_DATABASE": "keep_local_database",
    }
    for variable, name in overrides.items():
        if env.get(variable):
            values[name] = env[variable]
    values["owner_ids"] = _ids(values["owner_ids"], "owner_ids")
    values["guild_ids"] = _ids(values["guild_ids"], "guild_ids")
    values["emulator_users"] = tuple(str(u).lower() for u in values["emulator_users"])
    secrets = (str(values["token"]),)
    level = str(values["log_level"])
    values["log_level"] = level.upper()
    if not isinstance(logging.getLevelName(values["log_level"]), int):
        raise ConfigError(
            f"log_level must be DEBUG, INFO, WARNING or ERROR, not {shown(level, secrets)}"
        )
    values["sync_on_start"] = str(values["sync_on_start"]).lower()
    if values["sync_on_start"] not in ("off", "global", "guilds"):
        raise ConfigError("sync_on_start must be off, global or guilds")
    for setting, low, high in (("vacation_days_per_year", 0, 366), ("heavy_workers", 1, 64),
                               ("board_workers", 1, 64), ("database_pool_size", 2, 1000),
                               ("challenge_expiry_days", 1, 365),
                               ("seek_expiry_days", 1, 365),
                               ("ai_games_per_user", 1, 1000), ("ai_hints_per_user", 1, 100)):
        values[setting] = _whole_number(values[setting], setting, low, high)
    for pool in ("heavy_pool", "board_pool", "ai_pool"):
        values[pool] = str(values[pool]).lower()
        if values[pool] not in ("process", "thread"):
            raise ConfigError(f"{pool} must be process or thread")
    values["database"] = _database(values["database"])
    values["keep_local_database"] = _yes_or_no(values["keep_local_database"],
                                               "keep_database")
    values["outbox_history_days"] = _whole_number(
        values["outbox_history_days"], "outbox_history_days", 1, 36_500
    )
    values["shard_count"], values["shard_ids"] = _shards(values["shard_count"],
                                                         values["shard_ids"])
    if values["default_language"] not in LANGUAGES:
        raise ConfigError(f"default_language must be one of {', '.join(LANGUAGES)}")
    known = {f.name for f in fields(Config)}
    return Config(**{k: v for k, v in values.items() if k in known})
