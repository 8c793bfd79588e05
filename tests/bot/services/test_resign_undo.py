"""Resignation and undo: the rulings of bot/services/play.py and gamestate.py; refusals
change nothing."""

from __future__ import annotations

import json

import pytest

from bot.services import GameOver, NotAPlayer, UndoError
from bot.services.gamestate import rebuild, teams_of
from engines.core import Game
from tests.bot.services.conftest import SEED, start_game
from tests.bot.store.dbutil import db_dump, query


async def test_resign_two_players_the_other_wins(service, db):
    info = await start_game(service)
    await service.play.move(info.id, 1, "f")
    after = await service.play.resign(info.id, 1)  # out of turn is fine
    assert after.status == "finished" and after.to_move is None
    assert after.outcome.winners == frozenset({1})
    assert after.outcome.scores == (0.0, 1.0)
    assert "Black" in after.outcome.reason
    assert after.resigned_seat == 0
    assert after == await service.games.get_game(info.id)
    kinds = [(o.kind, o.payload) for o in await service.outbox.pending_outbox()][-2:]
    assert kinds == [
        ("resigned", {"game_id": info.id, "seat": 0, "user_id": 1, "version": after.version}),
        ("game_over", {"game_id": info.id}),
    ]
    assert await service.games.replay_matches(info.id)
    before = db_dump(db)
    with pytest.raises(GameOver):
        await service.play.resign(info.id, 2)
    with pytest.raises(GameOver):
        await service.play.move(info.id, 2, "a")
    assert db_dump(db) == before


async def test_resign_by_a_spectator_changes_nothing(service, db):
    info = await start_game(service)
    before = db_dump(db)
    with pytest.raises(NotAPlayer):
        await service.play.resign(info.id, 3)
    assert db_dump(db) == before


async def test_ruling_resign_free_for_all_all_others_win(service, tally):
    info = await start_game(service, game="tally", users=(1, 2, 3))
    after = await service.play.resign(info.id, 2)
    assert after.outcome.winners == frozenset({0, 2})
    assert after.outcome.scores == (1.0, 0.0, 1.0)


async def test_ruling_resign_in_a_team_game_the_partner_loses_too(service, tally):
    info = await start_game(service, game="tally", users=(1, 2, 3, 4))
    after = await service.play.resign(info.id, 3)  # seat 2, partner of seat 0
    assert after.outcome.winners == frozenset({1, 3})
    assert await service.games.replay_matches(info.id)


def test_ruling_lppg_four_players_falls_back_to_the_rules_teams():
    class FakeLppg(Game):  # an engine that does not declare teams itself
        name = "lppg"

    assert teams_of(FakeLppg(), 4) == ((0, 2), (1, 3))
    assert teams_of(FakeLppg(), 2) == ((0,), (1,))


async def test_resigned_game_rebuilds_from_its_truth(service, db):
    info = await start_game(service)
    await service.play.move(info.id, 1, "b")
    await service.play.resign(info.id, 2)
    (forced,) = query(db, "SELECT forced_outcome FROM games")
    state = rebuild("alak", 2, SEED, {"length": 11}, ["b"], json.loads(forced[0]))
    assert state.outcome.winners == frozenset({0}) and state.to_move is None


# ----- undo ---------------------------------------------------------------------------------


async def test_undo_accepted_takes_the_last_move_back(service, db):
    info = await start_game(service)
    await service.play.move(info.id, 1, "a")
    moved = await service.play.move(info.id, 2, "k")
    requested = await service.play.request_undo(info.id, 2)
    assert requested.undo_requested_by == 2
    assert requested.version == moved.game.version  # asking does not change the board
    done = await service.play.answer_undo(info.id, 1, True)
    assert done.ply == 1 and done.to_move == 1 and done.last_move == "a"
    assert done.version == moved.game.version + 1
    assert done.undo_requested_by is None
    assert done.state.board[10] == -1
    assert query(db, "SELECT ply, text FROM moves") == [(1, "a")]
    assert query(db, "SELECT ply, text FROM undone_moves") == [(2, "k")]
    assert await service.games.replay_matches(info.id)
    kinds = [(o.kind, o.payload) for o in await service.outbox.pending_outbox()][-2:]
    assert kinds == [
        ("undo_requested", {"game_id": info.id, "by": 2, "seat": 1, "ply": 2}),
        ("undo_done", {"game_id": info.id, "ply": 2, "seat": 1, "version": moved.game.version + 1,
                       "last_move": "a", "by": 1}),
    ]
    # The ply is free again: the player plays something else.
    again = await service.play.move(info.id, 2, "j")
    assert again.game.ply == 2
    assert await service.games.replay_matches(info.id)


async def test_undo_of_the_first_move_back_to_the_start(service):
    info = await start_game(service)
    await service.play.move(info.id, 1, "d")
    await service.play.request_undo(info.id, 1)
    done = await service.play.answer_undo(info.id, 2, True)
    assert done.ply == 0 and done.last_move is None and done.to_move == 0
    assert done.state == info.state


async def test_undo_refused_cancels_the_request(service):
    info = await start_game(service)
    await service.play.move(info.id, 1, "d")
    await service.play.request_undo(info.id, 1)
    refused = await service.play.answer_undo(info.id, 2, False)
    assert refused.undo_requested_by is None and refused.ply == 1
    assert (await service.outbox.pending_outbox())[-1].kind == "undo_declined"
    with pytest.raises(UndoError) as error:
        await service.play.answer_undo(info.id, 2, True)
    assert error.value.key == "errors.undo_none_pending"


async def test_a_move_drops_a_pending_undo(service):
    info = await start_game(service)
    await service.play.move(info.id, 1, "d")
    await service.play.request_undo(info.id, 1)
    moved = await service.play.move(info.id, 2, "h")
    assert moved.game.undo_requested_by is None
    with pytest.raises(UndoError):
        await service.play.answer_undo(info.id, 2, True)


async def test_ruling_undo_needs_every_other_player(service, tally):
    info = await start_game(service, game="tally", users=(1, 2, 3))
    await service.play.move(info.id, 1, "2")
    await service.play.request_undo(info.id, 1)
    half = await service.play.answer_undo(info.id, 3, True)
    assert half.ply == 1 and half.undo_accepted_by == (3,)
    with pytest.raises(UndoError) as error:
        await service.play.answer_undo(info.id, 3, True)
    assert error.value.key == "errors.undo_already_answered"
    done = await service.play.answer_undo(info.id, 2, True)
    assert done.ply == 0 and done.state.total == 0


@pytest.mark.parametrize(
    "setup,user,answer,key",
    [
        ([], 1, None, "errors.undo_nothing"),
        (["a"], 2, None, "errors.undo_not_your_move"),
        (["a", "request"], 1, None, "errors.undo_pending"),
        (["a", "request"], 1, True, "errors.undo_own_request"),
        (["a"], 2, True, "errors.undo_none_pending"),
    ],
)
async def test_undo_refusals_change_nothing(service, db, setup, user, answer, key):
    info = await start_game(service)
    for step in setup:
        if step == "request":
            await service.play.request_undo(info.id, 1)
        else:
            await service.play.move(info.id, 1, step)
    before = db_dump(db)
    with pytest.raises(UndoError) as error:
        if answer is None:
            await service.play.request_undo(info.id, user)
        else:
            await service.play.answer_undo(info.id, user, answer)
    assert error.value.key == key
    assert db_dump(db) == before


async def test_undo_on_a_finished_game_is_refused(service, db):
    info = await start_game(service)
    await service.play.move(info.id, 1, "a")
    await service.play.resign(info.id, 2)
    before = db_dump(db)
    with pytest.raises(GameOver):
        await service.play.request_undo(info.id, 1)
    with pytest.raises(NotAPlayer):
        await service.play.request_undo(info.id, 9)
    assert db_dump(db) == before
