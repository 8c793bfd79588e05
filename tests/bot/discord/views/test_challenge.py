"""A lobby's buttons: the host's "− AI" buttons (one per level seated, naming the AI seat they
remove), within Discord's limits in every language, read back by the button's template."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.core.models import Challenge
from bot.discord.views.challenge import (
    REMOVE_AI,
    ChallengeButton,
    challenge_message,
    last_ai_of_each_level,
)
from bot.discord.views.game import BUTTONS_PER_ROW, CUSTOM_ID_MAX, LABEL_MAX, ROWS_MAX
from bot.services.aiseats import ai_user_id

#: A challenge id as large as a Discord snowflake, the longest custom_id there can be.
BIG_ID = 2**63 - 1


def lobby(joined: tuple[int, ...], players: int = 5) -> Challenge:
    return Challenge(id=BIG_ID, game="kolory", options={}, host_id=joined[0], opponent_id=None,
                     players=players, joined=joined, status="open", guild_id=1, channel_id=2,
                     message_id=None, created_at=datetime(2026, 1, 1, tzinfo=UTC))


def test_each_level_seated_offers_to_remove_its_last_ai():
    easy, easy_2 = ai_user_id("easy", 0), ai_user_id("easy", 1)
    hard = ai_user_id("hard")
    assert last_ai_of_each_level((1, easy, hard, 2, easy_2)) == [easy_2, hard]
    assert last_ai_of_each_level((1, 2, 3)) == []


@pytest.mark.parametrize("language, remove_labels", [
    ("en", ["− AI (easy)", "− AI (medium)", "− AI (hard)"]),
    ("fr", ["− IA (facile)", "− IA (moyen)", "− IA (difficile)"]),
])
def test_the_busiest_lobby_fits_discords_limits(language, remove_labels):
    """Four places taken out of five, an AI of every level: every button at once."""
    seats = (1, ai_user_id("easy"), ai_user_id("medium"), ai_user_id("hard"))
    _, view = challenge_message(lobby(seats), language)
    rows = view.to_components()
    assert len(rows) <= ROWS_MAX
    assert all(len(row["components"]) <= BUTTONS_PER_ROW for row in rows)
    assert [len(row["components"]) for row in rows] == [4, 3, 3]
    assert [button["label"] for button in rows[2]["components"]] == remove_labels
    for row in rows:
        for button in row["components"]:
            assert len(button["custom_id"]) <= CUSTOM_ID_MAX
            assert len(button["label"]) <= LABEL_MAX
    template = ChallengeButton.__discord_ui_compiled_template__
    pressed = [template.fullmatch(button["custom_id"]) for button in rows[2]["components"]]
    assert {match["action"] for match in pressed} == {REMOVE_AI}
    assert [int(match["seat"]) for match in pressed] == list(seats[1:])
    assert [int(match["id"]) for match in pressed] == [BIG_ID] * 3


def test_a_full_lobby_may_free_an_ai_place_and_one_without_ai_has_no_minus():
    seats = (1, 2, ai_user_id("medium"))
    _, view = challenge_message(lobby(seats, players=3), "en")
    labels = [[b["label"] for b in row["components"]] for row in view.to_components()]
    assert labels == [["Join", "Leave", "Start", "Cancel"], ["− AI (medium)"]]
    _, people_only = challenge_message(lobby((1, 2), players=3), "en")
    labels = [[b["label"] for b in row["components"]] for row in people_only.to_components()]
    assert labels == [["Join", "Leave", "Start", "Cancel"],
                      ["+ AI (easy)", "+ AI (medium)", "+ AI (hard)"]]


async def test_plus_ai_buttons_carry_the_places_taken_and_older_ones_still_read():
    seats = (1, ai_user_id("easy", 0))
    _, view = challenge_message(lobby(seats, players=4), "en")
    template = ChallengeButton.__discord_ui_compiled_template__
    adds = [item for item in view.children if "ai-" in item.custom_id
            and "ai-off" not in item.custom_id]
    assert [template.fullmatch(item.custom_id)["seated"] for item in adds] == ["2"] * 3
    for custom_id, seat, seated in (("bg:ch:7:ai-easy:2", None, 2),
                                    ("bg:ch:7:ai-easy", None, None),  # drawn before the check
                                    ("bg:ch:7:ai-off:-101", -101, None)):
        button = await ChallengeButton.from_custom_id(None, None, template.fullmatch(custom_id))
        assert (button.seat, button.seated) == (seat, seated)
