"""Draw offers and players' aborts: the rulings of bot/services/draws.py; refusals change
nothing; the state lives in the database."""

from __future__ import annotations

import pytest

import engines
from bot.core.competition.ratings import Glicko, rate_two_player_game
from bot.services import GameOver, NotAPlayer
from bot.services.aiseats import ai_user_id
from bot.services.draws import DrawError, draw_possible
from bot.services.gamestate import rebuild
from tests.bot.services.conftest import SEED, start_game
from tests.bot.services.tourney import services
from tests.bot.store.dbutil import db_dump


async def kinds(service, since: int = 0) -> list[str]:
    return [o.kind for o in await service.outbox.pending_outbox(10_000) if o.id > since]


async def last_outbox_id(service) -> int:
    return max((o.id for o in await service.outbox.pending_outbox(10_000)), default=0)


def test_which_games_can_be_drawn_by_agreement():
    for game in ("alak", "palago", "palam", "polygo", "kolory"):
        assert draw_possible(game, 2)
    assert not draw_possible("lppg", 2) and not draw_possible("lppg", 4)
    assert not draw_possible("kolory", 3) and not draw_possible("kolory", 5)


async def test_an_accepted_offer_ends_the_game_drawn_half_a_point_each(service):
    info = await start_game(service)
    offered = await service.draws.offer_draw(info.id, 1)
    assert not offered.agreed
    rows = [o for o in await service.outbox.pending_outbox() if o.kind == "draw_offered"]
    assert [r.payload for r in rows] == [
        {"game_id": info.id, "offer_id": offered.offer_id, "by": 1, "seat": 0}]
    done = await service.draws.answer_draw(info.id, 2, offered.offer_id, True)
    assert done.agreed
    game = await service.games.get_game(info.id)
    assert game.status == "finished" and game.to_move is None
    assert game.outcome.winners == frozenset() and game.outcome.scores == (0.5, 0.5)
    assert game.outcome.reason == "draw agreed"
    assert (await kinds(service))[-2:] == ["draw_agreed", "game_over"]
    assert await service.games.replay_matches(info.id)  # the draw is stored with the game


async def test_a_double_click_answers_once_and_changes_nothing_more(service, db):
    info = await start_game(service)
    offer = (await service.draws.offer_draw(info.id, 1)).offer_id
    await service.draws.answer_draw(info.id, 2, offer, False)
    before = db_dump(db)
    with pytest.raises(DrawError) as refused:
        await service.draws.answer_draw(info.id, 2, offer, False)
    assert refused.value.key == "errors.draw_not_open"
    with pytest.raises(DrawError):
        await service.draws.answer_draw(info.id, 2, offer, True)
    assert db_dump(db) == before
    assert (await service.games.get_game(info.id)).status == "active"


async def test_a_decline_is_public_and_names_both(service):
    info = await start_game(service)
    offer = (await service.draws.offer_draw(info.id, 1)).offer_id
    await service.draws.answer_draw(info.id, 2, offer, False)
    declined = [o for o in await service.outbox.pending_outbox() if o.kind == "draw_declined"]
    assert declined[0].payload["by"] == 1 and declined[0].payload["answered_by"] == 2


async def test_refusals_change_nothing(service, db):
    info = await start_game(service)
    offer = (await service.draws.offer_draw(info.id, 1)).offer_id
    before = db_dump(db)
    with pytest.raises(DrawError) as twice:
        await service.draws.offer_draw(info.id, 1)
    assert twice.value.key == "errors.draw_already_offered"
    with pytest.raises(DrawError) as own:
        await service.draws.answer_draw(info.id, 1, offer, True)
    assert own.value.key == "errors.draw_own_offer"
    with pytest.raises(NotAPlayer):
        await service.draws.answer_draw(info.id, 3, offer, True)
    with pytest.raises(NotAPlayer):
        await service.draws.offer_draw(info.id, 3)
    assert db_dump(db) == before


async def test_offering_back_accepts_the_pending_offer(service):
    info = await start_game(service)
    await service.draws.offer_draw(info.id, 1)
    both = await service.draws.offer_draw(info.id, 2)
    assert both.agreed and (await service.games.get_game(info.id)).outcome.scores == (0.5, 0.5)


async def test_no_draw_where_the_game_cannot_end_drawn(service, db):
    lppg = await start_game(service, game="lppg")
    kolory = await start_game(service, game="kolory", users=(1, 2, 3))
    before = db_dump(db)
    for game in (lppg, kolory):
        with pytest.raises(DrawError) as refused:
            await service.draws.offer_draw(game.id, 1)
        assert refused.value.key == "errors.draw_impossible"
    assert db_dump(db) == before


async def test_ruling_the_opponents_move_lapses_the_offer(service):
    """Offered on the sender's turn: their own move keeps it, the opponent's move lapses it."""
    info = await start_game(service)
    offer = (await service.draws.offer_draw(info.id, 1)).offer_id  # Alice's turn
    await service.play.move(info.id, 1, "c")
    assert [o.id for o in await service.draws.pending_draw_offers(info.id)] == [offer]
    mark = await last_outbox_id(service)
    await service.play.move(info.id, 2, "f")  # Bob plays on instead of answering
    assert await service.draws.pending_draw_offers(info.id) == []
    assert await kinds(service, mark) == ["move", "draw_lapsed"]
    with pytest.raises(DrawError):
        await service.draws.answer_draw(info.id, 2, offer, True)


async def test_ruling_an_offer_out_of_turn_lapses_at_the_next_move(service):
    info = await start_game(service)
    await service.play.move(info.id, 1, "c")
    await service.draws.offer_draw(info.id, 1)  # Bob's turn
    await service.play.move(info.id, 2, "f")
    assert await service.draws.pending_draw_offers(info.id) == []


async def test_ruling_the_offer_keeps_only_the_turn_it_was_made_on(service):
    """Once the sender's turn is over, the offer no longer survives a move of the sender (a
    turn order that gives them two turns in a row, as Kolory's may, lapses it then)."""
    info = await start_game(service)
    offer = (await service.draws.offer_draw(info.id, 1)).offer_id
    await service.play.move(info.id, 1, "c")
    row = (await service.draws.pending_draw_offers(info.id))[0]
    assert row.id == offer and not row.keep_turn  # the turn it was made on is over


async def test_the_end_of_the_game_closes_pending_offers(service):
    info = await start_game(service)
    offer = (await service.draws.offer_draw(info.id, 1)).offer_id
    await service.play.resign(info.id, 2)
    assert await service.draws.pending_draw_offers(info.id) == []
    with pytest.raises(DrawError):
        await service.draws.answer_draw(info.id, 2, offer, True)


async def test_a_draw_is_rated_as_a_draw(store, clock):
    s = services(store, clock)
    info = await start_game(s.services)
    offer = (await s.services.draws.offer_draw(info.id, 1)).offer_id
    await s.services.draws.answer_draw(info.id, 2, offer, True)
    assert await s.ratings.on_game_over(info.id) is True
    expected, _ = rate_two_player_game(Glicko(), Glicko(), 0.5)
    ratings = await s.ratings.glicko_of("alak", [1, 2])
    assert ratings[1].rating == pytest.approx(expected.rating)
    assert ratings[1].games == ratings[2].games == 1


async def test_pending_offers_to_the_ai_are_listed_from_the_database(service):
    info = await service.aiseats.play_ai("alak", 1, "easy")
    offer = (await service.draws.offer_draw(info.id, 1)).offer_id
    ai = ai_user_id("easy")
    listed = await service.draws.ai_draw_offers(ai - 999, ai + 999)
    assert [o.id for o in listed] == [offer]
    job = await service.draws.draw_job(listed[0], ai)
    assert job.seat == 1 and job.game == "alak" and job.view["seed"] is None  # no secret
    await service.draws.answer_draw(info.id, ai, offer, False)
    assert await service.draws.ai_draw_offers(ai - 999, ai + 999) == []


# ----- aborting ---------------------------------------------------------------------------


async def test_a_player_aborts_before_everyone_moved_no_result(service):
    info = await start_game(service)
    assert await service.draws.abort_open(info.id)
    await service.play.move(info.id, 1, "c")
    assert await service.draws.abort_open(info.id)  # Bob has not moved yet
    after = await service.draws.abort_by_player(info.id, 2)
    assert after.status == "aborted" and after.outcome is None and after.user_to_move() is None
    assert (await kinds(service))[-1] == "aborted_by_player"
    assert not await service.draws.abort_open(info.id)


async def test_no_abort_once_everyone_moved(service, db):
    info = await start_game(service)
    await service.play.move(info.id, 1, "c")
    await service.play.move(info.id, 2, "f")
    assert not await service.draws.abort_open(info.id)
    assert await service.draws.abort_open(info.id, ply=1)  # as the board after the first move stood
    before = db_dump(db)
    with pytest.raises(DrawError) as late:
        await service.draws.abort_by_player(info.id, 1)
    assert late.value.key == "errors.abort_too_late"
    with pytest.raises(NotAPlayer):
        await service.draws.abort_by_player(info.id, 3)
    assert db_dump(db) == before


async def test_an_aborted_game_is_not_rated(store, clock):
    s = services(store, clock)
    info = await start_game(s.services)
    await s.services.draws.abort_by_player(info.id, 1)
    assert await s.ratings.on_game_over(info.id) is False
    assert (await s.ratings.glicko_of("alak", [1]))[1].games == 0


async def test_aborting_twice_is_refused(service):
    info = await start_game(service)
    await service.draws.abort_by_player(info.id, 1)
    with pytest.raises(GameOver):
        await service.draws.abort_by_player(info.id, 2)


async def test_ruling_a_second_turn_in_a_row_lapses_the_senders_offer(service):
    """Kolory with two players: a new round may start with the player who ended the last one.
    An offer made on one's turn survives one's move, not one's next turn."""
    info = await start_game(service, game="kolory")

    async def play(user: int) -> None:
        await service.play.move(info.id, user, (await service.games.legal_moves(info.id, user))[0])

    movers = []
    for _ in range(40):
        game = await service.games.get_game(info.id)
        assert game.status == "active", f"no player had two turns in a row: {movers}"
        mover = game.user_to_move()
        movers.append(mover)
        # Would this player move again right after this move? Ask the engine (the full
        # state stays in the service: replay what was played, with the game's own seed).
        record = await service.games.record(info.id)
        state = rebuild("kolory", 2, SEED, info.options, [m.text for m in record.moves])
        engine = engines.get("kolory")
        after = engine.play(state, (await service.games.legal_moves(info.id, mover))[0])
        if after.to_move == state.to_move and after.outcome is None:
            break
        await play(mover)
    offer = (await service.draws.offer_draw(info.id, mover)).offer_id  # on the mover's turn
    await play(mover)
    pending = await service.draws.pending_draw_offers(info.id)
    assert [o.id for o in pending] == [offer], "the sender's own move keeps it"
    assert (await service.games.get_game(info.id)).user_to_move() == mover
    await play(mover)  # the sender's next turn
    assert await service.draws.pending_draw_offers(info.id) == []
    lapsed = [o for o in await service.outbox.pending_outbox(10_000) if o.kind == "draw_lapsed"]
    assert [o.payload["offer_id"] for o in lapsed] == [offer]
