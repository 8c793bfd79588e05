"""The service is generic: for every registered engine, refusals change nothing and the public
state never carries the seed while the game runs."""

from __future__ import annotations

import pytest

import engines
from bot.core import i18n
from bot.services import IllegalMoveError, NotAPlayer, NotYourTurn
from engines import Phrase
from tests.bot.services.conftest import SEED, start_game
from tests.bot.store.dbutil import db_dump

GAME_NAMES = sorted(engines.GAMES)


def users_for(name: str) -> tuple[int, ...]:
    players = engines.get(name).allowed_player_counts()[0]
    return tuple(range(1, players + 1))


@pytest.mark.parametrize("name", GAME_NAMES)
async def test_refused_moves_change_nothing_in_every_game(service, db, name):
    info = await start_game(service, game=name, users=users_for(name))
    mover = info.user_to_move()
    waiting = next(user for user in info.seats if user != mover)
    legal = await service.games.legal_moves(info.id, mover)
    assert legal and await service.games.legal_moves(info.id, waiting) == []
    before = db_dump(db)
    with pytest.raises(IllegalMoveError) as error:
        await service.play.move(info.id, mover, "this is not a move ###")
    # The engine's phrase, not its English: each player reads it in their own language.
    reason = error.value.params["reason"]
    assert isinstance(reason, Phrase)
    assert i18n.t("errors.illegal_move", "fr", reason=reason) != i18n.t(
        "errors.illegal_move", "fr", reason=str(reason))
    with pytest.raises(NotYourTurn):
        await service.play.move(info.id, waiting, legal[0])
    with pytest.raises(NotAPlayer):
        await service.play.move(info.id, 999, legal[0])
    assert db_dump(db) == before
    result = await service.play.move(info.id, mover, legal[0])
    assert result.move == legal[0]  # listed moves are canonical and play as given


@pytest.mark.parametrize("name", GAME_NAMES)
async def test_public_state_never_holds_the_seed_in_every_game(service, name):
    info = await start_game(service, game=name, users=users_for(name))
    assert getattr(info.state, "seed", None) is None
    assert str(SEED) not in repr(info)
    user = info.user_to_move()
    moves = await service.games.legal_moves(info.id, user)
    result = await service.play.move(info.id, user, moves[0])
    if result.game.status == "active":
        assert getattr(result.game.state, "seed", None) is None
        assert str(SEED) not in repr(result)
        for seat_user in info.seats:
            assert str(SEED) not in repr(await service.games.player_view(info.id, seat_user))
