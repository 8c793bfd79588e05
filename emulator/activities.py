"""Activities: the application setting that turns them on, the Entry Point command that opens
one from the App Launcher, the ``LAUNCH_ACTIVITY`` answer to an interaction, and the Activity
instances they start (who is connected to each comes from the emulated client,
``activity_client``).

What each rule follows (discord-api-docs):

* ``resources/application.mdx`` "Application Flags": ``EMBEDDED`` (``1 << 17``), the flag of an
  app with an Activity; ``activities_enabled`` turns it on (the Developer Portal's switch).
* ``interactions/application-commands.mdx``: command type ``PRIMARY_ENTRY_POINT`` (4);
  "``handler`` can only be set for application commands of type PRIMARY_ENTRY_POINT for
  applications with the EMBEDDED flag"; handlers ``APP_HANDLER`` (1) and
  ``DISCORD_LAUNCH_ACTIVITY`` (2); "``options`` can only be set for application commands of type
  CHAT_INPUT"; "Your app cannot have a PRIMARY_ENTRY_POINT guild command"; "1 global
  PRIMARY_ENTRY_POINT command"; "When you enable Activities, an Entry Point command (named
  "Launch") is automatically created for your app with DISCORD_LAUNCH_ACTIVITY"; "For the Entry
  Point command to be visible to users, an app must have Activities enabled"; with
  ``DISCORD_LAUNCH_ACTIVITY`` "Discord will handle the interaction automatically by launching the
  associated Activity and sending a message to the channel", with ``APP_HANDLER`` the app
  answers (e.g. ``LAUNCH_ACTIVITY``).
* A bulk overwrite of the global commands that leaves the Entry Point command out is refused
  with 400 / 50240 "You cannot remove this app's Entry Point command in a bulk update
  operation…" (Discord's answer as quoted by many bots' logs; not in the docs' code table).
* ``interactions/receiving-and-responding.mdx``: callback ``LAUNCH_ACTIVITY`` (12), "Only
  available for apps with Activities enabled"; the callback response's
  ``interaction.activity_instance_id`` and ``resource.activity_instance.id``.
  ``activities/how-activities-work.mdx``: "Activities can be launched in response to command,
  message component, and modal submission interactions" (so not to autocomplete).
* ``resources/application.mdx`` "Get Application Activity Instance": the instance object, its
  ids (``i-<launch_id>-gc-<guild>-<channel>``, location ``gc-…`` or ``pc-<channel>``), the
  users connected; ``activities/development-guides/multiplayer-experience.mdx``: an unknown
  instance is 404 ``{"message": "404: Not Found", "code": 0}``.

The error codes of the other refusals are not documented; the emulator answers them with
400 / 50035 Invalid Form Body and says why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from emulator import limits
from emulator.api import (
    APPLICATION_COMMAND,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Call,
    Refused,
    json_response,
)
from emulator.models import EmuUser

if TYPE_CHECKING:
    from emulator.interactions import Interaction

#: The application flag of an app with Activities.
EMBEDDED = 1 << 17
#: Application command type of an Entry Point command.
PRIMARY_ENTRY_POINT = 4
#: Entry Point handlers: the app answers the interaction, or Discord launches the Activity.
APP_HANDLER = 1
DISCORD_LAUNCH_ACTIVITY = 2
#: Interaction callback type that launches the app's Activity.
LAUNCH_ACTIVITY = 12
#: 400: a bulk overwrite of the global commands without the Entry Point command.
ENTRY_POINT_REMOVED = 50240
ENTRY_POINT_REMOVED_MESSAGE = (
    "You cannot remove this app's Entry Point command in a bulk update operation. Please "
    "include the Entry Point command in your update request or delete it separately.")
#: The interactions an app may answer by launching its Activity.
LAUNCHABLE_FROM = (APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT)


@dataclass
class ActivityInstance:
    """A running Activity in a channel: the users connected to it (their client pages)."""

    instance_id: str
    launch_id: int
    channel_id: int
    guild_id: int | None
    launched_by: EmuUser
    #: User ids of the users whose client is connected, in the order they joined.
    users: list[int] = field(default_factory=list)

    @property
    def location_id(self) -> str:
        if self.guild_id is None:
            return f"pc-{self.channel_id}"
        return f"gc-{self.guild_id}-{self.channel_id}"

    def payload(self, application_id: int) -> dict[str, Any]:
        location: dict[str, Any] = {
            "id": self.location_id, "kind": self.location_id[:2],
            "channel_id": str(self.channel_id)}
        if self.guild_id is not None:
            location["guild_id"] = str(self.guild_id)
        return {"application_id": str(application_id), "instance_id": self.instance_id,
                "launch_id": str(self.launch_id), "location": location,
                "users": [str(u) for u in self.users]}


class Activities:
    """The Activities setting, Entry Point commands and instances; part of ``Emulator``."""

    def _setup_activities(self, enabled: bool) -> None:
        self.activities_enabled = False
        #: Activity instances by id.
        self.activity_instances: dict[str, ActivityInstance] = {}
        if enabled:
            self.enable_activities()

    # ----- the application setting -------------------------------------------------------------

    @property
    def application_flags(self) -> int:
        return EMBEDDED if self.activities_enabled else 0

    def _application_payload(self) -> dict[str, Any]:
        payload = super()._application_payload()  # type: ignore[misc]
        return {**payload, "flags": int(payload.get("flags") or 0) | self.application_flags}

    def enable_activities(self) -> None:
        """Turn Activities on, as the Developer Portal's switch does: the application gets the
        ``EMBEDDED`` flag and, unless it has one, the default Entry Point command "launch"
        (handled by Discord)."""
        self.activities_enabled = True
        global_commands = self.commands.setdefault(None, [])
        if not any(c.get("type") == PRIMARY_ENTRY_POINT for c in global_commands):
            global_commands.append({
                "id": str(self._next_id()), "application_id": str(self.application_id),
                "version": str(self._next_id()), "type": PRIMARY_ENTRY_POINT,
                "name": "launch", "description": "", "handler": DISCORD_LAUNCH_ACTIVITY,
                "guild_id": None, "default_member_permissions": None,
                "integration_types": sorted(self.install_types), "contexts": None,
            })

    def entry_point(self) -> dict[str, Any] | None:
        """The application's Entry Point command, if it has one."""
        return next((c for c in self.commands.get(None, [])
                     if c.get("type") == PRIMARY_ENTRY_POINT), None)

    # ----- registration (``commands._sync_commands``) ------------------------------------------

    def _check_entry_points(self, guild_id: int | None, commands: list[dict[str, Any]]) -> None:
        """Refuse what Discord refuses about Entry Point commands in a bulk overwrite."""
        errors = limits.FormErrors()
        entry_points = 0
        for index, command in enumerate(commands):
            kind = command.get("type", 1)
            if kind == PRIMARY_ENTRY_POINT:
                entry_points += 1
                if guild_id is not None:
                    errors.add((index, "type"), "APPLICATION_COMMAND_INVALID",
                               "An Entry Point command cannot be a guild command")
                if command.get("options"):
                    errors.add((index, "options"), "APPLICATION_COMMAND_INVALID",
                               "options can only be set for CHAT_INPUT commands")
                handler = command.get("handler")
                if handler is not None and handler not in (APP_HANDLER, DISCORD_LAUNCH_ACTIVITY):
                    errors.add((index, "handler"), "BASE_TYPE_CHOICES",
                               "Value must be one of (1, 2).")
                elif handler is not None and not self.activities_enabled:
                    errors.add((index, "handler"), "APPLICATION_COMMAND_INVALID",
                               "handler needs an application with Activities (EMBEDDED)")
            elif command.get("handler") is not None:
                errors.add((index, "handler"), "APPLICATION_COMMAND_INVALID",
                           "handler can only be set on PRIMARY_ENTRY_POINT commands")
        if entry_points > 1:
            errors.add(("_errors",), "APPLICATION_COMMAND_INVALID",
                       "An application can have only one Entry Point command")
        if errors:
            raise Refused(400, limits.INVALID_FORM_BODY, "Invalid Form Body", errors.tree)
        if guild_id is None and entry_points == 0 and self.entry_point() is not None:
            raise Refused(400, ENTRY_POINT_REMOVED, ENTRY_POINT_REMOVED_MESSAGE)

    # ----- launching -----------------------------------------------------------------------------

    def _instance_in(self, user: EmuUser, channel_id: int) -> ActivityInstance:
        """The channel's running instance (a launch there joins it), or a new one."""
        for instance in self.activity_instances.values():
            if instance.channel_id == channel_id:
                return instance
        launch_id = self.snowflake_now()
        guild_id = self.guild_of(channel_id)
        where = f"pc-{channel_id}" if guild_id is None else f"gc-{guild_id}-{channel_id}"
        instance = ActivityInstance(f"i-{launch_id}-{where}", launch_id, channel_id, guild_id,
                                    user)
        self.activity_instances[instance.instance_id] = instance
        self._record("activity", instance)
        return instance

    async def launch(self, user: str | EmuUser, *, channel: int | None = None,
                     locale: str = "en-US") -> Interaction | ActivityInstance:
        """``user`` runs the app's Entry Point command from the App Launcher in ``channel``.
        With ``DISCORD_LAUNCH_ACTIVITY`` Discord launches the Activity (the instance is
        returned) and says so in the channel; with ``APP_HANDLER`` the bot gets the interaction
        (returned) and answers it. ``LookupError`` where the App Launcher offers no such
        command."""
        member = self.user(user)
        where = channel or self.channel_id
        command = self.entry_point()
        if command is None or not self.activities_enabled:
            raise LookupError("the App Launcher offers no Entry Point command of this app "
                              "(Activities are off or it has none)")
        owners = self.command_owners(member, command, where)
        if not owners:
            raise LookupError(f"/{command['name']} is not offered to {member.name} here")
        if command.get("handler") == APP_HANDLER:
            data = {"id": command["id"], "name": command["name"], "type": PRIMARY_ENTRY_POINT}
            return await self._send_interaction(APPLICATION_COMMAND, member, where, data,
                                                locale=locale, owners=owners)
        instance = self._instance_in(member, where)
        self._create_message(where, {"content": f"{member.mention} started an Activity",
                                     "allowed_mentions": {"parse": []}}, [])
        return instance

    def _check_launch(self, interaction: Interaction) -> None:
        """400 where Discord refuses a ``LAUNCH_ACTIVITY`` answer."""
        if not self.activities_enabled:
            raise Refused(400, limits.INVALID_FORM_BODY,
                          "LAUNCH_ACTIVITY is only available for apps with Activities enabled")
        if interaction.type not in LAUNCHABLE_FROM:
            raise Refused(400, limits.INVALID_FORM_BODY,
                          f"an interaction of type {interaction.type} cannot launch an Activity")

    def _launch_for(self, interaction: Interaction) -> ActivityInstance:
        return self._instance_in(interaction.user, interaction.channel_id)

    # ----- routes (``emulator.routes``) --------------------------------------------------------

    def get_activity_instance(self, call: Call) -> Any:
        instance = self.activity_instances.get(call.params["instance_id"])
        if instance is None or call.params["application.id"] != str(self.application_id):
            return json_response({"message": "404: Not Found", "code": 0}, status=404)
        return json_response(instance.payload(self.application_id))
