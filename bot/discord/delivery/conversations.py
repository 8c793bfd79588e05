"""Where the bot is not (a DM, a group DM, a server without it: ``bot.discord.anywhere``), a game's
rows can only be answers to interactions: the row an interaction wrote is its response, the others
(an AI's reply, a result) follow-ups of the game's latest interaction while its token lives (15
minutes), five at most per interaction as Discord allows a user-installed app, the last one
kept for the newest board (it pings whoever must move). So that five are enough, the moves no
interaction answers (the AI players') go out together, one board after the last of them, and a
game they end comes with its result (``posting.together``). Without a live token a row is dropped:
the next interaction there shows the game as it stands. The latest interaction's token is kept in
the store too, so that a restart during an AI's turn still posts its reply (while the token
lives)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.core.events import OutboxItem
from bot.core.models import GameInfo
from bot.discord.anywhere import bot_is_here
from bot.discord.delivery.policy import TOKEN_SECONDS
from bot.store.conversations import ConversationReplyRow

if TYPE_CHECKING:
    from bot.services.wiring import Services

log = logging.getLogger(__name__)

#: Follow-ups Discord creates per interaction of a user-installed app (discord-api-docs,
#: "Create Followup Message"; counted for every conversation game, the bot's DM included).
FOLLOW_UPS_MAX = 5
#: How many games' latest interactions are kept (conversations' AI replies need them).
REMEMBERED_INTERACTIONS = 1000


def interaction_takes_follow_ups(created_at: datetime) -> bool:
    """Whether an interaction created at ``created_at`` still answers follow-ups (Discord: 15
    minutes), with a minute to spare for the request itself."""
    age = (datetime.now(UTC) - created_at).total_seconds()
    return age < TOKEN_SECONDS - 60


def follow_ups_spent(sent: int, final: bool) -> bool:
    """Whether a token that sent ``sent`` follow-ups may not send this one (the last is kept
    for the newest board, ``final``)."""
    return sent >= FOLLOW_UPS_MAX or (sent == FOLLOW_UPS_MAX - 1 and not final)


class ConversationSender:
    """Each game's latest interaction, and the follow-ups sent with it (through ``client``;
    the tokens kept and the follow-ups counted in ``services``)."""

    def __init__(self, client: discord.Client, services: Services) -> None:
        self.client = client
        self.services = services
        #: Each game's latest interaction, the way into its conversation for the rows no
        #: interaction of their own answers; the oldest go first.
        self._interactions: dict[int, discord.Interaction] = {}

    async def remember(self, game_id: int, interaction: discord.Interaction) -> None:
        self._interactions.pop(game_id, None)
        self._interactions[game_id] = interaction
        if len(self._interactions) > REMEMBERED_INTERACTIONS:
            del self._interactions[next(iter(self._interactions))]
        if not bot_is_here(interaction):
            # Kept for a restart: the AI's reply still goes out on this token.
            await self.services.conversations.keep_conversation_reply(
                game_id, interaction.token, interaction.created_at)

    async def follow_up(
        self, game: GameInfo, item: OutboxItem, interaction: discord.Interaction | None,
        kwargs: dict[str, Any], final: bool = True,
    ) -> int | None:
        """Post a conversation game's row: the answer of ``interaction`` if it has none yet,
        else a follow-up of it (or of the game's latest interaction, or after a restart of
        its token kept in the store); the message id, or None when nothing could reach the
        conversation (the row is then dropped)."""
        interaction = interaction or self._interactions.get(game.id)
        if interaction is None:
            kept = await self.services.conversations.conversation_reply(game.id)
            return await self._follow_up_kept(game, item, kept, kwargs, final)
        if not interaction_takes_follow_ups(interaction.created_at):
            return await self._missed(game, item)
        sent = int(interaction.extras.get("follow_ups", 0))
        if interaction.response.is_done() and follow_ups_spent(sent, final):
            return await self._spent(game, item, final)
        try:
            if not interaction.response.is_done():
                response = await interaction.response.send_message(**kwargs)
                return response.message_id
            interaction.extras["follow_ups"] = sent + 1
            await self.services.conversations.count_conversation_follow_up(
                game.id, interaction.token)
            message = await interaction.followup.send(wait=True, **kwargs)
        except discord.HTTPException as error:
            # 50027 (token too old), 40094 (a sixth follow-up): retrying cannot help.
            log.info("outbox row %s of game %s not posted in its conversation: %s", item.id,
                     game.id, error)
            return await self._missed(game, item)
        return message.id

    async def _follow_up_kept(
        self, game: GameInfo, item: OutboxItem, kept: ConversationReplyRow | None,
        kwargs: dict[str, Any], final: bool,
    ) -> int | None:
        """A follow-up on the token kept in the store (this run saw no interaction of the
        game: it started after it)."""
        if kept is None or not interaction_takes_follow_ups(kept.created_at):
            return await self._missed(game, item)
        if follow_ups_spent(kept.follow_ups, final):
            return await self._spent(game, item, final)
        # The interaction's webhook, as ``Interaction.followup`` builds it.
        webhook = discord.Webhook.partial(self.client.application_id, kept.token,
                                          client=self.client)
        await self.services.conversations.count_conversation_follow_up(game.id, kept.token)
        try:
            message = await webhook.send(wait=True, **kwargs)
        except discord.HTTPException as error:
            log.info("outbox row %s of game %s not posted in its conversation: %s", item.id,
                     game.id, error)
            return await self._missed(game, item)
        return message.id

    async def _spent(self, game: GameInfo, item: OutboxItem, final: bool) -> None:
        """The token's follow-ups are spent (the last kept for the newest board): the row
        is skipped; the newest board itself counts as missed."""
        log.info("outbox row %s of game %s skipped: its interaction's follow-ups are spent",
                 item.id, game.id)
        if final:
            await self.services.conversations.conversation_missed(game.id)

    async def _missed(self, game: GameInfo, item: OutboxItem) -> None:
        """The row cannot reach the conversation: dropped, and the next press on a board the
        game has moved past shows the game as it stands (``GamePosts.show_as_it_stands``)."""
        log.info("outbox row %s of game %s: no live interaction in its conversation; dropped",
                 item.id, game.id)
        await self.services.conversations.conversation_missed(game.id)
