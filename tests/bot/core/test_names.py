"""How messages name seated players: several AI players of one level are numbered."""

from __future__ import annotations

from bot.core.names import player_name
from bot.core.seats import ai_number, ai_user_id


def test_a_lone_ai_of_its_level_has_no_number():
    seats = (7, ai_user_id("easy"), ai_user_id("hard"))
    assert player_name(seats[1], "en", seats) == "AI (easy)"
    assert player_name(seats[2], "fr", seats) == "IA (difficile)"
    assert ai_number(seats[1], seats) is None


def test_several_ais_of_one_level_are_numbered_by_their_reserved_ids():
    easy = [ai_user_id("easy", slot) for slot in range(5)]
    seats = (*easy, 7)
    assert [player_name(uid, "en", seats) for uid in easy] == [
        f"AI {n} (easy)" for n in range(1, 6)]
    # A rematch turns the seats: the numbers stay with the players.
    turned = (*seats[1:], seats[0])
    assert player_name(easy[0], "fr", turned) == "IA 1 (facile)"
    assert player_name(easy[4], "fr", turned) == "IA 5 (facile)"
    # A person is named by a mention, whatever the table.
    assert player_name(7, "en", seats) == "<@7>"
