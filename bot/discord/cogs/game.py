"""Playing a game from its thread: ``/move`` (with autocomplete of legal moves), ``/board``,
``/resign``, ``/undo``, and ``/games`` (your games, and whose turn it is)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.core.correspondence.texts import due_text, games_clock_text
from bot.core.errors import ServiceError
from bot.core.i18n import t
from bot.core.names import player_name
from bot.discord.cogs._common import archive_when_quiet, game_here, game_number, reply_token
from bot.discord.delivery import outcome_text
from bot.discord.replies import NO_PINGS, fit_lines, reply_error, send_ephemeral
from bot.discord.views.draws import resign_view_with_draw
from bot.services.gamestate import ABORTED
from render.header import move_number

if TYPE_CHECKING:
    from bot.discord.host import CogHost

#: Discord shows at most 25 autocomplete choices.
MAX_SUGGESTIONS = 25


def rank_moves(moves: list[str], typed: str) -> list[str]:
    """The suggestions for what is typed: moves starting with it first, then moves containing
    it, each group in the engine's order; at most 25."""
    typed = engines.core.normalize_text(typed)
    if not typed:
        return moves[:MAX_SUGGESTIONS]
    starts = [m for m in moves if m.lower().startswith(typed)]
    contains = [m for m in moves if typed in m.lower() and m not in starts]
    return (starts + contains)[:MAX_SUGGESTIONS]


class Game(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.delivery.on_game_over(self._game_over)

    async def _game_over(self, game_id: int) -> None:
        """A finished game's thread archives itself after a while (``archive_when_quiet``)."""
        await archive_when_quiet(self.bot, await self.bot.services.games.get_game(game_id))

    async def _act_here(
        self, interaction: discord.Interaction, action: Callable[..., Awaitable[Any]]
    ) -> None:
        """``action(game id, user id, reply_token=…)`` on this thread's game; the outbox rows
        it wrote answer."""
        game = await game_here(self.bot, interaction)
        if game is None:
            return
        await self.bot.delivery.act(
            interaction, game.id,
            lambda token: action(game.id, interaction.user.id, reply_token=token),
            reply_token=reply_token(interaction, game),
            done_text=t("bot.game.done", interaction.locale),
        )

    @app_commands.command(name="move", description="Play a move in this thread's game")
    @app_commands.describe(text="Your move, in the game's notation (suggestions as you type)")
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, text: str) -> None:
        game = await game_here(self.bot, interaction)
        if game is None:
            return
        await self.bot.delivery.act(
            interaction, game.id,
            lambda token: self.bot.services.play.move(game.id, interaction.user.id, text,
                                                 reply_token=token),
            reply_token=reply_token(interaction, game),
            done_text=t("bot.game.done", interaction.locale),
        )

    @move.autocomplete("text")
    async def move_suggestions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        services = self.bot.services
        game = await services.games.game_for_thread(interaction.channel_id)
        if game is None or game.status != "active":
            return []
        moves = [str(m) for m in await services.games.legal_moves(game.id, interaction.user.id)]
        return [app_commands.Choice(name=m, value=m) for m in rank_moves(moves, current)]

    @app_commands.command(name="board", description="Show the board of this thread's game")
    @app_commands.describe(game="A game number (default: the game of this thread)")
    async def board(self, interaction: discord.Interaction,
                    game: game_number("any") = None) -> None:
        info = await game_here(self.bot, interaction, game)
        if info is None:
            return
        title = engines.get(info.game).title
        # Everyone sees the answer: it speaks the game's language, like its thread.
        language = self.bot.delivery.language(info)
        if info.status == "active":
            to_move = info.user_to_move()
            text = t("bot.board.active", language, game=title, id=info.id,
                     player=player_name(to_move, language, info.seats) or "-",
                     number=move_number(info.ply))
            due = due_text(await self.bot.clocks.clock_info(info.id), language)
            if due:
                text += " " + due
        elif info.status == ABORTED:
            if info.aborted_by is None:  # aborted before the bot kept who did it
                text = t("bot.board.aborted_earlier", language, game=title, id=info.id)
            elif info.aborted_as_admin:
                text = t("bot.board.aborted", language, game=title, id=info.id)
            else:
                text = t("bot.board.aborted_by_player", language, game=title, id=info.id,
                         player=player_name(info.aborted_by, language, info.seats))
        else:
            text = t("bot.board.finished", language, game=title, id=info.id,
                     reason=outcome_text(info.outcome, language) if info.outcome else "")
        file = await self.bot.delivery.board_file(info, language)
        await interaction.response.send_message(text, file=file, allowed_mentions=NO_PINGS)

    @app_commands.command(name="resign", description="Resign this thread's game")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        """Asks first, privately: one typo must not lose a game of weeks. The button resigns
        on this very position only (``ResignButton``)."""
        game = await game_here(self.bot, interaction)
        if game is None:
            return
        user = interaction.user.id
        try:
            info = await self.bot.services.play.resignable(game.id, user)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        locale = interaction.locale
        others = ", ".join(player_name(uid, locale, info.seats) for uid in info.seats
                           if uid != user)
        text = t("bot.resign.ask", locale, game=engines.get(info.game).title, id=info.id,
                 opponents=others)
        view = resign_view_with_draw(info, user, locale)  # a draw instead, where possible
        await interaction.response.send_message(
            text, view=view, ephemeral=True, allowed_mentions=NO_PINGS)

    @app_commands.command(name="undo", description="Ask your opponent to take back the last move")
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction) -> None:
        await self._act_here(interaction, self.bot.services.play.request_undo)

    @app_commands.command(name="games", description="Your games, and whose turn it is")
    async def games(self, interaction: discord.Interaction) -> None:
        locale = interaction.locale
        user = interaction.user.id
        mine = await self.bot.services.games.games_of(user, active_only=True)
        if not mine:
            await send_ephemeral(interaction, t("bot.games.none", locale))
            return
        lines = [t("bot.games.header", locale, count=len(mine))]
        clocks = await self.bot.clocks.clock_infos([info.id for info in mine[:20]])
        now = datetime.now(UTC)
        for info in mine[:20]:
            to_move = info.user_to_move()
            others = [player_name(uid, locale, info.seats) for uid in info.seats if uid != user]
            turn = (t("bot.games.your_turn", locale) if to_move == user
                    else t("bot.games.their_turn", locale,
                           player=player_name(to_move, locale, info.seats)))
            where = (f"<#{info.thread_id}>" if info.thread_id
                     else t("bot.game.number", locale, id=info.id))
            line = t("bot.games.line", locale, game=engines.get(info.game).title,
                     id=info.id, opponents=", ".join(others), turn=turn, where=where)
            deadline = games_clock_text(clocks.get(info.id), now, locale)
            lines.append(f"{line} · {deadline}" if deadline else line)
        if len(mine) > 20:
            lines.append(t("bot.games.more", locale, count=len(mine) - 20))
        text = fit_lines(lines, lambda left: t("bot.games.more", locale, count=left))
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Game(bot))
