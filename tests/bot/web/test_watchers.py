"""Who may open a game's page (``bot.web.watchers``): Discord's answer for a visitor and a game
is asked once and kept ``SIGHT_SECONDS``, so an open page's reads do not ask Discord each time;
spectators never act; conversation games are their players' alone."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bot.core.models import GameInfo
from bot.web.answers import Refused
from bot.web.sessions import Visitor
from bot.web.watchers import SIGHT_SECONDS, Watchers

NOW = datetime(2026, 1, 1, tzinfo=UTC)
GAME = GameInfo(id=5, game="alak", options={}, seats=(1, 2), status="active", to_move=0,
                ply=0, version=1, state=None, outcome=None, last_move=None, thread_id=70,
                guild_id=60, channel_id=50, created_at=NOW, updated_at=NOW)


@dataclass
class Host:
    """Discord's answers by user id, and the questions asked."""

    answers: dict[int, str]
    game: GameInfo = GAME

    def __post_init__(self) -> None:
        self.asked: list[tuple[int, int, int]] = []
        games = SimpleNamespace(get_game=self._get_game)
        self.services = SimpleNamespace(games=games)

    async def _get_game(self, game_id: int) -> GameInfo:
        return self.game

    async def sight(self, user_id: int, guild_id: int, channel_id: int) -> str:
        self.asked.append((user_id, guild_id, channel_id))
        return self.answers[user_id]


def visitor(user_id: int) -> Visitor:
    return Visitor(user_id=user_id, name=f"user{user_id}")


async def test_discord_is_asked_once_a_while_for_a_visitor_and_a_game():
    now = [100.0]
    host = Host({3: "sees"})
    watchers = Watchers(host, clock=lambda: now[0])
    for _ in range(5):
        assert await watchers.admit(5, visitor(3), "en") is GAME
    assert host.asked == [(3, 60, 70)]  # the thread, in its server
    now[0] += SIGHT_SECONDS
    host.answers[3] = "hidden"
    with pytest.raises(Refused) as refused:
        await watchers.admit(5, visitor(3), "en")
    assert refused.value.status == 403 and "cannot see the channel" in refused.value.text
    assert len(host.asked) == 2


async def test_players_are_not_asked_about_and_spectators_never_act():
    host = Host({3: "sees", 4: "stranger"})
    watchers = Watchers(host)
    assert await watchers.admit(5, visitor(1), "en", acting=True) is GAME
    assert host.asked == []
    with pytest.raises(Refused, match="only its players can do that"):
        await watchers.admit(5, visitor(3), "en", acting=True)
    with pytest.raises(Refused, match="not a member"):
        await watchers.admit(5, visitor(4), "en")


async def test_a_conversation_game_is_its_players_alone():
    host = Host({3: "sees"}, replace(GAME, place="conversation", guild_id=None))
    watchers = Watchers(host)
    with pytest.raises(Refused, match="Only the players of game #5"):
        await watchers.admit(5, visitor(3), "en")
    with pytest.raises(Refused, match="play it in Discord"):
        await watchers.admit(5, visitor(1), "en")
    assert host.asked == []


async def test_when_discord_does_not_answer_the_visitor_is_asked_to_retry_and_nothing_is_kept():
    host = Host({3: "unsure"})
    watchers = Watchers(host)
    with pytest.raises(Refused) as refused:
        await watchers.admit(5, visitor(3), "en")
    assert refused.value.status == 503 and "try again" in refused.value.text
    host.answers[3] = "sees"
    assert await watchers.admit(5, visitor(3), "en") is GAME
    assert len(host.asked) == 2  # the unsure answer was not kept
