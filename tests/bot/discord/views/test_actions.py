"""The action row under a board (Move…, Undo, Resign…) and the move buttons above it: within
Discord's five rows, the move buttons give way all together, never in part."""

from __future__ import annotations

from bot.discord.views.actions import (
    ROWS_MAX,
    ActivityButton,
    action_row,
    link_button,
    with_actions,
)
from bot.discord.views.draws import with_abort
from bot.discord.views.game import move_view

MOVE_PREFIX = "bg:mv:"


def move_ids(view) -> list[str]:
    return [c["custom_id"] for row in view.to_components() for c in row["components"]
            if c.get("custom_id", "").startswith(MOVE_PREFIX)]


def labels(view) -> list[str]:
    return [c["label"] for row in view.to_components() for c in row["components"]
            if not c.get("custom_id", "").startswith(MOVE_PREFIX)]


def test_the_move_buttons_and_the_action_row_share_the_board_when_they_fit():
    moves = [chr(ord("a") + i) for i in range(20)]  # four rows of five
    view = with_actions(move_view(7, 3, moves), action_row(7, "en"))
    assert len(view.to_components()) == ROWS_MAX
    assert len(move_ids(view)) == 20
    assert labels(view) == ["Move…", "Undo", "Resign"]


def test_when_they_do_not_fit_every_move_button_gives_way_not_some():
    """Four rows of moves, the Abort row of a first board and the action row make six: a part
    of the legal moves as buttons would look like all there is, so none is kept (Move… plays
    any move)."""
    moves = [chr(ord("a") + i) for i in range(20)]
    board = with_abort(move_view(7, 0, moves), 7, "en")
    view = with_actions(board, action_row(7, "en"))
    assert len(view.to_components()) <= ROWS_MAX
    assert move_ids(view) == []
    assert labels(view)[-3:] == ["Move…", "Undo", "Resign"]
    assert "Abort" in labels(view)


LINK = link_button("Open board", "https://boards.example.org/games/7")


def test_the_web_boards_link_ends_the_action_row_when_there_is_room():
    view = with_actions(move_view(7, 3, ["a", "b"]), action_row(7, "en"), [LINK])
    rows = view.to_components()
    assert rows[-1]["components"][-1] == {"type": 2, "style": 5, "label": "Open board",
                                          "url": "https://boards.example.org/games/7"}
    assert len(rows) == 2 and len(rows[-1]["components"]) == 4


def test_a_full_action_row_leaves_the_link_a_row_of_its_own_within_five_rows():
    full = action_row(7, "en", hands=True, timed=True)
    assert len(full["components"]) == 5
    moves = [chr(ord("a") + i) for i in range(15)]  # three rows of five
    view = with_actions(move_view(7, 3, moves), full, [LINK])
    rows = view.to_components()
    assert len(rows) == ROWS_MAX and rows[-1]["components"] == [LINK]
    assert len(move_ids(view)) == 15
    # One more row of moves would make six: the moves give way, the link stays.
    more = with_actions(move_view(7, 3, [*moves, "p"]), full, [LINK])
    assert move_ids(more) == [] and more.to_components()[-1]["components"] == [LINK]


def test_open_board_launching_the_activity_and_the_link_share_a_row_or_take_their_own():
    launch = ActivityButton(7, "Open board").item.to_component_dict()
    assert launch["custom_id"] == "bg:board:7" and launch["style"] == 1
    # Three command buttons and the two web buttons: one row of five.
    rows = with_actions(None, action_row(7, "en"), [launch, LINK]).to_components()
    assert [c.get("label") for c in rows[-1]["components"]][-2:] == ["Open board", "Open board"]
    assert len(rows) == 1 and len(rows[0]["components"]) == 5
    # Four command buttons leave no room for two: they go on a row of their own.
    rows = with_actions(None, action_row(7, "en", timed=True), [launch, LINK]).to_components()
    assert len(rows) == 2 and rows[-1]["components"] == [launch, LINK]
