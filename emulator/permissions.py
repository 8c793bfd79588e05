"""Permission bits (discord-api-docs, topics/permissions) and what each REST action needs.

The bot is given exactly what the README's invite link grants (``BOT_PERMISSIONS``, the
integer 309237681152): the worst case of a server whose @everyone role grants nothing, so that
whatever the bot needs beyond it shows up as a refusal (403, code 50013) in the tests rather
than on a real server. Members are plain members (``MEMBER_PERMISSIONS``) unless a test grants
more.
"""

from __future__ import annotations

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

#: Every permission bit Discord defined when this was written.
ALL_PERMISSIONS = (1 << 51) - 1

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
