"""Where the bot is not (a DM, a group DM, a server without it: ``bot.anywhere``), a game's rows
can only be answers to interactions: the row an interaction wrote is its response, the others
(an AI's reply, a result) follow-ups of the game's latest interaction while its token lives (15
minutes), five at most per interaction as Discord allows a user-installed app, the last one
kept for the newest board (it pings whoever must move). Without a live token a row is dropped:
the next interaction there shows the game as it stands."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import discord

from bot.delivery.policy import TOKEN_SECONDS
from bot.services.models import GameInfo, OutboxItem

log = logging.getLogger(__name__)

#: Follow-ups Discord creates per interaction of a user-installed app (discord-api-docs,
#: "Create Followup Message"; counted for every conversation game, the bot's DM included).
FOLLOW_UPS_MAX = 5
#: How many games' latest interactions are kept (conversations' AI replies need them).
REMEMBERED_INTERACTIONS = 1000


def token_alive(interaction: discord.Interaction) -> bool:
    """Whether an interaction's token still answers follow-ups (Discord: 15 minutes), with a
    minute to spare for the request itself."""
    age = (datetime.now(UTC) - interaction.created_at).total_seconds()
    return age < TOKEN_SECONDS - 60


class ConversationSender:
    """Each game's latest interaction, and the follow-ups sent with it."""

    def __init__(self) -> None:
        #: Each game's latest interaction, the way into its conversation for the rows no
        #: interaction of their own answers; the oldest go first.
        self._interactions: dict[int, discord.Interaction] = {}

    def remember(self, game_id: int, interaction: discord.Interaction) -> None:
        self._interactions.pop(game_id, None)
        self._interactions[game_id] = interaction
        if len(self._interactions) > REMEMBERED_INTERACTIONS:
            del self._interactions[next(iter(self._interactions))]

    async def follow_up(
        self, game: GameInfo, item: OutboxItem, interaction: discord.Interaction | None,
        kwargs: dict[str, Any], final: bool = True,
    ) -> int | None:
        """Post a conversation game's row: the answer of ``interaction`` if it has none yet,
        else a follow-up of it (or of the game's latest interaction); the message id, or None
        when nothing could reach the conversation (the row is then dropped)."""
        interaction = interaction or self._interactions.get(game.id)
        if interaction is None or not token_alive(interaction):
            log.info("outbox row %s of game %s: no live interaction in its conversation; "
                     "dropped", item.id, game.id)
            return None
        sent = int(interaction.extras.get("follow_ups", 0))
        if interaction.response.is_done() and (
                sent >= FOLLOW_UPS_MAX or (sent == FOLLOW_UPS_MAX - 1 and not final)):
            log.info("outbox row %s of game %s skipped: its interaction's follow-ups are "
                     "spent", item.id, game.id)
            return None
        try:
            if not interaction.response.is_done():
                response = await interaction.response.send_message(**kwargs)
                return response.message_id
            interaction.extras["follow_ups"] = sent + 1
            message = await interaction.followup.send(wait=True, **kwargs)
        except discord.HTTPException as error:
            # 50027 (token too old), 40094 (a sixth follow-up): retrying cannot help.
            log.info("outbox row %s of game %s not posted in its conversation: %s", item.id,
                     game.id, error)
            return None
        return message.id
