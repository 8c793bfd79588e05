"""What the global sync sends back of the app's commands: its Entry Point command only, with
the fields a command is written with (the id keeps it the same command)."""

from bot.discord.entry_point import PRIMARY_ENTRY_POINT, entry_points

LAUNCH = {"id": "11", "application_id": "1", "version": "12", "type": PRIMARY_ENTRY_POINT,
          "name": "launch", "description": "", "handler": 2, "guild_id": None,
          "default_member_permissions": None, "integration_types": [0, 1], "contexts": None,
          "name_localizations": {"fr": "lancer"}}
PLAY = {"id": "13", "application_id": "1", "version": "14", "type": 1, "name": "play",
        "description": "Start a game", "options": []}


def test_only_the_entry_point_command_is_kept_as_discord_has_it():
    assert entry_points([PLAY, LAUNCH]) == [{
        "id": "11", "type": PRIMARY_ENTRY_POINT, "name": "launch", "description": "",
        "handler": 2, "integration_types": [0, 1], "name_localizations": {"fr": "lancer"}}]


def test_an_app_without_activities_has_none_to_keep():
    assert entry_points([PLAY]) == []
    assert entry_points([]) == []
