"""Move buttons read in the game's language while they play the move as the engines write
it: a French board's buttons say "piocher a", "mort e13", "camp Isis", "passer"."""

from __future__ import annotations

import pytest

from bot.discord.views.game import move_view
from bot.discord.views.move_labels import move_label

MOVES = ["draw a", "accept", "dead e13", "camp isis", "pass", "resume", "alive e13",
         "keep 1,2", "c", "b1 e2"]


@pytest.mark.parametrize(("language", "labels"), [
    ("fr", ["piocher a", "accepter", "mort e13", "camp Isis", "passer", "reprendre",
            "vivant e13", "garder 1,2", "c", "b1 e2"]),
    ("en-US", MOVES),
])
def test_labels_in_the_games_language_moves_as_written(language, labels):
    view = move_view(7, 3, MOVES, language)
    buttons = [b for row in view.to_components() for b in row["components"]]
    assert [b["label"] for b in buttons] == labels
    assert [b["custom_id"] for b in buttons] == [f"bg:mv:7:3:{m}" for m in MOVES]


def test_a_move_without_words_is_its_own_label():
    assert move_label("12,-3", "fr") == "12,-3" and move_label("h", "fr") == "h"
