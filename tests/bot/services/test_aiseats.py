"""AI seats in the game service: reserved ids per level, games against the AI, lobbies filled
with AI players, the AI's turns found in the database and played once, hints, records, and no
rating for games with an AI seat."""

from __future__ import annotations

import pytest

import ai
import engines
from bot.services import BoardChanged, ChallengeError, NotYourTurn, UndoError
from bot.services.aiseats import (
    HintRefused,
    ai_level,
    ai_user_id,
    is_ai,
)
from bot.workers.ai_player import think
from tests.bot.services.conftest import start_game


def test_reserved_ids_say_their_level_and_never_name_a_person():
    ids = {ai_user_id(level, slot) for level in ai.LEVELS for slot in range(100)}
    assert len(ids) == 300, "every (level, slot) has its own id"
    for level in ai.LEVELS:
        assert {ai_level(ai_user_id(level, slot)) for slot in (0, 1, 99)} == {level}
    # Discord ids are positive snowflakes; small test ids are people too.
    for person in (0, 1, 100, 250, 399, 1_100_000_000_000_000_001):
        assert not is_ai(person)
    with pytest.raises(ValueError):
        ai_user_id("expert")
    with pytest.raises(ValueError):
        ai_user_id("easy", 100)


async def test_a_game_against_the_ai_starts_at_once_with_the_player_first(service):
    info = await service.aiseats.play_ai("alak", 7, "hard", guild_id=5, channel_id=6)
    assert info.status == "active" and info.seats == (7, ai_user_id("hard"))
    assert info.user_to_move() == 7
    assert await service.aiseats.ai_turns() == [], "a person is to move"
    kolory = await service.aiseats.play_ai("kolory", 7, "easy", players=4)
    assert kolory.seats == (7, *(ai_user_id("easy", slot) for slot in range(3)))
    with pytest.raises(ChallengeError) as refused:
        await service.aiseats.play_ai("alak", 7, "expert")
    assert refused.value.key == "errors.unknown_level"


async def test_a_persons_move_in_an_untimed_game_against_the_ai_wakes_the_ai_runner(service):
    """Untimed games that go on wake nobody after a move (no deadline moved), except games
    with an AI seat: the AI runner listens on the same wake-up for its turn."""
    pokes = []
    service.context.on_change = lambda: pokes.append(1)
    info = await service.aiseats.play_ai("alak", 7, "easy")
    pokes.clear()
    move = (await service.games.legal_moves(info.id, 7))[0]
    await service.play.move(info.id, 7, move)
    assert pokes == [1]
    assert [turn.game_id for turn in await service.aiseats.ai_turns()] == [info.id]


async def test_the_ai_turn_is_listed_and_played_once(service):
    info = await service.aiseats.play_ai("alak", 7, "easy")
    assert await service.aiseats.ai_job(info.id) is None
    move = (await service.games.legal_moves(info.id, 7))[0]
    await service.play.move(info.id, 7, move)
    (turn,) = await service.aiseats.ai_turns()
    assert (turn.game_id, turn.seat, turn.user_id) == (info.id, 1, ai_user_id("easy"))
    job = await service.aiseats.ai_job(info.id)
    assert job.version == turn.version and job.level == "easy" and job.seat == 1
    choice = ai.choose(job.game, job.view, job.seat, job.level, job.seed)
    assert choice == ai.choose(job.game, job.view, job.seat, job.level, job.seed)
    # Two processes thought about the same turn: the first move lands, the second loses.
    await service.play.move(info.id, job.user_id, choice, expected_version=job.version)
    with pytest.raises(BoardChanged):
        await service.play.move(info.id, job.user_id, choice, expected_version=job.version)
    record = await service.games.record(info.id)
    assert [m.text for m in record.moves] == [move, choice]
    assert await service.aiseats.ai_turns() == [] and await service.aiseats.ai_job(info.id) is None


async def test_only_the_host_fills_a_lobby_with_ai_players(service):
    lobby = await service.challenges.challenge("kolory", 1, players=4)
    with pytest.raises(ChallengeError) as refused:
        await service.aiseats.add_ai(lobby.id, 2, "easy")
    assert refused.value.key == "errors.not_the_host"
    await service.challenges.join(lobby.id, 2)
    await service.aiseats.add_ai(lobby.id, 1, "medium")
    full = await service.aiseats.add_ai(lobby.id, 1, "medium")
    assert full.joined == (1, 2, ai_user_id("medium", 0), ai_user_id("medium", 1))
    with pytest.raises(ChallengeError) as refused:
        await service.aiseats.add_ai(lobby.id, 1, "hard")
    assert refused.value.key == "errors.lobby_full"
    game = await service.challenges.start(lobby.id, 1)
    assert sum(is_ai(uid) for uid in game.seats) == 2

    duel = await service.challenges.challenge("alak", 1)
    with pytest.raises(ChallengeError) as refused:
        await service.aiseats.add_ai(duel.id, 1, "easy")
    assert refused.value.key == "errors.ai_only_lobbies"
    assert (await service.challenges.get_challenge(duel.id)).joined == (1,)


async def test_the_host_takes_ai_players_off_a_lobby_and_a_second_press_changes_nothing(
    service
):
    lobby = await service.challenges.challenge("kolory", 1, players=4)
    for level in ("easy", "medium", "easy"):
        await service.aiseats.add_ai(lobby.id, 1, level)
    easy, medium, easy_2 = ai_user_id("easy", 0), ai_user_id("medium", 0), ai_user_id("easy", 1)
    assert (await service.challenges.get_challenge(lobby.id)).joined == (1, easy, medium, easy_2)

    with pytest.raises(ChallengeError) as refused:
        await service.aiseats.remove_ai(lobby.id, 2, easy_2)
    assert refused.value.key == "errors.not_the_host"
    left = await service.aiseats.remove_ai(lobby.id, 1, easy_2)
    assert left.joined == (1, easy, medium) and not left.is_full
    # A double click, or the button of an old copy of the message: that AI is gone already.
    with pytest.raises(ChallengeError) as refused:
        await service.aiseats.remove_ai(lobby.id, 1, easy_2)
    assert refused.value.key == "errors.ai_not_seated"
    # People leave by themselves; the host cannot remove them (nor itself) this way.
    await service.challenges.join(lobby.id, 2)
    for person in (1, 2, None):
        with pytest.raises(ChallengeError) as refused:
            await service.aiseats.remove_ai(lobby.id, 1, person)
        assert refused.value.key == "errors.ai_not_seated"
    assert (await service.challenges.get_challenge(lobby.id)).joined == (1, easy, medium, 2)


async def test_a_plus_ai_press_from_a_table_that_has_changed_seats_nobody(service):
    lobby = await service.challenges.challenge("kolory", 1, players=4)
    first = await service.aiseats.add_ai(lobby.id, 1, "easy", seated=1)
    assert first.joined == (1, ai_user_id("easy", 0))
    # The second press of a double click was drawn when one place was taken.
    with pytest.raises(ChallengeError) as refused:
        await service.aiseats.add_ai(lobby.id, 1, "easy", seated=1)
    assert refused.value.key == "errors.lobby_changed"
    await service.challenges.join(lobby.id, 2)
    with pytest.raises(ChallengeError):
        await service.aiseats.add_ai(lobby.id, 1, "hard", seated=2)  # someone joined meanwhile
    lobby = await service.challenges.get_challenge(lobby.id)
    assert lobby.joined == (1, ai_user_id("easy", 0), 2)
    seated = await service.aiseats.add_ai(lobby.id, 1, "hard", seated=3)
    assert seated.joined == (1, ai_user_id("easy", 0), 2, ai_user_id("hard", 0))


async def test_an_ai_taken_off_a_table_frees_its_id_for_the_next_of_its_level(service):
    lobby = await service.challenges.challenge("kolory", 1, players=5)
    await service.aiseats.add_ai(lobby.id, 1, "easy")
    await service.aiseats.add_ai(lobby.id, 1, "easy")
    await service.aiseats.remove_ai(lobby.id, 1, ai_user_id("easy", 0))
    # Slot 1 is still seated: the next easy AI takes the free slot 0, not a second slot 1.
    again = await service.aiseats.add_ai(lobby.id, 1, "easy")
    assert again.joined == (1, ai_user_id("easy", 1), ai_user_id("easy", 0))
    game = await service.challenges.start(lobby.id, 1)
    assert game.seats == again.joined


async def test_ai_players_stay_once_the_table_is_started_or_closed(service, clock):
    """A "− AI" button still shown on a table that started, was withdrawn or expired (its
    message not updated yet) changes nothing."""
    expired = await service.challenges.challenge("kolory", 1, players=3)
    await service.aiseats.add_ai(expired.id, 1, "hard")
    clock.now += service.challenges.challenge_expiry
    with pytest.raises(ChallengeError) as refused:
        await service.aiseats.remove_ai(expired.id, 1, ai_user_id("hard"))
    assert refused.value.key == "errors.challenge_expired"
    assert (await service.challenges.get_challenge(expired.id)).joined == (1, ai_user_id("hard"))
    started = await service.challenges.challenge("kolory", 1, players=3)
    await service.aiseats.add_ai(started.id, 1, "hard")
    await service.challenges.join(started.id, 2)
    game = await service.challenges.start(started.id, 1)
    cancelled = await service.challenges.challenge("lppg", 1, players=4)
    await service.aiseats.add_ai(cancelled.id, 1, "hard")
    await service.challenges.cancel(cancelled.id, 1)
    for lobby in (started, cancelled):
        with pytest.raises(ChallengeError) as refused:
            await service.aiseats.remove_ai(lobby.id, 1, ai_user_id("hard"))
        assert refused.value.key == "errors.challenge_closed"
        assert ai_user_id("hard") in (await service.challenges.get_challenge(lobby.id)).joined
    assert (await service.games.get_game(game.id)).seats == (1, ai_user_id("hard"), 2)
    duel = await service.challenges.challenge("alak", 1)
    with pytest.raises(ChallengeError) as refused:
        await service.aiseats.remove_ai(duel.id, 1, ai_user_id("easy"))
    assert refused.value.key == "errors.ai_only_lobbies"


async def test_hints_only_to_the_player_to_move_in_a_game_against_the_ai(service):
    people = await start_game(service, "alak", (1, 2))
    with pytest.raises(HintRefused):
        await service.aiseats.hint_job(people.id, 1)
    info = await service.aiseats.play_ai("alak", 7, "medium")
    with pytest.raises(HintRefused):
        await service.aiseats.hint_job(info.id, 8)  # not a player
    job = await service.aiseats.hint_job(info.id, 7)
    assert job.level == ai.HINT_LEVEL and job.seat == 0
    tip = ai.hint(job.game, job.view, job.seat, job.seed, budget_s=0.05)
    assert tip.move in await service.games.legal_moves(info.id, 7)
    await service.play.move(info.id, 7, tip.move)
    with pytest.raises(NotYourTurn):
        await service.aiseats.hint_job(info.id, 7)


async def test_no_hint_where_a_person_is_among_the_opponents(service):
    """A table mixing people and AI players: a hint would help one person against another,
    so it is refused (saying how many opponents are people) unless every opponent is an AI
    (LPPG's partner is no opponent)."""
    mixed = await service.challenges.challenge("kolory", 1, players=3)
    await service.aiseats.add_ai(mixed.id, 1, "hard")
    await service.challenges.join(mixed.id, 2)
    game = await service.challenges.start(mixed.id, 1)
    for person in (1, 2):
        with pytest.raises(HintRefused) as refused:
            await service.aiseats.hint_job(game.id, person)
        assert refused.value.key == "errors.hint.person_opponent"
        assert refused.value.params == {"count": 1}
        assert "one of your opponents is a person" in refused.value.message
    # LPPG in teams: seats 0 and 2 (people) against 1 and 3 (AI players): allowed.
    partners = await service.challenges.challenge("lppg", 1, players=4)
    await service.aiseats.add_ai(partners.id, 1, "easy")
    await service.challenges.join(partners.id, 2)
    await service.aiseats.add_ai(partners.id, 1, "easy")
    teams = await service.challenges.start(partners.id, 1)
    assert teams.seats[0] == 1 and teams.seats[2] == 2
    job = await service.aiseats.hint_job(teams.id, 1)
    assert job.seat == 0
    # A person on the other team: refused.
    against = await service.challenges.challenge("lppg", 3, players=4)
    await service.challenges.join(against.id, 4)
    await service.aiseats.add_ai(against.id, 3, "easy")
    await service.aiseats.add_ai(against.id, 3, "easy")
    crossed = await service.challenges.start(against.id, 3)
    assert crossed.seats[:2] == (3, 4)
    with pytest.raises(HintRefused) as refused:
        await service.aiseats.hint_job(crossed.id, 3)
    assert refused.value.params == {"count": 1}


async def test_no_take_backs_against_the_ai(service):
    info = await service.aiseats.play_ai("alak", 7, "easy")
    await service.play.move(info.id, 7, (await service.games.legal_moves(info.id, 7))[0])
    with pytest.raises(UndoError) as refused:
        await service.play.request_undo(info.id, 7)
    assert refused.value.key == "errors.undo_against_ai"


async def test_games_against_the_ai_are_not_rated_and_counted_per_level(tsv, verdict):
    services, ratings = tsv.services, tsv.ratings
    results = []
    for level, verdict_text in (("easy", "win"), ("easy", "draw"), ("hard", "loss")):
        info = await services.aiseats.play_ai("verdict", 3, level)
        await services.play.move(info.id, 3, verdict_text)
        results.append(await ratings.on_game_over(info.id))
    assert results == [False, False, False]
    assert (await ratings.profile(3)).ratings == ()
    assert (await ratings.leaderboard("verdict")).glicko == ()
    records = {r.level: (r.won, r.drawn, r.lost) for r in await services.aiseats.ai_record(3)}
    assert records == {"easy": (1, 1, 0), "hard": (0, 0, 1)}
    assert await services.aiseats.ai_record(4) == []


async def test_the_record_against_the_ai_counts_ai_opponents_only(service):
    """In LPPG for four, an AI partner is no opponent: the game counts against the level of
    the AI on the other team only."""
    lobby = await service.challenges.challenge("lppg", 1, players=4)
    await service.aiseats.add_ai(lobby.id, 1, "easy")  # seat 1: against person 1
    await service.aiseats.add_ai(lobby.id, 1, "hard")  # seat 2: person 1's partner
    await service.challenges.join(lobby.id, 2)  # seat 3: the easy AI's partner
    info = await service.challenges.start(lobby.id, 1)
    assert info.seats[0] == 1 and info.seats[3] == 2
    await service.play.resign(info.id, 1)  # person 1's team loses
    records = {r.level: (r.won, r.drawn, r.lost) for r in await service.aiseats.ai_record(1)}
    assert records == {"easy": (0, 0, 1)}
    records = {r.level: (r.won, r.drawn, r.lost) for r in await service.aiseats.ai_record(2)}
    assert records == {"hard": (1, 0, 0)}


@pytest.mark.parametrize("game", sorted(engines.GAMES))
async def test_every_game_is_played_against_the_ai_through_its_jobs(service, game):
    """The worker's job (a seat's dumped view) is enough for the AI in every game, hidden
    information and chance included: its moves are legal in the real game."""
    info = await service.aiseats.play_ai(game, 7, "easy", players=engines.get(game).min_players)
    for _ in range(40):
        info = await service.games.get_game(info.id)
        if info.status != "active":
            break
        if info.user_to_move() == 7:
            await service.play.move(info.id, 7, (await service.games.legal_moves(info.id, 7))[0])
            continue
        job = await service.aiseats.ai_job(info.id)
        assert job is not None and job.view == engines.get(game).dump(
            await service.games.player_view(info.id, job.user_id))
        played = await service.play.move(info.id, job.user_id, think(job).move,
                                     expected_version=job.version)
        assert played.seat == job.seat
    assert (await service.games.get_game(info.id)).ply > 0
    assert await service.games.replay_matches(info.id)
