"""The emulator is as strict as Discord where players would notice: who a message notifies, the
documented limits (400 / 50035), the 3 s acknowledgment and the second acknowledgment, the bot's
permissions (403 / 50013), message nonces, threads started from a message, the REST delay and
heartbeat acknowledgments."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from emulator import BOT_PERMISSIONS, EPHEMERAL, Emulator, running_emulator
from emulator import limits as lim
from emulator.gateway import HEARTBEAT_ACK_DELAY
from emulator.permissions import ATTACH_FILES, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS
from tests.emulator.tinybot import started


def post(emu: Emulator, channel: int | None = None) -> str:
    return f"/channels/{channel or emu.channel_id}/messages"


# ----- notifications ---------------------------------------------------------------------------


async def test_a_created_channel_message_notifies_whom_it_mentions(emu_and_bot, rest):
    emu, _ = emu_and_bot
    alice, bob, carol = emu.user("alice"), emu.user("bob"), emu.user("carol")
    mark = emu.mark()
    status, body = await rest(emu, "POST", post(emu),
                              body={"content": f"{alice.mention} and <@!{bob.id}>"})
    assert status == 200
    assert emu.messages[int(body["id"])].notified == {alice.id, bob.id}
    assert {u["id"] for u in body["mentions"]} == {str(alice.id), str(bob.id)}
    # allowed_mentions: nobody, then only the users listed (and mentioned).
    await rest(emu, "POST", post(emu), body={"content": alice.mention,
                                             "allowed_mentions": {"parse": []}})
    await rest(emu, "POST", post(emu), body={
        "content": f"{alice.mention} {carol.mention}",
        "allowed_mentions": {"users": [str(carol.id), str(bob.id)]}})
    assert [m.content for m in emu.pings(alice, since=mark)] == [
        f"{alice.mention} and <@!{bob.id}>"]
    assert [m.content for m in emu.pings(carol, since=mark)] == [
        f"{alice.mention} {carol.mention}"]
    assert len(emu.pings(bob, since=mark)) == 1, "listed but not mentioned: no ping"


async def test_an_edit_notifies_nobody(emu_and_bot, rest):
    emu, _ = emu_and_bot
    bob = emu.user("bob")
    _, body = await rest(emu, "POST", post(emu), body={"content": "no one yet"})
    mark = emu.mark()
    status, _ = await rest(emu, "PATCH", f"{post(emu)}/{body['id']}",
                           body={"content": f"now {bob.mention}"})
    assert status == 200
    edit = next(e for e in emu.events[mark:] if e.kind == "edit")
    assert edit.notified == frozenset() and emu.pings(bob, since=mark) == []
    assert [u["id"] for u in edit.data.data["mentions"]] == [str(bob.id)]


async def test_interaction_answers_ping_users_by_default_but_a_deferred_first_follow_up_is_an_edit(
    emu_and_bot,
):
    emu, _ = emu_and_bot
    bob = emu.user("bob")

    async def say(way: str) -> list[int]:
        mark = emu.mark()
        interaction = await emu.slash("alice", "say", {"text": f"hi {bob.mention}", "way": way})
        await interaction.reply()
        await emu.wait_for(lambda e: e.kind in ("message", "edit")
                           and f"hi {bob.mention}" in e.data.content, since=mark)
        if way == "defer_twice":
            await emu.wait_for(lambda e: e.kind == "message"
                               and e.data.content.startswith("again"), since=mark)
        return [m.id for m in emu.pings(bob, since=mark)]

    assert len(await say("reply")) == 1
    assert await say("quiet") == []
    assert await say("defer") == [], "the first follow-up after a defer edits the placeholder"
    assert len(await say("defer_twice")) == 1, "the second follow-up is a new message"
    assert len(await say("channel")) == 1
    assert await say("edit") == []


async def test_ephemeral_messages_notify_nobody(emu_and_bot, rest):
    emu, _ = emu_and_bot
    bob = emu.user("bob")
    mark = emu.mark()
    await rest(emu, "POST", post(emu), body={"content": bob.mention, "flags": EPHEMERAL})
    assert emu.pings(bob, since=mark) == []


# ----- limits ----------------------------------------------------------------------------------


async def test_content_over_2000_characters_is_refused_and_the_interaction_stays_unanswered(
    emu_and_bot, rest,
):
    emu, _ = emu_and_bot
    status, body = await rest(emu, "POST", post(emu), body={"content": "x" * 2001})
    assert (status, body["code"]) == (400, 50035)
    assert body["errors"]["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert (await rest(emu, "POST", post(emu), body={"content": "x" * 2000}))[0] == 200
    # Through discord.py: the response is refused, so the user sees no answer at all.
    interaction = await emu.slash("alice", "say", {"text": "y" * 2001})
    refusal = await emu.wait_for(lambda e: e.kind == "refused"
                                 and e.interaction_id == interaction.id)
    assert refusal.data.status == 400 and refusal.data.code == 50035
    assert interaction.callback_type is None
    assert len(emu.refusals) == 2


async def test_an_empty_message_is_refused(emu_and_bot, rest):
    emu, _ = emu_and_bot
    status, body = await rest(emu, "POST", post(emu), body={"content": ""})
    assert (status, body["code"]) == (400, 50006)


EMBED_BREAKS = {
    "title": [{"title": "t" * 257}],
    "description": [{"description": "d" * 4097}],
    "fields": [{"fields": [{"name": "n", "value": "v"}] * 26}],
    "field name": [{"fields": [{"name": "n" * 257, "value": "v"}]}],
    "field value": [{"fields": [{"name": "n", "value": "v" * 1025}]}],
    "footer": [{"footer": {"text": "f" * 2049}}],
    "eleven embeds": [{"title": "t"}] * 11,
    "6000 in all": [{"description": "d" * 4000}, {"description": "d" * 2001}],
}


@pytest.mark.parametrize("what", EMBED_BREAKS)
async def test_embed_limits(emu_and_bot, rest, what):
    emu, _ = emu_and_bot
    status, body = await rest(emu, "POST", post(emu), body={"embeds": EMBED_BREAKS[what]})
    assert (status, body["code"]) == (400, 50035), what
    assert "embeds" in body["errors"]


def buttons(*custom_ids: str, label: str = "b") -> dict:
    return {"type": 1, "components": [
        {"type": 2, "style": 2, "label": label, "custom_id": c} for c in custom_ids]}


COMPONENT_BREAKS = {
    "six rows": [buttons(f"r{i}") for i in range(6)],
    "six buttons": [buttons(*(f"b{i}" for i in range(6)))],
    "custom_id of 101": [buttons("c" * 101)],
    "empty custom_id": [buttons("")],
    "duplicate custom_id": [buttons("same"), buttons("same")],
    "label of 81": [buttons("ok", label="l" * 81)],
}


@pytest.mark.parametrize("what", COMPONENT_BREAKS)
async def test_component_limits(emu_and_bot, rest, what):
    emu, _ = emu_and_bot
    status, body = await rest(emu, "POST", post(emu),
                              body={"content": "x", "components": COMPONENT_BREAKS[what]})
    assert (status, body["code"]) == (400, 50035), what
    full = [buttons(*(f"{r}-{b}" for b in range(5)), label="l" * 80) for r in range(5)]
    assert (await rest(emu, "POST", post(emu), body={"content": "x", "components": full}))[0] == 200


@pytest.mark.parametrize("choices", [
    [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)],
    [{"name": "n" * 101, "value": "v"}],
    [{"name": "", "value": "v"}],
    [{"name": "n", "value": "v" * 101}],
])
async def test_autocomplete_limits(emu_and_bot, rest, choices):
    emu, _ = emu_and_bot
    interaction = await emu.slash("alice", "silent")
    path = f"/interactions/{interaction.id}/{interaction.token}/callback"
    status, body = await rest(emu, "POST", path, body={"type": 8, "data": {"choices": choices}},
                              token=False)
    assert (status, body["code"]) == (400, 50035)
    ok = [{"name": "n" * 100, "value": "v" * 100}] * 25
    status, _ = await rest(emu, "POST", path, body={"type": 8, "data": {"choices": ok}},
                           token=False)
    assert status == 200


@pytest.mark.parametrize("name", ["", "n" * 101])
async def test_thread_names_are_1_to_100_characters(emu_and_bot, rest, name):
    emu, _ = emu_and_bot
    path = f"/channels/{emu.channel_id}/threads"
    status, body = await rest(emu, "POST", path, body={"name": name, "type": 11})
    assert (status, body["code"]) == (400, 50035)
    assert (await rest(emu, "POST", path, body={"name": "n" * 100, "type": 11}))[0] == 200


async def test_attachments_at_most_ten_of_at_most_ten_mebibytes(emu_and_bot, rest):
    emu, _ = emu_and_bot
    eleven = [(f"f{i}.txt", b"x") for i in range(11)]
    status, body = await rest(emu, "POST", post(emu), body={"content": "x"}, files=eleven)
    assert (status, body["code"]) == (400, 50035)
    big = [("big.bin", b"x" * (lim.ATTACHMENT_BYTES_MAX + 1))]
    status, body = await rest(emu, "POST", post(emu), body={"content": "x"}, files=big)
    assert (status, body["code"]) == (413, 40005)
    status, _ = await rest(emu, "POST", post(emu), body={"content": "x"},
                           files=[(f"f{i}.txt", b"x") for i in range(10)])
    assert status == 200


# ----- timing ----------------------------------------------------------------------------------


async def test_a_second_acknowledgment_is_refused(emu_and_bot, rest):
    emu, _ = emu_and_bot
    interaction = await emu.slash("alice", "silent")
    path = f"/interactions/{interaction.id}/{interaction.token}/callback"
    first = {"type": 4, "data": {"content": "one"}}
    assert (await rest(emu, "POST", path, body=first, token=False))[0] == 200
    status, body = await rest(emu, "POST", path, body=first, token=False)
    assert (status, body["code"]) == (400, 40060)


async def test_an_acknowledgment_after_the_deadline_is_refused_and_the_token_dies(rest):
    async for emu, _ in started(ack_deadline=0.05):
        interaction = await emu.slash("alice", "silent")
        await asyncio.sleep(0.1)  # the user waits past the deadline
        path = f"/interactions/{interaction.id}/{interaction.token}/callback"
        status, body = await rest(emu, "POST", path, body={"type": 4, "data": {"content": "x"}},
                                  token=False)
        assert (status, body["code"]) == (404, 10062)
        follow_up = f"/webhooks/{emu.application_id}/{interaction.token}"
        status, body = await rest(emu, "POST", follow_up, body={"content": "x"}, token=False)
        assert (status, body["code"]) == (404, 10015)
        assert [r.code for r in emu.refusals] == [10062, 10015]


async def test_original_response_lookup(emu_and_bot, rest):
    """GET …/messages/@original: Unknown Message before the answer, the answer after."""
    emu, _ = emu_and_bot
    interaction = await emu.slash("alice", "silent")
    original = f"/webhooks/{emu.application_id}/{interaction.token}/messages/@original"
    status, body = await rest(emu, "GET", original, token=False)
    assert (status, body["code"]) == (404, 10008)
    path = f"/interactions/{interaction.id}/{interaction.token}/callback"
    await rest(emu, "POST", path, body={"type": 4, "data": {"content": "here"}}, token=False)
    status, body = await rest(emu, "GET", original, token=False)
    assert status == 200 and body["content"] == "here"
    assert emu.refusals == [], "a lookup is not a refusal"


async def test_rest_delay_holds_every_answer(rest):
    async for emu, _ in started(rest_delay=0.2):
        mark = emu.mark()
        request = asyncio.create_task(rest(emu, "POST", post(emu), body={"content": "late"}))
        sent = await emu.wait_for(lambda e: e.kind == "request", since=mark)
        assert sent.data.path == post(emu)
        assert not [e for e in emu.events[mark:] if e.kind == "message"], (
            "half the delay passes before the request takes effect")
        assert (await request)[0] == 200
        assert [e.data.content for e in emu.events[mark:] if e.kind == "message"] == ["late"]


async def test_heartbeats_are_acknowledged_after_a_network_delay():
    """discord.py measures a heartbeat's latency from when its keep-alive thread saw the send
    complete; an acknowledgment handled before that is measured from the previous heartbeat
    (41 s later on Discord's interval: "Can't keep up, websocket is 41 s behind", which the
    console printed while idle). Like any real network, the emulator answers after a delay."""
    async with running_emulator() as emu, aiohttp.ClientSession() as session, \
            session.ws_connect(emu.gateway_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        await ws.send_json({"op": 1, "d": None})
        assert HEARTBEAT_ACK_DELAY >= 0.02
        with pytest.raises(TimeoutError):  # not at once
            await asyncio.wait_for(ws.receive_json(), 0.01)
        assert (await asyncio.wait_for(ws.receive_json(), 5))["op"] == 11


# ----- permissions -----------------------------------------------------------------------------


async def test_the_bot_has_exactly_the_invite_links_permissions(emu_and_bot, rest):
    emu, bot = emu_and_bot
    assert BOT_PERMISSIONS == 309237681152
    interaction = await emu.slash("bob", "rights")
    assert f"app={BOT_PERMISSIONS}" in (await interaction.reply()).content
    # Reading a message needs Read Message History, which the invite does not grant.
    _, message = await rest(emu, "POST", post(emu), body={"content": "x"})
    status, body = await rest(emu, "GET", f"{post(emu)}/{message['id']}")
    assert (status, body["code"]) == (403, 50013)
    channel = bot.get_channel(emu.channel_id)
    with pytest.raises(discord.Forbidden):
        await channel.fetch_message(int(message["id"]))
    # Locking a thread needs Manage Threads; its creator may rename it, archive it and set
    # its auto-archive delay without (discord-api-docs, topics/threads).
    _, thread = await rest(emu, "POST", f"/channels/{emu.channel_id}/threads",
                           body={"name": "t", "type": 11})
    status, body = await rest(emu, "PATCH", f"/channels/{thread['id']}",
                              body={"locked": True})
    assert (status, body["code"]) == (403, 50013)
    for change in ({"name": "renamed"}, {"auto_archive_duration": 1440}, {"archived": True}):
        status, body = await rest(emu, "PATCH", f"/channels/{thread['id']}", body=change)
        assert status == 200 and all(
            body.get(k, body["thread_metadata"].get(k)) == v for k, v in change.items())
    status, body = await rest(emu, "PATCH", f"/channels/{thread['id']}",
                              body={"auto_archive_duration": 90})
    assert (status, body["code"]) == (400, 50035)
    await rest(emu, "PATCH", f"/channels/{thread['id']}", body={"archived": False})
    # What the invite grants works: messages, files, threads, messages in threads.
    assert (await rest(emu, "POST", post(emu, int(thread["id"])), body={"content": "x"},
                       files=[("a.png", b"x")]))[0] == 200


@pytest.mark.parametrize("denied, in_thread", [
    (SEND_MESSAGES, False), (ATTACH_FILES, False), (SEND_MESSAGES_IN_THREADS, True),
])
async def test_a_missing_permission_is_refused(emu_and_bot, rest, denied, in_thread):
    emu, _ = emu_and_bot
    channel = emu.channel_id
    if in_thread:
        _, thread = await rest(emu, "POST", f"/channels/{emu.channel_id}/threads",
                               body={"name": "t", "type": 11})
        channel = int(thread["id"])
    emu.deny_bot(emu.channel_id, denied)
    status, body = await rest(emu, "POST", post(emu, channel), body={"content": "x"},
                              files=[("a.png", b"x")])
    assert (status, body["code"]) == (403, 50013)


# ----- nonces and threads ----------------------------------------------------------------------


async def test_a_nonce_with_enforce_nonce_creates_one_message(emu_and_bot, rest):
    emu, _ = emu_and_bot
    bob = emu.user("bob")
    mark = emu.mark()
    once = {"content": bob.mention, "nonce": "row-17", "enforce_nonce": True}
    _, first = await rest(emu, "POST", post(emu), body=once)
    _, second = await rest(emu, "POST", post(emu), body=once)
    assert first["id"] == second["id"] and first["nonce"] == "row-17"
    assert len(emu.pings(bob, since=mark)) == 1
    # Without enforce_nonce, or once the nonce's few minutes are over, it is a new message.
    _, loose = await rest(emu, "POST", post(emu), body={**once, "enforce_nonce": False})
    assert loose["id"] != first["id"]
    emu.nonce_seconds = 0
    _, later = await rest(emu, "POST", post(emu), body=once)
    assert later["id"] != first["id"]
    status, body = await rest(emu, "POST", post(emu), body={**once, "nonce": "n" * 26})
    assert (status, body["code"]) == (400, 50035)


async def test_discord_py_sends_a_nonce_and_gets_the_first_message_back(emu_and_bot):
    emu, bot = emu_and_bot
    channel = bot.get_partial_messageable(emu.channel_id)
    first = await channel.send("board", nonce=42)
    again = await channel.send("board", nonce=42)
    assert first.id == again.id
    assert len([m for m in emu.channel_messages(emu.channel_id) if m.content == "board"]) == 1


async def test_a_message_starts_one_thread_with_its_own_id(emu_and_bot, rest):
    emu, _ = emu_and_bot
    _, message = await rest(emu, "POST", post(emu), body={"content": "challenge"})
    path = f"{post(emu)}/{message['id']}/threads"
    status, thread = await rest(emu, "POST", path, body={"name": "game"})
    assert status == 200 and thread["id"] == message["id"]
    status, body = await rest(emu, "POST", path, body={"name": "game"})
    assert (status, body["code"]) == (400, 160004)
    assert len(emu.threads()) == 1
