"""What a slash command that failed answers (the command tree's ``on_error``): a refusal of the
services (``ServiceError``) in the user's words, a failed check as "not allowed", anything else
logged with its traceback and answered with a generic apology; always privately."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.core.errors import ServiceError
from bot.core.i18n import t
from bot.discord.replies import reply_error, send_ephemeral

log = logging.getLogger(__name__)


async def answer_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    original = getattr(error, "original", error)
    if isinstance(original, ServiceError):
        await reply_error(interaction, original)
        return
    if isinstance(error, app_commands.CheckFailure):
        text = t("bot.errors.not_allowed", interaction.locale)
    else:
        log.error("command %s failed", interaction.command and interaction.command.name,
                  exc_info=original)
        text = t("errors.unknown", interaction.locale)
    await send_ephemeral(interaction, text)
