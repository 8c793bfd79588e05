"""``/tournament create|join|leave|start|standings|pairings|cancel|kick``, ``/leaderboard``
and ``/profile``; the posts of the tournament outbox rows; results and ratings of finished games.

Every command acts on the tournaments of the server it is typed in only: the server goes to
the service with the number, which refuses another server's tournament like an unknown number.
Managing a tournament (start, cancel, kick) is for its organiser or a member with Manage Server
in that server (``interaction.permissions.manage_guild``, passed to the service as
``manager_of``, the server where it holds). Commands without a tournament number act on the
newest tournament of the server still in sign-up or running. Engine options are left at their
defaults for tournament games (the options of ``/play`` would not fit one command for every
game).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.app import reply_error, send_ephemeral
from bot.heavy import HeavyBusy
from bot.i18n import t
from bot.services.errors import ServiceError
from bot.services.models import OutboxItem
from bot.services.ratings import Leaderboard, RatingEntry, RatingService
from bot.services.tournaments import Board, Standings, Tournament, TournamentService
from render.bracket import BracketMatch, render_bracket

if TYPE_CHECKING:
    from bot.app import BoardGamesBot

log = logging.getLogger(__name__)

#: The outbox kinds this module posts (written by the tournament service, ``game_id`` NULL).
KINDS = frozenset({"tournament_round", "tournament_finished"})
Format = Literal["round_robin", "swiss", "elimination", "lppg_match"]
NO_PINGS = discord.AllowedMentions.none()
Result = TypeVar("Result")
MAX_LINES = 40  # keep posts under Discord's 2000 characters


def mention(user_id: int | None) -> str:
    return "-" if user_id is None else f"<@{user_id}>"


def game_title(name: str) -> str:
    return engines.get(name).title if name in engines.GAMES else name


def _points(value: float) -> str:
    return f"{value:g}"


def format_board(board: Board, locale: Any) -> str:
    if board.seats and board.first_id is None:  # a game of an LPPG match
        players = ", ".join(mention(u) for u in board.seats)
        return t("tournaments.post.match_game", locale, round=board.round, players=players,
                 game=board.game_id)
    if board.second_id is None:
        return t("tournaments.post.bye", locale, board=board.board + 1,
                 player=mention(board.first_id))
    first, second = mention(board.first_id), mention(board.second_id)
    if board.decided:
        score = {1.0: "1–0", 0.0: "0–1"}.get(board.first_score, "½–½")
        key = "tournaments.post.forfeit" if board.method == "forfeit" else "tournaments.post.result"
        return t(key, locale, board=board.board + 1, first=first, second=second, score=score)
    return t("tournaments.post.pairing", locale, board=board.board + 1, first=first,
             second=second, game=board.game_id)


def format_pairings(tournament: Tournament, round_number: int, boards: list[Board],
                    locale: Any) -> str:
    total = tournament.total_rounds
    header = t("tournaments.post.round", locale, name=tournament.name, id=tournament.id,
               round=round_number, total=total if total is not None else "?")
    lines = [header, *(format_board(b, locale) for b in boards[:MAX_LINES])]
    if not boards:
        lines.append(t("tournaments.post.no_pairings", locale))
    return "\n".join(lines)


def format_standings(standings: Standings, locale: Any) -> str:
    tournament = standings.tournament
    key = ("tournaments.post.final" if tournament.status == "finished"
           else "tournaments.post.standings")
    lines = [t(key, locale, name=tournament.name, id=tournament.id,
               round=tournament.current_round)]
    names = [t(f"tournaments.tiebreak.{name}", locale) for name in standings.tiebreaks]
    for row in standings.rows[:MAX_LINES]:
        breaks = ", ".join(f"{n} {_points(v)}" for n, v in zip(names, row.tiebreaks, strict=False))
        line = t("tournaments.post.standing", locale, rank=row.rank, player=mention(row.user_id),
                 points=_points(row.points), wins=row.wins, draws=row.draws, losses=row.losses)
        if breaks:
            line += f" ({breaks})"
        if row.withdrawn:
            line += " " + t("tournaments.post.withdrawn", locale)
        lines.append(line)
    if not standings.rows:
        lines.append(t("tournaments.post.nobody", locale))
    return "\n".join(lines)


def format_tournament(tournament: Tournament, locale: Any) -> str:
    game = game_title(tournament.game)
    players = " ".join(mention(u) for u in tournament.players) or t(
        "tournaments.post.nobody", locale)
    return t("tournaments.post.summary", locale, name=tournament.name, id=tournament.id,
             game=game, format=t(f"tournaments.format.{tournament.format}", locale),
             status=t(f"tournaments.status.{tournament.status}", locale),
             organiser=mention(tournament.organiser_id), count=len(tournament.players),
             players=players, time_control=tournament.time_control)


def format_rating(entry: RatingEntry, locale: Any) -> str:
    mark = "?" if entry.provisional else ""
    return t(f"tournaments.rating.{entry.system}", locale, value=f"{entry.value:.0f}{mark}",
             deviation=f"{entry.deviation:.0f}", games=entry.games)


def format_leaderboard(board: Leaderboard, locale: Any) -> str:
    lines = [t("tournaments.leaderboard.header", locale, game=game_title(board.game))]
    for system, entries in (("glicko", board.glicko), ("skill", board.skill)):
        if not entries:
            continue
        if board.glicko and board.skill:
            lines.append(t(f"tournaments.leaderboard.{system}", locale))
        for index, entry in enumerate(entries, start=1):
            lines.append(f"{index}. {mention(entry.user_id)} — {format_rating(entry, locale)}")
    if len(lines) == 1:
        lines.append(t("tournaments.leaderboard.empty", locale))
    else:
        lines.append(t("tournaments.leaderboard.provisional", locale))
    return "\n".join(lines)


async def bracket_png(
    bot: BoardGamesBot, tournaments: TournamentService, tournament: Tournament
) -> bytes:
    """The elimination bracket as a PNG, with the players' display names."""
    rounds = await tournaments.bracket(tournament.id)
    guild = bot.get_guild(tournament.guild_id) if tournament.guild_id else None
    names: dict[int, str] = {}
    for user_id in tournament.players:
        names[user_id] = await bot.display_name(user_id, guild)
    locale = bot.config.default_language
    matches = []
    for boards in rounds:
        column = []
        for b in boards:
            winner = None if b.winner is None else (0 if b.winner == b.first_id else 1)
            if b.second_id is None:
                note = t("tournaments.bracket.bye", locale)
            elif b.method == "forfeit":
                note = t("tournaments.bracket.forfeit", locale)
            elif b.attempts > 1:
                note = t("tournaments.bracket.replay", locale, attempt=b.attempts)
            else:
                note = ""
            column.append(BracketMatch(
                names.get(b.first_id) if b.first_id is not None else None,
                names.get(b.second_id) if b.second_id is not None else None,
                winner, note))
        matches.append(column)
    title = f"{tournament.name} #{tournament.id}"
    drawn = tuple(tuple(column) for column in matches)
    # Drawn in the worker pool, and once for each state of the bracket.
    return await bot.heavy.run(("bracket", title, tournament.total_rounds, drawn),
                               render_bracket, drawn, title=title,
                               total_rounds=tournament.total_rounds)


def has_bracket(tournament: Tournament) -> bool:
    return tournament.format == "elimination" and tournament.status != "signup"


async def bracket_file(
    bot: BoardGamesBot, tournaments: TournamentService, tournament: Tournament
) -> discord.File | None:
    if not has_bracket(tournament):
        return None
    png = await bracket_png(bot, tournaments, tournament)
    return discord.File(io.BytesIO(png), filename=f"bracket-{tournament.id}.png")


class Tournaments(commands.Cog):
    """The commands, and the feature's place in the bot: its services on the game service's
    database, a poster for its outbox kinds, a listener for finished games, and the start-up
    catch-up of results."""

    group = app_commands.Group(
        name="tournament", description="Tournaments: sign up, pairings, standings",
        guild_only=True,
    )

    def __init__(self, bot: BoardGamesBot) -> None:
        self.bot = bot
        self.ratings = RatingService(bot.services.store)
        self.tournaments = TournamentService(bot.services.store, bot.services, self.ratings)
        self._background: set[asyncio.Task] = set()
        clocks = getattr(bot, "clocks", None)
        if clocks is not None and clocks.grace_for is None:
            # Tournament games are forfeited on time after the organiser's grace period.
            clocks.grace_for = self.tournaments.forfeit_grace

    async def cog_load(self) -> None:
        self.bot.delivery.register_poster(KINDS, self.post_item)
        self.bot.delivery.on_game_over(self.game_over)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Rate and record the games that ended while no delivery saw them."""
        try:
            rated = await self.ratings.sync_finished_games()
            recorded = await self.tournaments.sync_finished_games()
        except Exception:
            log.exception("catching up ratings and tournament results failed")
            return
        if rated or recorded:
            log.info("caught up %d rating(s) and %d tournament result(s)", rated, recorded)

    async def game_over(self, game_id: int) -> None:
        """A game ended: rate it, record it for its tournament (both idempotent); a new round
        or the final standings are posted in the background, after this game's messages."""
        await self.ratings.on_game_over(game_id)
        found = await self.tournaments.tournament_of_game(game_id)
        if found is not None and await self.tournaments.on_game_over(game_id):
            task = asyncio.create_task(
                self.deliver(found[0]), name=f"background-tournament-{found[0]}"
            )
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def deliver(self, tournament_id: int) -> None:
        """Post what a tournament change wrote: the round or final post (rows without a
        game), then the new games' first boards in their threads."""
        try:
            await self.bot.delivery.flush(None)
            for board in await self.tournaments.pairings(tournament_id):
                if board.game_id is not None and not board.decided:
                    await self.bot.delivery.flush(board.game_id)
        except Exception:  # the background delivery retries whatever is left
            log.exception("posting tournament %s failed; the outbox keeps it", tournament_id)

    async def post_item(self, bot: BoardGamesBot, item: OutboxItem) -> None:
        """Post a ``tournament_round`` (the round's pairings) or ``tournament_finished`` (final
        standings) row in the tournament's channel, with the bracket for elimination."""
        tournament = await self.tournaments.get(int(item.payload["tournament_id"]))
        if tournament.channel_id is None:
            return
        locale: Any = bot.config.default_language
        if tournament.guild_id is not None:
            guild_locale, _ = await bot.services.guild_settings(tournament.guild_id)
            locale = guild_locale or locale
        if item.kind == "tournament_round":
            number = int(item.payload["round"])
            boards = await self.tournaments.pairings(tournament.id, number)
            content = format_pairings(tournament, number, boards, locale)
        else:
            content = format_standings(await self.tournaments.standings(tournament.id), locale)
        kwargs: dict[str, Any] = {"content": content[:2000]}
        file = await bracket_file(bot, self.tournaments, tournament)
        if file is not None:
            kwargs["file"] = file
        channel = bot.get_partial_messageable(tournament.channel_id,
                                              guild_id=tournament.guild_id)
        await channel.send(**kwargs)

    # ----- helpers --------------------------------------------------------------------------

    async def _tournament_id(
        self, interaction: discord.Interaction, tournament: int | None
    ) -> int | None:
        """The tournament named, or the newest one of this server still open or running."""
        if tournament is not None:
            return tournament
        found = await self.tournaments.tournaments(interaction.guild_id, active_only=True,
                                                       limit=1)
        if not found:
            await send_ephemeral(interaction, t("tournaments.none_here", interaction.locale))
            return None
        return found[0].id

    async def _call(
        self, interaction: discord.Interaction, tournament: int | None,
        call: Callable[[int], Awaitable[Result]],
    ) -> Result | None:
        """``call`` on the tournament named (or the newest open one here); a refusal is answered
        privately and gives None."""
        tid = await self._tournament_id(interaction, tournament)
        if tid is None:
            return None
        try:
            return await call(tid)
        except ServiceError as error:
            await reply_error(interaction, error)
            return None

    async def _deliver_after_withdrawal(self, info: Tournament) -> None:
        """A withdrawal resigned a game (its messages) and may have paired a new round."""
        if info.status == "signup":
            return
        for board in await self.tournaments.bracket(info.id):
            for b in board:
                if b.game_id is not None:
                    await self.bot.delivery.flush(b.game_id)
        await self.deliver(info.id)

    @staticmethod
    def _manager_of(interaction: discord.Interaction) -> int | None:
        """The server this member may manage (where the command was typed), else None."""
        return interaction.guild_id if interaction.permissions.manage_guild else None

    async def _answer(self, interaction: discord.Interaction, text: str, *,
                      file: discord.File | None = None, pings: bool = False) -> None:
        kwargs: dict[str, Any] = {
            "allowed_mentions": discord.AllowedMentions(users=True) if pings else NO_PINGS
        }
        if file is not None:
            kwargs["file"] = file
        if interaction.response.is_done():
            await interaction.followup.send(text[:2000], **kwargs)
        else:
            await interaction.response.send_message(text[:2000], **kwargs)

    # ----- commands -------------------------------------------------------------------------

    @group.command(name="create", description="Open a tournament for sign-up")
    @app_commands.describe(
        game="The game played", format="Round robin, Swiss, single elimination, or LPPG's match",
        name="A name for the tournament", rounds="Swiss only: number of rounds",
        time_control="untimed, 3d (days per move) or 3d+1d", grace_hours=(
            "Hours after a missed deadline before the game is lost (default 24)"),
    )
    @app_commands.choices(game=[app_commands.Choice(name=engines.get(n).title, value=n)
                                for n in engines.GAMES])
    async def create(
        self, interaction: discord.Interaction, game: str, format: Format,
        name: str | None = None, rounds: app_commands.Range[int, 1, 20] | None = None,
        time_control: str | None = None,
        grace_hours: app_commands.Range[int, 0, 336] | None = None,
    ) -> None:
        try:
            tournament = await self.tournaments.create(
                interaction.user.id, game, format, name=name, swiss_rounds=rounds,
                time_control=time_control or "untimed",
                forfeit_grace_hours=24 if grace_hours is None else grace_hours,
                guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            )
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        text = t("tournaments.created", interaction.locale, name=tournament.name,
                 id=tournament.id, organiser=mention(tournament.organiser_id))
        await self._answer(interaction, text + "\n" + format_tournament(tournament,
                                                                       interaction.locale))

    @group.command(name="join", description="Sign up for a tournament")
    @app_commands.describe(tournament="Tournament number (default: the newest open one here)")
    async def join(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        info = await self._call(interaction, tournament, lambda tid: self.tournaments.join(
            tid, interaction.user.id, guild_id=interaction.guild_id))
        if info is None:
            return
        await self._answer(interaction, t("tournaments.joined", interaction.locale,
                                          player=mention(interaction.user.id), name=info.name,
                                          id=info.id, count=len(info.players)))

    @group.command(name="leave", description="Leave a tournament (withdraw once it runs)")
    @app_commands.describe(tournament="Tournament number (default: the newest open one here)")
    async def leave(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        info = await self._call(interaction, tournament, lambda tid: self.tournaments.leave(
            tid, interaction.user.id, guild_id=interaction.guild_id))
        if info is None:
            return
        key = "tournaments.withdrew" if info.status != "signup" else "tournaments.left"
        await self._answer(interaction, t(key, interaction.locale,
                                          player=mention(interaction.user.id), name=info.name,
                                          id=info.id))
        await self._deliver_after_withdrawal(info)

    @group.command(name="kick", description="Remove a player (organiser or Manage Server)")
    @app_commands.describe(player="The player to remove", tournament="Tournament number")
    async def kick(self, interaction: discord.Interaction, player: discord.User,
                   tournament: int | None = None) -> None:
        info = await self._call(interaction, tournament, lambda tid: self.tournaments.kick(
            tid, interaction.user.id, player.id, guild_id=interaction.guild_id,
            manager_of=self._manager_of(interaction)))
        if info is None:
            return
        await self._answer(interaction, t("tournaments.kicked", interaction.locale,
                                          player=mention(player.id), name=info.name,
                                          id=info.id))
        await self._deliver_after_withdrawal(info)

    @group.command(name="start", description="Close sign-up and pair round 1")
    @app_commands.describe(tournament="Tournament number (default: the newest open one here)")
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        info = await self._call(interaction, tournament, lambda tid: self.tournaments.start(
            tid, interaction.user.id, guild_id=interaction.guild_id,
            manager_of=self._manager_of(interaction)))
        if info is None:
            return
        await self._answer(interaction, t("tournaments.started", interaction.locale,
                                          name=info.name, id=info.id,
                                          count=len(info.players)))
        await self.deliver(info.id)  # the pairings, then the games' threads

    @group.command(name="cancel", description="Cancel a tournament (organiser or Manage Server)")
    @app_commands.describe(tournament="Tournament number (default: the newest open one here)")
    async def cancel(self, interaction: discord.Interaction,
                     tournament: int | None = None) -> None:
        info = await self._call(interaction, tournament, lambda tid: self.tournaments.cancel(
            tid, interaction.user.id, guild_id=interaction.guild_id,
            manager_of=self._manager_of(interaction)))
        if info is None:
            return
        await self._answer(interaction, t("tournaments.cancelled", interaction.locale,
                                          name=info.name, id=info.id))

    @group.command(name="standings", description="A tournament's standings")
    @app_commands.describe(tournament="Tournament number (default: the newest open one here)")
    async def standings(self, interaction: discord.Interaction,
                        tournament: int | None = None) -> None:
        table = await self._call(interaction, tournament, lambda tid: self.tournaments.standings(
            tid, guild_id=interaction.guild_id))
        if table is None:
            return
        # The bracket is a heavy drawing: within the user's limits, refused privately.
        admission = (self.bot.heavy.admit(interaction.user.id) if has_bracket(table.tournament)
                     else nullcontext())
        try:
            with admission:
                await interaction.response.defer(thinking=True)
                file = await bracket_file(self.bot, self.tournaments, table.tournament)
        except HeavyBusy as error:
            await reply_error(interaction, error)
            return
        text = format_tournament(table.tournament, interaction.locale) + "\n" + (
            format_standings(table, interaction.locale))
        await self._answer(interaction, text, file=file)

    @group.command(name="pairings", description="A round's pairings")
    @app_commands.describe(tournament="Tournament number (default: the newest open one here)",
                           round="Round number (default: the current round)")
    async def pairings(self, interaction: discord.Interaction, tournament: int | None = None,
                       round: int | None = None) -> None:
        async def read(tid: int) -> tuple[Tournament, int, list[Board]]:
            info = await self.tournaments.get(tid, guild_id=interaction.guild_id)
            number = info.current_round if round is None else round
            return info, number, await self.tournaments.pairings(tid, number)

        found = await self._call(interaction, tournament, read)
        if found is None:
            return
        info, number, boards = found
        if info.status == "signup":
            await send_ephemeral(interaction, t("tournaments.not_started", interaction.locale,
                                                name=info.name, id=info.id))
            return
        await self._answer(interaction, format_pairings(info, number, boards,
                                                        interaction.locale))

    # ----- ratings --------------------------------------------------------------------------

    @app_commands.command(name="leaderboard", description="The best rated players of a game")
    @app_commands.describe(game="The game")
    @app_commands.choices(game=[app_commands.Choice(name=engines.get(n).title, value=n)
                                for n in engines.GAMES])
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        board = await self.ratings.leaderboard(game, limit=15)
        await self._answer(interaction, format_leaderboard(board, interaction.locale))

    @app_commands.command(name="profile", description="A player's ratings")
    @app_commands.describe(user="The player (default: you)")
    async def profile(self, interaction: discord.Interaction,
                      user: discord.User | None = None) -> None:
        target = user or interaction.user
        profile = await self.ratings.profile(target.id)
        locale = interaction.locale
        lines = [t("tournaments.profile.header", locale, player=mention(target.id))]
        for entry in profile.ratings:
            lines.append(f"• {game_title(entry.game)}: {format_rating(entry, locale)}")
        if not profile.ratings:
            lines.append(t("tournaments.profile.unrated", locale))
        await self._answer(interaction, "\n".join(lines))


async def setup(bot: BoardGamesBot) -> None:
    await bot.add_cog(Tournaments(bot))


__all__ = ["KINDS", "Tournaments", "setup"]
