"""The seek message and the lobby within Discord's limits in both languages, and their buttons
read back by their templates."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.models import Challenge
from bot.discord.views.game import CUSTOM_ID_MAX, LABEL_MAX
from bot.discord.views.seeks import (
    CONTENT_MAX,
    MAX_BUTTONS,
    LobbyButton,
    SeekButton,
    lobby_message,
    seek_message,
)
from bot.services.seeks import Lobby, Seek

BIG_ID = 2**63 - 1
HOST = 1_100_000_000_000_000_001
WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def challenge(challenge_id: int, game: str = "palago", players: int = 2,
              status: str = "open") -> Challenge:
    return Challenge(id=challenge_id, game=game, options={}, host_id=HOST, opponent_id=None,
                     players=players, joined=(HOST,), status=status, guild_id=1, channel_id=2,
                     message_id=3, created_at=WHEN)


def seek(challenge_id: int, status: str = "open") -> Seek:
    return Seek(challenge(challenge_id, status=status), rated=False, min_rating=1400,
                max_rating=1700, expires_at=WHEN + timedelta(days=7), host_rating=1523,
                time_control="14d+2d")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_long_lobby_lists_what_fits_and_counts_the_rest(language):
    ids = [BIG_ID - n for n in range(30)]
    lobby = Lobby(tuple(seek(i) for i in ids[:10]), tuple(challenge(i) for i in ids[10:20]),
                  tuple(challenge(i, "kolory", 5) for i in ids[20:]),
                  {i: "14d+2d" for i in ids[10:20]})
    content, view = lobby_message(lobby, language)
    assert len(content) <= CONTENT_MAX
    buttons = view.children
    assert 0 < len(buttons) <= MAX_BUTTONS
    listed = [int(m) for m in re.findall(r"`[SCPDT](\d+)`", content)]  # seeks, challenges, tables
    assert listed == [b.challenge_id for b in buttons]  # a Join for each line, in order
    assert str(30 - len(listed)) in content.splitlines()[-1]  # the rest is counted
    for button in buttons:
        assert len(button.item.custom_id) <= CUSTOM_ID_MAX
        assert len(button.item.label) <= LABEL_MAX
        assert LobbyButton.__discord_ui_compiled_template__.fullmatch(button.item.custom_id)


def test_an_empty_lobby_says_how_to_offer_a_game():
    content, view = lobby_message(Lobby((), (), ()), "en")
    assert view is None and "/seek" in content and "/play" in content


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_seek_message_and_its_ends(language):
    content, view = seek_message(seek(BIG_ID), language)
    assert "(1523)" in content and "1400–1700" in content and len(content) <= CONTENT_MAX
    ids = [b.item.custom_id for b in view.children]
    assert ids == [f"bg:sk:{BIG_ID}:join", f"bg:sk:{BIG_ID}:withdraw"]
    assert all(SeekButton.__discord_ui_compiled_template__.fullmatch(i) for i in ids)
    for status in ("expired", "cancelled"):
        ended, buttons = seek_message(seek(BIG_ID, status), language)
        assert buttons is None and "1523" not in ended
    expired, _ = seek_message(seek(BIG_ID, "expired"), language)
    assert "7" in expired  # the days a seek stays open
