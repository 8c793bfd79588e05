"""The emulated Discord client of an Activity: its answers to the Embedded App SDK's messages
(``emulator.activity_client``) and the page and proxy that carry them (``activity_web``)."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from aiohttp import web

from emulator import Emulator
from emulator.activity_client import (
    CLOSE,
    FRAME,
    HANDSHAKE,
    ActivityClient,
)
from emulator.oauth2 import ACCESS_DENIED

READY_CONFIG_KEYS = {"cdn_host", "api_endpoint", "environment"}


@pytest.fixture
def emu():
    return Emulator(activities=True)


def handshake(client: ActivityClient, **changes) -> list:
    payload = {"v": 1, "encoding": "json", "client_id": str(client.emulator.application_id),
               "frame_id": client.frame_id, "sdk_version": "2.0.0", **changes}
    return client.receive([HANDSHAKE, payload]).send


def command(client: ActivityClient, cmd: str, args=None, nonce: str = "n-1", **beside):
    return client.receive([FRAME, {"cmd": cmd, "args": args or {}, "nonce": nonce, **beside}])


def reply(answer) -> dict:
    [[opcode, payload]] = answer.send
    assert opcode == FRAME
    assert set(payload) == {"cmd", "evt", "nonce", "data"}  # the SDK's IncomingPayload
    return payload


def test_the_handshake_is_answered_with_ready(emu):
    client = emu.open_activity("alice")
    [[opcode, ready]] = handshake(client)
    assert opcode == FRAME
    assert (ready["cmd"], ready["evt"], ready["nonce"]) == ("DISPATCH", "READY", None)
    assert ready["data"]["v"] == 1 and set(ready["data"]["config"]) == READY_CONFIG_KEYS
    user = ready["data"]["user"]
    assert user == {"id": str(emu.user("alice").id), "username": "alice", "discriminator": "0"}
    assert client.instance.users == [emu.user("alice").id]


def test_the_frame_query_is_what_the_sdk_reads(emu):
    client = emu.open_activity("alice")
    query = client.frame_query()
    assert query["frame_id"] == client.frame_id and query["platform"] == "desktop"
    assert query["instance_id"] == client.instance.instance_id
    assert (query["guild_id"], query["channel_id"]) == (str(emu.guild_id), str(emu.channel_id))
    assert query["location_id"] == f"gc-{emu.guild_id}-{emu.channel_id}"


@pytest.mark.parametrize(("change", "code"), [
    ({"client_id": "123"}, 4000), ({"v": 2}, 4004), ({"encoding": "etf"}, 4005),
    ({"frame_id": "another"}, 1003),
])
def test_a_bad_handshake_closes(emu, change, code):
    client = emu.open_activity("alice")
    [[opcode, payload]] = handshake(client, **change)
    assert opcode == CLOSE and payload["code"] == code
    assert client.closed is not None and client.instance.users == []
    assert command(client, "AUTHORIZE").send == [], "a closed client answers nothing"


def test_commands_wait_for_the_handshake(emu):
    client = emu.open_activity("alice")
    error = reply(command(client, "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS"))
    assert error["evt"] == "ERROR" and error["data"]["code"] == 4000


async def test_authorize_asks_once_then_authenticate_answers_the_user(emu):
    await emu.start()
    try:
        client = emu.open_activity("bob")
        handshake(client)
        args = {"client_id": str(emu.application_id), "response_type": "code", "state": "",
                "prompt": "none", "scope": ["identify", "guilds"]}
        answer = command(client, "AUTHORIZE", args, nonce="first")
        assert answer.send == [] and answer.ask["scopes"] == ["identify", "guilds"]
        granted = reply(client.consent("first", granted=True))
        assert (granted["cmd"], granted["nonce"], granted["evt"]) == ("AUTHORIZE", "first", None)
        async with aiohttp.ClientSession() as session, session.post(
                f"{emu.api_base}/oauth2/token",
                data={"client_id": emu.client_id, "client_secret": emu.client_secret,
                      "grant_type": "authorization_code",
                      "code": granted["data"]["code"]}) as response:
            assert response.status == 200, await response.text()
            tokens = await response.json()
        again = command(client, "AUTHORIZE", args, nonce="second")
        assert again.ask is None and reply(again)["data"]["code"], "no modal the second time"
        auth = reply(command(client, "AUTHENTICATE", {"access_token": tokens["access_token"]}))
        data = auth["data"]
        assert data["access_token"] == tokens["access_token"]
        assert data["user"]["id"] == str(emu.user("bob").id) and data["user"]["public_flags"] == 0
        assert data["scopes"] == ["identify", "guilds"] and data["expires"]
        assert data["application"]["id"] == str(emu.application_id)
        assert emu.refusals == []
    finally:
        await emu.close()


def test_cancel_in_the_modal_is_an_oauth2_error(emu):
    client = emu.open_activity("alice")
    handshake(client)
    answer = command(client, "AUTHORIZE", {"client_id": str(emu.application_id),
                                           "scope": ["identify"]}, nonce="x")
    error = reply(client.consent(answer.ask["nonce"], granted=False))
    assert (error["evt"], error["nonce"]) == ("ERROR", "x")
    assert error["data"] == {"code": 5000,
                             "message": f"OAuth2 Error: access_denied: {ACCESS_DENIED}"}


def test_authorize_for_another_application_is_refused(emu):
    client = emu.open_activity("alice")
    handshake(client)
    error = reply(command(client, "AUTHORIZE", {"client_id": "1", "scope": ["identify"]}))
    assert error["evt"] == "ERROR" and error["data"]["code"] == 4007


def test_authenticate_needs_a_live_token_of_this_user(emu):
    alice, bob = emu.open_activity("alice"), emu.open_activity("bob")
    handshake(alice)
    handshake(bob)
    error = reply(command(alice, "AUTHENTICATE", {"access_token": "nope"}))
    assert error["evt"] == "ERROR" and error["data"]["code"] == 4009
    bobs = emu._issue(emu.user("bob"), ("identify",))["access_token"]
    assert reply(command(alice, "AUTHENTICATE", {"access_token": bobs}))["data"]["code"] == 4009
    assert reply(command(bob, "AUTHENTICATE", {"access_token": bobs}))["evt"] is None


def test_subscriptions_need_their_scopes(emu):
    client = emu.open_activity("alice")
    handshake(client)
    refused = reply(command(client, "SUBSCRIBE", evt="CURRENT_USER_UPDATE"))
    assert refused["data"] == {"code": 4006, "message": "Not authenticated or invalid scope"}
    layout = reply(command(client, "SUBSCRIBE", evt="ACTIVITY_LAYOUT_MODE_UPDATE"))
    assert (layout["evt"], layout["data"]) == (None, {"evt": "ACTIVITY_LAYOUT_MODE_UPDATE"})
    token = emu._issue(emu.user("alice"), ("identify",))["access_token"]
    command(client, "AUTHENTICATE", {"access_token": token})
    allowed = reply(command(client, "SUBSCRIBE", evt="CURRENT_USER_UPDATE"))
    assert allowed["data"] == {"evt": "CURRENT_USER_UPDATE"}
    assert reply(command(client, "SUBSCRIBE", evt="NO_SUCH_EVENT"))["data"]["code"] == 4004
    assert reply(command(client, "UNSUBSCRIBE", evt="CURRENT_USER_UPDATE"))["data"] == {
        "evt": "CURRENT_USER_UPDATE"}
    assert "CURRENT_USER_UPDATE" not in client.subscriptions


def test_participants_join_and_leave(emu):
    alice, bob = emu.open_activity("alice"), emu.open_activity("bob")
    assert bob.instance is alice.instance, "one channel, one instance"
    handshake(alice)
    command(alice, "SUBSCRIBE", evt="ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE")
    handshake(bob)
    joined = alice.outbox.get_nowait()
    assert joined[1]["cmd"] == "DISPATCH"
    assert joined[1]["evt"] == "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"
    assert [p["username"] for p in joined[1]["data"]["participants"]] == ["alice", "bob"]
    listed = reply(command(bob, "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS"))["data"]
    assert {p["id"] for p in listed["participants"]} == {
        str(emu.user("alice").id), str(emu.user("bob").id)}
    assert all({"flags", "bot", "discriminator"} <= set(p) for p in listed["participants"])
    closed = bob.receive([CLOSE, {"code": 1000, "message": "bye"}])
    assert closed.closed == {"code": 1000, "message": "bye"}
    left = alice.outbox.get_nowait()
    assert [p["username"] for p in left[1]["data"]["participants"]] == ["alice"]
    assert alice.instance.users == [emu.user("alice").id]
    assert bob.outbox.empty(), "bob never subscribed"


def test_logs_are_kept_and_unknown_commands_refused(emu):
    client = emu.open_activity("alice")
    handshake(client)
    logged = reply(command(client, "CAPTURE_LOG", {"level": "log", "message": "hello"}))
    assert logged["data"] is None and client.logs == [("log", "hello")]
    refused = reply(command(client, "START_PURCHASE", {"sku_id": "1"}))
    assert refused["evt"] == "ERROR" and refused["data"]["code"] == 4002
    assert "does not implement" in refused["data"]["message"]


def test_a_frame_without_nonce_is_an_invalid_payload(emu):
    client = emu.open_activity("alice")
    handshake(client)
    answer = client.receive([FRAME, {"cmd": "CAPTURE_LOG", "args": {}}])
    assert reply(answer)["data"]["code"] == 4000


# ----- the page, its carriage and the URL-mapping proxy ------------------------------------------

ACTIVITY_HTML = "<!doctype html><title>board</title><p>the board</p>"


@pytest.fixture
async def activity_server():
    """A stand-in Activity (the web board): a page, an API answer and a websocket."""
    async def index(request: web.Request) -> web.Response:
        return web.Response(text=ACTIVITY_HTML, content_type="text/html",
                            headers={"Set-Cookie": "seen=1"})

    async def echo(request: web.Request) -> web.Response:
        return web.json_response({"path": request.path, "query": dict(request.query),
                                  "cookie": request.headers.get("Cookie")})

    async def socket(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for message in ws:
            await ws.send_str("echo " + message.data)
        return ws

    app = web.Application()
    app.router.add_get("/board/", index)
    app.router.add_get("/board/api/echo", echo)
    app.router.add_get("/board/ws", socket)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}/board"
    await runner.cleanup()


@pytest.fixture
async def web_emu(activity_server):
    emulator = Emulator(activity_url=activity_server)
    await emulator.start()
    try:
        yield emulator
    finally:
        await emulator.close()


async def test_the_client_page_frames_the_activity_through_the_proxy(web_emu):
    client = web_emu.open_activity("carol")
    url = web_emu.activity_page_url(client)
    assert url.startswith(web_emu.activity_origin + "/.emulator/client/")
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as response:
            page = await response.text()
        assert "carol" in page and 'src="/.emulator/client.js"' in page
        assert f"frame_id={client.frame_id}" in page
        async with session.get(web_emu.activity_origin + "/.emulator/client.js") as response:
            script = await response.text()
            assert response.content_type == "text/javascript"
        assert "event.origin !== activityOrigin" in script
        async with session.get(web_emu.activity_frame_url(client)) as response:
            assert await response.text() == ACTIVITY_HTML
            assert "connect-src 'self'" in response.headers["Content-Security-Policy"]
            assert response.headers["Set-Cookie"].startswith("seen=1")
        async with session.get(web_emu.activity_origin + "/.proxy/api/echo?x=1",
                               headers={"Cookie": "seen=1"}) as response:
            assert await response.json() == {"path": "/board/api/echo", "query": {"x": "1"},
                                              "cookie": "seen=1"}
        async with session.ws_connect(web_emu.activity_origin + "/ws") as ws:
            await ws.send_str("move f")
            assert (await ws.receive()).data == "echo move f"


async def test_the_page_carries_messages_and_events(web_emu):
    alice, bob = web_emu.open_activity("alice"), web_emu.open_activity("bob")
    base = web_emu.activity_origin
    async with aiohttp.ClientSession() as session:
        async def rpc(client, message):
            async with session.post(f"{base}/.emulator/rpc/{client.session_id}",
                                    json={"message": message}) as response:
                return await response.json()

        hello = {"v": 1, "encoding": "json", "client_id": str(web_emu.application_id)}
        ready = await rpc(alice, [HANDSHAKE, {**hello, "frame_id": alice.frame_id}])
        assert ready["send"][0][1]["evt"] == "READY"
        subscribed = await rpc(alice, [FRAME, {
            "cmd": "SUBSCRIBE", "evt": "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", "args": {},
            "nonce": "s"}])
        assert subscribed["send"][0][1]["data"] == {
            "evt": "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"}
        async with session.get(f"{base}/.emulator/events/{alice.session_id}") as stream:
            await rpc(bob, [HANDSHAKE, {**hello, "frame_id": bob.frame_id}])
            line = await asyncio.wait_for(stream.content.readline(), 5)
            event = json.loads(line.decode().removeprefix("data: "))
            assert event[1]["evt"] == "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"
            assert len(event[1]["data"]["participants"]) == 2
        asked = await rpc(bob, [FRAME, {"cmd": "AUTHORIZE", "nonce": "z", "args": {
            "client_id": str(web_emu.application_id), "scope": ["identify"]}}])
        assert asked["ask"]["nonce"] == "z" and asked["send"] == []
        async with session.post(f"{base}/.emulator/consent/{bob.session_id}",
                                json={"nonce": "z", "granted": True}) as response:
            granted = await response.json()
        assert granted["send"][0][1]["data"]["code"]
    # The page's event stream ended: alice's page is gone, so she left the Activity.
    await web_emu.wait_for(lambda event: event.kind == "activity_left", timeout=5)
    assert alice.instance.users == [web_emu.user("bob").id]


def test_without_an_activity_url_there_is_no_page(emu):
    client = emu.open_activity("alice")
    with pytest.raises(LookupError, match="activity_url"):
        emu.activity_page_url(client)
