"""What organisers and players run into: round numbers that say what is true, settings and
names checked, removed players said as removed, and the tournaments a command may mean."""

from __future__ import annotations

import pytest

from bot.services.tournaments import TournamentError
from bot.services.tournaments.models import MAX_NAME, tournament_name
from tests.bot.services.test_tournaments import (
    ORGANISER,
    lower_id_wins,
    play_round,
    signed_up,
)
from tests.bot.services.tourney import decide, outbox_kinds

# ----- rounds ---------------------------------------------------------------------------------


async def test_completed_rounds_count_only_rounds_whose_every_board_is_decided(tsv, verdict):
    """Ruling: standings are "after" the last round whose every board is decided; a round
    being played (even just paired) is not completed, and sign-up has none."""
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4], swiss_rounds=3)
    assert t.completed_rounds == 0
    t = await tsv.tournaments.signup.start(t.id, ORGANISER)
    assert (t.current_round, t.completed_rounds) == (1, 0)
    await play_round(tsv, t.id, lower_id_wins)
    t = await tsv.tournaments.reading.get(t.id)
    assert (t.current_round, t.completed_rounds) == (2, 1)  # round 2 just paired
    (first, _) = [b.game_id for b in await tsv.tournaments.reading.pairings(t.id)]
    await decide(tsv, first, None)
    assert (await tsv.tournaments.reading.get(t.id)).completed_rounds == 1
    while (await tsv.tournaments.reading.get(t.id)).status == "running":
        await play_round(tsv, t.id, lower_id_wins)
    t = await tsv.tournaments.reading.get(t.id)
    assert (t.status, t.current_round, t.completed_rounds) == ("finished", 3, 3)
    assert (await tsv.tournaments.reading.standings(t.id)).tournament.completed_rounds == 3


async def test_a_round_that_does_not_exist_is_refused_clearly(tsv, verdict):
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4], swiss_rounds=3)
    with pytest.raises(TournamentError) as error:
        await tsv.tournaments.reading.pairings(t.id, 1)
    assert error.value.key == "errors.tournament.not_started"
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    assert len(await tsv.tournaments.reading.pairings(t.id, 1)) == 2
    cases = {
        99: ("errors.tournament.no_round", {"round": 99, "total": 3}),
        0: ("errors.tournament.no_round", {"round": 0, "total": 3}),
        -2: ("errors.tournament.no_round", {"round": -2, "total": 3}),
        2: ("errors.tournament.round_not_paired", {"round": 2, "current": 1}),
    }
    for number, (key, params) in cases.items():
        with pytest.raises(TournamentError) as error:
            await tsv.tournaments.reading.pairings(t.id, number)
        assert error.value.key == key
        assert params.items() <= error.value.params.items()
    while (await tsv.tournaments.reading.get(t.id)).status == "running":
        await play_round(tsv, t.id, lower_id_wins)
    assert len(await tsv.tournaments.reading.pairings(t.id, 3)) == 2
    with pytest.raises(TournamentError) as error:
        await tsv.tournaments.reading.pairings(t.id, 4)
    assert error.value.key == "errors.tournament.no_round"


# ----- settings and names ---------------------------------------------------------------------


async def test_rounds_are_for_a_swiss_event_only_and_within_range(tsv, verdict):
    for format, rounds, key in (("round_robin", 3, "rounds_swiss_only"),
                                ("elimination", -1, "rounds_swiss_only"),
                                ("swiss", -1, "bad_rounds"), ("swiss", 21, "bad_rounds")):
        with pytest.raises(TournamentError) as error:
            await tsv.tournaments.signup.create(ORGANISER, "verdict", format, swiss_rounds=rounds)
        assert error.value.key == f"errors.tournament.{key}"
    assert await tsv.tournaments.reading.tournaments(active_only=False) == []
    t = await tsv.tournaments.signup.create(ORGANISER, "verdict", "swiss", swiss_rounds=20)
    assert t.swiss_rounds == 20


@pytest.mark.parametrize("typed, kept", [
    ("@everyone 🎉 <@123456789012345678>", "everyone 🎉"),
    ("<@&42> Cup <#7> @here", "Cup here"),
    ("Spring\nCup\u202e\u200b  2026", "Spring Cup 2026"),
    ("<t:1767225600:R> Open <:party:1234567>", "Open"),
    ("Free prizes https://example.com", "Free prizes example.com"),
    ("**Bold** _cup_", "**Bold** _cup_"),
])
def test_names_lose_mentions_and_misleading_markup(typed, kept):
    """Ruling: names keep what reads as text; mentions, pings, hidden characters and links are
    taken out (markdown is escaped where a message shows the name)."""
    assert tournament_name(typed) == kept


async def test_names_are_cleaned_checked_and_stored_clean(tsv, verdict):
    t = await tsv.tournaments.signup.create(ORGANISER, "verdict", "swiss",
                                            name="@everyone 🎉 <@123>")
    assert t.name == "everyone 🎉"
    assert (await tsv.tournaments.reading.get(t.id)).name == "everyone 🎉"
    for name, key in (("<@123> <#4>", "empty_name"), ("   ", "empty_name"),
                      ("x" * (MAX_NAME + 1), "long_name")):
        with pytest.raises(TournamentError) as error:
            await tsv.tournaments.signup.create(ORGANISER, "verdict", "swiss", name=name)
        assert error.value.key == f"errors.tournament.{key}"
    assert len(await tsv.tournaments.reading.tournaments(active_only=False)) == 1
    default = await tsv.tournaments.signup.create(ORGANISER, "verdict", "swiss")
    assert default.name == "Verdict"


# ----- removed players ------------------------------------------------------------------------


async def test_a_removed_players_game_is_said_as_a_removal_not_a_resignation(tsv, verdict):
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4], swiss_rounds=3)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    board = next(b for b in await tsv.tournaments.reading.pairings(t.id) if 4 in (b.first_id,
                                                                           b.second_id))
    before = len(await outbox_kinds(tsv))
    removal = await tsv.tournaments.signup.kick(t.id, ORGANISER, 4)
    assert removal.removed and removal.user_id == 4
    assert removal.forfeited == (board.game_id,)
    entrant = removal.tournament.entrant(4)
    assert entrant.withdrawn and entrant.removed
    game = await tsv.services.games.get_game(board.game_id)
    assert game.status == "finished" and 4 not in {game.seats[s] for s in game.outcome.winners}
    assert game.outcome.phrase.key == "outcome.removed"
    assert "removed from the tournament" in game.outcome.reason
    rows = [(k, p) for k, p in (await outbox_kinds(tsv))[before:] if p.get("game_id") == game.id]
    assert [k for k, _ in rows] == ["tournament_forfeit", "game_over"]
    assert rows[0][1] == {"game_id": game.id, "seat": game.seats.index(4), "user_id": 4,
                          "tournament_id": t.id, "removed": True, "removed_by": ORGANISER,
                          "version": game.version}
    boards = await tsv.tournaments.reading.pairings(t.id, 1)
    (decided,) = [b for b in boards if b.game_id == game.id]
    assert decided.decided and decided.winner != 4


async def test_a_player_who_leaves_is_said_to_have_withdrawn(tsv, verdict):
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4], swiss_rounds=3)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    left = await tsv.tournaments.signup.leave(t.id, 2)
    assert not left.removed and not left.tournament.entrant(2).removed
    (game_id,) = left.forfeited
    game = await tsv.services.games.get_game(game_id)
    assert game.outcome.phrase.key == "outcome.withdrew"
    forfeits = [p for k, p in await outbox_kinds(tsv) if k == "tournament_forfeit"]
    assert forfeits[-1]["removed"] is False and forfeits[-1]["removed_by"] is None


async def test_before_the_start_a_removal_just_takes_the_name_off(tsv, verdict):
    t = await signed_up(tsv, "swiss", [1, 2, 3])
    removal = await tsv.tournaments.signup.kick(t.id, ORGANISER, 3)
    assert removal.removed and removal.forfeited == ()
    assert removal.tournament.players == (1, 2)


async def test_withdrawn_players_come_last_without_a_rank_and_their_results_still_count(
        tsv, verdict):
    """Ruling: a player who left is not among the players still in (listed after them,
    unranked, marked withdrawn or removed); their games stay in the table, so the points
    their opponents took from them keep counting for tie-breaks."""
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4, 5, 6], swiss_rounds=3)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    await play_round(tsv, t.id, lambda a, b: max(a, b))  # 6, 5 and 4 win round 1
    await tsv.tournaments.signup.kick(t.id, ORGANISER, 6)
    await tsv.tournaments.signup.leave(t.id, 5)
    while (await tsv.tournaments.reading.get(t.id)).status == "running":
        await play_round(tsv, t.id, lower_id_wins)
    table = await tsv.tournaments.reading.standings(t.id)
    active = [r for r in table.rows if not r.withdrawn]
    gone = [r for r in table.rows if r.withdrawn]
    assert [r.user_id for r in table.rows[:4]] == [r.user_id for r in active]
    assert {r.user_id for r in gone} == {5, 6} and all(r.rank is None for r in gone)
    assert {r.user_id: r.removed for r in gone} == {5: False, 6: True}
    assert [r.rank for r in active] == sorted(r.rank for r in active)
    assert active[0].rank == 1
    # Each of 5 and 6 won a game in round 1: those points stay theirs.
    assert all(r.points >= 1.0 for r in gone)
    # The players 5 and 6 beat keep them as opponents in their Buchholz.
    points = {r.user_id: r.points for r in table.rows}
    boards = [b for r in await tsv.tournaments.reading.bracket(t.id) for b in r if b.second_id]
    for row in active:
        opponents = [b.second_id if b.first_id == row.user_id else b.first_id
                     for b in boards if row.user_id in (b.first_id, b.second_id)]
        assert row.tiebreaks[0] == sum(points[o] for o in opponents)


# ----- which tournament a command means -------------------------------------------------------


async def test_open_tournaments_for_each_command_yours_first(tsv, verdict):
    mine = await tsv.tournaments.signup.create(1, "verdict", "swiss", guild_id=5)
    other = await tsv.tournaments.signup.create(ORGANISER, "verdict", "swiss", guild_id=5)
    joined = await tsv.tournaments.signup.create(ORGANISER, "verdict", "round_robin", guild_id=5)
    running = await signed_up(tsv, "round_robin", [2, 3])
    await tsv.tournaments.signup.start(running.id, ORGANISER)
    elsewhere = await tsv.tournaments.signup.create(1, "verdict", "swiss", guild_id=7)
    await tsv.tournaments.signup.join(joined.id, 1)

    async def ids(action):
        return [t.id for t in await tsv.tournaments.reading.open_tournaments(5, 1, action)]

    # Yours (organised or entered) first, then the newest.
    assert await ids("read") == [joined.id, mine.id, running.id, other.id]
    assert await ids("manage") == await ids("read")
    assert await ids("join") == [mine.id, other.id]
    assert await ids("leave") == [joined.id]
    assert await ids("start") == [joined.id, mine.id, other.id]
    assert elsewhere.id not in await ids("read")
    assert [t.id for t in await tsv.tournaments.reading.open_tournaments(5, 2, "leave")] == [
        running.id]
