"""The review picture: the graph with each player's curve in their colour, a board per mistake,
the texts given; axis ticks; seat colours per game."""

from __future__ import annotations

import engines
from render.review import (
    GRAPH_HEIGHT,
    MARGIN,
    MistakePanel,
    ReviewTexts,
    curve_colour,
    move_ticks,
    review,
    review_image,
    seat_colours,
)
from render.surface import WIDTH
from render.theme import get_theme
from tests.render.helpers import close, decode


def texts(players: int) -> ReviewTexts:
    return ReviewTexts(
        title="Review", notes=["a note"], axis_moves="move", axis_score="expected score",
        ticks=["0", "0.5", "1"], result="result", results=["1"] * players,
        player_lines=[f"P{s}" for s in range(players)],
        mistakes_heading=[f"H{s}" for s in range(players)], no_mistakes="none",
    )


def kolory_game(plies: int = 6):
    game = engines.get("kolory")
    states = [game.new(players=3, seed=3)]
    for _ in range(plies):
        states.append(game.play(states[-1], game.legal_moves(states[-1])[0]))
    return states


def graph_box(image) -> tuple[int, int, int, int]:
    """Where the graph is: under the title and one note line."""
    top = image.height  # found from the panel colour, below
    panel = get_theme("dark").panel
    rgb = image.convert("RGB")
    for y in range(image.height):
        if close(rgb.getpixel((MARGIN + 5, y)), panel, 2):
            top = y
            break
    return MARGIN, top, WIDTH - MARGIN, top + GRAPH_HEIGHT


def test_the_graph_draws_each_players_curve_in_their_colour():
    states = kolory_game()
    scores = [(0.5 + 0.05 * p, 0.5, 0.5 - 0.05 * p) for p in range(len(states))]
    image = review_image("kolory", scores, states[-1], [], [], ["A", "B", "C"], texts(3))
    assert image.width == WIDTH
    left, top, right, bottom = graph_box(image)
    graph = image.convert("RGB").crop((left, top, right, bottom))
    colours = seat_colours("kolory", states[-1], 3)
    found = {colour for _, colour in graph.getcolors(maxcolors=1 << 20)}
    for colour in colours:
        assert any(close(colour, pixel, 10) for pixel in found), colour
    # Seat 0's curve rises to the right: its colour is higher (smaller y) at the end.
    rgb = graph.load()

    def ys(colour, x):
        return [y for y in range(graph.height) if close(rgb[x, y], colour, 10)]
    start, end = ys(colours[0], 150), ys(colours[0], graph.width - 90)
    assert start and end and min(end) < min(start)


def test_each_mistake_gets_a_board_and_its_caption():
    states = kolory_game()
    scores = [(0.5, 0.5, 0.5)] * len(states)
    bare = review_image("kolory", scores, states[-1], [], [], ["A", "B", "C"], texts(3))
    panels = [MistakePanel(states[1], 0, ["Move 2 · A", "played x", "AI: y"]),
              MistakePanel(states[3], 0, ["Move 4 · A", "played x", "AI: y"]),
              MistakePanel(states[2], 1, ["Move 3 · B", "played x", "AI: y"])]
    full = review_image("kolory", scores, states[-1], panels, [(2, 0), (4, 0), (3, 1)],
                        ["A", "B", "C"], texts(3))
    # Two rows of boards (seat 0's two side by side, seat 1's one) make the picture taller.
    assert full.height > bare.height + 2 * 150
    data = review("kolory", scores, states[-1], panels, [(2, 0)], ["A", "B", "C"], texts(3))
    assert decode(data).size == full.size and data[:4] == b"\x89PNG"


def test_move_numbers_on_the_axis_are_round_and_few():
    assert move_ticks(8) == list(range(9))
    assert move_ticks(40) == [0, 5, 10, 15, 20, 25, 30, 35, 40]
    assert move_ticks(155) == [0, 20, 40, 60, 80, 100, 120, 140]
    assert all(len(move_ticks(n)) <= 11 for n in range(1, 2000, 7))


def test_seat_colours_are_the_games_own():
    for name in engines.GAMES:
        game = engines.get(name)
        players = game.min_players
        state = game.new(players=players, seed=1)
        colours = seat_colours(name, state, players)
        assert len(colours) == players and len(set(colours)) == players, name


def test_close_results_are_written_apart():
    from render.review import _spread

    placed = dict(_spread([100.0, 104.0, 300.0], 20.0))
    assert abs(placed[0] - placed[1]) >= 20.0 and placed[2] >= 290.0
    assert dict(_spread([10.0, 200.0], 20.0)) == {0: 10.0, 1: 200.0}


def test_a_resignation_is_a_last_step_to_the_result():
    states = kolory_game()
    scores = [(0.5, 0.5, 0.5)] * len(states)
    flat = review_image("kolory", scores, states[-1], [], [], ["A", "B", "C"], texts(3))
    ended = review_image("kolory", scores, states[-1], [], [], ["A", "B", "C"], texts(3),
                         ended=(1.0, 0.5, 0.0))
    colours = seat_colours("kolory", states[-1], 3)
    left, top, right, bottom = graph_box(ended)

    def top_colour_rows(image):
        graph = image.convert("RGB").crop((left, top, right, bottom))
        rgb = graph.load()
        return [y for y in range(graph.height) for x in range(graph.width - 90, graph.width - 60)
                if close(rgb[x, y], colours[2], 10)]

    # Seat 2's dot (drawn last, on top) is at 0 (the bottom of the plot) only when the result
    # is given; else it ends where its curve does, at 0.5.
    assert top_colour_rows(flat) and top_colour_rows(ended)
    assert min(top_colour_rows(ended)) > max(top_colour_rows(flat)) + 50


def lppg_team_game(plies: int = 8):
    game = engines.get("lppg")
    states = [game.new(players=4, seed=5)]
    for _ in range(plies):
        states.append(game.play(states[-1], game.legal_moves(states[-1])[0]))
    return states


def test_partners_curves_are_drawn_side_by_side_not_one_over_the_other():
    """In a 4-player LPPG game partners share their expected score: each curve still shows."""
    states = lppg_team_game()
    scores = [(0.5 + 0.04 * p, 0.5 - 0.04 * p) * 2 for p in range(len(states))]
    image = review_image("lppg", scores, states[-1], [], [], ["A", "B", "C", "D"], texts(4))
    left, top, right, bottom = graph_box(image)
    graph = image.convert("RGB").crop((left, top, right, bottom))
    rgb = graph.load()
    colours = [curve_colour(c, get_theme("dark")) for c in seat_colours("lppg", states[-1], 4)]
    for seat, colour in enumerate(colours):
        seen = [y for x in range(200, 500, 50) for y in range(graph.height)
                if close(rgb[x, y], colour, 12)]
        assert len(seen) >= 6, f"seat {seat}'s curve is hidden"


def test_result_values_stay_under_the_word_result():
    from render.review import result_labels

    top, bottom, gap = 68.0, 460.0, 34.0
    placed = dict(result_labels([top] * 4, gap, top, bottom))
    assert min(placed.values()) >= top and len(set(placed.values())) == 4
    placed = dict(result_labels([bottom] * 3, gap, top, bottom))
    assert max(placed.values()) <= bottom
    assert dict(result_labels([100.0, 300.0], gap, top, bottom)) == {0: 100.0, 1: 300.0}


def alak_game(plies: int = 6):
    game = engines.get("alak")
    states = [game.new(players=2, seed=1)]
    for _ in range(plies):
        states.append(game.play(states[-1], game.legal_moves(states[-1])[0]))
    return states


def test_black_and_white_curves_are_filled_lines_on_either_theme():
    """A stone's colour on a panel of nearly the same colour (Black on the dark theme, White
    on the light one) is drawn lighter or darker: the middle of its curve is not the panel."""
    states = alak_game()
    for theme, seat, value in (("dark", 0, 0.8), ("light", 1, 0.2)):
        scores = [(0.8, 0.2)] * len(states)
        image = review_image("alak", scores, states[-1], [], [], ["A", "B"], texts(2),
                             theme=theme)
        panel = get_theme(theme).panel
        rgb = image.convert("RGB")
        top = next(y for y in range(image.height) if close(rgb.getpixel((MARGIN + 5, y)),
                                                           panel, 2))
        x = WIDTH // 2
        # The plot runs from 34 to 230 px down the graph (render.review._graph).
        wanted = top + round(230 - (230 - 34) * value)
        band = [y for y in range(wanted - 8, wanted + 9)
                if not close(rgb.getpixel((x, y)), panel, 12)]
        assert band, (theme, "no curve where expected")
        middle = rgb.getpixel((x, (band[0] + band[-1]) // 2))
        assert sum(abs(a - b) for a, b in zip(middle, panel, strict=True)) >= 100, (
            theme, seat, middle)
