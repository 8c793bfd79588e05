"""Who a message notifies, as Discord decides it (discord-api-docs, "Allowed Mentions Object").

Only a message being **created** notifies; an edit notifies nobody, even one that adds a
mention. The users notified are the users mentioned in the content (``<@id>`` or ``<@!id>``)
that ``allowed_mentions`` lets through. Without ``allowed_mentions`` a regular message parses
users, roles and everyone, while interaction responses and webhook messages (follow-ups) parse
user mentions only. ``parse`` and ``users`` are exclusive; ``users`` lists the ids that may be
pinged. An ephemeral message notifies nobody (only its reader sees it), nor does a message
notify its own author. ``@everyone`` and role mentions would need a permission the bot is not
given (Mention Everyone), so they notify nobody here.
"""

from __future__ import annotations

import re
from typing import Any

USER_MENTION = re.compile(r"<@!?(\d+)>")

#: ``allowed_mentions`` when the request has none.
REGULAR_DEFAULT = {"parse": ["users", "roles", "everyone"]}
WEBHOOK_DEFAULT = {"parse": ["users"]}


def mentioned_users(content: str) -> list[int]:
    """User ids mentioned in ``content``, in order, once each."""
    found: list[int] = []
    for match in USER_MENTION.finditer(content or ""):
        user_id = int(match.group(1))
        if user_id not in found:
            found.append(user_id)
    return found


def notified_users(
    content: str,
    allowed_mentions: dict[str, Any] | None,
    *,
    webhook: bool,
    author_id: int,
    ephemeral: bool,
) -> frozenset[int]:
    """The users a newly created message notifies."""
    if ephemeral:
        return frozenset()
    allowed = allowed_mentions
    if allowed is None:
        allowed = WEBHOOK_DEFAULT if webhook else REGULAR_DEFAULT
    mentioned = set(mentioned_users(content)) - {author_id}
    if "users" in (allowed.get("parse") or []):
        return frozenset(mentioned)
    listed = {int(u) for u in allowed.get("users") or []}
    return frozenset(mentioned & listed)
