"""What each channel route answers when it cannot act, as Discord's reference gives it: a channel
that does not exist is 404 / 10003 (Unknown Channel); a channel the bot cannot see, because it
is not in the conversation or server or because the channel denies it View Channel, is 403 /
50001 (Missing Access); a bot that sees the channel but lacks the route's own permission gets
403 / 50013 (Missing Permissions); a route that does not apply to the channel's type is 400 /
50024."""

from __future__ import annotations

import pytest

from emulator import Emulator
from emulator.permissions import (
    CREATE_PUBLIC_THREADS,
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    PIN_MESSAGES,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)

#: Every channel route: (method, path, body, in a thread, the permission it needs beyond View
#: Channel; None: none the invite link lacks a way to deny).
ROUTES = [
    ("GET", "/channels/{c}", None, False, None),
    ("PATCH", "/channels/{c}", {"topic": "games"}, False, MANAGE_CHANNELS),
    ("PATCH", "/channels/{c}", {"locked": True}, True, MANAGE_THREADS),
    ("POST", "/channels/{c}/messages/{m}/threads", {"name": "game"}, False,
     CREATE_PUBLIC_THREADS),
    ("POST", "/channels/{c}/threads", {"name": "game", "type": 11}, False,
     CREATE_PUBLIC_THREADS),
    ("PUT", "/channels/{c}/thread-members/{u}", None, True, SEND_MESSAGES_IN_THREADS),
    ("POST", "/channels/{c}/messages", {"content": "hi"}, False, SEND_MESSAGES),
    ("GET", "/channels/{c}/messages/{m}", None, False, READ_MESSAGE_HISTORY),
    ("PATCH", "/channels/{c}/messages/{m}", {"content": "edited"}, False, None),
    ("DELETE", "/channels/{c}/messages/{m}", None, False, None),
    ("PUT", "/channels/{c}/messages/pins/{m}", None, False, PIN_MESSAGES),
    ("DELETE", "/channels/{c}/messages/pins/{m}", None, False, PIN_MESSAGES),
]
IDS = [f"{method} {path}{' (thread)' if thread else ''}"
       for method, path, _, thread, _ in ROUTES]


async def place(emu: Emulator, rest, in_thread: bool) -> tuple[int, int]:
    """A channel (or a thread of it) with a message of the bot's in it: (channel, message)."""
    channel = emu.channel_id
    if in_thread:
        status, thread = await rest(emu, "POST", f"/channels/{channel}/threads",
                                    body={"name": "t", "type": 11})
        assert status == 200, thread
        channel = int(thread["id"])
    status, message = await rest(emu, "POST", f"/channels/{channel}/messages",
                                 body={"content": "mine"})
    assert status == 200, message
    return channel, int(message["id"])


def path_of(template: str, emu: Emulator, channel: int, message: int) -> str:
    return template.format(c=channel, m=message, u=emu.user("alice").id)


@pytest.mark.parametrize("method, template, body, in_thread, needed", ROUTES, ids=IDS)
async def test_a_missing_channel_is_unknown(emu_and_bot, rest, method, template, body,
                                            in_thread, needed):
    emu, _ = emu_and_bot
    _, message = await place(emu, rest, in_thread)
    missing = emu._next_id()
    status, answer = await rest(emu, method, path_of(template, emu, missing, message), body=body)
    assert (status, answer.get("code")) == (404, 10003)


@pytest.mark.parametrize("method, template, body, in_thread, needed", ROUTES, ids=IDS)
async def test_a_channel_the_bot_cannot_see_is_missing_access(emu_and_bot, rest, method,
                                                              template, body, in_thread, needed):
    emu, _ = emu_and_bot
    channel, message = await place(emu, rest, in_thread)
    emu.deny_bot(emu.channel_id, VIEW_CHANNEL)  # the thread's parent hides it too
    status, answer = await rest(emu, method, path_of(template, emu, channel, message), body=body)
    assert (status, answer.get("code")) == (403, 50001)


@pytest.mark.parametrize("method, template, body, in_thread, needed",
                         [r for r in ROUTES if r[4] is not None],
                         ids=[i for i, r in zip(IDS, ROUTES, strict=True) if r[4] is not None])
async def test_a_bot_lacking_the_routes_permission_is_refused(emu_and_bot, rest, method,
                                                              template, body, in_thread, needed):
    emu, _ = emu_and_bot
    channel, message = await place(emu, rest, in_thread)
    emu.bot_permissions &= ~needed
    status, answer = await rest(emu, method, path_of(template, emu, channel, message), body=body)
    assert (status, answer.get("code")) == (403, 50013)
    emu.bot_permissions |= needed
    status, answer = await rest(emu, method, path_of(template, emu, channel, message), body=body)
    assert status in (200, 204), answer


async def test_threads_start_only_in_a_servers_channel(emu_and_bot, rest):
    emu, _ = emu_and_bot
    alice = emu.user("alice")
    _, dm = await rest(emu, "POST", "/users/@me/channels", body={"recipient_id": str(alice.id)})
    status, message = await rest(emu, "POST", f"/channels/{dm['id']}/messages",
                                 body={"content": "hi"})
    assert status == 200
    for path, body in ((f"/channels/{dm['id']}/threads", {"name": "t", "type": 11}),
                       (f"/channels/{dm['id']}/messages/{message['id']}/threads", {"name": "t"})):
        status, answer = await rest(emu, "POST", path, body=body)
        assert (status, answer.get("code")) == (400, 50024), path


async def test_an_unknown_user_is_unknown(emu_and_bot, rest):
    emu, _ = emu_and_bot
    status, answer = await rest(emu, "GET", f"/users/{emu._next_id()}")
    assert (status, answer.get("code")) == (404, 10013)
    status, answer = await rest(emu, "POST", "/users/@me/channels",
                                body={"recipient_id": str(emu._next_id())})
    assert (status, answer.get("code")) == (404, 10013)
