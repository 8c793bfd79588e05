"""``render.warm_up`` builds what a game's first board would otherwise build while a player
waits (the bot runs it in a thread when it starts)."""

from __future__ import annotations

import engines
import render
from render import _palette


def test_after_warming_up_a_first_board_builds_no_palette():
    for name in render.supported_games():
        game = engines.get(name)
        _palette.cache_clear()
        render.warm_up(name)
        assert _palette.cache_info().misses == 1, name  # built once, by the warm-up
        for players in game.allowed_player_counts():
            render.board(name, game.new(players, seed=99))
        assert _palette.cache_info().misses == 1, name
