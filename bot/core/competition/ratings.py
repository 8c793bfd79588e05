"""Ratings: Glicko-2 for two-player games, openskill (Plackett–Luce) for games of more players.

Both are shown on one scale: openskill's starting belief, mu 25 with sigma 25/3, is Glicko's
1500 with deviation 350, and one unit of mu is ``SKILL_SCALE`` (42) rating points, so a skill
reads as ``1500 + 42 (mu − 25) ± 42 sigma`` (``Skill.shown``), like a Glicko rating ± RD.

Glicko-2 follows Glickman's "Example of the Glicko-2 system" (2013) step by step. We do not use
the `glicko2` package from PyPI: its volatility step uses the rating where the rating deviation
belongs, which only gives right answers for players rated exactly 1500.
Each finished game is one rating period for the two players (correspondence games end one at a
time, so batching into periods would only delay feedback).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

GLICKO_SCALE = 173.7178
TAU = 0.5  # system constant: how much volatility may change
CONVERGENCE = 1e-6
PROVISIONAL_RD = 110.0  # above this deviation a rating is shown as provisional ("?")
PROVISIONAL_GAMES = 5


@dataclass(frozen=True)
class Glicko:
    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD or self.games < PROVISIONAL_GAMES


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def glicko2_update(
    player: Glicko, opponents: Sequence[tuple[Glicko, float]], tau: float = TAU
) -> Glicko:
    """The player's rating after one period against ``opponents`` = [(opponent, score)], score
    1 for a win, 0.5 a draw, 0 a loss. With no games only the deviation grows (step 6)."""
    mu = (player.rating - 1500.0) / GLICKO_SCALE
    phi = player.rd / GLICKO_SCALE
    sigma = player.volatility
    if not opponents:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Glicko(player.rating, phi_star * GLICKO_SCALE, sigma, player.games)

    terms = []
    for opponent, score in opponents:
        mu_j = (opponent.rating - 1500.0) / GLICKO_SCALE
        phi_j = opponent.rd / GLICKO_SCALE
        terms.append((_g(phi_j), _expected(mu, mu_j, phi_j), score))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in terms)
    delta = v * sum(g * (s - e) for g, e, s in terms)

    # Step 5: the new volatility, by the Illinois algorithm on f.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (
            2.0 * (phi * phi + v + ex) ** 2
        ) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)

    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * sum(g * (s - e) for g, e, s in terms)
    return Glicko(
        new_mu * GLICKO_SCALE + 1500.0,
        new_phi * GLICKO_SCALE,
        new_sigma,
        player.games + len(opponents),
    )


def rate_two_player_game(a: Glicko, b: Glicko, score_a: float) -> tuple[Glicko, Glicko]:
    """Both players' new ratings after one game (each rated against the other's old rating)."""
    return glicko2_update(a, [(b, score_a)]), glicko2_update(b, [(a, 1.0 - score_a)])


# ----- multiplayer ----------------------------------------------------------------------------

#: Rating points per unit of openskill's mu: maps its prior (25 ± 25/3) onto Glicko's 1500 ± 350.
SKILL_SCALE = 350.0 / (25.0 / 3.0)


@dataclass(frozen=True)
class Skill:
    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    games: int = 0


    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def shown(self) -> tuple[float, float]:
        """(rating, deviation) on the Glicko scale, for leaderboards and profiles."""
        return 1500.0 + SKILL_SCALE * (self.mu - 25.0), SKILL_SCALE * self.sigma


_MODEL = PlackettLuce()


def rate_multiplayer_game(
    teams: Sequence[Sequence[Skill]], ranks: Sequence[int]
) -> list[list[Skill]]:
    """New skills for a game of several teams (one player per team for Kolory; two for 4-player
    LPPG). ``ranks``: 0 for the winners, higher for worse; equal ranks are ties."""
    rated = _MODEL.rate(
        [[_MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams],
        ranks=list(ranks),
    )
    return [
        [Skill(r.mu, r.sigma, old.games + 1) for r, old in zip(team, old_team, strict=True)]
        for team, old_team in zip(rated, teams, strict=True)
    ]
