"""LPPG: hidden hands. /hand shows your own cards only to you; moves go through /move with
suggestions computed from the seat's own view."""

from __future__ import annotations

import dataclasses
import re

import pytest

import engines
from emulator import EPHEMERAL
from tests.e2e.buttons import action_labels, board_buttons
from tests.e2e.moves import move_said


async def test_hand_is_private_and_moves_are_suggested(world):
    emu = world.emu
    first = await world.start_game("alice", "lppg", "bob")
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)

    shown = await (await emu.slash("alice", "hand", channel=thread)).reply()
    assert shown.flags & EPHEMERAL and shown.files[0].is_png
    refused = await (await emu.slash("carol", "hand", channel=thread)).reply()
    assert refused.flags & EPHEMERAL and not refused.files
    assert shown.files[0].data != first.files[0].data, "the hand is its own image"

    users = {u.id: u for u in emu.users.values()}
    for _ in range(6):
        game = await world.services.games.get_game(game.id)
        mover = users[game.user_to_move()]
        suggestions = await emu.autocomplete(mover, "move", {"text": ""}, "text", channel=thread)
        assert suggestions, "the player to move gets suggestions from their own view"
        reply = await (await emu.slash(mover, "move", {"text": suggestions[0]["value"]},
                                       channel=thread)).reply()
        assert not reply.ephemeral and reply.files[0].is_png
    assert (await world.services.games.get_game(game.id)).ply == 6


@pytest.mark.parametrize("game", ["alak", "palam"])
async def test_hand_in_a_game_without_hidden_cards(world, game):
    """Alak has no hidden part; Palam's hidden part (the pile) is no hand either."""
    emu = world.emu
    first = await world.start_game("alice", game, "bob")
    answer = await (await emu.slash("alice", "hand", channel=first.channel_id)).reply()
    assert answer.flags & EPHEMERAL and "no hand to show" in answer.content
    labels = [b["label"] for b in board_buttons(first)]
    # No My cards: neither game deals a hand.
    assert action_labels(first) == ["Move…", "Undo", "Resign"]
    if game == "palam":
        # Palam opens with the seat the toss picked choosing its camp: both choices are buttons.
        assert labels == ["camp isis", "camp anubis", "Abort"]  # and Abort: nobody moved
        game_info = await world.services.games.game_for_thread(first.channel_id)
        chooser = next(u for u in emu.users.values() if u.id == game_info.user_to_move())
        first = await (await emu.click(chooser, first, label="camp isis")).reply()
        labels = [b["label"] for b in board_buttons(first)]
    # One-word moves are buttons (Palam's two-square swaps are typed with /move).
    assert labels and all(" " not in label for label in labels)
    game_info = await world.services.games.game_for_thread(first.channel_id)
    mover = next(u for u in emu.users.values() if u.id == game_info.user_to_move())
    reply = await (await emu.click(mover, first, label=labels[0])).reply()
    assert move_said(reply.content, mover.mention, labels[0]) and reply.files[0].is_png


# ----- nothing public tells a hand ---------------------------------------------------------------

CARD = re.compile(r"\b[RBGY](?:1[0-9]|[1-9])\b")
#: Enough of a game to reach the end.
MAX_PLIES = 400
#: A deal, and a way of choosing moves, that lead to placements few enough for buttons (under
#: 20) more than once: where the old public buttons listed every placement of both cards.
SEED = 4


def public_payloads(world, channels: set[int]) -> list[tuple[int | None, list[str], list[str]]]:
    """Every public message as it was posted or edited, in the game's channels: (ply of its
    board or None, the texts it shows — content, button labels, custom_ids, file names —, the
    moves its buttons would play)."""
    found = []
    for event in world.emu.events:
        if event.kind not in ("message", "edit") or event.data.channel_id not in channels:
            continue
        message = event.data
        if message.ephemeral:
            continue
        names = [f.filename for f in message.files]
        ply = next((int(m.group(1)) for n in names if (m := re.search(r"-(\d+)\.png$", n))),
                   None)
        buttons = message.buttons()
        texts = [message.content, *names, *(b.get("label") or "" for b in buttons),
                 *(b.get("custom_id") or "" for b in buttons)]
        moves = [b["custom_id"].split(":", 4)[4] for b in buttons
                 if b.get("custom_id", "").startswith("bg:mv:")]
        found.append((ply, texts, moves))
    return found


def consistent_hands(game, state, seat: int, texts: list[str], moves: list[str]) -> int:
    """How many hands ``seat`` could hold given what a payload shows: the true hand and every
    hand made by swapping one of its cards for a card nobody sees. A hand fits when every card
    id the payload names is public or in the hand, and its moves fit: every move offered is
    legal with it, and when placements are offered, an observer who knows that a bot lists
    them all may require exactly those."""
    from engines.lppg import CARD_IDS

    public = {CARD_IDS[card] for card, *_ in state.placed}
    named = {c for text in texts for c in CARD.findall(text)} - public
    hidden = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
    hidden += [*state.pile_a, *state.pile_b, *state.discard]
    true_hand = state.hands[seat]
    candidates = [true_hand] + [
        tuple(other if c == mine else c for c in true_hand)
        for mine in true_hand for other in hidden
    ]
    offered = set(moves)
    complete = any(move.startswith("play") for move in moves)
    fitting = 0
    for hand in candidates:
        hands = tuple(hand if s == seat else h for s, h in enumerate(state.hands))
        alternative = dataclasses.replace(state, hands=hands)
        if not named <= {CARD_IDS[c] for c in hand}:
            continue
        if state.to_move == seat and complete:
            fits = {str(m) for m in game.legal_moves(alternative)} == offered
        else:
            fits = all(game.is_legal(alternative, move) for move in moves)
        fitting += fits
    return fitting


async def test_no_public_payload_of_a_whole_lppg_game_tells_a_hand(world):
    """Boards, buttons, texts and file names: for each, every player's hand could still be
    another (the old boards carried one button per legal placement, which gave both cards)."""
    emu = world.emu
    world.services.context.seeds = lambda: SEED
    first = await world.start_game("alice", "lppg", "bob")
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    few = 0
    for _ in range(MAX_PLIES):
        mover, moves = await world.turn(game.id)
        if mover is None:
            break
        few += moves[0].startswith("play") and len(moves) <= 20
        reply = await (await emu.slash(mover, "move", {"text": moves[len(moves) // 2]},
                                       channel=thread)).reply()
        assert not reply.ephemeral, reply.content
    else:
        raise AssertionError("the game did not end")
    assert few >= 1, "the game reached a turn with few placements"
    record = await world.services.games.record(game.id)
    engine = engines.get("lppg")
    states = engine.replay(2, record.seed, game.options, [m.text for m in record.moves])
    payloads = public_payloads(world, {thread, emu.channel_id})
    boards = [p for p in payloads if p[0] is not None]
    assert {ply for ply, _, _ in boards} == set(range(len(record.moves) + 1))
    assert not any(move.startswith("play") for _, _, moves in payloads for move in moves), (
        "no placement is ever offered publicly")
    checked = 0
    for ply, texts, moves in boards:
        state = states[ply]
        for seat in range(2):
            if state.hands[seat]:  # an empty hand hides nothing
                assert consistent_hands(engine, state, seat, texts, moves) > 1, (ply, seat)
                checked += 1
    assert checked > len(boards)


async def test_hand_offers_the_players_own_moves_privately(world):
    """When the player to move holds cards, their moves come as buttons on their /hand answer
    (when they fit), never on the public board; pressing one plays it publicly."""
    emu = world.emu
    world.services.context.seeds = lambda: SEED  # a deal that comes to a few placements
    first = await world.start_game("alice", "lppg", "bob")
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    for _ in range(MAX_PLIES):
        mover, moves = await world.turn(game.id)
        latest = [m for m in emu.channel_messages(thread) if m.files][-1]
        if len(moves) <= 25 and not board_buttons(latest):
            break
        await (await emu.slash(mover, "move", {"text": moves[len(moves) // 2]},
                                   channel=thread)).reply()
    else:
        raise AssertionError("no private decision with few moves came up")
    shown = await (await emu.slash(mover, "hand", channel=thread)).reply()
    assert shown.ephemeral and shown.files and shown.files[0].filename == "hand.png"
    assert sorted(b["label"] for b in shown.buttons()) == sorted(moves)
    other = next(u for u in emu.users.values() if u.id in game.seats and u != mover)
    theirs = await (await emu.slash(other, "hand", channel=thread)).reply()
    assert theirs.ephemeral and not theirs.buttons(), "not their turn: no moves"
    played = await (await emu.click(mover, shown, label=moves[0])).reply()
    assert not played.ephemeral and played.channel_id == thread and played.files
    assert move_said(played.content, mover.mention, moves[0]), played.content
