"""Discord's client for Activities, the part that talks to the Activity: what it answers to the
Embedded App SDK's messages, kept here in Python so tests can drive it message by message (the
page that frames the Activity, ``activity_web``, only carries the messages across).

An Activity runs in an iframe; the SDK and the client exchange ``[opcode, payload]`` arrays by
``postMessage``. Opcodes (SDK ``src/Discord.ts``, ``Opcodes``): ``HANDSHAKE`` 0, ``FRAME`` 1,
``CLOSE`` 2, ``HELLO`` 3.

* The SDK reads ``frame_id``, ``instance_id`` and ``platform`` (``desktop`` or ``mobile``) from
  its URL's query (also ``guild_id``, ``channel_id``, ``location_id``), then sends
  ``[HANDSHAKE, {v: 1, encoding: "json", client_id, frame_id, sdk_version}]``. The client
  answers ``[FRAME, {cmd: "DISPATCH", evt: "READY", nonce: null, data: {v, config: {cdn_host,
  api_endpoint, environment}, user}}]`` (``schema/events.ts``, READY); a wrong ``client_id``
  closes with ``[CLOSE, {code: 4000}]`` (``Constants.ts`` ``RPCCloseCodes``), as do a wrong
  version (4004) and encoding (4005).
* Commands come as ``[FRAME, {cmd, args, nonce}]``; the answer is ``[FRAME, {cmd, evt: null,
  nonce, data}]``, or ``evt: "ERROR"`` with ``data: {code, message}`` (``schema/index.ts``
  ``IncomingPayload``: the four keys are always there; ``Discord.ts`` ``handleFrame`` matches
  answers to commands by ``nonce``). Error codes: ``RPCErrorCodes`` (4002 invalid command, 4004
  invalid event, 4006 invalid permissions, 4007 invalid client id, 4009 invalid token) and the
  RPC table's 5000 "OAuth2 error" (discord-api-docs ``topics/opcodes-and-status-codes.mdx``,
  "RPC Error Codes"); the docs' ERROR sample is ``{code: 4006, message: "Not authenticated or
  invalid scope"}`` (``developer-tools/embedded-app-sdk.mdx``).
* ``AUTHORIZE`` (``commands/authorize.ts``: ``client_id``, ``scope``, ``response_type``,
  ``state``, ``prompt``): "If the user does not yet have a valid token for all scopes
  requested, this command will open an OAuth modal"; the answer is ``{code}``, a code of the
  emulator's OAuth2 for the local user the page was opened as, exchanged by the Activity's
  server without a ``redirect_uri`` (as Discord's Activity examples do). A refusal in the modal
  is ERROR 5000 "OAuth2 Error: access_denied: The resource owner or authorization server denied
  the request" (Discord's answer as quoted in kuylar/discord-embedded-godot#9).
* ``AUTHENTICATE`` ``{access_token}`` answers ``{access_token, user, scopes, expires,
  application}`` (``generated/schemas.ts`` ``AuthenticateResponseSchema``).
* ``SUBSCRIBE`` / ``UNSUBSCRIBE`` (``{cmd, args, evt, nonce}``: ``Discord.ts`` ``subscribe``
  puts the event beside the args) answer ``{evt}`` (``responses.ts``
  ``SubscribeResponse``); events are ``schema/events.ts``' ``Events``, with the scopes the SDK
  reference lists (CURRENT_USER_UPDATE needs ``identify``, CURRENT_GUILD_MEMBER_UPDATE also
  ``guilds.members.read``, voice events ``rpc.voice.read``, RELATIONSHIP_UPDATE
  ``relationships.read``; the others none). The emulator sends
  ``ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE`` when someone joins or leaves the instance.
* ``GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS`` answers ``{participants}``,
  ``USER_SETTINGS_GET_LOCALE`` (``identify``) ``{locale}``, ``CAPTURE_LOG`` (the SDK forwards the
  page's console to it once READY) ``null``. Other commands get ERROR 4002 saying the emulator
  does not implement them.
* ``[CLOSE, {code, message}]`` from the Activity closes it (``how-activities-work.mdx``: "A code
  other than CLOSE_NORMAL will display the message to the user").

Not confirmed anywhere: what Discord does with a FRAME before the handshake or a handshake for
another ``frame_id`` (the emulator answers ERROR 4000 and CLOSE 1003); whether events that need
no scope may be subscribed before AUTHENTICATE (the emulator allows it).
"""

from __future__ import annotations

import asyncio
import secrets
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from emulator.models import EmuUser
from emulator.oauth2 import ACCESS_DENIED, KNOWN_SCOPES, AuthorizationRequest

if TYPE_CHECKING:
    from emulator.activities import ActivityInstance
    from emulator.server import Emulator

#: postMessage opcodes.
HANDSHAKE, FRAME, CLOSE, HELLO = 0, 1, 2, 3
#: Close codes (SDK ``RPCCloseCodes``).
CLOSE_NORMAL, CLOSE_UNSUPPORTED = 1000, 1003
INVALID_CLIENT_ID_CLOSE, INVALID_VERSION, INVALID_ENCODING = 4000, 4004, 4005
#: Error codes (SDK ``RPCErrorCodes``, and the RPC table's OAuth2 error).
INVALID_PAYLOAD, INVALID_COMMAND, INVALID_EVENT = 4000, 4002, 4004
INVALID_PERMISSIONS, INVALID_CLIENT_ID, INVALID_TOKEN, OAUTH2_ERROR = 4006, 4007, 4009, 5000
NOT_AUTHENTICATED = "Not authenticated or invalid scope"
#: The events a page may subscribe to, and the scopes each needs.
EVENT_SCOPES: dict[str, frozenset[str]] = {
    "VOICE_STATE_UPDATE": frozenset({"rpc.voice.read"}),
    "SPEAKING_START": frozenset({"rpc.voice.read"}),
    "SPEAKING_STOP": frozenset({"rpc.voice.read"}),
    "ACTIVITY_LAYOUT_MODE_UPDATE": frozenset(),
    "ORIENTATION_UPDATE": frozenset(),
    "CURRENT_USER_UPDATE": frozenset({"identify"}),
    "CURRENT_GUILD_MEMBER_UPDATE": frozenset({"identify", "guilds.members.read"}),
    "ENTITLEMENT_CREATE": frozenset(),
    "THERMAL_STATE_UPDATE": frozenset(),
    "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE": frozenset(),
    "RELATIONSHIP_UPDATE": frozenset({"relationships.read"}),
    "ACTIVITY_JOIN": frozenset(),
    "QUEST_ENROLLMENT_STATUS_UPDATE": frozenset(),
}
PARTICIPANTS_UPDATE = "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"

Message = list[Any]


def frame(cmd: str, nonce: str | None, data: Any, evt: str | None = None) -> Message:
    return [FRAME, {"cmd": cmd, "evt": evt, "nonce": nonce, "data": data}]


def error(cmd: str, nonce: str | None, code: int, message: str) -> Message:
    return frame(cmd, nonce, {"code": code, "message": message}, evt="ERROR")


def participant(user: EmuUser) -> dict[str, Any]:
    """A user as ``GetActivityInstanceConnectedParticipantsResponseSchema`` describes one."""
    return {"id": str(user.id), "username": user.name, "global_name": user.name.capitalize(),
            "discriminator": "0", "avatar": None, "flags": 0, "bot": user.bot}


@dataclass
class Answer:
    """What the client does after a message of the Activity: messages to post to it, a
    consent to ask the user for (AUTHORIZE's modal), or the Activity closed."""

    send: list[Message] = field(default_factory=list)
    ask: dict[str, Any] | None = None
    closed: dict[str, Any] | None = None

    def payload(self) -> dict[str, Any]:
        return {"send": self.send, "ask": self.ask, "closed": self.closed}


@dataclass
class ActivityClient:
    """One user's Discord client framing one Activity instance (one iframe, one
    ``frame_id``)."""

    emulator: Emulator
    user: EmuUser
    instance: ActivityInstance
    #: The secret in the client page's address.
    session_id: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    frame_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    platform: str = "desktop"
    ready: bool = False
    closed: dict[str, Any] | None = None
    #: The authorization AUTHENTICATE accepted (its scopes allow commands and events).
    scopes: frozenset[str] | None = None
    subscriptions: set[str] = field(default_factory=set)
    #: AUTHORIZE commands waiting for the user's consent, by nonce.
    asking: dict[str, AuthorizationRequest] = field(default_factory=dict)
    #: What the Activity logged (CAPTURE_LOG): (level, message).
    logs: list[tuple[str, str]] = field(default_factory=list)
    #: Events for the Activity that no command asked for (DISPATCH), in order; None ends the
    #: page's event stream.
    outbox: asyncio.Queue[Message | None] = field(default_factory=asyncio.Queue)

    # ----- where the Activity runs ----------------------------------------------------------

    def frame_query(self) -> dict[str, str]:
        """The query Discord gives the Activity's iframe (what the SDK reads)."""
        query = {"frame_id": self.frame_id, "instance_id": self.instance.instance_id,
                 "platform": self.platform, "channel_id": str(self.instance.channel_id),
                 "location_id": self.instance.location_id}
        if self.instance.guild_id is not None:
            query["guild_id"] = str(self.instance.guild_id)
        return query

    def reopen(self) -> None:
        """The page is loaded (again): the Activity will connect afresh."""
        if self.ready and self.closed is None:
            self.disconnect()
        self.closed, self.ready, self.scopes = None, False, None
        self.subscriptions.clear()
        self.asking.clear()

    def disconnect(self) -> None:
        """The page went away: its user leaves the Activity."""
        if self.closed is None:
            self._close(CLOSE_NORMAL, "the client page was closed")

    # ----- the Activity's messages ----------------------------------------------------------

    def receive(self, message: Any) -> Answer:
        """The client's answer to one ``postMessage`` of the Activity."""
        if self.closed is not None or not isinstance(message, list) or len(message) != 2:
            return Answer()
        opcode, payload = message
        payload = payload if isinstance(payload, dict) else {}
        if opcode == HANDSHAKE:
            return self._handshake(payload)
        if opcode == CLOSE:
            code = payload.get("code", CLOSE_NORMAL)
            self._close(code, str(payload.get("message") or ""))
            return Answer(closed=self.closed)
        if opcode == FRAME:
            cmd, nonce = str(payload.get("cmd")), payload.get("nonce")
            if not self.ready:
                return Answer([error(cmd, nonce, INVALID_PAYLOAD,
                                     "Invalid payload: no handshake yet")])
            if not isinstance(nonce, str):
                return Answer([error(cmd, None, INVALID_PAYLOAD, "Invalid payload: no nonce")])
            if cmd in ("SUBSCRIBE", "UNSUBSCRIBE"):  # the event is beside the args
                return self._subscription(cmd, nonce, payload.get("evt"),
                                          subscribe=cmd == "SUBSCRIBE")
            return self._command(cmd, nonce, payload.get("args") or {})
        return Answer()  # HELLO and anything else: nothing to say

    def _handshake(self, payload: dict[str, Any]) -> Answer:
        if payload.get("frame_id") != self.frame_id:
            return self._refuse_connection(CLOSE_UNSUPPORTED, "Invalid frame_id")
        if payload.get("client_id") != str(self.emulator.application_id):
            return self._refuse_connection(INVALID_CLIENT_ID_CLOSE, "Invalid Client ID")
        if payload.get("v") != 1:
            return self._refuse_connection(INVALID_VERSION, "Invalid Version")
        if payload.get("encoding", "json") != "json":
            return self._refuse_connection(INVALID_ENCODING, "Invalid Encoding")
        self.ready, self.scopes, self.subscriptions = True, None, set()
        emu = self.emulator
        user = {"id": str(self.user.id), "username": self.user.name, "discriminator": "0"}
        ready = frame("DISPATCH", None, {
            "v": 1,
            "config": {"cdn_host": "cdn.discordapp.com",
                       "api_endpoint": f"//{emu.host}:{emu.port}/api",
                       "environment": "production"},
            "user": user,
        }, evt="READY")
        self.emulator.activity_join(self)
        return Answer([ready])

    def _refuse_connection(self, code: int, message: str) -> Answer:
        self._close(code, message)
        return Answer([[CLOSE, {"code": code, "message": message}]], closed=self.closed)

    def _close(self, code: int, message: str) -> None:
        self.closed = {"code": code, "message": message}
        self.emulator.activity_leave(self)

    def _command(self, cmd: str, nonce: str, args: dict[str, Any]) -> Answer:
        handlers = {
            "AUTHORIZE": self._authorize, "AUTHENTICATE": self._authenticate,
            "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS": self._participants,
            "USER_SETTINGS_GET_LOCALE": self._locale, "CAPTURE_LOG": self._capture_log,
        }
        handler = handlers.get(cmd)
        if handler is None:
            return Answer([error(cmd, nonce, INVALID_COMMAND,
                                 f"Invalid command: the emulator does not implement {cmd}")])
        return handler(cmd, nonce, args if isinstance(args, dict) else {})

    def _has(self, needed: frozenset[str]) -> bool:
        return not needed or (self.scopes is not None and needed <= self.scopes)

    def _authorize(self, cmd: str, nonce: str, args: dict[str, Any]) -> Answer:
        if str(args.get("client_id")) != str(self.emulator.application_id):
            return Answer([error(cmd, nonce, INVALID_CLIENT_ID, "Invalid client ID")])
        scopes = args.get("scope")
        if (not isinstance(scopes, list) or not scopes
                or any(s not in KNOWN_SCOPES for s in scopes)):
            return Answer([error(cmd, nonce, OAUTH2_ERROR,
                                 f"OAuth2 Error: invalid_scope: Invalid scope {scopes!r}")])
        if args.get("response_type", "code") != "code":
            return Answer([error(cmd, nonce, OAUTH2_ERROR,
                                 "OAuth2 Error: unsupported_response_type")])
        wanted = AuthorizationRequest(str(self.emulator.application_id), tuple(scopes), None,
                                      args.get("state"), args.get("prompt"))
        if set(scopes) <= self.emulator.consents.get(self.user.id, frozenset()):
            return Answer([self._code(cmd, nonce, wanted)])
        # Discord opens its OAuth modal: the page asks the user (``consent``).
        self.asking[nonce] = wanted
        return Answer(ask={"nonce": nonce, "scopes": list(scopes),
                           "application": self.emulator.bot_user.name,
                           "user": self.user.name})

    def _code(self, cmd: str, nonce: str, wanted: AuthorizationRequest) -> Message:
        code = self.emulator.issue_code(self.user, wanted)
        return frame(cmd, nonce, {"code": code})

    def consent(self, nonce: str, granted: bool) -> Answer:
        """The user's answer in the OAuth modal an AUTHORIZE opened."""
        wanted = self.asking.pop(nonce, None)
        if wanted is None or self.closed is not None:
            return Answer()
        if not granted:
            return Answer([error("AUTHORIZE", nonce, OAUTH2_ERROR,
                                 f"OAuth2 Error: access_denied: {ACCESS_DENIED}")])
        return Answer([self._code("AUTHORIZE", nonce, wanted)])

    def _authenticate(self, cmd: str, nonce: str, args: dict[str, Any]) -> Answer:
        found = self.emulator.access_token_of(str(args.get("access_token") or ""))
        if found is None or found.user != self.user:
            return Answer([error(cmd, nonce, INVALID_TOKEN, "Invalid token")])
        self.scopes = frozenset(found.scopes)
        application = self.emulator._application_payload()
        user = {"username": self.user.name, "discriminator": "0", "id": str(self.user.id),
                "avatar": None, "public_flags": 0, "global_name": self.user.name.capitalize()}
        return Answer([frame(cmd, nonce, {
            "access_token": found.access_token, "user": user, "scopes": list(found.scopes),
            "expires": found.expires_iso,
            "application": {"description": application["description"], "icon": None,
                            "id": application["id"], "name": application["name"],
                            "rpc_origins": []},
        })])

    def _subscription(self, cmd: str, nonce: str, event: Any, *, subscribe: bool) -> Answer:
        if event not in EVENT_SCOPES:
            return Answer([error(cmd, nonce, INVALID_EVENT, f"Invalid event: {event}")])
        if subscribe and not self._has(EVENT_SCOPES[event]):
            return Answer([error(cmd, nonce, INVALID_PERMISSIONS, NOT_AUTHENTICATED)])
        if subscribe:
            self.subscriptions.add(event)
        else:
            self.subscriptions.discard(event)
        return Answer([frame(cmd, nonce, {"evt": event})])

    def _participants(self, cmd: str, nonce: str, args: dict[str, Any]) -> Answer:
        return Answer([frame(cmd, nonce, self.emulator.activity_participants(self.instance))])

    def _locale(self, cmd: str, nonce: str, args: dict[str, Any]) -> Answer:
        if not self._has(frozenset({"identify"})):
            return Answer([error(cmd, nonce, INVALID_PERMISSIONS, NOT_AUTHENTICATED)])
        return Answer([frame(cmd, nonce, {"locale": "en-US"})])

    def _capture_log(self, cmd: str, nonce: str, args: dict[str, Any]) -> Answer:
        self.logs.append((str(args.get("level")), str(args.get("message"))))
        return Answer([frame(cmd, nonce, None)])

    # ----- events -----------------------------------------------------------------------------

    def dispatch(self, event: str, data: Any) -> None:
        """Send an event to the Activity if it subscribed to it."""
        if self.ready and self.closed is None and event in self.subscriptions:
            self.outbox.put_nowait(frame("DISPATCH", None, data, evt=event))


class ActivityClients:
    """The users' clients framing Activities; part of ``Emulator``."""

    def _setup_activity_clients(self) -> None:
        #: Every client opened, by session id.
        self.activity_clients: dict[str, ActivityClient] = {}

    def open_activity(self, user: str | EmuUser, *, channel: int | None = None,
                      platform: str = "desktop") -> ActivityClient:
        """``user``'s client opens the Activity in ``channel`` (joining the instance running
        there, else starting one as the App Launcher does): the client that frames it."""
        member = self.user(user)
        instance = self._instance_in(member, channel or self.channel_id)
        client = ActivityClient(self, member, instance, platform=platform)
        self.activity_clients[client.session_id] = client
        return client

    def activity_participants(self, instance: ActivityInstance) -> dict[str, Any]:
        users = [u for u in (self.user_by_id(i) for i in instance.users) if u is not None]
        return {"participants": [participant(u) for u in users]}

    def user_by_id(self, user_id: int) -> EmuUser | None:
        return next((u for u in self.users.values() if u.id == user_id), None)

    def activity_join(self, client: ActivityClient) -> None:
        if client.user.id not in client.instance.users:
            client.instance.users.append(client.user.id)
            self._record("activity_joined", (client.instance.instance_id, client.user))
            self._participants_changed(client.instance)

    def activity_leave(self, client: ActivityClient) -> None:
        still_there = any(c is not client and c.ready and c.closed is None
                          and c.instance is client.instance and c.user == client.user
                          for c in self.activity_clients.values())
        if not still_there and client.user.id in client.instance.users:
            client.instance.users.remove(client.user.id)
            self._record("activity_left", (client.instance.instance_id, client.user))
            self._participants_changed(client.instance)

    def _participants_changed(self, instance: ActivityInstance) -> None:
        data = self.activity_participants(instance)
        for client in self.activity_clients.values():
            if client.instance is instance:
                client.dispatch(PARTICIPANTS_UPDATE, data)
