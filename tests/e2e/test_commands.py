"""The command tree is built from engine metadata; suggestions are ranked and bounded."""

from __future__ import annotations

import engines
from bot.discord.cogs.game import MAX_SUGGESTIONS, rank_moves


def test_ranking_puts_prefix_matches_first_and_caps_at_25():
    moves = ["a1", "b1", "ab", "ba", "c"]
    assert rank_moves(moves, "a") == ["a1", "ab", "ba"]
    assert rank_moves(moves, " /A ") == ["a1", "ab", "ba"], "typed text is normalised"
    many = [f"m{i}" for i in range(100)]
    assert len(rank_moves(many, "")) == MAX_SUGGESTIONS
    assert rank_moves(many, "m9")[:2] == ["m9", "m90"]


async def test_play_has_a_sub_command_per_game_with_its_options(world):
    play = next(c for c in world.emu.commands[None] if c["name"] == "play")
    subs = {o["name"]: o for o in play["options"]}
    assert set(subs) == set(engines.GAMES)
    for name, sub in subs.items():
        game = engines.get(name)
        params = {o["name"]: o for o in sub.get("options", [])}
        assert params["opponent"]["type"] == 6 and not params["opponent"].get("required")
        assert ("players" in params) == (len(game.allowed_player_counts()) > 1)
        for option in game.options:
            if option.hidden:
                assert option.name not in params  # kept for stored games, never offered
                continue
            param = params[option.name]
            if param.get("choices"):
                values = [c["value"] for c in param["choices"]]
                expected = [v if isinstance(v, int) else str(v) for v in option.choices]
                assert values == expected[:25]
            elif isinstance(option.default, bool):
                assert param["type"] == 5
            else:
                assert param["type"] == 4
                assert param["min_value"] == min(option.choices)
                assert param["max_value"] == max(option.choices)


async def test_options_reach_the_game(world):
    offer = await world.challenge("alice", "palago", {"opponent": "bob", "tiebreak": True})
    assert "(tiebreak on)" in offer.content
    board = await world.accept("bob", offer)
    game = await world.services.games.game_for_thread(board.channel_id)
    assert game.options["tiebreak"] is True


async def test_replies_follow_the_users_language(world):
    emu = world.emu
    offer = await (await emu.slash("alice", "play alak", {"opponent": "bob"},
                                   locale="fr")).reply()
    assert [b["label"] for b in offer.buttons()] == ["Accepter", "Refuser", "Retirer"]
    assert "défie" in offer.content
    refused = await (await emu.click("carol", offer, label="Refuser", locale="fr")).reply()
    assert refused.ephemeral and refused.content != ""
    english = await (await emu.click("carol", offer, label="Refuser")).reply()
    assert english.content != refused.content


async def test_a_refused_take_back_changes_nothing(world):
    emu = world.emu
    offer = await world.challenge("alice", "alak", {"opponent": "bob"})
    board = await world.accept("bob", offer)
    thread = board.channel_id
    await (await emu.slash("alice", "move", {"text": "c"}, channel=thread)).reply()
    request = await (await emu.slash("alice", "undo", channel=thread)).reply()
    own = await emu.click("alice", request, label="Agree")
    assert (await own.reply()).ephemeral, "one does not agree to one's own request"
    refused = await (await emu.click("bob", request, label="Refuse")).reply()
    assert "refused" in refused.content and not refused.buttons()
    game = await world.services.games.game_for_thread(thread)
    assert game.ply == 1 and game.last_move == "c"
