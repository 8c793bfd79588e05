"""Logging set-up that keeps secrets out of every log line: the token (redacted wherever it
appears) and hidden game information (a game's seed, the pile order, the hands), which only
ever travels inside payloads that libraries log at DEBUG, so those payloads are hidden."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable, Mapping

REDACTED = "[redacted]"
HIDDEN = "[hidden]"

#: Libraries whose DEBUG records carry whole payloads: SQL parameters (a game's snapshot, with
#: its secret seed, the pile order and every hand), HTTP bodies and gateway events (a player's
#: private answers: their autocomplete suggestions, their hand), URLs with interaction tokens.
PAYLOAD_LOGGERS = (
    "aiosqlite",
    "asyncpg",
    "discord.client",
    "discord.gateway",
    "discord.http",
    "discord.interactions",
    "discord.state",
    "discord.webhook.async_",
    "discord.webhook.sync",
)
#: Arguments a payload-free DEBUG record keeps: an HTTP method, an event or opcode name.
_LONGEST_WORD = 32


class RedactSecrets(logging.Filter):
    """Replaces each secret by ``[redacted]`` in a record's final message and traceback text.

    Installed on handlers (not loggers) so records propagated from every library pass through it.
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        # Short strings would redact ordinary words; a real token is about 70 characters.
        self.secrets = [s for s in secrets if s and len(s) >= 8]

    def _clean(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        message = record.getMessage()
        cleaned = self._clean(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._clean(record.exc_text)
        return True


def _without_payload(value: object) -> object:
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str) and len(value) <= _LONGEST_WORD and value.replace("_", "").isalnum():
        return value
    return HIDDEN


class HidePayloads(logging.Filter):
    """Keeps a library's DEBUG records (which request, which status) but replaces every
    argument that could be a payload by ``[hidden]``.

    Installed on the libraries' own loggers, so it acts where the record is made, before any
    handler (ours, a test's, one an operator adds) sees it, whatever level anyone sets."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.INFO or not record.args:
            return True
        if isinstance(record.args, Mapping):
            record.args = {key: _without_payload(v) for key, v in record.args.items()}
        else:
            record.args = tuple(_without_payload(v) for v in record.args)
        return True


def hide_payloads() -> None:
    """Install ``HidePayloads`` on every logger of ``PAYLOAD_LOGGERS`` (once)."""
    for name in PAYLOAD_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, HidePayloads) for f in logger.filters):
            logger.addFilter(HidePayloads())


def setup_logging(level: str, secrets: Iterable[str] = ()) -> None:
    """Log to stderr at ``level``, redacting ``secrets`` from everything written, and never
    a library's payloads (``hide_payloads``)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S")
    )
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    hide_payloads()
    # discord.py's HTTP/gateway chatter and aiosqlite's queries at DEBUG are noise even when we
    # debug the bot (and, without ``hide_payloads``, they would hold hidden information).
    floor = max(logging.getLevelName(level), logging.INFO)
    for name in ("discord", "aiosqlite"):
        logging.getLogger(name).setLevel(floor)
