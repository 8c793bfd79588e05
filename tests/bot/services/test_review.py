"""Who may have a review (fairness), the stored reviews, and the jobs that evaluate positions
(with the real AI, on short games)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import ai
import engines
from bot.core.errors import GameOver, NotFound
from bot.core.review import analyse, expected_score_comments
from bot.services.aiseats import ai_user_id
from bot.services.clocks import ClockService
from bot.services.records import parse_record, replay_record
from bot.services.review import (
    FULL,
    ReviewRefused,
    ReviewService,
    better_moves,
    better_moves_kept,
    evaluate_positions,
    expected_scores,
)
from tests.bot.services.conftest import start_game


async def play(service, info, count: int):
    for _ in range(count):
        info = await service.games.get_game(info.id)
        user = info.user_to_move()
        await service.play.move(info.id, user, (await service.games.legal_moves(info.id, user))[0])
    return await service.games.get_game(info.id)


async def test_a_finished_game_is_reviewed_for_anyone_from_full_states(service, store):
    info = await start_game(service, "alak", (1, 2))
    await play(service, info, 3)
    await service.play.resign(info.id, 2)
    reviews = ReviewService(store)
    for user in (1, 2, 99):  # its players and anyone who may see it
        source = await reviews.source(info.id, user)
        assert source.perspective == FULL and source.finished
        assert len(source.moves) == 3 and source.positions == 4
    states = source.states()
    assert states[-1].outcome is not None and states[-1].outcome.winners == frozenset({0})
    assert "seed" not in repr(source)


async def test_a_running_game_between_people_is_never_reviewed(service, store):
    info = await start_game(service, "alak", (1, 2))
    await play(service, info, 2)
    reviews = ReviewService(store)
    for user, key in [(1, "errors.review.against_people"), (2, "errors.review.against_people"),
                      (3, "errors.review.in_progress")]:
        with pytest.raises(ReviewRefused) as refused:
            await reviews.source(info.id, user)
        assert refused.value.key == key


async def test_a_running_game_against_the_ai_is_reviewed_for_its_player_only(service, store):
    info = await service.aiseats.play_ai("alak", 1, "easy")
    info = await service.games.get_game(info.id)
    if info.user_to_move() != 1:  # the AI starts: play its move as the bot would
        job = await service.aiseats.ai_job(info.id)
        await service.play.move(info.id, job.user_id, ai.choose("alak", job.view, job.seat,
                                                                level="easy"))
    await service.play.move(info.id, 1, (await service.games.legal_moves(info.id, 1))[0])
    reviews = ReviewService(store)
    source = await reviews.source(info.id, 1)
    seat = (await service.games.get_game(info.id)).seats.index(1)
    assert source.perspective == seat and not source.finished
    with pytest.raises(ReviewRefused) as refused:
        await reviews.source(info.id, 3)
    assert refused.value.key == "errors.review.in_progress"
    assert ai_user_id("easy") in (await service.games.get_game(info.id)).seats


async def test_nothing_to_review_is_said_so(service, store):
    reviews = ReviewService(store)
    with pytest.raises(NotFound):
        await reviews.source(12345, 1)
    info = await start_game(service, "alak", (1, 2))
    await service.play.resign(info.id, 1)  # no move was played
    with pytest.raises(ReviewRefused) as refused:
        await reviews.source(info.id, 1)
    assert refused.value.key == "errors.review.no_moves"


async def test_a_review_is_stored_per_position_and_read_back(service, store):
    info = await start_game(service, "alak", (1, 2))
    await play(service, info, 2)
    await service.play.resign(info.id, 1)
    reviews = ReviewService(store)
    source = await reviews.source(info.id, 5)
    assert await reviews.stored(source) is None
    assert await reviews.finished_review(info.id) is None
    review = analyse("alak", 2, source.moves, [0, 1], [False, False],
                     [(0.5, 0.5), (0.6, 0.4), (0.0, 1.0)])
    await reviews.save(source, review)
    assert (await reviews.stored(source)).dump() == review.dump()
    assert (await reviews.finished_review(info.id)).dump() == review.dump()
    # Another version of the game (a review made while it ran) is not this one.
    assert await reviews.stored(replace(source, version=source.version - 1)) is None
    # Saving again replaces it.
    other = analyse("alak", 2, source.moves, [0, 1], [False, False],
                    [(0.5, 0.5), (0.5, 0.5), (0.0, 1.0)])
    await reviews.save(source, other)
    assert (await reviews.stored(source)).dump() == other.dump()


async def test_aborted_games_have_no_review(service, store):
    challenge = await service.challenges.challenge("alak", 1, opponent_id=2, guild_id=7,
                                                   channel_id=8)
    info = await service.challenges.accept(challenge.id, 2)
    await play(service, info, 1)
    await service.admin.abort(info.id, guild_id=7, by=1)
    with pytest.raises(GameOver) as refused:
        await ReviewService(store).source(info.id, 1)
    assert refused.value.key == "errors.review.aborted"


@pytest.mark.slow(12)
@pytest.mark.parametrize("backend", ["sqlite"])
async def test_the_jobs_evaluate_every_position_and_ask_the_ai(service, store):
    info = await start_game(service, "alak", (1, 2))
    await play(service, info, 4)
    await service.play.resign(info.id, 2)
    source = await ReviewService(store).source(info.id, 1)
    first = evaluate_positions(source, 0, 3)
    rest = evaluate_positions(source, 3, 5)
    assert (first.start, rest.start) == (0, 3)
    scores = first.scores + rest.scores
    assert len(scores) == 5 and all(len(row) == 2 for row in scores)
    assert all(0 <= v <= 1 and row[0] + row[1] == pytest.approx(1) for row in scores
               for v in row)
    # Seat 1 resigned after its own move: the last position is evaluated as that move left
    # it (the fall to the result is the resignation's, not the move's), the result beside.
    last = source.states(with_result=False)[-1]
    assert last.outcome is None and scores[-1] == expected_scores(source, last)
    assert source.ended() == (1.0, 0.0) and source.states()[-1].outcome is not None
    assert first.movers + rest.movers == (0, 1, 0, 1)
    game = engines.get("alak")
    states = source.states()
    assert first.forced + rest.forced == tuple(len(game.legal_moves(s)) == 1
                                               for s in states[:4])
    # The same positions give the same values (deterministic), however they are chunked.
    assert evaluate_positions(source, 0, 5).scores == scores
    found = better_moves(source, [2, 3])
    assert set(found) == {2, 3}
    for ply, move in found.items():
        state = states[ply - 1]
        assert move in {str(m) for m in game.legal_moves(state)}
    # With the mover's expected score after the AI's move, evaluated as any position is.
    kept = better_moves_kept(source, [2])
    move, value = kept[2]
    assert move == found[2]
    seat = int(states[1].to_move)
    assert value == expected_scores(source, game.play(states[1], move))[seat]


async def test_a_reviewed_records_comments_do_not_change_how_it_replays(service, store):
    info = await start_game(service, "alak", (1, 2))
    await play(service, info, 3)
    await service.play.resign(info.id, 1)
    source = await ReviewService(store).source(info.id, 1)
    review = analyse("alak", 2, source.moves, [0, 1, 0], [False] * 3,
                     [(0.5, 0.5), (0.6, 0.4), (0.25, 0.75), (0.0, 1.0)])
    comments = expected_score_comments(review, ["Ann", "Bo"])
    clocks = ClockService(store, service)
    plain = await clocks.record_text(info.id)
    text = await clocks.record_text(info.id, comments=comments)
    lines = text.splitlines()
    at = lines.index(f"2. {source.moves[1]}")
    assert lines[at + 1] == "; expected score: Ann 0.25 · Bo 0.75"
    assert text.count("; expected score:") == 3 and "; " not in plain
    parsed = parse_record(text)
    assert parsed.moves == parse_record(plain).moves == source.moves
    assert replay_record(parsed) == replay_record(parse_record(plain))
