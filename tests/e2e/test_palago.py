"""A whole Palago game by slash commands: too many moves for buttons, so players type them with
the help of the autocomplete."""

from __future__ import annotations

import engines
from tests.e2e.buttons import board_buttons
from tests.e2e.moves import move_said

MAX_TURNS = 60


async def test_whole_palago_game_by_slash_commands(world):
    emu = world.emu
    first = await world.start_game("carol", "palago", "dave")
    thread = first.channel_id
    moves = [b for b in first.buttons() if b["custom_id"].startswith("bg:mv:")]
    assert first.files[0].is_png and not moves, "Palago has too many moves for buttons"
    assert [b["label"] for b in board_buttons(first)] == ["Abort"]  # nobody has moved yet
    game = await world.services.games.game_for_thread(thread)
    users = {u.id: u for u in emu.users.values()}

    for _ in range(MAX_TURNS):
        game = await world.services.games.get_game(game.id)
        if game.status != "active":
            break
        mover = users[game.user_to_move()]
        suggestions = await emu.autocomplete(mover, "move", {"text": ""}, "text", channel=thread)
        assert 0 < len(suggestions) <= 25
        legal = {str(m) for m in engines.get("palago").legal_moves(game.state)}
        assert {c["value"] for c in suggestions} <= legal
        # Typing narrows the suggestions to moves containing what is typed.
        typed = suggestions[-1]["value"][:2]
        narrowed = await emu.autocomplete(mover, "move", {"text": typed}, "text", channel=thread)
        assert narrowed and all(typed in c["value"].lower() for c in narrowed)

        interaction = await emu.slash(mover, "move", {"text": suggestions[0]["value"]},
                                      channel=thread)
        reply = await interaction.reply()
        assert reply.files and reply.files[0].is_png and not reply.ephemeral
        after = await world.services.games.get_game(game.id)
        assert after.ply == game.ply + 1
        assert move_said(reply.content, f"<@{game.user_to_move()}>", after.last_move), (
            reply.content)
    else:
        raise AssertionError("the Palago game did not end")

    assert game.outcome is not None
    result = await emu.wait_for_message(lambda m: m.content.startswith("Game over"),
                                        channel_id=thread)
    assert game.outcome.reason in result.content
