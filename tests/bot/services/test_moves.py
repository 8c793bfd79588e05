"""Moves, views, records and the outbox through the service; bad input changes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import bot.services.games
from bot.core import i18n
from bot.discord.replies import ECHO_MAX, clip_params
from bot.services import (
    BoardChanged,
    GameOver,
    IllegalMoveError,
    NotAPlayer,
    NotFound,
    NotYourTurn,
    ServiceError,
    Services,
)
from bot.store import open_store
from engines import Phrase
from tests.bot.services.conftest import SEED, start_game
from tests.bot.store.dbutil import db_dump, query


async def play_out(service, info, moves):
    """Play ``moves`` in turn order for the users seated in ``info``."""
    result = None
    for text in moves:
        current = await service.games.get_game(info.id)
        result = await service.play.move(info.id, current.user_to_move(), text)
    return result


async def test_a_move_is_applied_and_recorded(service, db, clock):
    info = await start_game(service)
    result = await service.play.move(info.id, 1, "  F ")  # forgiving input, canonical output
    assert result.move == "f"
    assert result.seat == 0
    assert result.description == "f"
    assert result.explanation == Phrase("move.plain", move="f")  # for each reader's language
    game = result.game
    assert game.version == info.version + 1
    assert game.ply == 1 and game.to_move == 1 and game.user_to_move() == 2
    assert game.last_move == "f"
    assert game.state.board[5] == 0
    assert game == await service.games.get_game(info.id)
    played_at = clock.readings[-1].isoformat(timespec="microseconds")
    assert query(db, "SELECT game_id, ply, seat, text, played_at FROM moves") == [
        (info.id, 1, 0, "f", played_at)
    ]
    outbox = await service.outbox.pending_outbox()
    assert outbox[-1].kind == "move"
    assert outbox[-1].payload == {
        "game_id": info.id, "ply": 1, "version": 1, "move": "f",
        "description": {"key": "move.plain", "params": {"move": "f"}}, "seat": 0,
        "user_id": 1,
    }


async def test_moves_follow_the_turn(service):
    info = await start_game(service)
    await play_out(service, info, ["a", "c", "e"])
    game = await service.games.get_game(info.id)
    assert game.ply == 3 and game.to_move == 1


async def test_legal_moves_only_for_the_player_to_move(service):
    info = await start_game(service)
    assert await service.games.legal_moves(info.id, 1) == list("abcdefghijk")
    assert await service.games.legal_moves(info.id, 2) == []
    assert await service.games.legal_moves(info.id, 99) == []
    with pytest.raises(NotFound):
        await service.games.legal_moves(info.id + 1, 1)


def _bad_moves():
    return [
        ("unknown_game", lambda g: (g + 100, 1, "a", None), NotFound, "errors.not_found"),
        ("non_player", lambda g: (g, 99, "a", None), NotAPlayer, "errors.not_a_player"),
        ("out_of_turn", lambda g: (g, 2, "a", None), NotYourTurn, "errors.not_your_turn"),
        ("garbage", lambda g: (g, 1, "zz top", None), IllegalMoveError, "errors.illegal_move"),
        ("empty", lambda g: (g, 1, "   ", None), IllegalMoveError, "errors.illegal_move"),
        ("off_board", lambda g: (g, 1, "z", None), IllegalMoveError, "errors.illegal_move"),
        ("taken_point", lambda g: (g, 1, "f", None), IllegalMoveError, "errors.illegal_move"),
        ("stale_version", lambda g: (g, 1, "a", 0), BoardChanged, "errors.board_changed"),
    ]


@pytest.mark.parametrize(
    "name,arguments,error_type,key", _bad_moves(), ids=[b[0] for b in _bad_moves()]
)
async def test_bad_moves_change_nothing(service, db, name, arguments, error_type, key):
    info = await start_game(service)
    await service.play.move(info.id, 1, "f")
    await service.play.move(info.id, 2, "g")
    before = db_dump(db)
    game_id, user, text, version = arguments(info.id)
    with pytest.raises(error_type) as error:
        await service.play.move(game_id, user, text, expected_version=version)
    assert error.value.key == key
    if error_type is IllegalMoveError:
        assert error.value.params["reason"]  # the engine's reason, shown to the player
    assert db_dump(db) == before


async def test_a_finished_game_takes_no_more_moves(service, db):
    info = await start_game(service, options={"length": 7})
    # Alak on 7 points: play until the engine says it is over.
    while (current := await service.games.get_game(info.id)).status == "active":
        user = current.user_to_move()
        await service.play.move(info.id, user, (await service.games.legal_moves(info.id, user))[0])
    assert current.to_move is None and current.outcome is not None
    assert current.user_to_move() is None
    kinds = [item.kind for item in await service.outbox.pending_outbox()]
    assert kinds[-2:] == ["move", "game_over"]
    assert await service.games.legal_moves(info.id, 1) == []
    before = db_dump(db)
    for user in (1, 2):
        with pytest.raises(GameOver):
            await service.play.move(info.id, user, "a")
    assert db_dump(db) == before


async def test_the_seed_is_never_returned_while_the_game_runs(service):
    info = await start_game(service)
    result = await service.play.move(info.id, 1, "c")
    record = await service.games.record(info.id)
    texts = [
        repr(info), repr(result), repr(record), repr(await service.games.get_game(info.id)),
        repr(await service.games.games_of(1)), repr(await service.outbox.pending_outbox()),
        repr(await service.games.player_view(info.id, 1)),
    ]
    for text in texts:
        assert str(SEED) not in text
    assert result.game.state.seed is None
    assert record.seed is None and record.header["seed"] is None


async def test_the_seed_is_shown_once_the_game_is_over(service):
    info = await start_game(service)
    await service.play.resign(info.id, 2)
    record = await service.games.record(info.id)
    assert record.seed == SEED


async def test_seeds_are_secret_random_by_default(store, db):
    service = Services(store)
    seeds = set()
    for host in range(5):
        info = await start_game(service, users=(host * 2 + 1, host * 2 + 2))
        (seed,) = [s for (s,) in query(db, "SELECT seed FROM games WHERE id = ?",
                                       (info.id,))]
        seeds.add(seed)
    assert len(seeds) == 5 and all(0 <= seed < 2**63 for seed in seeds)


async def test_record_lists_moves_with_their_times(service, clock):
    info = await start_game(service)
    await play_out(service, info, ["a", "k", "e"])
    record = await service.games.record(info.id)
    assert [(ply, seat, text) for ply, seat, text, _ in record.moves] == [
        (1, 0, "a"), (2, 1, "k"), (3, 0, "e"),
    ]
    times = [move.time for move in record.moves]
    assert times == sorted(times) and times[-1] == clock.readings[-1]
    assert record.header["game"] == "alak" and record.header["seats"] == [1, 2]


async def test_games_of_says_whose_turn(service):
    first = await start_game(service, users=(1, 2))
    second = await start_game(service, users=(3, 1))
    await service.play.move(first.id, 1, "a")
    games = await service.games.games_of(1)
    assert [g.id for g in games] == [first.id, second.id]  # most recently active first
    assert {g.id: g.user_to_move() for g in games} == {first.id: 2, second.id: 3}
    await service.play.resign(second.id, 3)
    assert [g.id for g in await service.games.games_of(1)] == [first.id]
    every = await service.games.games_of(1, active_only=False)
    assert {g.id for g in every} == {first.id, second.id}
    assert await service.games.games_of(42) == []


async def test_threads_find_their_game(service):
    info = await start_game(service)
    assert await service.games.game_for_thread(555) is None
    await service.games.set_thread(info.id, 555)
    found = await service.games.game_for_thread(555)
    assert found.id == info.id and found.thread_id == 555
    assert found.version == info.version  # attaching a thread does not change the board
    with pytest.raises(NotFound):
        await service.games.set_thread(info.id + 1, 556)


async def test_hidden_hands_only_reach_their_owner(service, tally):
    info = await start_game(service, game="tally", users=(1, 2, 3))
    assert all(hand is None for hand in info.state.hands)  # the public view hides every hand
    views = [await service.games.player_view(info.id, user) for user in (1, 2, 3)]
    for seat, view in enumerate(views):
        assert view.hands[seat] is not None
        assert [h for s, h in enumerate(view.hands) if s != seat] == [None, None]
    with pytest.raises(NotAPlayer):
        await service.games.player_view(info.id, 4)
    result = await service.play.move(info.id, 1, "2")
    assert all(hand is None for hand in result.game.state.hands)


async def test_outbox_delivery(service):
    info = await start_game(service)
    await service.play.move(info.id, 1, "a")
    pending = await service.outbox.pending_outbox()
    assert [item.kind for item in pending] == ["game_started", "move"]
    await service.outbox.mark_delivered(pending[0].id)
    await service.outbox.mark_delivered(pending[0].id)  # twice is harmless
    assert [item.id for item in await service.outbox.pending_outbox()] == [pending[1].id]
    assert len(await service.outbox.pending_outbox(limit=0)) == 0
    other = await start_game(service, users=(3, 4))
    assert [i.game_id for i in await service.outbox.pending_outbox(game_id=other.id)] == [other.id]
    assert [i.id for i in await service.outbox.pending_outbox(game_id=info.id)] == [pending[1].id]
    with pytest.raises(NotFound) as error:
        await service.outbox.mark_delivered(12345)
    assert error.value.key == "errors.outbox_not_found"


async def test_settings_round_trip(service):
    assert await service.settings.guild_settings(1) == (None, {})
    await service.settings.set_guild_settings(1, locale="fr", settings={"channel": 9})
    assert await service.settings.guild_settings(1) == ("fr", {"channel": 9})
    await service.settings.set_user_locale(5, "fr")
    assert await service.settings.user_locale(5) == "fr"
    assert await service.settings.user_locale(6) is None


def test_every_error_key_exists_in_every_language():
    source = "\n".join(
        path.read_text(encoding="utf-8")
        for path in (Path(__file__).resolve().parents[3] / "bot" / "services").glob("*.py")
    )
    keys = set(re.findall(r'"(errors\.[a-z_]+)"', source))
    assert len(keys) > 20
    for language in i18n.LANGUAGES:
        # A key is a text, or a table of plural forms ("errors.vacation_days.one"…).
        written = {re.sub(r"\.(zero|one|two|few|many|other)$", "", key)
                   for key in i18n.catalog(language)}
        missing = keys - written
        assert not missing, (language, missing)


def test_a_refusal_quoting_long_input_is_clipped_inside_the_engines_phrase():
    typed = "x" * 500
    error = IllegalMoveError("errors.illegal_move", reason=Phrase("alak.not_a_point", text=typed))
    shown = i18n.t(error.key, "fr", **clip_params(error.params))
    assert typed not in shown and "x" * (ECHO_MAX - 1) + "…" in shown
    assert shown.startswith("Ce coup n'est pas permis")


def test_errors_render_their_parameters():
    error = IllegalMoveError("errors.illegal_move", reason="point f is already taken")
    assert "point f is already taken" in error.message
    assert "point f is already taken" in i18n.t(error.key, "fr", **error.params)
    assert isinstance(error, ServiceError) and str(error) == error.message


async def test_a_restart_loses_nothing(db, clock):
    store = await open_store(db.url)
    service = Services(store, clock=clock, seeds=lambda: SEED)
    info = await start_game(service)
    await service.play.move(info.id, 1, "c")
    await service.games.set_thread(info.id, 42)
    await service.play.request_undo(info.id, 1)
    before = await service.games.get_game(info.id)
    pending = await service.outbox.pending_outbox()
    await store.close()

    store = await open_store(db.url)
    try:
        service = Services(store, clock=clock)
        assert await service.games.get_game(info.id) == before
        assert await service.games.game_for_thread(42) == before
        assert await service.outbox.pending_outbox() == pending
        done = await service.play.answer_undo(info.id, 2, True)  # the request survived too
        assert done.ply == 0
        assert (await service.play.move(info.id, 1, "d")).game.ply == 1
    finally:
        await store.close()


async def test_a_game_named_by_number_is_seen_only_from_its_server(service):
    """A number typed in a server reaches that server's games only; in a direct message, only
    the user's own games. The refusal is the one an unknown number gets."""
    here = await service.challenges.create_game("alak", (1, 2), guild_id=5, channel_id=6)
    seen = await service.games.game_seen_from(here.id, guild_id=5, user_id=3)
    assert seen.id == here.id  # anyone in the game's server may look at its board
    for number in (here.id, here.id + 1000):
        with pytest.raises(NotFound) as error:
            await service.games.game_seen_from(number, guild_id=7, user_id=1)
        assert (error.value.key, error.value.params) == ("errors.game_not_here",
                                                          {"game_id": number})
    assert (await service.games.game_seen_from(here.id, guild_id=None, user_id=2)).id == here.id
    for number in (here.id, here.id + 1000):
        with pytest.raises(NotFound) as error:
            await service.games.game_seen_from(number, guild_id=None, user_id=3)
        assert error.value.key == "errors.game_not_yours"


async def test_a_rows_position_comes_from_the_game_just_read_while_it_is_at_its_version(
    service, monkeypatch
):
    """The delivery reads a game, then the position of the row it posts: while the game read
    is at the row's version, that read's state is the position (the row is not read again);
    a read of another version is never used for it."""
    info = await start_game(service)
    await service.play.move(info.id, 1, "f")
    row = (await service.outbox.pending_outbox())[-1]
    at_row = dict(ply=1, version=row.payload["version"], last_move="f")
    read = await service.games.get_game(info.id)
    fresh = await service.games.position(info.id, **at_row)
    assert fresh.current and fresh.ply == 1 and fresh.state.board[5] == 0

    async def no_read(reads, game_id):
        raise AssertionError("the game was read again")

    with monkeypatch.context() as patched:
        patched.setattr(bot.services.games, "game_row", no_read)
        assert await service.games.position(info.id, **at_row, game=read) == fresh

    # The game moves on and is read again: the older read no longer stands for its version.
    await service.play.move(info.id, 2, "a")
    newer = await service.games.get_game(info.id)
    late = await service.games.position(info.id, **at_row, game=read)
    assert late == await service.games.position(info.id, **at_row)
    assert not late.current and late.ply == 1 and late.state.board[0] != 1
    assert late.state.board[5] == 0 and late.last_move == "f"
    now = await service.games.position(info.id, ply=2, version=newer.version, last_move="a",
                                       game=newer)
    assert now.current and now.ply == 2 and now.state.board[0] == 1
