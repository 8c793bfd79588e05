"""Publishing the global commands beside the app's Entry Point command, and whether the app
has Activities.

When an app's Activities are on, Discord gives it an Entry Point command (type
``PRIMARY_ENTRY_POINT``, 4: the App Launcher's "Launch"), and refuses a bulk overwrite of the
global commands that leaves it out (400, code 50240 "You cannot remove this app's Entry Point
command in a bulk update operation"). discord.py's ``CommandTree.sync`` sends only the tree's
own commands (it knows no Entry Point commands), so the global sync here fetches the global
commands first and sends the Entry Point command(s) back as Discord has them, with the tree's
payload, in the one bulk overwrite. ``tree.sync`` keeps no state of its own (it returns the
synced ``AppCommand``s), so nothing else needs updating; the Entry Point command is left out
of what is returned, as discord.py has no command type for it.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

#: Application command type of an Entry Point command.
PRIMARY_ENTRY_POINT = 4
#: The application flag of an app with an Activity (``EMBEDDED``).
EMBEDDED = 1 << 17
#: What an Entry Point command carries back to Discord: the fields a command is created with.
KEPT_FIELDS = ("id", "type", "name", "name_localizations", "description",
               "description_localizations", "handler", "default_member_permissions",
               "integration_types", "contexts", "nsfw")


def entry_points(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Entry Point commands among ``commands`` (raw payloads), as a bulk overwrite sends
    them (the id keeps the same command)."""
    return [{k: c[k] for k in KEPT_FIELDS if c.get(k) is not None}
            for c in commands if c.get("type") == PRIMARY_ENTRY_POINT]


async def sync_global(tree: app_commands.CommandTree) -> tuple[list[app_commands.AppCommand],
                                                                bool]:
    """Overwrite the global commands with the tree's, keeping the app's Entry Point command;
    returns the synced commands (the tree's) and whether the app has an Entry Point command
    (so Activities)."""
    client = tree.client
    if client.application_id is None:
        raise app_commands.MissingApplicationID
    http = client.http
    kept = entry_points(await http.get_global_commands(client.application_id))
    commands = tree._get_all_commands(guild=None)
    translator = tree.translator
    if translator:
        payload = [await c.get_translated_payload(tree, translator) for c in commands]
    else:
        payload = [c.to_dict(tree) for c in commands]
    try:
        data = await http.bulk_upsert_global_commands(client.application_id,
                                                      payload=[*payload, *kept])
    except discord.HTTPException as error:
        if error.status == 400 and error.code == 50035:
            raise app_commands.CommandSyncFailure(error, commands) from None
        raise
    synced = [app_commands.AppCommand(data=d, state=client._connection)
              for d in data if d.get("type") != PRIMARY_ENTRY_POINT]
    return synced, bool(kept)
