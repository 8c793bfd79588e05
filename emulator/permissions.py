"""Permission bits (discord-api-docs, topics/permissions) and what each REST action needs.

The bot is given exactly what the README's invite link grants (``BOT_PERMISSIONS``, the
integer 309237681152): the worst case of a server whose @everyone role grants nothing, so that
whatever the bot needs beyond it shows up as a refusal (403, code 50013) in the tests rather
than on a real server. Members are plain members (``MEMBER_PERMISSIONS``) unless a test grants
more. ``Permissions`` (part of ``Emulator``) resolves them: a member's in a server, the bot's
in a channel, and refuses what the bot may not do.
"""

from __future__ import annotations

from emulator.api import Refused
from emulator.models import EmuUser

CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5  # "Manage Server"
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
#: Lets a member's user-installed apps answer publicly where the app is not installed.
USE_EXTERNAL_APPS = 1 << 50
PIN_MESSAGES = 1 << 51

#: Every permission bit Discord defined when this was written.
ALL_PERMISSIONS = (1 << 52) - 1

#: The invite link of the README: View Channels, Send Messages, Attach Files, Create Public
#: Threads, Send Messages in Threads.
BOT_PERMISSIONS = (
    VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
)
assert BOT_PERMISSIONS == 309237681152

#: What @everyone may do on a new server: see, talk, use threads and the bots' commands; no
#: moderation or management bit.
MEMBER_PERMISSIONS = (
    CREATE_INSTANT_INVITE | ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS
    | ATTACH_FILES | READ_MESSAGE_HISTORY | USE_EXTERNAL_EMOJIS | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
    | USE_EXTERNAL_APPS
)

MISSING_PERMISSIONS = 50013
CANNOT_EDIT_OTHERS = 50005


def missing(granted: int, needed: int) -> int:
    """The bits of ``needed`` that ``granted`` lacks (none for an administrator)."""
    if granted & ADMINISTRATOR:
        return 0
    return needed & ~granted


def to_send(in_thread: bool, with_files: bool) -> int:
    """What posting a message in a channel needs (Send Messages is not inherited by threads:
    a thread needs Send Messages in Threads)."""
    needed = VIEW_CHANNEL | (SEND_MESSAGES_IN_THREADS if in_thread else SEND_MESSAGES)
    return needed | (ATTACH_FILES if with_files else 0)


class Permissions:
    """Who may do what; part of ``Emulator``."""

    def _setup_permissions(self) -> None:
        #: What the bot may do (the invite link's permissions), and per-channel denials.
        self.bot_permissions = BOT_PERMISSIONS
        self.bot_denied: dict[int, int] = {}
        #: Permission bits granted to members beyond @everyone's (``grant``), by user id.
        self.granted: dict[int, int] = {}
        #: Permission bits taken from members (``revoke``), by user id.
        self.revoked: dict[int, int] = {}

    def grant(self, user: str | EmuUser, permissions: int) -> None:
        """Give a member permission bits beyond a plain member's, e.g. ``MANAGE_GUILD`` or
        ``ADMINISTRATOR``; interactions from them carry the new bits from now on."""
        member = self.user(user)
        self.granted[member.id] = self.granted.get(member.id, 0) | permissions

    def revoke(self, user: str | EmuUser, permissions: int) -> None:
        """Take permission bits from a member (a role overwrite would), e.g.
        ``USE_EXTERNAL_APPS``; an owner or administrator keeps every permission."""
        member = self.user(user)
        self.revoked[member.id] = self.revoked.get(member.id, 0) | permissions

    def permissions_of(self, user: str | EmuUser) -> int:
        """A member's permissions in the server, as Discord resolves them: a plain member has
        @everyone's (``MEMBER_PERMISSIONS``) plus what ``grant`` gave; the server's owner and
        administrators have every permission. The bot has ``bot_permissions`` (what the invite
        link grants)."""
        member = self.user(user)
        if member.id == self.bot_user.id:
            return self.bot_permissions
        if member.id == self.owner.id:
            return ALL_PERMISSIONS
        bits = MEMBER_PERMISSIONS | self.granted.get(member.id, 0)
        if bits & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return bits & ~self.revoked.get(member.id, 0)

    def deny_bot(self, channel_id: int, permissions: int) -> None:
        """Take permission bits from the bot in one channel (and its threads), as a channel
        overwrite would."""
        self.bot_denied[channel_id] = self.bot_denied.get(channel_id, 0) | permissions

    def bot_permissions_in(self, channel_id: int) -> int:
        """The bot's permissions in a channel: its own, less what the channel (or a thread's
        parent) denies it."""
        channel = self.channels.get(channel_id, {})
        denied = self.bot_denied.get(channel_id, 0)
        parent = channel.get("parent_id")
        if parent is not None:
            denied |= self.bot_denied.get(int(parent), 0)
        return self.bot_permissions & ~denied

    def _require(self, channel_id: int, needed: int) -> None:
        """403 / 50013 when the bot lacks ``needed`` in a server's channel. (A channel it
        cannot see at all was refused before, with 50001; a DM has no permissions.)"""
        if self.guild_of(channel_id) is None:
            return
        lacking = missing(self.bot_permissions_in(channel_id), needed)
        if lacking:
            raise Refused(403, MISSING_PERMISSIONS, "Missing Permissions")
