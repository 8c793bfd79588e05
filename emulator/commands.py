"""Application commands: what the bot registers (bulk overwrite, global or per server) and how a
user's command is checked against it before it reaches the bot, as Discord's client checks it:
the command and sub-commands exist, required options are given, choices and numbers are valid,
the member has the command's ``default_member_permissions``, and the command is offered where
the user is: its ``contexts`` include the channel's interaction context and an install
authorizes it there (``integration_types``: the server's install, or the user's own).

Registration is checked as Discord documents it (interactions/application-commands,
"Application Command Object" and "Contexts"): ``integration_types`` and ``contexts`` name
installation contexts the application supports and known interaction contexts; a command
without ``integration_types`` is a ``GUILD_INSTALL`` command, one without ``contexts`` may be
used in every context. They are fields of the top-level command only: the option structure has
none, so Discord ignores them on a sub-command (they are dropped, and the sub-command is offered
where its command is)."""

from __future__ import annotations

from typing import Any

from emulator import limits
from emulator.api import (
    BOOLEAN,
    BOT_DM,
    GUILD_CONTEXT,
    GUILD_INSTALL,
    INTEGER,
    NUMBER,
    PRIVATE_CHANNEL,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
    Call,
    Refused,
    json_response,
)
from emulator.models import EmuUser


class HiddenCommand(LookupError):
    """The member lacks the command's ``default_member_permissions``: Discord does not offer it
    to them, so they cannot run it."""


def named(item: dict[str, Any], name: str, locale: str | None) -> bool:
    """Whether a command, option or choice is called ``name``: its own name or, for a user of
    ``locale``, its name in that language (``name_localizations``)."""
    wanted = name.casefold()
    own = str(item.get("name", "")).casefold()
    local = (item.get("name_localizations") or {}).get(locale) if locale else None
    return wanted == own or (local is not None and wanted == str(local).casefold())


def shown_name(item: dict[str, Any], locale: str | None) -> str:
    """The name a user of ``locale`` sees."""
    local = (item.get("name_localizations") or {}).get(locale) if locale else None
    return str(local or item["name"])


def choices_text(choices: list[dict[str, Any]], locale: str | None) -> str:
    """An option's choices, each told apart from the next however many commas or spaces its
    name holds: ``"bank of 3 days, +1 day per move" (3d+1d)``; the value in brackets when it
    is not the name (either may be typed)."""
    shown = []
    for choice in choices:
        name = shown_name(choice, locale)
        value = str(choice["value"])
        shown.append(f'"{name}"' + ("" if value == name else f" ({value})"))
    return ", ".join(shown)


#: Discord's integer options hold -2^53+1 .. 2^53-1, its number options -2^53 .. 2^53
#: (interactions/application-commands, "Application Command Option Type").
INTEGER_RANGE = (-(2**53) + 1, 2**53 - 1)
NUMBER_RANGE = (-(2.0**53), 2.0**53)


def check_range(option: dict[str, Any], value: float) -> None:
    """Refuse a number the client would not send: outside the option's ``min_value`` and
    ``max_value``, or outside what Discord's integer and number options hold."""
    low, high = INTEGER_RANGE if option["type"] == INTEGER else NUMBER_RANGE
    if option.get("min_value") is not None:
        low = max(low, option["min_value"])
    if option.get("max_value") is not None:
        high = min(high, option["max_value"])
    if not low <= value <= high:
        raise LookupError(f"option {option['name']} takes a number from {low} to {high}, "
                          f"not {value}")


def without_contexts(option: dict[str, Any]) -> dict[str, Any]:
    """``option`` and its nested options without ``integration_types`` and ``contexts``: the
    option structure has no such fields, so Discord ignores them there."""
    kept = {k: v for k, v in option.items() if k not in ("integration_types", "contexts")}
    if "options" in option:
        kept["options"] = [without_contexts(o) for o in option.get("options") or []]
    return kept


def without_contexts_below(command: dict[str, Any]) -> dict[str, Any]:
    """``command`` with its own contexts, its options' dropped."""
    if "options" not in command:
        return command
    return {**command, "options": [without_contexts(o) for o in command["options"] or []]}


class Commands:
    """Registered commands and their validation; part of ``Emulator``."""

    def _setup_commands(self) -> None:
        #: Application commands, per scope: None (global) or a guild id.
        self.commands: dict[int | None, list[dict[str, Any]]] = {}

    def find_command(
        self, path: str, locale: str | None = None, channel_id: int | None = None,
    ) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
        """(top-level command, sub-command names, leaf with the options) for ``"play alak"``.
        Names may also be those of ``locale`` (``"jouer alak"`` in ``fr``), as Discord's client
        offers them in the user's language; the names returned are the commands' own. The
        server's own commands count in a channel of a server with the bot (default: the first
        server's)."""
        names = path.strip().lstrip("/").split()
        if not names:
            raise LookupError("empty command")
        guild = self.guild_id if channel_id is None else self.guild_of(channel_id)
        local = self.commands.get(guild, []) if guild in self.bot_guild_ids else []
        scopes = [local, self.commands.get(None, [])]
        for commands in scopes:
            for command in commands:
                if named(command, names[0], locale) and command.get("type", 1) == 1:
                    leaf, subs = command, []
                    for sub in names[1:]:
                        options = [
                            o
                            for o in leaf.get("options", [])
                            if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
                            and named(o, sub, locale)
                        ]
                        if not options:
                            raise LookupError(f"/{names[0]} has no sub-command {sub!r}")
                        leaf = options[0]
                        subs.append(leaf["name"])
                    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
                           for o in leaf.get("options", [])):
                        shown = ", ".join(shown_name(o, locale) for o in leaf["options"])
                        raise LookupError(f"/{path.strip()} needs a sub-command: {shown}")
                    return command, subs, leaf
        known = sorted({shown_name(c, locale) for scope in scopes for c in scope})
        raise LookupError(f"no command /{names[0]} (synced: {', '.join(known) or 'none'})")

    @staticmethod
    def option_name(leaf: dict[str, Any], name: str, locale: str | None = None) -> str | None:
        """The option of ``leaf`` that ``name`` (its own or ``locale``'s) names, or None."""
        return next((o["name"] for o in leaf.get("options", []) if named(o, name, locale)),
                    None)

    def _option_values(
        self, leaf: dict[str, Any], values: dict[str, Any], focused: str | None,
        locale: str | None = None,
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        declared = {o["name"]: o for o in leaf.get("options", [])}
        # Options named in the user's language are sent under their own names.
        values = {self.option_name(leaf, name, locale) or name: raw
                  for name, raw in values.items()}
        if focused is not None:
            focused = self.option_name(leaf, focused, locale) or focused
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
                by_name = [c["value"] for c in choices if named(c, str(raw), locale)]
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
            if kind in (INTEGER, NUMBER) and name != focused:
                check_range(option, value)
            if choices and name != focused:
                allowed = [c["value"] for c in choices]
                if value not in allowed:
                    raise LookupError(f"option {shown_name(option, locale)} must be one of: "
                                      f"{choices_text(choices, locale)}")
            entry = {"name": name, "type": kind, "value": value}
            if name == focused:
                entry["focused"] = True
            options.append(entry)
        return options, resolved

    def command_owners(self, user: EmuUser, command: dict[str, Any],
                       channel_id: int) -> dict[str, str]:
        """The ``authorizing_integration_owners`` of ``command`` run by ``user`` in
        ``channel_id``; empty when Discord does not offer the command there."""
        if command.get("guild_id"):  # a server's own command: there, where the bot is
            guild = self.guild_of(channel_id)
            if str(guild) == command["guild_id"] and guild in self.bot_guild_ids:
                return {str(GUILD_INSTALL): str(guild)}
            return {}
        return self.authorizing_owners(
            user, channel_id, command.get("integration_types"), command.get("contexts"))

    def _command_data(
        self, user: EmuUser, path: str, values: dict[str, Any], focused: str | None = None,
        locale: str | None = None, channel_id: int | None = None,
    ) -> tuple[dict[str, Any], dict[str, str]]:
        """The interaction's ``data`` and its ``authorizing_integration_owners``."""
        channel_id = self.channel_id if channel_id is None else channel_id
        command, subs, leaf = self.find_command(path, locale, channel_id)
        owners = self.command_owners(user, command, channel_id)
        if not owners:
            raise HiddenCommand(
                f"/{command['name']} is not offered to {user.name} here (context "
                f"{self.context_of(channel_id)}; integration_types "
                f"{command.get('integration_types')}, contexts {command.get('contexts')}; "
                f"installed on their account: {user.id in self.user_installs})"
            )
        needed = command.get("default_member_permissions")
        in_server = self.guild_of(channel_id) is not None
        if in_server and needed is not None and int(needed) & ~self.permissions_of(user):
            raise HiddenCommand(
                f"/{command['name']} is not offered to {user.name}: it needs permissions "
                f"{int(needed):#x} (emulator.grant gives them)"
            )
        options, resolved = self._option_values(leaf, dict(values), focused, locale)
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
        return data, owners

    def _check_contexts(self, commands: list[dict[str, Any]]) -> None:
        """400 / 50035 for installation or interaction contexts Discord refuses: unknown
        values, or an installation context the application does not support."""
        errors = limits.FormErrors()
        for index, command in enumerate(commands):
            types = command.get("integration_types")
            if types is not None and not set(types) <= self.install_types:
                errors.add((index, "integration_types"), "BASE_TYPE_CHOICES",
                           f"Value must be one of {sorted(self.install_types)}.")
            contexts = command.get("contexts")
            allowed = {GUILD_CONTEXT, BOT_DM, PRIVATE_CHANNEL}
            if contexts is not None and not set(contexts) <= allowed:
                errors.add((index, "contexts"), "BASE_TYPE_CHOICES",
                           "Value must be one of (0, 1, 2).")
        if errors:
            raise Refused(400, limits.INVALID_FORM_BODY, "Invalid Form Body", errors.tree)

    def _sync_commands(self, guild_id: int | None, commands: list[dict]) -> list[dict]:
        self._check_contexts(commands)
        self._check_entry_points(guild_id, commands)  # ``emulator.activities``
        stored = []
        # A command that exists already (the same id given, or the same type and name) keeps
        # its id, as on Discord: only new commands are created.
        before = self.commands.get(guild_id, [])
        by_id = {c["id"]: c for c in before}
        by_name = {(c.get("type", 1), c["name"]): c for c in before}
        for command in commands:
            existing = (by_id.get(str(command.get("id")))
                        or by_name.get((command.get("type", 1), command.get("name"))))
            stored.append(
                {
                    **without_contexts_below(command),
                    "id": existing["id"] if existing else str(self._next_id()),
                    "application_id": str(self.application_id),
                    "version": str(self._next_id()),
                    "type": command.get("type", 1),
                    "guild_id": None if guild_id is None else str(guild_id),
                    "default_member_permissions": command.get("default_member_permissions"),
                    # Discord's defaults: a server-install command, usable in every context.
                    "integration_types": command.get("integration_types") or [GUILD_INSTALL],
                    "contexts": command.get("contexts"),
                }
            )
        self.commands[guild_id] = stored
        self._record("sync", {"guild_id": guild_id, "commands": stored})
        return stored

    # ----- routes (``emulator.routes``) --------------------------------------------------------

    def get_global_commands(self, call: Call) -> Any:
        return json_response(self.commands.get(None, []))

    def overwrite_global_commands(self, call: Call) -> Any:
        return json_response(self._sync_commands(None, call.payload or []))

    def get_guild_commands(self, call: Call) -> Any:
        return json_response(self.commands.get(call.snowflake("guild.id"), []))

    def overwrite_guild_commands(self, call: Call) -> Any:
        return json_response(self._sync_commands(call.snowflake("guild.id"), call.payload or []))
