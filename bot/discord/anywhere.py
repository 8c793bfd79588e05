"""Playing where the bot is not a member: the app installed on a user's account, used in a DM, a
group DM or a server that never added the bot (issue 28).

Which commands go where is decided here, in one table: the game commands work wherever the app
is installed (a server's install or the user's own, in servers, the bot's DM and private
channels); tournaments, ``/admin``, ``/watch`` and ``/leaderboard`` need a server's threads and
roles, so they are a server install's, in servers only (Discord then never offers them
elsewhere). ``integration_types`` and ``contexts`` go on top-level commands only: sub-commands
inherit them (discord-api-docs, interactions/application-commands, "Contexts").

A game started where the bot is not (``CONVERSATION``) lives in that conversation: no thread,
every public message an interaction's answer or follow-up (``bot.discord.delivery``).
"""

from __future__ import annotations

from discord import Interaction, app_commands

from bot.store.base import CONVERSATION

#: Commands usable wherever the app is installed.
ANYWHERE = frozenset({
    "play", "move", "board", "resign", "draw", "undo", "games", "hint", "hand", "claim",
    "settings",
    "vacation", "record", "replay", "review", "rules", "help", "profile", "history", "mute",
    "unmute",
})
#: Commands that need the bot in a server (threads, roles, moderators).
SERVER_ONLY = frozenset({"tournament", "admin", "watch", "leaderboard"})

EVERY_CONTEXT = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
BOTH_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
SERVERS = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)
SERVER_INSTALL = app_commands.AppInstallationType(guild=True, user=False)


def register_installs(tree: app_commands.CommandTree) -> None:
    """Give every top-level command of ``tree`` where it may be installed and used."""
    for command in tree.get_commands():
        if command.name in ANYWHERE:
            command.allowed_contexts = EVERY_CONTEXT
            command.allowed_installs = BOTH_INSTALLS
            if isinstance(command, app_commands.Command | app_commands.Group):
                command.guild_only = False
        elif command.name in SERVER_ONLY:
            command.allowed_contexts = SERVERS
            command.allowed_installs = SERVER_INSTALL


def bot_is_here(interaction: Interaction) -> bool:
    """Whether the bot is a member where the interaction happened: a server that installed
    it (``authorizing_integration_owners`` names the server's install there)."""
    return interaction.guild_id is not None and interaction.is_guild_integration()


def place_of(interaction: Interaction) -> str | None:
    """Where a game started by this interaction lives: None (a thread of this server) or
    ``CONVERSATION`` (a DM, a group DM, the bot's DM, or a server without the bot)."""
    return None if bot_is_here(interaction) else CONVERSATION


def answers_forced_private(interaction: Interaction) -> bool:
    """Whether Discord shows every answer to this user only: a server without the bot where
    the member lacks Use External Apps (discord-api-docs, topics/permissions)."""
    return (interaction.guild_id is not None and not bot_is_here(interaction)
            and not interaction.permissions.use_external_apps)
