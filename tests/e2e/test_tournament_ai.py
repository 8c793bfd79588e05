"""A tournament game against an AI entrant, as its player sees it: no hint (the AI's help
would weigh on a game that decides the standings), and its boards offer no button that
would only refuse (Hint, Abort)."""

from __future__ import annotations

from emulator import EPHEMERAL, Message
from tests.e2e.buttons import action_labels, board_buttons
from tests.e2e.test_ai import until_human_turn
from tests.e2e.test_tournament import thread_of, tournaments


async def alice_against_an_ai_entrant(world) -> tuple[int, int]:
    """Alice and an easy AI in a round robin of two, started: (game, thread), once Alice is
    to move."""
    emu = world.emu
    await (await emu.slash("alice", "tournament create", {
        "game": "alak", "format": "round_robin", "name": "Robots"})).reply()
    await (await emu.slash("alice", "tournament join", {})).reply()
    await (await emu.slash("alice", "tournament add-ai", {"level": "easy"})).reply()
    (tournament,) = await tournaments(world).reading.tournaments(emu.guild_id)
    await (await emu.slash("alice", "tournament start", {})).reply()
    (board,) = await tournaments(world).reading.pairings(tournament.id)
    thread = await thread_of(world, board.game_id)
    game = await until_human_turn(world.services, board.game_id)
    assert game.user_to_move() == emu.user("alice").id
    return board.game_id, thread


def last_board(world, thread: int) -> Message:
    return [m for m in world.emu.messages.values()
            if m.channel_id == thread and m.files and not m.ephemeral][-1]


async def test_no_hint_in_a_tournament_game_against_an_ai_entrant(world):
    emu = world.emu
    _, thread = await alice_against_an_ai_entrant(world)
    refused = await (await emu.slash("alice", "hint", {}, channel=thread)).reply()
    assert refused.flags & EPHEMERAL
    assert refused.content == ("No hint in a tournament game: the AI's help would weigh on a "
                               "game that decides the standings.")
    french = await (await emu.slash("alice", "hint", {}, channel=thread, locale="fr")).reply()
    assert french.content.replace("\u00a0", " ") == (
        "Pas de conseil dans une partie de tournoi : l'aide de l'IA pèserait sur une partie "
        "qui décide du classement.")


async def test_a_tournament_board_against_an_ai_entrant_offers_neither_hint_nor_abort(world):
    """A tournament game is never aborted and gives no hint: its boards have no Abort and no
    Hint (nor Undo: the AI takes nothing back), though nobody has moved twice yet."""
    _, thread = await alice_against_an_ai_entrant(world)
    board = last_board(world, thread)
    assert action_labels(board) == ["Move…", "Resign"]
    assert "Abort" not in [b["label"] for b in board_buttons(board)]
