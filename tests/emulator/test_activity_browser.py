"""The emulated Discord client in a real browser: headless Chromium opens the client page, the
page frames a stand-in Activity through the emulator's proxy, and the Activity speaks the
Embedded App SDK's protocol as the SDK does (``src/Discord.ts``: the query it reads, the
handshake, messages accepted from its own origin only, answers matched by nonce) up to an
authenticated user, which it reports to its own server."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil

import aiohttp
import pytest
from aiohttp import web

from emulator import Emulator

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs headless Chromium: apt-get install -y chromium")
CALLBACK = "http://127.0.0.1:9/callback"

#: The stand-in Activity: what a page built on the SDK does, step by step.
ACTIVITY = """<!doctype html><meta charset="utf-8"><title>stand-in Activity</title>
<script type="module">
const clientId = "$CLIENT_ID";
const query = new URLSearchParams(location.search);
const allowed = new Set([location.origin, "https://discord.com", "null"]);
const rpc = window.parent.opener ?? window.parent;
const target = document.referrer ? document.referrer : "*";
const pending = new Map();
let count = 0, readyResolve;
const ready = new Promise((resolve) => { readyResolve = resolve; });
const send = (cmd, args, beside = {}) => new Promise((resolve, reject) => {
  const nonce = `nonce-${++count}`;
  pending.set(nonce, {resolve, reject});
  rpc.postMessage([1, {cmd, args, nonce, ...beside}], target);
});
window.addEventListener("message", (event) => {
  if (!allowed.has(event.origin) || !Array.isArray(event.data)) return;
  const [opcode, data] = event.data;
  if (opcode !== 1) return;
  if (data.cmd === "DISPATCH") { if (data.evt === "READY") readyResolve(data.data); return; }
  const waiting = pending.get(data.nonce);
  pending.delete(data.nonce);
  if (data.evt === "ERROR") waiting.reject(data.data); else waiting.resolve(data.data);
});
const report = (result) => fetch("/api/result", {method: "POST", body: JSON.stringify(result)});
try {
  rpc.postMessage([0, {v: 1, encoding: "json", client_id: clientId,
                       frame_id: query.get("frame_id")}], target);
  const readyData = await ready;
  const {code} = await send("AUTHORIZE", {client_id: clientId, response_type: "code",
                                          state: "", prompt: "none", scope: ["identify"]});
  const token = await (await fetch("/.proxy/api/token", {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({code})})).json();
  const auth = await send("AUTHENTICATE", {access_token: token.access_token});
  await send("SUBSCRIBE", {}, {evt: "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"});
  const participants = await send("GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS", {});
  await report({ready: readyData, user: auth.user, participants,
                instance: query.get("instance_id"), platform: query.get("platform")});
} catch (failure) {
  await report({failure: JSON.stringify(failure) + String(failure)});
}
</script>"""


@pytest.fixture
async def emu_and_result():
    result: asyncio.Future[dict] = asyncio.get_running_loop().create_future()
    emu_box: list[Emulator] = []

    async def page(request: web.Request) -> web.Response:
        text = ACTIVITY.replace("$CLIENT_ID", emu_box[0].client_id)
        return web.Response(text=text, content_type="text/html")

    async def token(request: web.Request) -> web.Response:
        # The Activity's server exchanges the code, as Discord's examples do: no redirect_uri.
        emu = emu_box[0]
        code = (await request.json())["code"]
        form = {"client_id": emu.client_id, "client_secret": emu.client_secret,
                "grant_type": "authorization_code", "code": code}
        async with aiohttp.ClientSession() as session, session.post(
                f"{emu.api_base}/oauth2/token", data=form) as response:
            return web.json_response(await response.json(), status=response.status)

    async def report(request: web.Request) -> web.Response:
        if not result.done():
            result.set_result(json.loads(await request.text()))
        return web.Response()

    app = web.Application()
    app.router.add_get("/board/", page)
    app.router.add_post("/board/api/token", token)
    app.router.add_post("/board/api/result", report)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    emu = Emulator(activity_url=f"http://127.0.0.1:{port}/board", redirect_uris=[CALLBACK])
    emu_box.append(emu)
    await emu.start()
    try:
        yield emu, result
    finally:
        await emu.close()
        await runner.cleanup()


async def test_an_activity_in_chromium_gets_ready_authorized_and_authenticated(
        emu_and_result, tmp_path):
    emu, result = emu_and_result
    emu.authorize("alice", redirect_uri=CALLBACK)  # alice authorized the app before: no modal
    client = emu.open_activity("alice")
    browser = await asyncio.create_subprocess_exec(
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        f"--user-data-dir={tmp_path}", emu.activity_page_url(client),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    try:
        reported = await asyncio.wait_for(result, 60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            browser.terminate()
        await browser.wait()
    assert "failure" not in reported, reported
    assert reported["ready"]["user"]["username"] == "alice"
    assert reported["user"]["id"] == str(emu.user("alice").id)
    assert reported["instance"] == client.instance.instance_id
    assert reported["platform"] == "desktop"
    assert [p["username"] for p in reported["participants"]["participants"]] == ["alice"]
    assert emu.refusals == []
