"""Who posts each event type (``Delivery.register``, ``Delivery.deliver``) and the one path from
an action to its answer (``Delivery.act``), with stand-ins for the services and Discord."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bot.core.errors import BoardChanged, NotYourTurn
from bot.core.events import (
    ChallengeExpired,
    DrawOffered,
    GameEnded,
    MovePlayed,
    OutboxItem,
    SeekExpired,
    TournamentRound,
)
from bot.discord.delivery import Delivery

NOW = datetime(2026, 5, 1, tzinfo=UTC)


class Services:
    """What the delivery reads and writes of the services, recording what it is asked."""

    def __init__(self) -> None:
        self.pending: list[OutboxItem] = []
        self.marked: list[int] = []
        self.missed = False
        # The delivery calls each service by its name; this one stand-in answers for the two.
        self.outbox = self.conversations = self

    async def pending_outbox(self, limit: int = 100, *, game_id=None, shards=None):
        return [item for item in self.pending if item.id not in self.marked]

    async def mark_delivered(self, outbox_id: int, *, answered_token=None) -> None:
        self.marked.append(outbox_id)

    async def take_conversation_missed(self, game_id: int) -> bool:
        return self.missed


def make_delivery(services: Services | None = None) -> Delivery:
    return Delivery(client=SimpleNamespace(http=None), services=services or Services(),
                    clocks=None, notify=None, boards=None, display_name=None,
                    default_language="en", shards=None)


def item(row_id: int, event) -> OutboxItem:
    return OutboxItem(row_id, getattr(event, "game_id", None), event, NOW)


class Interaction:
    """A press in a server with the bot, whose private answers are recorded."""

    def __init__(self) -> None:
        self.token = "token"
        self.guild_id = 1
        self.locale = "en-US"
        self.said: list[str] = []
        self.response = SimpleNamespace(is_done=lambda: bool(self.said),
                                        send_message=self._send)

    def is_guild_integration(self) -> bool:
        return True

    async def _send(self, text: str, **kwargs) -> None:
        self.said.append(text)


async def test_each_type_goes_to_its_own_poster():
    delivery = make_delivery()
    posted: list[tuple[str, int]] = []

    async def challenges(row):
        posted.append(("challenges", row.id))

    async def seeks(row):
        posted.append(("seeks", row.id))

    delivery.register({ChallengeExpired: challenges, SeekExpired: seeks})
    assert not await delivery.deliver(item(1, SeekExpired(challenge_id=5)))
    assert not await delivery.deliver(item(2, ChallengeExpired(challenge_id=6)))
    assert posted == [("seeks", 1), ("challenges", 2)]


async def test_one_poster_per_type_and_the_game_s_own_posts_stay_its_own():
    delivery = make_delivery()

    async def poster(row):
        pass

    delivery.register({TournamentRound: poster})
    with pytest.raises(ValueError, match="TournamentRound"):
        delivery.register({TournamentRound: poster})
    delivery.register({TournamentRound: poster}, replace=True)  # a stand-in, on purpose
    for own in (MovePlayed, GameEnded):
        with pytest.raises(ValueError, match=own.__name__):
            delivery.register({own: poster}, replace=True)


async def test_a_row_nobody_posts_or_no_type_reads_is_skipped_and_marked(caplog):
    services = Services()
    services.pending = [
        item(1, DrawOffered(game_id=None, offer_id=1, by=2, seat=0)),  # no poster registered
        OutboxItem.stored(2, None, "written_by_a_later_version", {"x": 1}, NOW),
    ]
    delivery = make_delivery(services)
    with caplog.at_level(logging.WARNING):
        assert not await delivery.flush(None)
    assert services.marked == [1, 2]  # not left at the head of the outbox
    assert "nobody posts it" in caplog.text and "written_by_a_later_version" in caplog.text


async def test_game_over_listeners_run_before_the_result_is_posted():
    delivery = make_delivery()
    heard: list[int] = []

    async def failing(game_id: int) -> None:
        heard.append(game_id)
        raise RuntimeError("the ratings are down")

    delivery.on_game_over(failing)
    # The listener fails before the post reads anything (Services has no get_game): the row
    # stays pending for a retry.
    with pytest.raises(RuntimeError, match="ratings"):
        await delivery.deliver(item(1, GameEnded(game_id=9)))
    assert heard == [9]


async def test_acting_runs_the_action_with_the_token_then_delivers_its_rows():
    services = Services()
    delivery = make_delivery(services)
    tokens: list[str | None] = []

    async def action(token):
        tokens.append(token)
        services.pending = [item(1, SeekExpired(challenge_id=3))]
        return "done"

    posted: list[int] = []

    async def poster(row):
        posted.append(row.id)

    delivery.register({SeekExpired: poster})
    interaction = Interaction()
    acted = await delivery.act(interaction, 7, action, reply_token="token",
                               done_text="Done.")
    assert tokens == ["token"] and posted == [1] and services.marked == [1]
    # No row answered the interaction (a feature's post never does): the text does.
    assert acted is not None and acted.result == "done" and not acted.answered
    assert interaction.said == ["Done."]


async def test_a_refused_action_is_answered_privately_and_delivers_nothing():
    services = Services()
    services.pending = [item(1, SeekExpired(challenge_id=3))]
    delivery = make_delivery(services)

    async def refused(token):
        raise NotYourTurn("errors.not_your_turn", game_id=7)

    interaction = Interaction()
    assert await delivery.act(interaction, 7, refused, reply_token=None,
                              done_text="Done.") is None
    assert services.marked == [] and interaction.said == ["It is not your turn yet."]


async def test_a_press_on_a_board_moved_past_is_refused_where_the_bot_is():
    """``moved_past`` shows the game as it stands only where the bot is not; here (a server
    with the bot) the press is refused like any other stale one."""
    services = Services()
    services.missed = True
    delivery = make_delivery(services)

    async def stale(token):
        raise BoardChanged("errors.board_changed", game_id=7)

    interaction = Interaction()
    assert await delivery.act(interaction, 7, stale, reply_token="token", done_text=None,
                              moved_past=True) is None
    assert interaction.said == [
        "The board changed while you were playing: have a look and try again."]
