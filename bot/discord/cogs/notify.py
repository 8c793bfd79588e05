"""Notifications a player controls (``bot.services.notify``): ``/mute`` and ``/unmute`` (quiet
mode per game), the poster of the ``digest`` outbox row (the daily digest by direct message),
and the private notice, after the user's next command, that Discord refused a direct message.
The digest's options of ``/settings`` live with the reminders' in ``bot.discord.cogs.clocks``.

A direct message Discord refuses with 50007 (the user closed their DMs to the bot) is recorded
by ``refused_dm`` for reminders and digests alike; nothing is tried again until the user
changes a DM setting.
"""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.correspondence.digest import zone_suggestions
from bot.core.errors import ServiceError
from bot.core.events import Digest, OutboxItem
from bot.core.i18n import language_code, t
from bot.discord.cogs._common import game_here, game_number
from bot.discord.replies import NO_PINGS, clip, reply_error, send_ephemeral
from bot.services.notify import DigestEntry

if TYPE_CHECKING:
    from bot.discord.host import CogHost

log = logging.getLogger(__name__)

#: Discord's error code for a direct message to a user who does not accept them.
CANNOT_MESSAGE_USER = 50007


def is_dm_refusal(error: discord.HTTPException) -> bool:
    return isinstance(error, discord.Forbidden) and error.code == CANNOT_MESSAGE_USER


async def send_dm(bot: CogHost, user_id: int, text: str, *, nonce: str) -> bool:
    """Send a direct message unless DMs to the user are on hold; a 50007 refusal puts them on
    hold (``NotifyService.dm_refused``). False when nothing was sent; other HTTP errors are
    raised (the outbox retries them)."""
    if await bot.notify.dms_refused(user_id):
        return False
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await user.send(text, nonce=nonce, allowed_mentions=NO_PINGS)
    except discord.HTTPException as error:
        if not is_dm_refusal(error):
            raise
        await bot.notify.dm_refused(user_id)
        return False
    return True


def digest_text(entries: list[DigestEntry], language: str) -> str:
    lines = [t("notify.digest_title", language, count=len(entries))]
    now = discord.utils.utcnow()
    for entry in entries:
        params: dict[str, Any] = {"game": entry.title, "id": entry.game_id,
                                  "link": entry.link or t("notify.digest_no_link", language)}
        if entry.deadline is None:
            lines.append(t("notify.digest_line", language, **params))
        else:
            key = "notify.digest_line_overdue" if entry.deadline <= now else \
                "notify.digest_line_due"
            lines.append(t(key, language, unix=int(entry.deadline.timestamp()), **params))
    return "\n".join(lines)


async def post_digest(bot: CogHost, item: OutboxItem[Digest]) -> None:
    """Send a ``digest`` row: the user's games where it is their turn now (none: no DM)."""
    user_id = item.event.user_id
    entries = await bot.notify.digest_entries(user_id)
    if not entries:
        return
    chosen = await bot.services.settings.user_locale(user_id)
    language = language_code(chosen) if chosen else bot.config.default_language
    try:
        await send_dm(bot, user_id, clip(digest_text(entries, language)), nonce=str(item.id))
    except discord.HTTPException:
        log.info("could not send digest %s to %s; will retry", item.id, user_id)
        raise


class Notify(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.delivery.register({Digest: functools.partial(post_digest, self.bot)})

    @app_commands.command(name="mute", description="Quiet mode: this game's turns stop pinging you")
    @app_commands.describe(game="A game number (default: the game of this thread)")
    async def mute(self, interaction: discord.Interaction,
                   game: game_number("play") = None) -> None:
        await self._mute(interaction, game, muted=True)

    @app_commands.command(name="unmute", description="End the quiet mode of a game")
    @app_commands.describe(game="A game number (default: the game of this thread)")
    async def unmute(self, interaction: discord.Interaction,
                     game: game_number("play") = None) -> None:
        await self._mute(interaction, game, muted=False)

    async def _mute(self, interaction: discord.Interaction, game: int | None, *,
                    muted: bool) -> None:
        info = await game_here(self.bot, interaction, game)
        if info is None:
            return
        try:
            changed = await self.bot.notify.mute(interaction.user.id, info.id, muted)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        if muted:
            key = "notify.muted" if changed else "notify.already_muted"
        else:
            key = "notify.unmuted" if changed else "notify.not_muted"
        await send_ephemeral(interaction, t(key, interaction.locale, id=info.id))

    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: discord.Interaction,
                                        command: Any) -> None:
        """After any command of the user: tell them, privately and once, that Discord refused
        a direct message (they would never know otherwise)."""
        try:
            refused_at = await self.bot.notify.take_dm_refused_notice(interaction.user.id)
        except Exception:
            log.exception("could not read the DM state of user %s", interaction.user.id)
            return
        if refused_at is None:
            return
        text = t("notify.dm_refused", interaction.locale, at=int(refused_at.timestamp()))
        await send_ephemeral(interaction, text)


async def zone_autocomplete(interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=zone, value=zone) for zone in zone_suggestions(current)]


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Notify(bot))
