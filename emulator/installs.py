"""Where the app is, and where it may act: installs on servers (the bot is a member) and on
users' accounts, the conversations between users (DMs and group DMs, which the bot never joins),
servers without the bot, and the clock that ages interaction tokens.

What each rule follows (discord-api-docs):

* ``resources/application`` "Installation Context": an app installed to a user is visible
  across the user's servers, DMs and group DMs, but "apps installed only to a user can't take
  actions in a server"; the bot is only in the servers that installed it.
* ``interactions/receiving-and-responding`` "Interaction Context Types" (0 GUILD, 1 BOT_DM,
  2 PRIVATE_CHANNEL) and "Authorizing Integration Owners Object" (``"0"``: the server's id, or
  ``"0"`` in the bot's DM; ``"1"``: the authorizing user's id).
* Same page, the interaction's ``app_permissions``: "includes ATTACH_FILES | EMBED_LINKS |
  MENTION_EVERYONE permissions for (G)DMs with other users, and additionally includes
  USE_EXTERNAL_EMOJIS for DMs with the app's bot user".
* ``topics/permissions`` USE_EXTERNAL_APPS (1 << 50): "When disabled, users will still be
  allowed to use their apps but the responses will be ephemeral. This only applies to apps not
  also installed to the server."
* ``topics/opcodes-and-status-codes``: 10003 Unknown channel, 50001 Missing access (a channel
  the bot cannot see: View Channel is implicit in every other permission, ``topics/permissions``
  "Implicit Permissions"),
  50007 Cannot send messages to this user, 50027 Invalid webhook token provided, 40094 "This
  interaction has hit the maximum number of follow up messages".
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from emulator.api import (
    BOT_DM,
    DM_CHANNEL,
    GROUP_DM,
    GUILD_CONTEXT,
    GUILD_INSTALL,
    MISSING_ACCESS,
    PRIVATE_CHANNEL,
    UNKNOWN_CHANNEL,
    USER_INSTALL,
    Refused,
)
from emulator.models import EmuUser
from emulator.permissions import (
    ATTACH_FILES,
    EMBED_LINKS,
    MENTION_EVERYONE,
    USE_EXTERNAL_APPS,
    USE_EXTERNAL_EMOJIS,
    VIEW_CHANNEL,
)

#: Discord's epoch (2015-01-01), in milliseconds: snowflakes count from it.
DISCORD_EPOCH_MS = 1420070400000
#: A group DM holds at most this many users (Discord's limit, the owner included).
GROUP_DM_MAX = 10
#: ``app_permissions`` in a DM or group DM between users, and in the bot's own DM.
PRIVATE_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
BOT_DM_APP_PERMISSIONS = PRIVATE_APP_PERMISSIONS | USE_EXTERNAL_EMOJIS


class Installs:
    """Installs, private conversations, reach and the clock; part of ``Emulator``."""

    def _setup_installs(self) -> None:
        #: Servers the bot is a member of (a guild install); ``add_guild(..., bot=False)``
        #: makes a server without it.
        self.bot_guild_ids: set[int] = set()
        #: Users who installed the app on their account (a user install).
        self.user_installs: set[int] = set()
        #: The installation contexts the application supports (its settings page).
        self.install_types: set[int] = {GUILD_INSTALL, USER_INSTALL}
        #: DM and group-DM channels between users -> their members' ids (the bot is not one).
        self.private_members: dict[int, frozenset[int]] = {}
        #: Seconds added to the clock that ages interaction tokens (``advance``).
        self._clock_offset = 0.0
        self._increment = 0

    # ----- the clock -----------------------------------------------------------------------------

    def now(self) -> float:
        """The emulator's clock (seconds): ``time.perf_counter()`` plus what ``advance`` added."""
        return time.perf_counter() + self._clock_offset

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass for interaction tokens (a test's 15 minutes, at once); the
        interactions sent from now on are that much younger in their ids' timestamps."""
        self._clock_offset += seconds

    def snowflake_now(self) -> int:
        """A new id that says when it was made, as Discord's snowflakes do (milliseconds since
        2015 above bit 22): clients read an interaction's age from its id."""
        ms = int((time.time() + self._clock_offset) * 1000) - DISCORD_EPOCH_MS
        self._increment = (self._increment + 1) % (1 << 22)
        return (ms << 22) | self._increment

    # ----- installs ------------------------------------------------------------------------------

    def install_app(self, user: str | EmuUser) -> None:
        """``user`` adds the app to their account (the "Try it" / user-install link)."""
        self.user_installs.add(self.user(user).id)

    def uninstall_app(self, user: str | EmuUser) -> None:
        self.user_installs.discard(self.user(user).id)


    # ----- conversations between users -----------------------------------------------------------

    def open_dm(self, first: str | EmuUser, second: str | EmuUser) -> int:
        """The DM channel between two users (the same one each time); the bot is not in it."""
        a, b = self.user(first), self.user(second)
        if a.id == b.id:
            raise ValueError("a DM is between two different users")
        members = frozenset((a.id, b.id))
        for channel_id, known in self.private_members.items():
            if known == members and self.channels[channel_id]["type"] == DM_CHANNEL:
                return channel_id
        channel_id = self._next_id()
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": DM_CHANNEL,
            "recipients": [a.payload(), b.payload()],
            "last_message_id": None,
            "flags": 0,
        }
        self.private_members[channel_id] = members
        return channel_id

    def open_group_dm(self, *users: str | EmuUser, name: str | None = None) -> int:
        """A new group DM of ``users`` (the first owns it): 2 to 10 people, the bot not among
        them."""
        members = [self.user(u) for u in users]
        if len({m.id for m in members}) != len(members):
            raise ValueError("a user appears twice in the group DM")
        if not 2 <= len(members) <= GROUP_DM_MAX:
            raise ValueError(f"a group DM has 2 to {GROUP_DM_MAX} members, not {len(members)}")
        channel_id = self._next_id()
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": GROUP_DM,
            "name": name,
            "icon": None,
            "owner_id": str(members[0].id),
            "recipients": [m.payload() for m in members],
            "last_message_id": None,
            "flags": 0,
        }
        self.private_members[channel_id] = frozenset(m.id for m in members)
        return channel_id

    def members_of(self, channel_id: int) -> frozenset[int] | None:
        """The users who see a DM or group DM (the bot's DM: its recipient); None for a
        server's channel, which every local user sees."""
        if channel_id in self.private_members:
            return self.private_members[channel_id]
        channel = self.channels.get(channel_id, {})
        if channel.get("type") == DM_CHANNEL:
            return frozenset(int(r["id"]) for r in channel["recipients"])
        return None

    # ----- where the app is ----------------------------------------------------------------------

    def context_of(self, channel_id: int) -> int:
        """The interaction context of a channel: 0 a server's, 1 the bot's DM, 2 a DM or group
        DM between users."""
        if self.guild_of(channel_id) is not None:
            return GUILD_CONTEXT
        return PRIVATE_CHANNEL if channel_id in self.private_members else BOT_DM

    def bot_sees(self, channel_id: int) -> bool:
        """Whether the bot is in the channel: a channel of a server it joined, or its own DM."""
        guild = self.guild_of(channel_id)
        if guild is not None:
            return guild in self.bot_guild_ids
        return channel_id not in self.private_members

    def require_access(self, channel_id: int) -> None:
        """What every channel route answers first: 404 / 10003 for a channel that does not
        exist; 403 / 50001 for one the bot cannot see (a DM or group DM between users, a server
        without the bot, a channel that denies it View Channel)."""
        if channel_id not in self.channels:
            raise Refused(404, UNKNOWN_CHANNEL, "Unknown Channel")
        hidden = (self.guild_of(channel_id) is not None
                  and not self.bot_permissions_in(channel_id) & VIEW_CHANNEL)
        if hidden or not self.bot_sees(channel_id):
            raise Refused(403, MISSING_ACCESS, "Missing Access")

    def authorizing_owners(
        self, user: EmuUser, channel_id: int, integration_types: Iterable[int] | None,
        contexts: Iterable[int] | None,
    ) -> dict[str, str]:
        """``authorizing_integration_owners`` of a command run by ``user`` in ``channel_id``:
        a key per install that authorizes it there (empty: the command is not offered)."""
        types = set(integration_types if integration_types is not None else (GUILD_INSTALL,))
        context = self.context_of(channel_id)
        if contexts is not None and context not in set(contexts):
            return {}
        owners: dict[str, str] = {}
        guild = self.guild_of(channel_id)
        if GUILD_INSTALL in types:
            if context == GUILD_CONTEXT and guild in self.bot_guild_ids:
                owners[str(GUILD_INSTALL)] = str(guild)
            elif context == BOT_DM:
                owners[str(GUILD_INSTALL)] = "0"
        if USER_INSTALL in types and user.id in self.user_installs:
            owners[str(USER_INSTALL)] = str(user.id)
        return owners

    def app_permissions_for(self, user: EmuUser, channel_id: int) -> int:
        """``app_permissions`` of an interaction: the bot's own where it is a member; in a DM
        or group DM what the docs list; in a server without the bot, the invoking member's (a
        user-installed app "is forced to respect the user's permissions")."""
        context = self.context_of(channel_id)
        if context == BOT_DM:
            return BOT_DM_APP_PERMISSIONS
        if context == PRIVATE_CHANNEL:
            return PRIVATE_APP_PERMISSIONS
        if self.bot_sees(channel_id):
            return self.bot_permissions_in(channel_id)
        return self.permissions_of(user)

    def forced_ephemeral(self, user: EmuUser, channel_id: int) -> bool:
        """Whether Discord makes every answer to ``user`` here ephemeral: a server without the
        bot, where the member lacks Use External Apps."""
        guild = self.guild_of(channel_id)
        return (guild is not None and guild not in self.bot_guild_ids
                and not self.permissions_of(user) & USE_EXTERNAL_APPS)

    def interaction_channel(self, user: EmuUser, channel_id: int) -> dict[str, Any]:
        """The ``channel`` of an interaction as ``user`` sees it: in a DM or group DM, the
        recipients are the others."""
        channel = dict(self._channel_payload(channel_id))
        if channel_id in self.private_members:
            channel["recipients"] = [r for r in channel["recipients"] if r["id"] != str(user.id)]
        return channel
