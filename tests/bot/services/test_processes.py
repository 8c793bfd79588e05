"""Races between two bot processes on one PostgreSQL database, under the per-game,
per-tournament and per-player locks (``bot.store.postgres``): two real OS processes
(``race_worker``), each with the services on its own connections, make their calls at the same
moment, and what is committed afterwards must be what one process at a time would have left.

* two processes pressing one game's buttons: each board is played once (0 doubled, 0 lost);
* the last two games of a tournament round ending at once: the next round is paired once;
* two games of one player ending at once: both rating updates are kept;
* an undo racing a move, a resignation racing a claim on time: one of the two, entirely.

PostgreSQL only (an SQLite file serves one process): without it installed these are skipped
with the command that installs it, and fail when ``BOT_REQUIRE_POSTGRES`` is set.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.core.competition.ratings import Glicko, rate_two_player_game
from bot.core.models import utcnow
from tests.bot.services.conftest import start_game
from tests.bot.services.test_replay import independent_replay_matches
from tests.bot.services.tourney import round_games, services
from tests.bot.store.dbutil import query

ROOT = Path(__file__).resolve().parents[3]
#: Seconds between sending a race and its start: both processes have it by then.
HEADSTART = 0.25


@pytest.fixture
def backend():
    """PostgreSQL only: it is the backend several processes share."""
    return "postgresql"


class Racers:
    """Two worker processes on the test's database."""

    def __init__(self, url: str, count: int = 2) -> None:
        self.workers = [
            subprocess.Popen([sys.executable, "-m", "tests.bot.services.race_worker", url],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
            for _ in range(count)
        ]

    async def ready(self) -> None:
        for worker in self.workers:
            line = await asyncio.to_thread(worker.stdout.readline)
            assert line.strip() == "ready", f"a race worker failed to start ({line!r})"

    async def race(self, *calls_per_worker: list) -> list[list[dict]]:
        """Each worker's calls, all started at the same moment; their answers per worker."""
        at = time.time() + HEADSTART
        for worker, calls in zip(self.workers, calls_per_worker, strict=True):
            worker.stdin.write(json.dumps({"at": at, "calls": calls}) + "\n")
            worker.stdin.flush()
        return [json.loads(await asyncio.to_thread(worker.stdout.readline))
                for worker in self.workers]

    def stop(self) -> None:
        for worker in self.workers:
            try:
                worker.stdin.write("\n")
                worker.stdin.flush()
                worker.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                worker.kill()
                worker.wait()


@pytest.fixture
async def racers(db):
    started = Racers(db.url)
    try:
        await started.ready()
        yield started
    finally:
        started.stop()


@pytest.fixture
def s(store):
    """The services of the test's own process, on real time as the workers are."""
    return services(store, utcnow)


def flat(results: list[list]) -> list[dict]:
    """Every answer of a race, a sequence's answers included."""
    out = []
    for answers in results:
        for answer in answers:
            out += answer if isinstance(answer, list) else [answer]
    return out


async def test_two_processes_pressing_one_games_buttons(s, racers, db):
    info = await start_game(s.services, options={"length": 26})
    rng = random.Random(5)
    rounds = 12
    for number in range(rounds):
        current = await s.services.games.get_game(info.id)
        user = current.user_to_move()
        legal = await s.services.games.legal_moves(info.id, user)
        # Buttons carry the board's version; /move (every other round) does not.
        version = current.version if number % 2 == 0 else None
        calls = [[["move", {"game_id": info.id, "user": user, "text": rng.choice(legal),
                            "version": version}] for _ in range(2)] for _ in range(2)]
        answers = flat(await racers.race(*calls))
        assert sum("ok" in a for a in answers) == 1, answers  # one press played the board
        assert {a.get("error") for a in answers} - {None} <= {"BoardChanged", "NotYourTurn"}
    plies = [p for (p,) in query(db, "SELECT ply FROM moves WHERE game_id = ? ORDER BY ply",
                                 (info.id,))]
    assert plies == list(range(1, rounds + 1))  # none doubled, none lost
    assert (await s.services.games.get_game(info.id)).version == rounds
    assert independent_replay_matches(db, info.id)


async def test_the_last_two_games_of_a_round_ending_at_once_pair_the_next_round_once(
    s, racers, db
):
    for attempt in range(3):
        players = [100 * (attempt + 1) + n for n in range(4)]
        tournament = await s.tournaments.signup.create(1, "alak", "round_robin", guild_id=5,
                                                       channel_id=6)
        for user in players:
            await s.tournaments.signup.join(tournament.id, user)
        await s.tournaments.signup.start(tournament.id, 1)
        first, second = await round_games(s, tournament.id)
        for game_id in (first, second):  # both games end...
            loser = (await s.services.games.get_game(game_id)).seats[1]
            await s.services.play.resign(game_id, loser)
        # ... and both processes deliver their game_over rows at the same moment.
        answers = flat(await racers.race(*([["game_over", {"game_id": game_id}]]
                                           for game_id in (first, second))))
        assert [a["ok"][1] for a in answers] == [True, True], answers  # each recorded once
        rounds = query(db, "SELECT number FROM tournament_rounds WHERE tournament_id = ? "
                       "ORDER BY number", (tournament.id,))
        assert rounds == [(1,), (2,)]
        assert query(db, "SELECT COUNT(*) FROM tournament_pairings WHERE tournament_id = ? "
                     "AND round = 2", (tournament.id,)) == [(2,)]
        posts = [payload for (payload,) in query(
            db, "SELECT payload FROM outbox WHERE kind = 'tournament_round'")]
        assert sum(json.loads(p) == {"tournament_id": tournament.id, "round": 2}
                   for p in posts) == 1
        assert len(await round_games(s, tournament.id)) == 2  # round 2's games, once


async def test_two_games_of_one_player_ending_at_once_keep_both_rating_updates(s, racers, db):
    once, _ = rate_two_player_game(Glicko(), Glicko(), 1.0)
    twice, _ = rate_two_player_game(once, Glicko(), 1.0)  # the opponents are alike: any order
    for attempt in range(4):
        winner = 1000 + 10 * attempt
        games = [await start_game(s.services, users=(winner, winner + n)) for n in (1, 2)]
        answers = flat(await racers.race(*(
            [[["resign", {"game_id": g.id, "user": g.seats[1]}],
              ["game_over", {"game_id": g.id}]]] for g in games
        )))
        assert all("ok" in a for a in answers), answers
        rows = query(db, "SELECT user_id, games, rating FROM ratings_glicko "
                     "WHERE user_id IN (?, ?, ?) ORDER BY user_id",
                     (winner, winner + 1, winner + 2))
        assert [(user, games) for user, games, _ in rows] == [
            (winner, 2), (winner + 1, 1), (winner + 2, 1)]
        assert rows[0][2] == pytest.approx(twice.rating)


async def test_an_undo_racing_a_move_is_one_or_the_other(s, racers, db):
    outcomes = set()
    for attempt in range(6):
        host, guest = 2000 + 2 * attempt, 2001 + 2 * attempt
        info = await start_game(s.services, users=(host, guest), options={"length": 26})
        legal = await s.services.games.legal_moves(info.id, host)
        await s.services.play.move(info.id, host, legal[0])
        await s.services.play.request_undo(info.id, host)
        before = await s.services.games.get_game(info.id)
        reply = (await s.services.games.legal_moves(info.id, guest))[0]
        take_back = [["answer_undo", {"game_id": info.id, "user": guest}]]
        move = [["move", {"game_id": info.id, "user": guest, "text": reply,
                          "version": before.version}]]
        undo_answer, move_answer = flat(await racers.race(take_back, move))
        assert ("ok" in undo_answer) != ("ok" in move_answer), (undo_answer, move_answer)
        after = await s.services.games.get_game(info.id)
        undone = query(db, "SELECT COUNT(*) FROM undone_moves WHERE game_id = ?", (info.id,))
        if "ok" in undo_answer:
            outcomes.add("undo")
            assert move_answer["error"] == "BoardChanged"
            assert (after.ply, undone) == (0, [(1,)])
        else:
            outcomes.add("move")
            assert undo_answer["error"] in ("BoardChanged", "UndoError")
            assert (after.ply, undone) == (2, [(0,)])
        assert after.version == before.version + 1
        assert independent_replay_matches(db, info.id)
    assert outcomes  # (which one wins each race is the scheduler's business)


async def test_a_resignation_racing_a_claim_ends_the_game_once(s, racers, db):
    for attempt in range(6):
        host, guest = 3000 + 2 * attempt, 3001 + 2 * attempt
        challenge = await s.services.challenges.challenge("alak", host, opponent_id=guest,
                                                          time_control="1d")
        info = await s.services.challenges.accept(challenge.id, guest)
        mover = info.user_to_move()
        opponent = next(u for u in info.seats if u != mover)
        resign = [["resign", {"game_id": info.id, "user": mover}]]
        claim = [["claim", {"game_id": info.id, "user": opponent, "days_ahead": 2}]]
        resigned, claimed = flat(await racers.race(resign, claim))
        assert ("ok" in resigned) != ("ok" in claimed), (resigned, claimed)
        assert (claimed if "ok" in resigned else resigned)["error"] == "GameOver"
        kinds = [k for (k,) in query(db, "SELECT kind FROM outbox WHERE game_id = ? AND kind "
                                     "IN ('resigned', 'timeout', 'game_over') ORDER BY id",
                                     (info.id,))]
        assert kinds == ["resigned" if "ok" in resigned else "timeout", "game_over"]
        after = await s.services.games.get_game(info.id)
        assert after.status == "finished"
        assert after.version == info.version + 1
