"""A loopback Discord: enough of the REST API and gateway for the real discord.py client.

The emulator plays Discord's part for tests, benchmarks and the local console
(docs/architecture.md, docs/emulator.md): it
serves the gateway (HELLO, IDENTIFY, READY, GUILD_CREATE, heartbeats, dispatches) and the REST
routes the bot uses (command sync, interaction callbacks with files, follow-ups, channel messages,
threads, message edits). It records everything the bot sends, and its Python API plays the users:
``await emu.slash(alice, "play alak", {"opponent": bob})``, ``await emu.click(bob, message,
label="Accept")``, ``await emu.autocomplete(...)``; ``await emu.wait_for(...)`` waits for what the
bot answers, without sleeping.

It is as strict as Discord where players would notice:

* **Notifications.** A created message records whom it notifies (``Message.notified``, also on
  its event): the users it mentions that ``allowed_mentions`` lets through (``mentions``). An
  edit notifies nobody, and the first follow-up after a deferred response is such an edit.
  ``emu.pings(user)`` and ``emu.wait_for_ping(user)`` read them.
* **Limits** (``limits``): content, embeds, components, autocomplete choices, thread names and
  attachments beyond Discord's documented limits are refused with 400 / 50035.
* **Timing.** An interaction acknowledged more than 3 s after it was sent is refused with
  404 / 10062, and its token is dead; a second acknowledgment gets 400 / 40060; a token lives
  15 minutes. ``rest_delay`` adds a round trip to every REST answer (half before the request is
  handled, half after), as a real network does.
* **Permissions** (``permissions``): the bot has exactly what the README's invite link grants;
  what needs more is refused with 403 / 50013 (a channel it cannot see, even for want of View
  Channel, with 403 / 50001; a channel that does not exist with 404 / 10003). Members are
  plain members (``MEMBER_PERMISSIONS``) unless a test grants more with
  ``emu.grant(user, MANAGE_GUILD)`` or ``ADMINISTRATOR``; the server's owner (the first user)
  has every permission, as on Discord. Interactions carry them in ``member.permissions`` (what
  discord.py's ``interaction.permissions`` reads), and a command whose
  ``default_member_permissions`` a member lacks is not offered to them (``HiddenCommand``).
* **Nonces.** A message sent with ``nonce`` and ``enforce_nonce`` is created once per nonce,
  channel and author for ``nonce_seconds``; sending it again returns the first message.
* **Threads.** A message starts at most one thread (the thread has the message's id); a second
  attempt is refused with 400 / 160004.
* **Direct messages.** The bot may open a DM channel with any user; a message in it to a user
  who closed their DMs (``emu.refuse_dms(user)``, Discord's privacy setting) is refused with
  403 / 50007 "Cannot send messages to this user".

Every refusal is kept in ``emu.refusals`` (tests assert it stays empty) and every REST request
in ``emu.requests``.

The parts, each a module as Discord's API reference splits it: ``state`` (users, servers,
channels, members), ``installs`` (user installs, DMs and group DMs between users, servers
without the bot, the clock), ``modals``, ``webhooks`` (follow-ups), ``permissions``,
``gateway``, ``interactions`` (tokens, deadlines), ``messages`` (attachments, nonces,
notifications: ``mentions``), ``channels`` (threads, direct messages), ``commands``
(registration, validation), ``limits``, ``oauth2`` (the authorize page, tokens, Bearer
answers), and ``routes``, the table of REST routes.
``Emulator`` puts them together.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable
from typing import Any

from aiohttp import web

from emulator.activities import Activities
from emulator.activity_client import ActivityClients
from emulator.activity_web import ActivityWeb
from emulator.api import API_VERSION
from emulator.channels import Channels
from emulator.commands import Commands
from emulator.events import EventLog
from emulator.gateway import HEARTBEAT_INTERVAL, Gateway
from emulator.installs import Installs
from emulator.interactions import ACK_DEADLINE, TOKEN_LIFETIME, Interactions
from emulator.messages import NONCE_SECONDS, Messages
from emulator.modals import Modals
from emulator.oauth2 import OAuth2
from emulator.permissions import Permissions
from emulator.routes import Rest
from emulator.state import State
from emulator.webhooks import Webhooks


class Emulator(Activities, State, Installs, Permissions, EventLog, Gateway, Commands, Interactions,
               Modals, Webhooks, Messages, Channels, OAuth2, ActivityClients, ActivityWeb, Rest):
    """The local Discord. ``await start()`` binds a loopback port; ``close()`` stops it."""

    def __init__(
        self,
        users: Iterable[str] = ("alice", "bob", "carol", "dave"),
        *,
        token: str = "emulator-token",
        guild_name: str = "Local games",
        channel_name: str = "games",
        host: str = "127.0.0.1",
        port: int = 0,
        rest_delay: float = 0.0,
        ack_deadline: float = ACK_DEADLINE,
        token_lifetime: float = TOKEN_LIFETIME,
        nonce_seconds: float = NONCE_SECONDS,
        heartbeat_interval: float = HEARTBEAT_INTERVAL,
        shards: int = 1,
        client_secret: str = "emulator-client-secret",
        redirect_uris: Iterable[str] = (),
        activity_url: str | None = None,
        activities: bool | None = None,
    ) -> None:
        self.token = token
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None
        self._setup_permissions()
        self._setup_installs()
        self._setup_state(users, guild_name, channel_name)
        self._setup_events()
        self._setup_gateway(shards, heartbeat_interval)
        self._setup_commands()
        #: Where the Activity is served (its URL mapping's target); the web board's base URL.
        self.activity_url = activity_url
        self._setup_activities(activity_url is not None if activities is None else activities)
        self._setup_activity_clients()
        self._setup_activity_web()
        self._setup_interactions(ack_deadline, token_lifetime)
        self._setup_messages(nonce_seconds)
        self._setup_rest(rest_delay)
        self._setup_oauth2(client_secret, redirect_uris)

    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_get("/gateway", self._gateway)
        self._add_oauth2_routes(app)
        app.router.add_route("*", "/api/v{version}/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        sockets = site._server.sockets  # type: ignore[union-attr]
        self.port = sockets[0].getsockname()[1]
        await self._start_activity_web()

    async def close(self) -> None:
        await self._close_activity_web()
        for task in list(self._background):
            task.cancel()
        for gateway in list(self._gateways.values()):
            if not gateway.ws.closed:
                await gateway.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for _, future in self._waiters:
            if not future.done():
                future.cancel()
        self._waiters.clear()

    @property
    def api_base(self) -> str:
        return f"http://{self.host}:{self.port}/api/v{API_VERSION}"


@contextlib.asynccontextmanager
async def running_emulator(**kwargs: Any) -> AsyncIterator[Emulator]:
    """``async with running_emulator() as emu:`` — started, and closed afterwards."""
    emulator = Emulator(**kwargs)
    await emulator.start()
    try:
        yield emulator
    finally:
        await emulator.close()
