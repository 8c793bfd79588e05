"""Sending a row once, in its game's thread (``bot.discord.delivery.threads``), with stand-ins for
Discord's client: the row's nonce, an answer given before a restart, a thread started once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import discord
import pytest

from bot.core.events import OutboxItem
from bot.discord.delivery.images import BoardImages
from bot.discord.delivery.policy import TOKEN_SECONDS
from bot.discord.delivery.threads import THREAD_ALREADY_CREATED, UNKNOWN_CHANNEL, ThreadSender
from tests.bot.core.events.samples import sample

CHANNEL, CHALLENGE = 300, 301


def refused(kind: type[discord.HTTPException], status: int, code: int) -> discord.HTTPException:
    return kind(SimpleNamespace(status=status, reason="x"), {"code": code, "message": "x"})


class Client:
    """What the sender uses of discord.py's client, recording what it is asked."""

    application_id = 99

    def __init__(self) -> None:
        self.sent: list[tuple[int, str, dict]] = []
        self.threads: list[tuple[int, int, str]] = []
        self.recorded: list[tuple[int, int]] = []
        self.original: dict | None = None
        self.missing_threads: set[int] = set()
        self.started_before: set[int] = set()
        self.http = SimpleNamespace(request=self.request,
                                    start_thread_with_message=self.start_thread)
        self.services = SimpleNamespace(games=SimpleNamespace(set_thread=self.set_thread))

    async def request(self, route):
        assert route.path.endswith("/messages/@original")
        if self.original is None:
            raise refused(discord.NotFound, 404, 10015)
        return self.original

    async def start_thread(self, channel_id, message_id, *, name, auto_archive_duration):
        self.threads.append((channel_id, message_id, name))
        self.missing_threads.discard(message_id)
        if message_id in self.started_before:
            raise refused(discord.HTTPException, 400, THREAD_ALREADY_CREATED)

    async def set_thread(self, game_id, thread_id):
        self.recorded.append((game_id, thread_id))

    def get_partial_messageable(self, channel_id, *, guild_id=None):
        async def send(*, nonce, **kwargs):
            if channel_id in self.missing_threads:
                raise refused(discord.NotFound, 404, UNKNOWN_CHANNEL)
            self.sent.append((channel_id, nonce, kwargs))
            return SimpleNamespace(id=1000 + len(self.sent))

        return SimpleNamespace(send=send)

    async def display_name(self, user_id):
        return f"user{user_id}"


@pytest.fixture
def client() -> Client:
    return Client()


@pytest.fixture
def sender(client) -> ThreadSender:
    images = BoardImages(boards=None, clocks=None, display_name=client.display_name,
                         default_language="en")
    return ThreadSender(client, client.services, images)


def game(thread_id: int | None = None) -> SimpleNamespace:
    return SimpleNamespace(id=7, game="alak", seats=(1, 2), thread_id=thread_id,
                           channel_id=CHANNEL, guild_id=5, locale="en")


def row(age: float = 0.0, token: str | None = None) -> OutboxItem:
    created = datetime.now(UTC) - timedelta(seconds=age)
    return OutboxItem(42, 7, sample("move", game_id=7), created, reply_token=token)


async def test_a_row_is_sent_with_its_id_as_nonce(sender, client):
    await sender.send(CHANNEL, row(), content="hello")
    assert client.sent == [(CHANNEL, "42", {"content": "hello"})]


async def test_an_answer_given_before_a_restart_is_found_while_its_token_lives(sender, client):
    assert await sender.answered_before(row(token="t")) is None  # never answered
    client.original = {"id": "9", "components": []}
    assert await sender.answered_before(row(token="t")) == client.original
    # Beyond 15 minutes nobody can tell: posted again (a board twice beats none).
    assert await sender.answered_before(row(age=TOKEN_SECONDS + 1, token="t")) is None


async def test_a_game_without_a_thread_gets_one_from_a_starter_message(sender, client):
    thread = await sender.thread_of(game(), row(), None)
    ((channel, nonce, starter),) = client.sent
    assert (channel, nonce) == (CHANNEL, "42") and "Alak" in starter["content"]
    assert client.recorded == [(7, thread)], "recorded before the thread is started"
    assert client.threads == [(CHANNEL, thread, "Alak #7: user1 – user2")]
    assert await sender.thread_of(game(thread_id=77), row(), None) == 77


async def test_a_click_on_the_challenge_hangs_the_thread_on_its_message(sender, client):
    pressed = SimpleNamespace(id=CHALLENGE, channel=SimpleNamespace(id=CHANNEL),
                              flags=SimpleNamespace(ephemeral=False))
    client.started_before.add(CHALLENGE)  # a restart: Discord refuses a second one, fine
    assert await sender.thread_of(game(), row(), SimpleNamespace(message=pressed)) == CHALLENGE
    assert client.sent == [] and client.recorded == [(7, CHALLENGE)]


async def test_a_post_that_finds_its_thread_missing_starts_it_and_posts_again(sender, client):
    client.missing_threads.add(CHALLENGE)
    await sender.post_in_thread(game(CHALLENGE), CHALLENGE, row(), {"content": "moved"})
    assert client.threads == [(CHANNEL, CHALLENGE, "Alak #7: user1 – user2")]
    assert client.sent == [(CHALLENGE, "42", {"content": "moved"})]
