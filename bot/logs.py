"""Logging set-up that keeps secrets out of every log line."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable

REDACTED = "[redacted]"


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


def setup_logging(level: str, secrets: Iterable[str] = ()) -> None:
    """Log to stderr at ``level``, redacting ``secrets`` from everything written."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S")
    )
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # discord.py's HTTP/gateway chatter at DEBUG is noise even when we debug the bot.
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO))
