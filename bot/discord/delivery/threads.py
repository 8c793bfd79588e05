"""Sending a row's message exactly once, in the game's thread.

Everything goes to the channel with the row id as its nonce (``enforce_nonce``): Discord
creates it once even when a crash makes us send it again. An interaction's response carries no
nonce, so the service stores the interaction's token on the rows in the move's transaction; a
row still pending with a token (the bot stopped between answering and marking) is looked up
with GET …/messages/@original before it is posted again (``answered_before``). Beyond a token's
15 minutes that is no longer possible: the row is posted again, since a board twice is better
than none. A game's thread id is recorded before the thread exists: a thread started from a
message takes the message's id (the challenge message, or a starter message sent with the
row's nonce), and Discord refuses a second thread from one message (160004). A post that finds
the thread missing (a crash between the two) starts it then.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord.http import Route

import engines
from bot.core.events import OutboxItem
from bot.core.i18n import t
from bot.core.models import GameInfo
from bot.discord.delivery.compose import game_language
from bot.discord.delivery.images import BoardImages
from bot.discord.delivery.policy import reply_token_unexpired
from bot.discord.replies import NO_PINGS

if TYPE_CHECKING:
    from bot.services.wiring import Services

log = logging.getLogger(__name__)

#: Games last days: a thread stays open a week without messages (Discord's longest).
THREAD_ARCHIVE_MINUTES = 10080
#: Discord's code for a second thread started from one message.
THREAD_ALREADY_CREATED = 160004
UNKNOWN_CHANNEL = 10003


class ThreadSender:
    """Sends rows' messages with their nonces through ``client``, in the games' threads
    (started when needed, named with ``images``' names of the players, recorded with
    ``services``)."""

    def __init__(self, client: discord.Client, services: Services, images: BoardImages
                 ) -> None:
        self.client = client
        self.services = services
        self.images = images

    async def send(
        self, channel_id: int, item: OutboxItem, *, guild_id: int | None = None, **kwargs: Any
    ) -> discord.Message:
        """Send a row's message in a channel, once: the row id is its nonce."""
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        return await channel.send(nonce=str(item.id), **kwargs)

    async def answered_before(self, item: OutboxItem) -> dict[str, Any] | None:
        """The original response of the interaction whose token the row holds, if it was
        answered already (a restart between answering and marking); else None."""
        if not reply_token_unexpired(item, datetime.now(UTC)):
            return None  # the token is dead: no way to know; posting again loses nothing
        route = Route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                      webhook_id=self.client.application_id, webhook_token=item.reply_token)
        try:
            data = await self.client.http.request(route)
        except discord.NotFound:  # never answered (or its token died unanswered)
            return None
        log.info("outbox row %s was answered before the restart; not posted again", item.id)
        return data

    async def thread_of(
        self, game: GameInfo, item: OutboxItem, interaction: discord.Interaction | None
    ) -> int:
        """The game's thread, started if it has none yet: from the challenge message when a
        click started the game there, else from a starter message in the game's channel. The
        thread id (the message's) is recorded before the thread is made."""
        if game.thread_id is not None:
            return game.thread_id
        name = await self._thread_name(game)
        source = interaction.message if interaction is not None else None
        if source is None or source.channel.id != game.channel_id or source.flags.ephemeral:
            # No challenge message to hang it on (a restart or a tournament delivers this, or
            # the challenge was posted in a thread): a starter message, sent once.
            source = await self.send(
                game.channel_id, item, guild_id=game.guild_id, allowed_mentions=NO_PINGS,
                content=t("bot.thread.starter", self._language(game), name=name),
            )
        await self.services.games.set_thread(game.id, source.id)
        await self._start_thread(game.channel_id, source.id, name)
        return source.id

    def _language(self, game: GameInfo) -> str:
        return game_language(game, self.images.default_language)

    async def _thread_name(self, game: GameInfo) -> str:
        language = self._language(game)
        names = await self.images.seat_names(game, language)
        title = engines.get(game.game).title
        return t("bot.thread.name", language,
                 game=title, id=game.id, players=" – ".join(names))[:100]

    async def _start_thread(self, channel_id: int, message_id: int, name: str) -> None:
        try:
            await self.client.http.start_thread_with_message(
                channel_id, message_id, name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        except discord.HTTPException as error:
            if error.code != THREAD_ALREADY_CREATED:  # started before a restart: fine
                raise

    async def post_in_thread(
        self, game: GameInfo, thread_id: int, item: OutboxItem, kwargs: dict[str, Any]
    ) -> discord.Message:
        """Post in the game's thread; if the thread is missing (the bot stopped between
        recording its id and starting it), start it from its message and post again."""
        try:
            return await self.send(thread_id, item, guild_id=game.guild_id, **kwargs)
        except discord.NotFound as error:
            if error.code != UNKNOWN_CHANNEL or game.channel_id is None:
                raise
        await self._start_thread(game.channel_id, thread_id, await self._thread_name(game))
        if "file" in kwargs:
            kwargs["file"].reset()
        return await self.send(thread_id, item, guild_id=game.guild_id, **kwargs)
