"""A loopback Discord: enough of the REST API and gateway for the real discord.py client.

The emulator plays Discord's part for tests, benchmarks and the local console (DESIGN.md §7): it
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
  what needs more is refused with 403 / 50013. Members are plain members
  (``MEMBER_PERMISSIONS``) unless a test grants more with ``emu.grant(user, MANAGE_GUILD)`` or
  ``ADMINISTRATOR``; the server's owner (the first user) has every permission, as on Discord.
  Interactions carry them in ``member.permissions`` (what discord.py's
  ``interaction.permissions`` reads), and a command whose ``default_member_permissions`` a
  member lacks is not offered to them (``HiddenCommand``).
* **Nonces.** A message sent with ``nonce`` and ``enforce_nonce`` is created once per nonce,
  channel and author for ``nonce_seconds``; sending it again returns the first message.
* **Threads.** A message starts at most one thread (the thread has the message's id); a second
  attempt is refused with 400 / 160004.

Every refusal is kept in ``emu.refusals`` (tests assert it stays empty) and every REST request
in ``emu.requests``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import json
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from emulator import limits, mentions
from emulator.permissions import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    BOT_PERMISSIONS,
    CANNOT_EDIT_OTHERS,
    CREATE_PUBLIC_THREADS,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    MEMBER_PERMISSIONS,
    MISSING_PERMISSIONS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    missing,
    to_send,
)

API_VERSION = 10
EPHEMERAL = 1 << 6
LOADING = 1 << 7
#: An interaction must be acknowledged this many seconds after it is sent.
ACK_DEADLINE = 3.0
#: An interaction token answers follow-ups this long.
TOKEN_LIFETIME = 15 * 60.0
#: How long a message nonce stays unique ("the past few minutes").
NONCE_SECONDS = 5 * 60.0
#: Seconds between the bot's heartbeats (Discord's HELLO says 41.25 s).
HEARTBEAT_INTERVAL = 41.25
#: How long the emulator takes to acknowledge a heartbeat. discord.py's keep-alive thread
#: records when it sent a heartbeat only once the event loop reports the send done; an
#: acknowledgment handled before that is measured from the previous heartbeat, 41 s earlier
#: ("Can't keep up, websocket is 41 s behind"). Any real network is slower than this.
HEARTBEAT_ACK_DELAY = 0.05
#: Discord's error codes.
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
THREAD_ALREADY_CREATED = 160004
#: Channel types (Discord API).
TEXT_CHANNEL = 0
DM_CHANNEL = 1
PUBLIC_THREAD = 11
#: Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
#: Application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE = range(1, 9)
NUMBER = 10


#: Discord's snowflakes keep their creation time above bit 22; shards split on it.
SHARD_SHIFT = 22


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard Discord sends a server's events to; a direct message's is shard 0."""
    return 0 if guild_id is None else (guild_id >> SHARD_SHIFT) % count


class HiddenCommand(LookupError):
    """The member lacks the command's ``default_member_permissions``: Discord does not offer it
    to them, so they cannot run it."""


class ComponentGone(LookupError):
    """A press on a button the message no longer has (taken off by an edit): Discord checks a
    component interaction against the message and refuses it (50035, COMPONENT_VALIDATION_FAILED:
    the user reads "This interaction failed"); the bot never hears of it."""


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body only when Content-Type is exactly "application/json";
    # web.json_response appends "; charset=utf-8", so the header is set by hand.
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _error(status: int, message: str, code: int = 0) -> web.Response:
    return _json({"message": message, "code": code}, status=status)


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


class Refused(Exception):
    """Raised inside a route to answer with Discord's error body."""

    def __init__(self, status: int, code: int, message: str,
                 errors: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.code = status, code
        self.body: dict[str, Any] = {"message": message, "code": code}
        if errors:
            self.body["errors"] = errors


@dataclass
class Interaction:
    """An interaction the emulator sent to the bot, and what the bot answered."""

    id: int
    token: str
    type: int
    user: EmuUser
    channel_id: int
    payload: dict[str, Any]
    sent_at: float
    emulator: Emulator
    callback_type: int | None = None
    callback_at: float | None = None
    #: Autocomplete choices (callback type 8).
    choices: list[dict[str, Any]] | None = None
    original_id: int | None = None
    messages: list[Message] = field(default_factory=list)
    #: Every event that answers this interaction, in order.
    events: list[Event] = field(default_factory=list)
    _acked: asyncio.Future | None = None

    async def acknowledged(self, timeout: float = 10.0) -> int:
        """The callback type once the bot has answered (4 message, 5 defer, 6 deferred update,
        7 update, 8 autocomplete)."""
        assert self._acked is not None
        return await asyncio.wait_for(asyncio.shield(self._acked), timeout)

    async def reply(
        self, predicate: Callable[[Message], bool] | None = None, timeout: float = 10.0
    ) -> Message:
        """The first visible answer of this interaction (not a "thinking…" placeholder) that
        satisfies ``predicate``: the callback message, an edit of the original, or a follow-up."""
        return (await self.reply_event(predicate, timeout)).data

    async def reply_event(
        self, predicate: Callable[[Message], bool] | None = None, timeout: float = 10.0
    ) -> Event:
        """Like ``reply``, but the event itself (``.at`` is when the emulator received it)."""

        def matches(event: Event) -> bool:
            if event.kind not in ("message", "edit") or event.interaction_id != self.id:
                return False
            message: Message = event.data
            if message.flags & LOADING:
                return False
            return predicate is None or predicate(message)

        # This interaction's own events first (the whole log grows long in a benchmark).
        for event in self.events:
            if matches(event):
                return event
        return await self.emulator.wait_for(matches, since=len(self.emulator.events),
                                            timeout=timeout)


@dataclass
class _Gateway:
    """One gateway session of the bot: shard ``shard`` of ``count``, its sequence number."""

    ws: web.WebSocketResponse
    shard: int
    count: int
    seq: int = 0


class Emulator:
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
    ) -> None:
        self._ids = itertools.count(1_100_000_000_000_000_000)
        # Servers a shard apart: with ``shards`` shards, the n-th server is on shard n % shards.
        self._guild_ids = itertools.count(1_000_000_000 << SHARD_SHIFT, 1 << SHARD_SHIFT)
        #: The shard count ``/gateway/bot`` recommends (bots may IDENTIFY with their own).
        self.shard_count = shards
        self.token = token
        self.host = host
        self.port = port
        #: Seconds added to every REST answer (a network round trip).
        self.rest_delay = rest_delay
        self.ack_deadline = ack_deadline
        self.token_lifetime = token_lifetime
        self.nonce_seconds = nonce_seconds
        self.heartbeat_interval = heartbeat_interval
        #: What the bot may do (the invite link's permissions), and per-channel denials.
        self.bot_permissions = BOT_PERMISSIONS
        self.bot_denied: dict[int, int] = {}
        self.bot_user = EmuUser(self._next_id(), "boardgames", bot=True)
        self.application_id = self.bot_user.id
        self.users: dict[str, EmuUser] = {}
        #: Permission bits granted to members beyond @everyone's (``grant``), by user id.
        self.granted: dict[int, int] = {}
        for name in users:
            self.add_user(name)
        self.owner = next(iter(self.users.values()), self.bot_user)
        #: Server id -> name; every user is a member of every server.
        self.guilds: dict[int, str] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        #: The first server and its channel (``add_guild`` makes more).
        self.guild_id, self.channel_id = self.add_guild(guild_name, channel_name)
        self.messages: dict[int, Message] = {}
        #: Application commands, per scope: None (global) or a guild id.
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        #: Every REST request received, in order.
        self.requests: list[Request] = []
        #: Every request refused as Discord would refuse it.
        self.refusals: list[Refusal] = []
        #: (channel, author, nonce) -> (message id, when it was created).
        self._nonces: dict[tuple[int, int, str], tuple[int, float]] = {}
        #: Close codes of the bot's gateway connections, as they end.
        self.gateway_closes: list[int | None] = []
        self._background: set[asyncio.Task] = set()
        self.events: list[Event] = []
        self._waiters: list[tuple[Callable[[Event], bool], asyncio.Future]] = []
        #: The bot's gateway sessions, by shard number.
        self._gateways: dict[int, _Gateway] = {}
        self._sessions = itertools.count(1)
        self._ready = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.identified_count = 0

    # ----- lifecycle ----------------------------------------------------------------------------

    def _next_id(self) -> int:
        return next(self._ids)

    def add_guild(self, name: str, channel_name: str = "games") -> tuple[int, int]:
        """A new server with a text channel: (server id, channel id). Consecutive servers are
        on consecutive shards (``shard_of``)."""
        guild_id = next(self._guild_ids)
        channel_id = self._next_id()
        self.guilds[guild_id] = name
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": TEXT_CHANNEL,
            "guild_id": str(guild_id),
            "name": channel_name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }
        return guild_id, channel_id

    @property
    def guild_name(self) -> str:
        return self.guilds[self.guild_id]

    def guild_of(self, channel_id: int) -> int | None:
        """The server of a channel or thread (None: a direct message)."""
        guild = self.channels.get(channel_id, {}).get("guild_id")
        return None if guild is None else int(guild)

    def shard_sessions(self) -> dict[int, int]:
        """Shard number -> shard count of the bot's connected gateway sessions."""
        return {shard: gw.count for shard, gw in self._gateways.items() if not gw.ws.closed}

    def add_user(self, name: str) -> EmuUser:
        user = EmuUser(self._next_id(), name.lower())
        self.users[user.name] = user
        return user

    def grant(self, user: str | EmuUser, permissions: int) -> None:
        """Give a member permission bits beyond a plain member's, e.g. ``MANAGE_GUILD`` or
        ``ADMINISTRATOR``; interactions from them carry the new bits from now on."""
        member = self.user(user)
        self.granted[member.id] = self.granted.get(member.id, 0) | permissions

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
        return ALL_PERMISSIONS if bits & ADMINISTRATOR else bits

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
        lacking = missing(self.bot_permissions_in(channel_id), needed)
        if lacking:
            raise Refused(403, MISSING_PERMISSIONS, "Missing Permissions")

    def user(self, name_or_user: str | EmuUser) -> EmuUser:
        if isinstance(name_or_user, EmuUser):
            return name_or_user
        name = name_or_user.lstrip("@").lower()
        try:
            return self.users[name]
        except KeyError:
            raise LookupError(f"no local user {name!r}; users: {', '.join(self.users)}") from None

    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v{version}/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        sockets = site._server.sockets  # type: ignore[union-attr]
        self.port = sockets[0].getsockname()[1]

    async def close(self) -> None:
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

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/"

    async def wait_until_connected(self, timeout: float = 10.0) -> None:
        """Wait until a bot has identified and received its guilds."""
        await asyncio.wait_for(self._ready.wait(), timeout)

    # ----- the event log ------------------------------------------------------------------------

    def mark(self) -> int:
        """A position in the event log, for ``wait_for(..., since=mark)``."""
        return len(self.events)

    def _record(
        self,
        kind: str,
        data: Any,
        interaction: Interaction | None = None,
        *,
        notified: frozenset[int] = frozenset(),
    ) -> Event:
        if isinstance(data, Message):
            # A snapshot: later edits of the message must not rewrite what was seen then.
            data = dataclasses.replace(data, data=dict(data.data), files=list(data.files))
        event = Event(
            len(self.events), kind, data, time.perf_counter(),
            None if interaction is None else interaction.id, notified,
        )
        self.events.append(event)
        if interaction is not None:
            interaction.events.append(event)
        for predicate, future in list(self._waiters):
            if not future.done() and predicate(event):
                future.set_result(event)
        self._waiters = [(p, f) for p, f in self._waiters if not f.done()]
        return event

    async def wait_for(
        self, predicate: Callable[[Event], bool], *, since: int = 0, timeout: float = 10.0
    ) -> Event:
        """The first event from ``since`` on that satisfies ``predicate`` (waiting if needed)."""
        for event in self.events[since:]:
            if predicate(event):
                return event
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiters.append((predicate, future))
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            if not future.done():
                future.cancel()

    async def wait_for_message(
        self,
        predicate: Callable[[Message], bool] | None = None,
        *,
        channel_id: int | None = None,
        since: int = 0,
        timeout: float = 10.0,
    ) -> Message:
        """The first new message (not an edit) from ``since`` on, in ``channel_id`` if given."""

        def matches(event: Event) -> bool:
            if event.kind != "message":
                return False
            message: Message = event.data
            if channel_id is not None and message.channel_id != channel_id:
                return False
            return predicate is None or predicate(message)

        return (await self.wait_for(matches, since=since, timeout=timeout)).data

    def pings(self, user: str | EmuUser, *, since: int = 0) -> list[Message]:
        """The messages (as created) that notified ``user``, from ``since`` on."""
        member = self.user(user)
        return [
            event.data for event in self.events[since:]
            if event.kind == "message" and member.id in event.notified
        ]

    async def wait_for_ping(
        self,
        user: str | EmuUser,
        predicate: Callable[[Message], bool] | None = None,
        *,
        since: int = 0,
        timeout: float = 10.0,
    ) -> Message:
        """The first message from ``since`` on that notified ``user`` (and satisfies
        ``predicate``), waiting if needed."""
        member = self.user(user)

        def matches(event: Event) -> bool:
            return (event.kind == "message" and member.id in event.notified
                    and (predicate is None or predicate(event.data)))

        return (await self.wait_for(matches, since=since, timeout=timeout)).data

    def channel_messages(self, channel_id: int) -> list[Message]:
        return [m for m in self.messages.values() if m.channel_id == channel_id]

    def threads(self) -> list[dict[str, Any]]:
        return [c for c in self.channels.values() if c["type"] == PUBLIC_THREAD]

    # ----- the gateway --------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        hello = {"heartbeat_interval": round(self.heartbeat_interval * 1000)}
        await ws.send_str(json.dumps({"op": 10, "d": hello}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            payload = json.loads(msg.data)
            op = payload.get("op")
            if op == 1:  # heartbeat: acknowledged after a network's delay (HEARTBEAT_ACK_DELAY)
                self._record("heartbeat", payload.get("d"))
                self._soon(HEARTBEAT_ACK_DELAY, self._send_if_open, ws, {"op": 11})
            elif op == 2:  # identify
                if payload["d"].get("token", "").removeprefix("Bot ") != self.token:
                    await ws.close(code=4004, message=b"Authentication failed.")
                    break
                shard, count = payload["d"].get("shard") or (0, 1)
                if not 0 <= shard < count:
                    await ws.close(code=4010, message=b"Invalid shard.")
                    break
                await self._identify(ws, shard, count)
            elif op == 6:  # resume: we keep no sessions, so ask for a fresh identify
                await ws.send_str(json.dumps({"op": 9, "d": False}))
        self.gateway_closes.append(ws.close_code)
        self._record("gateway_closed", ws.close_code)
        for shard, gateway in list(self._gateways.items()):
            if gateway.ws is ws:
                del self._gateways[shard]
        if not self._gateways:
            self._ready.clear()
        return ws

    def _soon(self, delay: float, function: Callable[..., Any], *args: Any) -> None:
        """``await function(*args)`` after ``delay`` seconds, in the background."""

        async def later() -> None:
            await asyncio.sleep(delay)
            await function(*args)

        task = asyncio.create_task(later())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    @staticmethod
    async def _send_if_open(ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if not ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_str(json.dumps(data))

    async def _identify(self, ws: web.WebSocketResponse, shard: int, count: int) -> None:
        """A session for ``shard`` of ``count``: its READY, then a GUILD_CREATE per server of
        that shard. A new session of a shard replaces the one before (as a reconnect does)."""
        self.identified_count += 1
        previous = self._gateways.get(shard)
        self._gateways[shard] = _Gateway(ws, shard, count)
        if previous is not None and previous.ws is not ws and not previous.ws.closed:
            await previous.ws.close()
        guilds = [g for g in self.guilds if shard_of(g, count) == shard]
        await self._dispatch(
            "READY",
            {
                "v": API_VERSION,
                "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
                "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                "shard": [shard, count],
                "session_id": f"session-{next(self._sessions)}",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
            },
            ws=ws,
        )
        for guild_id in guilds:
            await self._dispatch("GUILD_CREATE", self._guild_payload(guild_id), ws=ws)
        self._ready.set()
        self._record("identified", {"count": self.identified_count, "shard": [shard, count]})

    async def _dispatch(
        self,
        event: str,
        data: Any,
        *,
        ws: web.WebSocketResponse | None = None,
        guild_id: int | None = None,
    ) -> None:
        """Send an event on ``ws``, else on the session of the shard of ``guild_id`` (a
        direct message's: shard 0), as Discord routes them."""
        def route(gateway: _Gateway) -> bool:
            if ws is not None:
                return gateway.ws is ws
            return shard_of(guild_id, gateway.count) == gateway.shard

        gateway = next(filter(route, self._gateways.values()), None)
        if gateway is None or gateway.ws.closed:
            raise ConnectionError(
                "no bot is connected to the emulator"
                + ("" if guild_id is None else f" for server {guild_id}'s shard")
            )
        gateway.seq += 1
        await gateway.ws.send_str(
            json.dumps({"op": 0, "t": event, "s": gateway.seq, "d": data}))

    def _member_payload(self, user: EmuUser) -> dict[str, Any]:
        return {
            "user": user.payload(),
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "pending": False,
        }

    def _guild_payload(self, guild_id: int) -> dict[str, Any]:
        members = [self._member_payload(u) for u in (self.bot_user, *self.users.values())]
        return {
            "id": str(guild_id),
            "name": self.guilds[guild_id],
            "icon": None,
            "owner_id": str(self.owner.id),
            "unavailable": False,
            "large": False,
            "member_count": len(members),
            "members": members,
            "roles": [
                {
                    "id": str(guild_id),
                    "name": "@everyone",
                    "permissions": str(MEMBER_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [c for c in self.channels.values()
                         if c["type"] == TEXT_CHANNEL and c["guild_id"] == str(guild_id)],
            "threads": [c for c in self.threads() if c["guild_id"] == str(guild_id)],
            "emojis": [],
            "stickers": [],
            "features": [],
            "preferred_locale": "en-US",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
            "afk_timeout": 300,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
        }

    # ----- playing the users: interactions ------------------------------------------------------

    def _channel_payload(self, channel_id: int) -> dict[str, Any]:
        try:
            return self.channels[channel_id]
        except KeyError:
            raise Refused(404, UNKNOWN_CHANNEL, "Unknown Channel") from None

    async def _send_interaction(
        self,
        itype: int,
        user: EmuUser,
        channel_id: int,
        data: dict[str, Any],
        *,
        message: Message | None = None,
        locale: str = "en-US",
    ) -> Interaction:
        if channel_id not in self.channels:
            raise LookupError(f"no channel {channel_id}")
        interaction_id = self._next_id()
        token = "itoken-" + secrets.token_urlsafe(24)
        guild_id = self.guild_of(channel_id)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "guild_id": str(guild_id),
            "guild": {"id": str(guild_id), "locale": "en-US", "features": []},
            "channel_id": str(channel_id),
            "channel": self._channel_payload(channel_id),
            "member": {**self._member_payload(user),
                       "permissions": str(self.permissions_of(user))},
            "token": token,
            "version": 1,
            "locale": locale,
            "guild_locale": "en-US",
            "app_permissions": str(self.bot_permissions_in(channel_id)),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
            "attachment_size_limit": limits.ATTACHMENT_BYTES_MAX,
        }
        if message is not None:
            payload["message"] = message.data
        interaction = Interaction(
            id=interaction_id,
            token=token,
            type=itype,
            user=user,
            channel_id=channel_id,
            payload=payload,
            sent_at=time.perf_counter(),
            emulator=self,
            _acked=asyncio.get_running_loop().create_future(),
        )
        self.interactions[interaction_id] = interaction
        self._by_token[token] = interaction
        await self._dispatch("INTERACTION_CREATE", payload, guild_id=guild_id)
        return interaction

    def find_command(self, path: str) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
        """(top-level command, sub-command names, leaf with the options) for ``"play alak"``."""
        names = path.strip().lstrip("/").split()
        if not names:
            raise LookupError("empty command")
        scopes = [self.commands.get(self.guild_id, []), self.commands.get(None, [])]
        for commands in scopes:
            for command in commands:
                if command["name"] == names[0] and command.get("type", 1) == 1:
                    leaf = command
                    for sub in names[1:]:
                        options = [
                            o
                            for o in leaf.get("options", [])
                            if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) and o["name"] == sub
                        ]
                        if not options:
                            raise LookupError(f"/{names[0]} has no sub-command {sub!r}")
                        leaf = options[0]
                    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
                           for o in leaf.get("options", [])):
                        subs = ", ".join(o["name"] for o in leaf["options"])
                        raise LookupError(f"/{path.strip()} needs a sub-command: {subs}")
                    return command, names[1:], leaf
        known = sorted({c["name"] for scope in scopes for c in scope})
        raise LookupError(f"no command /{names[0]} (synced: {', '.join(known) or 'none'})")

    def _option_values(
        self, leaf: dict[str, Any], values: dict[str, Any], focused: str | None
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        declared = {o["name"]: o for o in leaf.get("options", [])}
        unknown = set(values) - set(declared)
        if unknown:
            raise LookupError(
                f"unknown option(s) {', '.join(sorted(unknown))}; options: {', '.join(declared)}"
            )
        if focused is None:
            missing = [n for n, o in declared.items() if o.get("required") and n not in values]
            if missing:
                raise LookupError(f"missing required option(s): {', '.join(missing)}")
        resolved: dict[str, Any] = {}
        options = []
        for name, raw in values.items():
            option = declared[name]
            kind = option["type"]
            choices = option.get("choices")
            if choices and name != focused and not isinstance(raw, int | float):
                # A choice may be given by its displayed name ("big") as a person would pick it.
                by_name = [c["value"] for c in choices if c["name"].lower() == str(raw).lower()]
                if by_name:
                    raw = by_name[0]
            if kind == USER:
                user = self.user(raw)
                value: Any = str(user.id)
                resolved.setdefault("users", {})[value] = user.payload()
                member = self._member_payload(user)
                del member["user"]
                resolved.setdefault("members", {})[value] = {
                    **member, "permissions": str(self.permissions_of(user))
                }
            elif kind == INTEGER and name != focused:
                try:
                    value = int(raw)
                except ValueError:
                    raise LookupError(f"option {name} needs a whole number, not {raw!r}") from None
            elif kind == NUMBER and name != focused:
                try:
                    value = float(raw)
                except ValueError:
                    raise LookupError(f"option {name} needs a number, not {raw!r}") from None
            elif kind == BOOLEAN:
                value = raw if isinstance(raw, bool) else str(raw).lower() in ("1", "true", "yes")
            else:
                value = str(raw)
            if choices and name != focused:
                allowed = [c["value"] for c in choices]
                if value not in allowed:
                    shown = ", ".join(str(c["name"]) for c in choices)
                    raise LookupError(f"option {name} must be one of: {shown}")
            entry = {"name": name, "type": kind, "value": value}
            if name == focused:
                entry["focused"] = True
            options.append(entry)
        return options, resolved

    def _command_data(
        self, user: EmuUser, path: str, values: dict[str, Any], focused: str | None = None
    ) -> dict[str, Any]:
        command, subs, leaf = self.find_command(path)
        needed = command.get("default_member_permissions")
        if needed is not None and int(needed) & ~self.permissions_of(user):
            raise HiddenCommand(
                f"/{command['name']} is not offered to {user.name}: it needs permissions "
                f"{int(needed):#x} (emulator.grant gives them)"
            )
        options, resolved = self._option_values(leaf, dict(values), focused)
        # Nest the leaf's options under its sub-command (and group) names.
        for sub in reversed(subs):
            group_or_sub = SUB_COMMAND
            parent = command
            for name in subs[: subs.index(sub)]:
                parent = next(o for o in parent["options"] if o["name"] == name)
            node = next(o for o in parent["options"] if o["name"] == sub)
            group_or_sub = node["type"]
            options = [{"name": sub, "type": group_or_sub, "options": options}]
        data: dict[str, Any] = {
            "id": command["id"],
            "name": command["name"],
            "type": 1,
            "options": options,
        }
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(
        self,
        user: str | EmuUser,
        path: str,
        options: dict[str, Any] | None = None,
        *,
        channel: int | None = None,
        locale: str = "en-US",
    ) -> Interaction:
        """``user`` runs ``/path`` (e.g. ``"play alak"``) with ``options`` in ``channel``."""
        member = self.user(user)
        data = self._command_data(member, path, options or {})
        return await self._send_interaction(
            APPLICATION_COMMAND, member, channel or self.channel_id, data, locale=locale
        )

    async def autocomplete(
        self,
        user: str | EmuUser,
        path: str,
        options: dict[str, Any],
        focused: str,
        *,
        channel: int | None = None,
        locale: str = "en-US",
        timeout: float = 10.0,
    ) -> list[dict[str, Any]]:
        """The choices the bot suggests while ``user`` types ``options[focused]``."""
        member = self.user(user)
        data = self._command_data(member, path, options, focused=focused)
        interaction = await self._send_interaction(
            AUTOCOMPLETE, member, channel or self.channel_id, data, locale=locale
        )
        await interaction.acknowledged(timeout)
        return interaction.choices or []

    async def click(
        self,
        user: str | EmuUser,
        message: Message,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        locale: str = "en-US",
    ) -> Interaction:
        """``user`` presses a button of ``message`` (by custom_id or by label)."""
        if custom_id is None:
            if label is None:
                raise ValueError("give the button's custom_id or its label")
            custom_id = message.button(label)["custom_id"]
        current = self.messages.get(message.id, message)
        if custom_id not in {button.get("custom_id") for button in current.buttons()}:
            raise ComponentGone(f"message {message.id} has no button {custom_id!r} any more")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._send_interaction(
            MESSAGE_COMPONENT, self.user(user), current.channel_id, data,
            message=current, locale=locale,
        )

    # ----- REST ---------------------------------------------------------------------------------

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Attachment]]:
        if request.content_type.startswith("multipart/"):
            payload: Any = None
            files: list[Attachment] = []
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                elif part.name and part.name.startswith("files["):
                    data = await part.read()
                    files.append(
                        Attachment(
                            part.filename or "file",
                            bytes(data),
                            part.headers.get("Content-Type", "application/octet-stream"),
                        )
                    )
            return payload, files
        if request.can_read_body:
            text = await request.text()
            return (json.loads(text) if text else None), []
        return None, []

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        method = request.method
        try:
            payload, files = await self._read_body(request)
        except ConnectionResetError:  # the bot died mid-request (a crash test): nobody to answer
            return web.Response(status=499)
        parts = path.strip("/").split("/")
        interaction = self._interaction_of(parts)
        channel_id = int(parts[1]) if parts[0] == "channels" and parts[1].isdigit() else None
        sent = Request(
            method, path, payload, tuple(f.filename for f in files), time.perf_counter(),
            None if interaction is None else interaction.id, channel_id,
        )
        self.requests.append(sent)
        self._record("request", sent, interaction)
        if self.rest_delay:
            await asyncio.sleep(self.rest_delay / 2)  # the request's way here
        is_webhook = parts[0] in ("interactions", "webhooks")
        if not is_webhook and request.headers.get("Authorization") != f"Bot {self.token}":
            response = _error(401, "401: Unauthorized")
        else:
            try:
                response = await self._route(method, parts, request, payload, files)
            except Refused as refused:
                response = _json(refused.body, status=refused.status)
                if method != "GET":
                    self._refuse(method, path, refused, interaction)
            except LookupError as exc:
                refused = Refused(404, UNKNOWN_CHANNEL, f"Unknown: {exc}")
                response = _json(refused.body, status=404)
                if method != "GET":
                    self._refuse(method, path, refused, interaction)
        if self.rest_delay:
            await asyncio.sleep(self.rest_delay / 2)  # the answer's way back
        return response

    def _refuse(self, method: str, path: str, refused: Refused,
                interaction: Interaction | None) -> None:
        refusal = Refusal(method, path, refused.status, refused.code, refused.body,
                          None if interaction is None else interaction.id)
        self.refusals.append(refusal)
        self._record("refused", refusal, interaction)

    def _interaction_of(self, parts: list[str]) -> Interaction | None:
        """The interaction a callback or webhook route answers."""
        if parts[0] == "interactions" and len(parts) > 2:
            return self._by_token.get(parts[2])
        if parts[0] == "webhooks" and len(parts) > 2:
            return self._by_token.get(parts[2])
        return None

    async def _route(
        self,
        method: str,
        parts: list[str],
        request: web.Request,
        payload: Any,
        files: list[Attachment],
    ) -> web.StreamResponse:
        match (method, parts):
            case ("GET", ["users", "@me"]):
                return _json({**self.bot_user.payload(), "verified": True, "mfa_enabled": False})
            case ("GET", ["oauth2", "applications", "@me"]):
                return _json(self._application_payload())
            case ("GET", ["applications", "@me"]):
                return _json(self._application_payload())
            case ("GET", ["gateway", *rest]):
                data: dict[str, Any] = {"url": self.gateway_url}
                if rest == ["bot"]:
                    data |= {
                        "shards": self.shard_count,
                        "session_start_limit": {
                            "total": 1000, "remaining": 1000,
                            "reset_after": 0, "max_concurrency": 1,
                        },
                    }
                return _json(data)
            case ("PUT", ["applications", _, "commands"]):
                return _json(self._sync_commands(None, payload or []))
            case ("PUT", ["applications", _, "guilds", guild, "commands"]):
                return _json(self._sync_commands(int(guild), payload or []))
            case ("GET", ["applications", _, "commands"]):
                return _json(self.commands.get(None, []))
            case ("GET", ["applications", _, "guilds", guild, "commands"]):
                return _json(self.commands.get(int(guild), []))
            case ("POST", ["interactions", iid, token, "callback"]):
                return await self._interaction_callback(int(iid), token, payload, files)
            case ("POST", ["webhooks", _, token]):
                interaction = self._live_interaction(token)
                body = payload or {}
                original = self.messages.get(interaction.original_id or 0)
                if interaction.callback_type == 5 and original and original.flags & LOADING:
                    # Discord: the first follow-up after a deferred reply edits the "thinking…"
                    # placeholder (no new message, so nobody is notified), which keeps the
                    # deferral's ephemeral flag.
                    self._check_message(body, files, creating=False)
                    body = {**body, "flags": original.flags & EPHEMERAL}
                    message = self._edit_message(original, body, files, interaction)
                else:
                    self._check_message(body, files, creating=True)
                    message = self._create_message(
                        interaction.channel_id, body, files, interaction=interaction
                    )
                if request.query.get("wait") in ("true", "1", "True"):
                    return _json(message.data)
                return web.Response(status=204)
            case ("GET", ["webhooks", _, token, "messages", target]):
                interaction = self._live_interaction(token)
                return _json(self._webhook_target(interaction, target).data)
            case ("PATCH", ["webhooks", _, token, "messages", target]):
                interaction = self._live_interaction(token)
                message = self._webhook_target(interaction, target)
                self._check_message(payload or {}, files, creating=False)
                return _json(self._edit_message(message, payload or {}, files, interaction).data)
            case ("DELETE", ["webhooks", _, token, "messages", target]):
                interaction = self._live_interaction(token)
                message = self._webhook_target(interaction, target)
                self.messages.pop(message.id, None)
                self._record("delete", message)
                return web.Response(status=204)
            case ("GET", ["users", uid]):
                found = [u for u in (self.bot_user, *self.users.values()) if str(u.id) == uid]
                if not found:
                    raise LookupError(f"user {uid}")
                return _json(found[0].payload())
            case ("GET", ["channels", cid]):
                channel = self._channel_payload(int(cid))
                self._require(int(cid), VIEW_CHANNEL)
                return _json(channel)
            case ("POST", ["channels", cid, "messages"]):
                return _json(self._post_in_channel(int(cid), payload or {}, files).data)
            case ("GET", ["channels", cid, "messages", mid]):
                self._require(int(cid), VIEW_CHANNEL | READ_MESSAGE_HISTORY)
                return _json(self._message(int(cid), int(mid)).data)
            case ("PATCH", ["channels", cid, "messages", mid]):
                message = self._message(int(cid), int(mid))
                if message.author != self.bot_user:
                    raise Refused(403, CANNOT_EDIT_OTHERS,
                                  "Cannot edit a message authored by another user")
                self._check_message(payload or {}, files, creating=False)
                return _json(self._edit_message(message, payload or {}, files, None).data)
            case ("DELETE", ["channels", cid, "messages", mid]):
                message = self._message(int(cid), int(mid))
                if message.author != self.bot_user:
                    self._require(int(cid), MANAGE_MESSAGES)
                self.messages.pop(message.id, None)
                self._record("delete", message)
                return web.Response(status=204)
            case ("POST", ["channels", cid, "messages", mid, "threads"]):
                message = self._message(int(cid), int(mid))
                thread = await self._create_thread(int(cid), payload or {}, message)
                return _json(thread)
            case ("POST", ["channels", cid, "threads"]):
                return _json(await self._create_thread(int(cid), payload or {}, None))
            case ("PUT", ["channels", cid, "thread-members", _]):
                self._channel_payload(int(cid))
                # Adding a member needs the right to talk in the thread.
                self._require(int(cid), VIEW_CHANNEL | SEND_MESSAGES_IN_THREADS)
                return web.Response(status=204)
            case ("PATCH", ["channels", cid]):
                channel = self._channel_payload(int(cid))
                body = payload or {}
                # Taking an unlocked thread out of the archive is open to anyone who may talk;
                # a thread's creator may also rename it, archive it and set its auto-archive
                # delay (discord-api-docs, topics/threads, "Editing & Deleting Threads");
                # anything else about a channel needs Manage Threads.
                unarchive = set(body) == {"archived"} and body["archived"] is False
                own = (channel.get("owner_id") == str(self.bot_user.id)
                       and set(body) <= {"name", "archived", "auto_archive_duration"})
                if not (unarchive or own):
                    self._require(int(cid), MANAGE_THREADS)
                duration = body.get("auto_archive_duration")
                if duration is not None and duration not in (60, 1440, 4320, 10080):
                    errors = limits.FormErrors()
                    errors.add(("auto_archive_duration",), "BASE_TYPE_CHOICES",
                               "Value must be one of (60, 1440, 4320, 10080).")
                    raise Refused(400, limits.INVALID_FORM_BODY, "Invalid Form Body",
                                  errors.tree)
                if "name" in body:
                    errors = limits.FormErrors()
                    limits.check_thread_name(body["name"], errors)
                    if errors:
                        raise Refused(400, limits.INVALID_FORM_BODY, "Invalid Form Body",
                                      errors.tree)
                for key in ("name", "archived", "locked", "auto_archive_duration"):
                    if key in body:
                        if key == "name":
                            channel["name"] = body[key]
                        else:
                            channel["thread_metadata"][key] = body[key]
                return _json(channel)
            case ("POST", ["users", "@me", "channels"]):
                return _json(self._dm_channel(int(payload["recipient_id"])))
        return _error(404, f"404: the emulator does not implement {method} /{'/'.join(parts)}")

    def _application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "Local emulator application",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "summary": "",
            "rpc_origins": [],
        }

    def _sync_commands(self, guild_id: int | None, commands: list[dict]) -> list[dict]:
        stored = []
        for command in commands:
            stored.append(
                {
                    **command,
                    "id": str(self._next_id()),
                    "application_id": str(self.application_id),
                    "version": str(self._next_id()),
                    "type": command.get("type", 1),
                    "guild_id": None if guild_id is None else str(guild_id),
                    "default_member_permissions": command.get("default_member_permissions"),
                }
            )
        self.commands[guild_id] = stored
        self._record("sync", {"guild_id": guild_id, "commands": stored})
        return stored

    def _live_interaction(self, token: str) -> Interaction:
        """The interaction of a webhook token that still works: acknowledged in time, and less
        than 15 minutes old (Discord answers Unknown Webhook otherwise)."""
        interaction = self._by_token.get(token)
        if interaction is None:
            raise Refused(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        age = time.perf_counter() - interaction.sent_at
        if age > self.token_lifetime or (
            interaction.callback_type is None and age > self.ack_deadline
        ):
            raise Refused(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        return interaction

    def _webhook_target(self, interaction: Interaction, target: str) -> Message:
        if target == "@original":
            message = self.messages.get(interaction.original_id or 0)
        else:
            message = self.messages.get(int(target)) if target.isdigit() else None
            if message is not None and message.interaction_id != interaction.id:
                message = None
        if message is None:
            raise Refused(404, UNKNOWN_MESSAGE, "Unknown Message")
        return message

    def _message(self, channel_id: int, message_id: int) -> Message:
        self._channel_payload(channel_id)
        message = self.messages.get(message_id)
        if message is None or message.channel_id != channel_id:
            raise Refused(404, UNKNOWN_MESSAGE, "Unknown Message")
        return message

    def _check_message(
        self, payload: dict[str, Any], files: list[Attachment], *, creating: bool
    ) -> None:
        """Discord's limits on a message body (``limits``)."""
        if limits.oversized(files):
            raise Refused(413, limits.TOO_LARGE, "Request entity too large")
        errors = limits.FormErrors()
        limits.check_message(payload, files, creating=creating, errors=errors)
        if errors:
            raise Refused(400, limits.INVALID_FORM_BODY, "Invalid Form Body", errors.tree)
        if creating and limits.is_empty(payload, files):
            raise Refused(400, limits.EMPTY_MESSAGE, "Cannot send an empty message")

    def _post_in_channel(
        self, channel_id: int, payload: dict[str, Any], files: list[Attachment]
    ) -> Message:
        """``POST /channels/{id}/messages``: permissions, limits, then the nonce (a message
        sent again with the same nonce is the first one)."""
        channel = self._channel_payload(channel_id)
        if channel["type"] != DM_CHANNEL:
            self._require(channel_id, to_send(channel["type"] == PUBLIC_THREAD, bool(files)))
        self._check_message(payload, files, creating=True)
        nonce = payload.get("nonce")
        key = None
        if nonce is not None and payload.get("enforce_nonce"):
            key = (channel_id, self.bot_user.id, str(nonce))
            now = time.perf_counter()
            seen = self._nonces.get(key)
            if seen is not None and now - seen[1] <= self.nonce_seconds:
                first = self.messages.get(seen[0])
                if first is not None:
                    return first
        message = self._create_message(channel_id, payload, files)
        if key is not None:
            self._nonces[key] = (message.id, time.perf_counter())
        return message

    def _attachments(self, files: list[Attachment]) -> list[dict[str, Any]]:
        return [
            {
                "id": str(self._next_id()),
                "filename": f.filename,
                "size": len(f.data),
                "url": f"http://{self.host}:{self.port}/attachments/{f.filename}",
                "proxy_url": f"http://{self.host}:{self.port}/attachments/{f.filename}",
                "content_type": f.content_type,
            }
            for f in files
        ]

    def _create_message(
        self,
        channel_id: int,
        payload: dict[str, Any],
        files: list[Attachment],
        *,
        interaction: Interaction | None = None,
        flags: int | None = None,
    ) -> Message:
        message_id = self._next_id()
        flag_bits = int(payload.get("flags") or 0) if flags is None else flags
        content = payload.get("content") or ""
        notified = mentions.notified_users(
            content, payload.get("allowed_mentions"), webhook=interaction is not None,
            author_id=self.bot_user.id, ephemeral=bool(flag_bits & EPHEMERAL),
        )
        data: dict[str, Any] = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": self.bot_user.payload(),
            "content": content,
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": self._user_payloads(notified),
            "mention_roles": [],
            "attachments": self._attachments(files),
            "embeds": payload.get("embeds") or [],
            "components": payload.get("components") or [],
            "pinned": False,
            "type": 0 if interaction is None else 20,
            "flags": flag_bits,
        }
        if self.guild_of(channel_id) is not None:
            data["guild_id"] = str(self.guild_of(channel_id))
        if payload.get("nonce") is not None:
            data["nonce"] = payload["nonce"]
        if interaction is not None:
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            data["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": {"0": str(self.guild_of(channel_id))},
            }
        message = Message(
            id=message_id,
            channel_id=channel_id,
            author=self.bot_user,
            data=data,
            files=list(files),
            ephemeral=bool(flag_bits & EPHEMERAL),
            interaction_id=None if interaction is None else interaction.id,
            notified=notified,
        )
        self.messages[message_id] = message
        if channel_id in self.channels:
            self.channels[channel_id]["last_message_id"] = str(message_id)
        if interaction is not None:
            interaction.messages.append(message)
        self._record("message", message, interaction, notified=notified)
        return message

    def _user_payloads(self, user_ids: Iterable[int]) -> list[dict[str, Any]]:
        wanted = set(user_ids)
        return [u.payload() for u in self.users.values() if u.id in wanted]

    def _edit_message(
        self,
        message: Message,
        payload: dict[str, Any],
        files: list[Attachment],
        interaction: Interaction | None,
    ) -> Message:
        data = dict(message.data)
        for key in ("content", "embeds", "components"):
            if key in payload:
                data[key] = payload[key] or ([] if key != "content" else "")
        if "content" in payload:
            # The mentions are parsed again (and notify nobody: only creation notifies).
            parsed = mentions.notified_users(
                data["content"] or "", payload.get("allowed_mentions"),
                webhook=message.interaction_id is not None or interaction is not None,
                author_id=self.bot_user.id, ephemeral=False,
            )
            data["mentions"] = self._user_payloads(parsed)
        if "flags" in payload and payload["flags"] is not None:
            data["flags"] = int(payload["flags"])
        # Editing a "thinking…" placeholder turns it into a normal message.
        data["flags"] = int(data.get("flags") or 0) & ~LOADING
        # Attachments: keep those listed by id (discord.py sends the list), add the new files.
        kept_files = list(message.files)
        if "attachments" in payload:
            keep_ids = {str(a.get("id")) for a in payload["attachments"] if "filename" not in a}
            old = data.get("attachments") or []
            kept = [a for a in old if a["id"] in keep_ids]
            pairs = zip(message.files, old, strict=False)
            kept_files = [f for f, a in pairs if a["id"] in keep_ids]
            data["attachments"] = kept + self._attachments(files)
            kept_files += files
        elif files:
            data["attachments"] = (data.get("attachments") or []) + self._attachments(files)
            kept_files += files
        data["edited_timestamp"] = _now_iso()
        message.data = data
        message.files = kept_files
        if interaction is not None and message.interaction_id is None:
            message.interaction_id = interaction.id
        self._record("edit", message, interaction)
        return message

    async def _interaction_callback(
        self, interaction_id: int, token: str, payload: Any, files: list[Attachment]
    ) -> web.Response:
        interaction = self.interactions.get(interaction_id)
        if interaction is None or interaction.token != token:
            raise Refused(404, UNKNOWN_INTERACTION, "Unknown interaction")
        if interaction.callback_type is not None:
            raise Refused(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        if time.perf_counter() - interaction.sent_at > self.ack_deadline:
            # Too late: Discord has told the user the application did not respond.
            raise Refused(404, UNKNOWN_INTERACTION, "Unknown interaction")
        kind = int(payload["type"])
        data = payload.get("data") or {}
        if kind in (4, 7):
            self._check_message(data, files, creating=kind == 4)
        elif kind == 8:
            errors = limits.FormErrors()
            limits.check_choices(list(data.get("choices") or []), errors)
            if errors:
                raise Refused(400, limits.INVALID_FORM_BODY, "Invalid Form Body", errors.tree)
        elif kind not in (5, 6, 9):
            raise Refused(400, limits.INVALID_FORM_BODY,
                          f"the emulator does not implement callback type {kind}")
        source = interaction.payload.get("message")
        if kind in (6, 7) and source is None:
            raise Refused(400, limits.INVALID_FORM_BODY, "Interaction has no message to update")
        interaction.callback_type = kind
        interaction.callback_at = time.perf_counter()
        resource: dict[str, Any] = {"type": kind}
        response_message: Message | None = None
        if kind == 4:  # channel message with source
            response_message = self._create_message(
                interaction.channel_id, data, files, interaction=interaction
            )
            interaction.original_id = response_message.id
        elif kind == 5:  # deferred: a "thinking…" placeholder becomes the original response
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            response_message = self._create_message(
                interaction.channel_id, {}, [], interaction=interaction, flags=flags
            )
            interaction.original_id = response_message.id
        elif kind in (6, 7):  # (deferred) update of the clicked message
            assert source is not None
            target = self.messages[int(source["id"])]
            interaction.original_id = target.id
            if kind == 7:
                response_message = self._edit_message(target, data, files, interaction)
        elif kind == 8:  # autocomplete result
            interaction.choices = list(data.get("choices") or [])
        if response_message is not None:
            resource["message"] = response_message.data
        self._record("callback", interaction, interaction)
        assert interaction._acked is not None
        if not interaction._acked.done():
            interaction._acked.set_result(kind)
        original = interaction.original_id
        body = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_id": None if original is None else str(original),
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(
                    response_message is not None and response_message.ephemeral
                ),
            },
            "resource": resource,
        }
        return _json(body)

    async def _create_thread(
        self, parent_id: int, payload: dict[str, Any], message: Message | None
    ) -> dict[str, Any]:
        parent = self._channel_payload(parent_id)
        self._require(parent_id, VIEW_CHANNEL | CREATE_PUBLIC_THREADS)
        errors = limits.FormErrors()
        limits.check_thread_name(payload.get("name"), errors)
        if errors:
            raise Refused(400, limits.INVALID_FORM_BODY, "Invalid Form Body", errors.tree)
        if message is not None and message.id in self.channels:
            # A message starts one thread, which has the message's id.
            raise Refused(400, THREAD_ALREADY_CREATED,
                          "A thread has already been created for this message")
        thread_id = message.id if message is not None else self._next_id()
        thread = {
            "id": str(thread_id),
            "type": int(payload.get("type", PUBLIC_THREAD)),
            "guild_id": parent["guild_id"],
            "parent_id": str(parent_id),
            "owner_id": str(self.bot_user.id),
            "name": payload["name"],
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": int(payload.get("auto_archive_duration") or 10080),
                "archive_timestamp": _now_iso(),
                "locked": False,
                "create_timestamp": _now_iso(),
            },
        }
        self.channels[thread_id] = thread
        self._record("thread", thread)
        with contextlib.suppress(ConnectionError):  # no bot listening (it was just killed)
            await self._dispatch("THREAD_CREATE", {**thread, "newly_created": True},
                                 guild_id=int(parent["guild_id"]))
        return thread

    def _dm_channel(self, recipient_id: int) -> dict[str, Any]:
        for channel in self.channels.values():
            if channel["type"] == DM_CHANNEL and channel["recipients"][0]["id"] == str(
                recipient_id
            ):
                return channel
        recipient = next(u for u in self.users.values() if u.id == recipient_id)
        channel_id = self._next_id()
        channel = {
            "id": str(channel_id),
            "type": DM_CHANNEL,
            "recipients": [recipient.payload()],
            "last_message_id": None,
        }
        self.channels[channel_id] = channel
        return channel


@contextlib.asynccontextmanager
async def running_emulator(**kwargs: Any):
    """``async with running_emulator() as emu:`` — started, and closed afterwards."""
    emulator = Emulator(**kwargs)
    await emulator.start()
    try:
        yield emulator
    finally:
        await emulator.close()
