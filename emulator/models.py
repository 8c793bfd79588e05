"""What the emulator keeps and records: local users, messages and their files, the event log's
entries, the REST requests it received and the ones it refused."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class EmuUser:
    """A local Discord user."""

    id: int
    name: str
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.capitalize(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class Attachment:
    filename: str
    data: bytes = field(repr=False)
    content_type: str

    @property
    def is_png(self) -> bool:
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")


@dataclass
class Message:
    """A message as the emulator stores it: Discord's JSON plus the raw attached files."""

    id: int
    channel_id: int
    author: EmuUser
    data: dict[str, Any]
    files: list[Attachment] = field(default_factory=list)
    ephemeral: bool = False
    #: The interaction this message answers (callback, follow-up or edited original), if any.
    interaction_id: int | None = None
    #: The users its creation notified (an edit never adds any).
    notified: frozenset[int] = frozenset()

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    def buttons(self) -> list[dict[str, Any]]:
        """Every button of the message (label, custom_id, style, disabled)."""
        found = []
        for row in self.data.get("components") or []:
            for component in row.get("components", []):
                if component.get("type") == 2:
                    found.append(component)
        return found

    def button(self, label: str) -> dict[str, Any]:
        wanted = label.casefold()
        for button in self.buttons():
            if (button.get("label") or "").casefold() == wanted:
                return button
        labels = ", ".join(repr(b.get("label")) for b in self.buttons())
        raise LookupError(f"no button {label!r} on message {self.id} (buttons: {labels})")

    def text(self) -> str:
        """Content plus embed titles/descriptions/fields, for assertions and the console."""
        parts = [self.content] if self.content else []
        for embed in self.data.get("embeds") or []:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for embed_field in embed.get("fields") or []:
                parts.append(f"{embed_field.get('name')}: {embed_field.get('value')}")
            footer = embed.get("footer") or {}
            if footer.get("text"):
                parts.append(str(footer["text"]))
        return "\n".join(parts)


@dataclass
class Event:
    """One thing that happened, in order: the log tests wait on."""

    seq: int
    #: message | edit | delete | callback | thread | sync | refused | heartbeat | gateway_closed
    #: | request (a REST request leaving the bot: recorded before the ``rest_delay``)
    #: | identified (a bot connected: READY and its guild were sent)
    #: | activity (an Activity instance started) | activity_joined | activity_left (a user's
    #: client connected to one, or left it: (instance id, user))
    kind: str
    data: Any
    at: float
    #: The interaction whose answer this is (a callback, follow-up or edit), if any.
    interaction_id: int | None = None
    #: Users this event notified: those a created message pings; nobody for anything else.
    notified: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Request:
    """One REST request the bot made (``at``: when it was sent, before any ``rest_delay``)."""

    method: str
    path: str
    payload: Any
    files: tuple[str, ...]
    at: float
    #: The interaction it answers (callback or webhook routes), if any.
    interaction_id: int | None
    #: The channel it acts in (channel routes), if any.
    channel_id: int | None


@dataclass(frozen=True)
class Refusal:
    """A request Discord would refuse: its status, Discord's code and body."""

    method: str
    path: str
    status: int
    code: int
    body: dict[str, Any]
    interaction_id: int | None = None
