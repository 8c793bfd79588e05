"""What a row says (``bot.discord.delivery.compose.Composer``), with stand-ins for the services: the
mention of the player to move (who alone is pinged), the move buttons of the row's own
version, none for an AI's turn, and a refusal of kinds it does not post."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

import engines
from bot.core.events import (
    GameEnded,
    GameStarted,
    MovePlayed,
    OutboxItem,
    Resigned,
    TournamentRound,
    UndoDeclined,
    UndoDone,
    UndoRequested,
)
from bot.core.models import Position
from bot.core.seats import ai_user_id
from bot.discord.delivery.compose import Composer

ALICE, BOB = 11, 12


class Games:
    def __init__(self) -> None:
        self.asked: list[tuple] = []

    async def position(self, game_id, *, ply, version, last_move, game) -> Position:
        self.asked.append((game_id, ply, version, last_move))
        alak = engines.get("alak")
        state = alak.new(2, seed=1)
        for _ in range(ply):
            state = alak.play(state, alak.legal_moves(state)[0])
        return Position(game_id, ply, version, alak.view(state, None), ply % 2, last_move,
                        False, current=False)


class Notify:
    """Quiet mode (``/mute``): the muted players of each game."""

    def __init__(self) -> None:
        self.muted: set[tuple[int, int]] = set()

    async def turn_pings(self, user_id: int, game_id: int) -> bool:
        return (user_id, game_id) not in self.muted


@pytest.fixture
def composer() -> Composer:
    # No clock: every row here is drawn from history (``Position.current`` false).
    return Composer(SimpleNamespace(games=Games()), clocks=None, notify=Notify())


def game(seats=(ALICE, BOB)) -> SimpleNamespace:
    return SimpleNamespace(id=3, game="alak", seats=seats, outcome=None, locale="en",
                           in_conversation=False)


def move_row(ply: int, seat: int, version: int = 5) -> OutboxItem:
    played = MovePlayed(game_id=3, ply=ply, version=version, move="c", description=None,
                        seat=seat, user_id=(ALICE, BOB)[seat])
    return OutboxItem(1, 3, played, datetime.now(UTC))


async def test_a_move_names_the_next_player_pings_only_them_and_has_its_buttons(composer):
    composed = await composer.compose(move_row(1, 0), game(), "en")
    assert composer.services.games.asked == [(3, 1, 5, "c")], "drawn at the row's own ply"
    assert composed.content.startswith(f"<@{ALICE}> played **c**.")
    assert f"<@{BOB}>" in composed.content.splitlines()[-1]
    assert [user.id for user in composed.pings.users] == [BOB]
    assert composed.position.ply == 1 and composed.clock is None  # history: no clock
    *move_rows, actions = composed.view.to_components()
    custom_ids = [button["custom_id"] for row in move_rows for button in row["components"]]
    assert custom_ids and all(cid.startswith("bg:mv:3:5:") for cid in custom_ids)
    # Below the moves, the buttons that stand for the commands (Alak deals no hand).
    assert [b["custom_id"] for b in actions["components"]] == [
        "bg:form:3", "bg:act:3:undo", "bg:resign-ask:3"]


async def test_a_thread_board_has_the_same_buttons_as_a_conversation_board(composer):
    """Both places work the same way: the same rows under the same board."""
    in_thread = await composer.compose(move_row(1, 0), game(), "en")
    elsewhere = game()
    elsewhere.in_conversation = True
    in_conversation = await composer.compose(move_row(1, 0), elsewhere, "en")
    assert in_thread.view.to_components() == in_conversation.view.to_components()


async def test_a_muted_player_is_named_not_pinged(composer):
    composer.notify.muted.add((BOB, 3))
    composed = await composer.compose(move_row(1, 0), game(), "en")
    assert f"<@{BOB}>" in composed.content and composed.pings.users is False


async def test_an_ai_to_move_gets_no_ping_and_no_buttons(composer):
    composed = await composer.compose(move_row(1, 0), game((ALICE, ai_user_id("easy"))), "en")
    assert composed.view is None and composed.pings.users is False
    assert "AI (easy)" in composed.content


async def test_a_resignation_is_text_only_and_pings_nobody(composer):
    resigned = Resigned(game_id=3, seat=1, user_id=BOB, version=6)
    row = OutboxItem(2, 3, resigned, datetime.now(UTC))
    composed = await composer.compose(row, game(), "fr")
    assert composed.position is None and composed.view is None
    assert composed.pings.users is False and f"<@{BOB}>" in composed.content


async def test_it_composes_the_game_s_own_events_and_no_other(composer):
    assert set(composer.posts) == {GameStarted, MovePlayed, UndoDone, Resigned, UndoRequested,
                                   UndoDeclined, GameEnded}
    row = OutboxItem(2, None, TournamentRound(tournament_id=1, round=1), datetime.now(UTC))
    with pytest.raises(KeyError):  # the tournaments post it: asking here is a mistake
        await composer.compose(row, game(), "en")
