"""``/tournament create|join|leave|start|standings|pairings|cancel|kick|list``, ``/leaderboard``
and ``/profile``; the posts of the tournament outbox rows; results and ratings of finished games.

Every command acts on the tournaments of the server it is typed in only: the server goes to
the service with the number, which refuses another server's tournament like an unknown number.
Managing a tournament (start, cancel, kick) is for its organiser or a member with Manage Server
in that server (``interaction.permissions.manage_guild``, passed to the service as
``manager_of``, the server where it holds). The ``tournament`` option autocompletes this
server's tournaments that the command can apply to, the user's own first; left out, the command
acts on the only one it can apply to, and when there are several it asks which (it never
guesses). Engine options are left at their defaults for tournament games (the options of
``/play`` would not fit one command for every game).

Numbers and texts typed in options are checked against the ranges the commands declare
(``app_commands.Range``) before anything runs: Discord's own client enforces them, but any
client can send an interaction. Replies that show a tournament's name ping nobody; a round's
pairings ping exactly the players paired.
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
from discord.app_commands import locale_str
from discord.ext import commands

import ai
import engines
from bot.core.errors import ServiceError
from bot.core.events import OutboxItem, TournamentFinished, TournamentForfeit, TournamentRound
from bot.core.i18n import Text, language_code, number, option_name, t
from bot.core.names import player_name
from bot.discord.cogs._common import LARGEST, NumberOption, answer_language
from bot.discord.cogs._history import profile_file
from bot.discord.cogs._tournament_texts import (
    choice_label,
    forfeit_post,
    format_leaderboard,
    format_list,
    format_pairings,
    format_profile,
    format_standings,
    format_tournament,
    list_line,
    mention,
    shown_name,
    which_text,
    withdrawal_text,
)
from bot.discord.replies import clip, reply_error, send_ephemeral
from bot.services.aiseats import Record, is_ai
from bot.services.ratings import RatingService
from bot.services.tournaments import Tournament, TournamentError, TournamentService
from bot.services.tournaments.models import MAX_GRACE_HOURS, MAX_NAME, MAX_SWISS_ROUNDS, Standings
from bot.workers.heavy import HeavyBusy
from render.bracket import BracketMatch, render_bracket
from render.standings import MAX_ROWS, render_standings

if TYPE_CHECKING:
    from bot.discord.host import CogHost

log = logging.getLogger(__name__)

Format = Literal["round_robin", "swiss", "elimination", "lppg_match"]
NO_PINGS = discord.AllowedMentions.none()
Result = TypeVar("Result")
#: Discord shows at most 25 autocomplete choices.
MAX_CHOICES = 25
#: Tournaments ``/tournament list`` shows.
MAX_LISTED = 20
GAME_CHOICES = [app_commands.Choice(name=engines.get(n).title, value=n) for n in engines.GAMES]


class OptionOutOfRange(app_commands.CheckFailure):
    """An option outside the range its command declares; ``original`` is the refusal to show
    (the bot's error handler answers a failure's ``original`` service error privately)."""

    def __init__(self, original: ServiceError) -> None:
        super().__init__(original.message)
        self.original = original


def option_label(interaction: discord.Interaction, name: str) -> str:
    """An option's name as the user sees it in their client (localised in French)."""
    return option_name(interaction.command.qualified_name, name,
                       language_code(interaction.locale))


def out_of_range(interaction: discord.Interaction) -> TournamentError | None:
    """The first option whose number falls outside its declared range, or whose text is
    longer than its declared length (an empty or blank text is the service's to explain)."""
    for param in getattr(interaction.command, "parameters", ()):
        low, high = param.min_value, param.max_value
        value = getattr(interaction.namespace, param.display_name)
        label = option_label(interaction, param.display_name)
        if isinstance(value, str):
            if high is not None and len(value) > high:
                return TournamentError("errors.tournament.option_length", option=label,
                                       high=high)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            if (low is None or value >= low) and (high is None or value <= high):
                continue
            if low is not None and value < low and (high is None or high >= LARGEST):
                return TournamentError("errors.tournament.option_at_least", option=label,
                                       low=low, value=value)
            return TournamentError("errors.tournament.option_between", option=label,
                                   low="…" if low is None else low,
                                   high=LARGEST if high is None else high, value=value)
    return None


class TournamentNumber(NumberOption):
    """A ``tournament`` option: a whole number from 1, autocompleted with this server's
    tournaments that ``action`` can apply to (see ``TournamentService.open_tournaments``)."""

    def __init__(self, action: str) -> None:
        self.action = action

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: int | float | str, /
    ) -> list[app_commands.Choice[int]]:
        cog = interaction.client.get_cog("Tournaments")
        if cog is None or interaction.guild_id is None:
            return []
        found = await cog.tournaments.reading.open_tournaments(
            interaction.guild_id, interaction.user.id, self.action)
        # What was typed: a number (as "#12" or "n°12" too) or part of a name.
        typed = str(value or "").strip().casefold().removeprefix("n°").lstrip("#")
        fitting = [x for x in found
                   if not typed or str(x.id).startswith(typed) or typed in x.name.casefold()]
        return [app_commands.Choice(name=choice_label(x, interaction.locale), value=x.id)
                for x in fitting[:MAX_CHOICES]]


def number_of(action: str) -> Any:
    """The annotation of a ``tournament`` option for ``action`` (optional by its default)."""
    return app_commands.Transform[int, TournamentNumber(action)]


async def bracket_png(
    bot: CogHost, tournaments: TournamentService, tournament: Tournament, locale: Any
) -> bytes:
    """The elimination bracket as a PNG, with the players' display names."""
    rounds = await tournaments.reading.bracket(tournament.id)
    guild = bot.get_guild(tournament.guild_id) if tournament.guild_id else None
    names: dict[int, str] = {}
    for user_id in tournament.players:
        names[user_id] = (player_name(user_id, locale, tournament.players) if is_ai(user_id)
                          else await bot.display_name(user_id, guild))
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
    lang = language_code(locale)
    # Drawn in the worker pool, and once for each state of the bracket.
    return await bot.heavy.run(("bracket", title, tournament.total_rounds, drawn, lang),
                               render_bracket, drawn, title=title,
                               total_rounds=tournament.total_rounds, lang=lang)


#: ``/tournament list``'s ``status`` choices and the tournament statuses each shows.
LIST_STATUSES: dict[str, tuple[str, ...]] = {
    "running": ("signup", "running"),
    "finished": ("finished",),
    "all": ("signup", "running", "finished", "cancelled"),
}


async def standings_file(bot: CogHost, table: Standings, locale: Any) -> discord.File:
    """The standings as a picture (``render.standings``), with the players' display names,
    in ``locale``; drawn in the worker pool."""
    tournament = table.tournament
    guild = bot.get_guild(tournament.guild_id) if tournament.guild_id else None
    headings = [t("tournaments.history.col_rank", locale),
                t("tournaments.history.col_player", locale),
                t("tournaments.history.col_points", locale),
                t("tournaments.history.col_record", locale),
                *(t(f"tournaments.tiebreak.{name}", locale) for name in table.tiebreaks)]
    rows = []
    for row in table.rows[:MAX_ROWS]:
        name = (player_name(row.user_id, locale, tournament.players) if row.user_id < 0
                else await bot.display_name(row.user_id, guild))
        rows.append((
            "–" if row.rank is None else f"{row.rank}.", name, number(row.points, locale),
            f"{row.wins}–{row.draws}–{row.losses}",
            *(number(value, locale) for value in row.tiebreaks),
        ))
    left = len(table.rows) - len(rows)
    more = t("tournaments.list.more", locale, count=left) if left > 0 else ""
    title = t("tournaments.history.picture_title", locale, name=tournament.name,
              id=tournament.id)
    champion = bool(table.rows) and table.rows[0].rank == 1
    png = await bot.heavy.run(("standings", title, tuple(headings), tuple(rows), more),
                              render_standings, title, headings, rows, champion=champion,
                              more=more)
    return discord.File(io.BytesIO(png), filename=f"standings-{tournament.id}.png")


def has_bracket(tournament: Tournament) -> bool:
    return tournament.format == "elimination" and tournament.status != "signup"


async def bracket_file(
    bot: CogHost, tournaments: TournamentService, tournament: Tournament, locale: Any
) -> discord.File | None:
    if not has_bracket(tournament):
        return None
    png = await bracket_png(bot, tournaments, tournament, locale)
    return discord.File(io.BytesIO(png), filename=f"bracket-{tournament.id}.png")


async def refuse(interaction: discord.Interaction, error: ServiceError) -> None:
    """A service's refusal, privately, with a tournament name in it shown as typed."""
    if isinstance(error.params.get("name"), str):
        error.params["name"] = shown_name(error.params["name"])
    await reply_error(interaction, error)


def pinging(user_ids: set[int]) -> discord.AllowedMentions:
    """Mentions that notify exactly these users (anyone else mentioned is only named); an AI
    entrant has no account to notify."""
    users = [discord.Object(uid) for uid in sorted(user_ids) if not is_ai(uid)]
    return discord.AllowedMentions(everyone=False, roles=False, users=users or False)


class Tournaments(commands.Cog):
    """The commands, and the feature's place in the bot: its services on the game service's
    database, a poster for its outbox kinds, a listener for finished games, and the start-up
    catch-up of results.

    Longer than 300 lines on purpose: discord.py declares a command group's subcommands on
    one cog class (``/tournament`` and its nine subcommands, ``/leaderboard``,
    ``/profile``); what they say lives in ``bot.discord.cogs._tournament_texts``."""

    group = app_commands.Group(
        name="tournament", description="Tournaments: sign up, pairings, standings",
        guild_only=True,
    )

    def __init__(self, bot: CogHost) -> None:
        self.bot = bot
        self.ratings = RatingService(bot.services.store)
        self.tournaments = TournamentService(bot.services, self.ratings)
        self._background: set[asyncio.Task] = set()
        clocks = getattr(bot, "clocks", None)
        if clocks is not None and clocks.grace_for is None:
            # Tournament games are forfeited on time after the organiser's grace period.
            clocks.grace_for = self.tournaments.reading.forfeit_grace

    async def cog_load(self) -> None:
        # A round's pairings and the final standings (in the tournament's channel), and a game
        # lost because a player left the tournament (in its thread).
        self.bot.delivery.register({
            TournamentRound: self.post_round,
            TournamentFinished: self.post_finished,
            TournamentForfeit: self.post_forfeit,
        })
        self.bot.delivery.on_game_over(self.game_over)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Refuse an option outside its declared range before the command runs."""
        refusal = out_of_range(interaction)
        if refusal is not None:
            raise OptionOutOfRange(refusal)
        return True

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Rate and record the games that ended while no delivery saw them."""
        try:
            rated = await self.ratings.sync_finished_games()
            recorded = await self.tournaments.rounds.sync_finished_games()
        except Exception:
            log.exception("catching up ratings and tournament results failed")
            return
        if rated or recorded:
            log.info("caught up %d rating(s) and %d tournament result(s)", rated, recorded)

    async def game_over(self, game_id: int) -> None:
        """A game ended: rate it, record it for its tournament (both idempotent); a new round
        or the final standings are posted in the background, after this game's messages."""
        await self.ratings.on_game_over(game_id)
        found = await self.tournaments.reading.tournament_of_game(game_id)
        if found is not None and await self.tournaments.rounds.on_game_over(game_id):
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
            for board in await self.tournaments.reading.pairings(tournament_id):
                if board.game_id is not None and not board.decided:
                    await self.bot.delivery.flush(board.game_id)
        except Exception:  # the background delivery retries whatever is left
            log.exception("posting tournament %s failed; the outbox keeps it", tournament_id)

    async def _post_locale(self, tournament: Tournament) -> Any:
        """The language of the tournament's server (its setting, else the bot's default)."""
        found = await self.bot.services.settings.public_language(tournament.guild_id, None)
        return found or self.bot.config.default_language

    async def post_round(self, item: OutboxItem[TournamentRound]) -> None:
        """A round's pairings in the tournament's channel, pinging the players paired (each
        learns of their pairing: a created message), with the bracket for elimination."""
        tournament = await self.tournaments.reading.get(item.event.tournament_id)
        if tournament.channel_id is None:
            return
        locale = await self._post_locale(tournament)
        number = item.event.round
        boards = await self.tournaments.reading.pairings(tournament.id, number)
        mentions = pinging({u for b in boards if not b.decided
                            for u in (b.first_id, b.second_id, *b.seats) if u is not None})
        await self._post_in_channel(item, tournament, locale,
                                    format_pairings(tournament, number, boards, locale),
                                    mentions)

    async def post_finished(self, item: OutboxItem[TournamentFinished]) -> None:
        """The final standings in the tournament's channel, pinging nobody, with the table as
        a picture (and the bracket for elimination)."""
        tournament = await self.tournaments.reading.get(item.event.tournament_id)
        if tournament.channel_id is None:
            return
        locale = await self._post_locale(tournament)
        table = await self.tournaments.reading.standings(tournament.id)
        await self._post_in_channel(item, tournament, locale, format_standings(table, locale),
                                    NO_PINGS, [await standings_file(self.bot, table, locale)])

    async def _post_in_channel(self, item: OutboxItem[Any], tournament: Tournament,
                               locale: Any, content: str, mentions: discord.AllowedMentions,
                               files: list[discord.File] | None = None) -> None:
        files = list(files or [])
        file = await bracket_file(self.bot, self.tournaments, tournament, locale)
        if file is not None:
            files.append(file)
        kwargs: dict[str, Any] = {"content": clip(content), "allowed_mentions": mentions}
        if files:
            kwargs["files"] = files
        assert tournament.channel_id is not None
        await self.bot.delivery.send(tournament.channel_id, item, guild_id=tournament.guild_id,
                                     **kwargs)

    async def post_forfeit(self, item: OutboxItem[TournamentForfeit]) -> None:
        """A game lost because its player left the tournament, said in the game's thread (in
        the game's language)."""
        forfeit = item.event
        tournament = await self.tournaments.reading.get(forfeit.tournament_id)
        game = await self.bot.services.games.get_game(forfeit.game_id)
        # Rows go out in order and a game's thread is opened by its first row.
        where = game.thread_id or game.channel_id
        if where is None:
            log.warning("outbox row %s: game %s has nowhere to post", item.id, game.id)
            return
        await self.bot.delivery.send(where, item, guild_id=game.guild_id,
                                     content=forfeit_post(forfeit, tournament,
                                                          self.bot.delivery.language(game)),
                                     allowed_mentions=NO_PINGS)

    # ----- helpers --------------------------------------------------------------------------

    async def _tournament_id(
        self, interaction: discord.Interaction, tournament: int | None, action: str,
        keep: Callable[[Tournament], bool] | None = None,
    ) -> int | None:
        """The tournament named; else the only one of this server ``action`` can apply to
        (and ``keep`` keeps); for ``history`` (standings, pairings), the only one in sign-up or
        running, else the one that finished last. None, after telling the user, when there is
        none or several."""
        if tournament is not None:
            return tournament
        reading = self.tournaments.reading
        found = [x for x in await reading.open_tournaments(
                     interaction.guild_id, interaction.user.id,
                     "read" if action == "history" else action)
                 if keep is None or keep(x)]
        if not found and action == "history":
            finished = await reading.tournaments(interaction.guild_id, statuses=("finished",))
            found = sorted(finished, key=lambda x: (x.finished_at is not None,
                                                    x.finished_at, x.id))[-1:]
        if not found and action == "join":
            # Already in every one in sign-up: the service says so about the only one.
            found = await self.tournaments.reading.open_tournaments(
                interaction.guild_id, interaction.user.id, "start")
        if len(found) == 1:
            return found[0].id
        locale = interaction.locale
        if not found:
            key = "tournaments.none_here" if action in ("read", "manage", "history") else (
                f"tournaments.none_for.{action}")
            await send_ephemeral(interaction, t(key, locale))
            return None
        await send_ephemeral(interaction, which_text(found[:MAX_LISTED], locale))
        return None

    async def _call(
        self, interaction: discord.Interaction, tournament: int | None, action: str,
        call: Callable[[int], Awaitable[Result]],
        keep: Callable[[Tournament], bool] | None = None,
    ) -> Result | None:
        """``call`` on the tournament named (or the only one ``action`` fits here); a refusal
        is answered privately and gives None."""
        tid = await self._tournament_id(interaction, tournament, action, keep)
        if tid is None:
            return None
        try:
            return await call(tid)
        except ServiceError as error:
            await refuse(interaction, error)
            return None

    async def _deliver_after_withdrawal(self, info: Tournament, forfeited: tuple[int, ...]
                                        ) -> None:
        """A withdrawal ended the player's game (its messages) and may have paired a new
        round."""
        if info.status == "signup":
            return
        for game_id in forfeited:
            await self.bot.delivery.flush(game_id)
        await self.deliver(info.id)

    @staticmethod
    def _manager_of(interaction: discord.Interaction) -> int | None:
        """The server this member may manage (where the command was typed), else None."""
        return interaction.guild_id if interaction.permissions.manage_guild else None

    async def _public(self, interaction: discord.Interaction, *, private: bool = False) -> str:
        """The language of the command's answer (``answer_language``): the server's for what
        everyone sees."""
        return await answer_language(self.bot, interaction, private=private)

    async def _answer(self, interaction: discord.Interaction, text: str, *,
                      file: discord.File | None = None, private: bool = False) -> None:
        """The command's answer, pinging nobody (``private``: only the user sees it)."""
        kwargs: dict[str, Any] = {"allowed_mentions": NO_PINGS, "ephemeral": private}
        if file is not None:
            kwargs["file"] = file
        if interaction.response.is_done():
            await interaction.followup.send(clip(text), **kwargs)
        else:
            await interaction.response.send_message(clip(text), **kwargs)

    # ----- commands -------------------------------------------------------------------------

    @group.command(name="create", description="Open a tournament for sign-up")
    @app_commands.describe(
        game="The game played", format="Round robin, Swiss, single elimination, or LPPG's match",
        name="A name for the tournament", rounds="Swiss only: number of rounds",
        time_control="untimed, 3d (days per move) or 3d+1d", grace_hours=(
            "Hours after a missed deadline before the game is lost (default 24)"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def create(
        self, interaction: discord.Interaction, game: str, format: Format,
        name: app_commands.Range[str, 1, MAX_NAME] | None = None,
        rounds: app_commands.Range[int, 1, MAX_SWISS_ROUNDS] | None = None,
        time_control: str | None = None,
        grace_hours: app_commands.Range[int, 0, MAX_GRACE_HOURS] | None = None,
    ) -> None:
        try:
            tournament = await self.tournaments.signup.create(
                interaction.user.id, game, format, name=name, swiss_rounds=rounds,
                time_control=time_control or "untimed",
                forfeit_grace_hours=24 if grace_hours is None else grace_hours,
                guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            )
        except ServiceError as error:
            await refuse(interaction, error)
            return
        locale = await self._public(interaction)
        text = t("tournaments.created", locale, name=shown_name(tournament.name),
                 id=tournament.id, organiser=mention(tournament.organiser_id))
        await self._answer(interaction, text + "\n" + format_tournament(tournament, locale))

    @group.command(name="join", description="Sign up for a tournament")
    @app_commands.describe(tournament="Tournament number (default: the one open here)")
    async def join(self, interaction: discord.Interaction,
                   tournament: number_of("join") = None) -> None:
        info = await self._call(
            interaction, tournament, "join", lambda tid: self.tournaments.signup.join(
                tid, interaction.user.id, guild_id=interaction.guild_id))
        if info is None:
            return
        locale = await self._public(interaction)
        await self._answer(interaction, t(
            "tournaments.joined", locale, player=mention(interaction.user.id),
            name=shown_name(info.name), id=info.id,
            players=t("tournaments.count.players", locale, count=len(info.players))))

    @group.command(name="add-ai", description="Enter an AI player (organiser or Manage Server)")
    @app_commands.describe(level="How strong the AI plays",
                           tournament="Tournament number (default: the one in sign-up here)")
    @app_commands.choices(level=[
        app_commands.Choice(name=locale_str(level, key=f"ai.level.{level}"), value=level)
        for level in ai.LEVELS
    ])
    async def add_ai(self, interaction: discord.Interaction, level: str,
                     tournament: number_of("start") = None) -> None:
        done = await self._call(interaction, tournament, "start",
                                lambda tid: self.tournaments.signup.add_ai(
                                    tid, interaction.user.id, level,
                                    guild_id=interaction.guild_id,
                                    manager_of=self._manager_of(interaction)))
        if done is None:
            return
        info, ai_id = done
        locale = await self._public(interaction)
        await self._answer(interaction, t(
            "tournaments.history.ai_added", locale, by=mention(interaction.user.id),
            player=player_name(ai_id, locale, info.players), name=shown_name(info.name),
            id=info.id,
            players=t("tournaments.count.players", locale, count=len(info.players))))

    @group.command(name="leave", description="Leave a tournament (withdraw once it runs)")
    @app_commands.describe(tournament="Tournament number (default: the one you are in here)")
    async def leave(self, interaction: discord.Interaction,
                    tournament: number_of("leave") = None) -> None:
        done = await self._call(interaction, tournament, "leave",
                                lambda tid: self.tournaments.signup.leave(
                                    tid, interaction.user.id, guild_id=interaction.guild_id))
        if done is None:
            return
        await self._answer(interaction, withdrawal_text(done, interaction.user.id,
                                                        await self._public(interaction)))
        await self._deliver_after_withdrawal(done.tournament, done.forfeited)

    @group.command(name="kick", description="Remove a player (organiser or Manage Server)")
    @app_commands.describe(player="The player to remove",
                           tournament="Tournament number (default: the one they are in here)")
    async def kick(self, interaction: discord.Interaction, player: discord.User,
                   tournament: number_of("manage") = None) -> None:
        def playing(x: Tournament) -> bool:
            entrant = x.entrant(player.id)
            return entrant is not None and not entrant.withdrawn

        done = await self._call(interaction, tournament, "manage",
                                lambda tid: self.tournaments.signup.kick(
                                    tid, interaction.user.id, player.id,
                                    guild_id=interaction.guild_id,
                                    manager_of=self._manager_of(interaction)), keep=playing)
        if done is None:
            return
        await self._answer(interaction, withdrawal_text(done, interaction.user.id,
                                                        await self._public(interaction)))
        await self._deliver_after_withdrawal(done.tournament, done.forfeited)

    @group.command(name="start", description="Close sign-up and pair round 1")
    @app_commands.describe(tournament="Tournament number (default: the one in sign-up here)")
    async def start(self, interaction: discord.Interaction,
                    tournament: number_of("start") = None) -> None:
        info = await self._call(interaction, tournament, "start",
                                lambda tid: self.tournaments.signup.start(
                                    tid, interaction.user.id, guild_id=interaction.guild_id,
                                    manager_of=self._manager_of(interaction)))
        if info is None:
            return
        locale = await self._public(interaction)
        await self._answer(interaction, t(
            "tournaments.started", locale, name=shown_name(info.name), id=info.id,
            players=t("tournaments.count.players", locale, count=len(info.players))))
        await self.deliver(info.id)  # the pairings, then the games' threads

    @group.command(name="cancel", description="Cancel a tournament (organiser or Manage Server)")
    @app_commands.describe(tournament="Tournament number (default: the one open here)")
    async def cancel(self, interaction: discord.Interaction,
                     tournament: number_of("manage") = None) -> None:
        info = await self._call(interaction, tournament, "manage",
                                lambda tid: self.tournaments.signup.cancel(
                                    tid, interaction.user.id, guild_id=interaction.guild_id,
                                    manager_of=self._manager_of(interaction)))
        if info is None:
            return
        await self._answer(interaction, t("tournaments.cancelled", await self._public(interaction),
                                          name=shown_name(info.name), id=info.id))

    @group.command(name="standings", description="A tournament's standings")
    @app_commands.describe(
        tournament="Tournament number (default: the one open here, else the last finished)")
    async def standings(self, interaction: discord.Interaction,
                        tournament: number_of("history") = None) -> None:
        table = await self._call(interaction, tournament, "history",
                                 lambda tid: self.tournaments.reading.standings(
                                     tid, guild_id=interaction.guild_id))
        if table is None:
            return
        # The bracket (or, for a finished event of another format, the final table) is a
        # heavy drawing: within the user's limits, refused privately.
        finished = table.tournament.status == "finished"
        admission = (self.bot.heavy.admit(interaction.user.id)
                     if has_bracket(table.tournament) or finished else nullcontext())
        locale = await self._public(interaction)
        try:
            with admission:
                await interaction.response.defer(thinking=True)
                file = await bracket_file(self.bot, self.tournaments, table.tournament, locale)
                if file is None and finished:
                    file = await standings_file(self.bot, table, locale)
        except HeavyBusy as error:
            await reply_error(interaction, error)
            return
        text = format_tournament(table.tournament, locale) + "\n" + (
            format_standings(table, locale))
        await self._answer(interaction, text, file=file)

    @group.command(name="pairings", description="A round's pairings")
    @app_commands.describe(
        tournament="Tournament number (default: the one open here, else the last finished)",
        round="Round number (default: the current round)")
    async def pairings(self, interaction: discord.Interaction,
                       tournament: number_of("history") = None,
                       round: app_commands.Range[int, 1, LARGEST] | None = None) -> None:
        async def read(tid: int):
            info = await self.tournaments.reading.get(tid, guild_id=interaction.guild_id)
            if info.status == "signup":
                raise TournamentError("errors.tournament.not_started", name=info.name)
            number = info.current_round if round is None else round
            return info, number, await self.tournaments.reading.pairings(
                tid, round, guild_id=interaction.guild_id)

        found = await self._call(interaction, tournament, "history", read)
        if found is None:
            return
        info, number, boards = found
        await self._answer(interaction, format_pairings(info, number, boards,
                                                        await self._public(interaction)))

    @group.command(name="list", description="This server's open and running tournaments")
    @app_commands.describe(status="running (default): in sign-up or running; finished; all")
    @app_commands.choices(status=[
        app_commands.Choice(name=locale_str(t(f"tournaments.history.status_{value}", "en"),
                                            key=f"tournaments.history.status_{value}"),
                            value=value)
        for value in LIST_STATUSES
    ])
    async def list_tournaments(self, interaction: discord.Interaction,
                               status: str = "running") -> None:
        found = await self.tournaments.reading.tournaments(
            interaction.guild_id, statuses=LIST_STATUSES[status], limit=MAX_LISTED + 1)
        more = max(0, len(found) - MAX_LISTED)
        locale = await self._public(interaction)
        if status == "running":
            text = format_list(found[:MAX_LISTED], locale, more=more)
        else:
            text = await self._history_list(found[:MAX_LISTED], status, locale, more)
        await self._answer(interaction, text)

    async def _history_list(self, found: list[Tournament], status: str, locale: Any,
                            more: int) -> str:
        """Finished (or all) tournaments, each finished one with its winner."""
        if not found:
            return t(f"tournaments.history.none_{status}", locale)
        lines = [t(f"tournaments.history.header_{status}", locale)]
        for tournament in found:
            line = list_line(tournament, locale)
            if tournament.status == "finished":
                table = await self.tournaments.reading.standings(tournament.id)
                champions = [row.user_id for row in table.rows if row.rank == 1]
                if champions:
                    line += " — " + t("tournaments.history.won_by", locale,
                                      players=", ".join(
                                          player_name(uid, locale, tournament.players)
                                          for uid in champions))
            lines.append(line)
        if more:
            lines.append(t("tournaments.list.more", locale, count=more))
        return "\n".join(lines)

    # ----- ratings --------------------------------------------------------------------------

    @app_commands.command(name="leaderboard", description="The best rated players of a game")
    @app_commands.describe(
        game="The game", scope="This server's players (default) or everyone",
        private="Answer only to you, without posting in the channel")
    @app_commands.choices(game=GAME_CHOICES, scope=[
        app_commands.Choice(name=locale_str("this server", key="tournaments.scope.server"),
                            value="server"),
        app_commands.Choice(name=locale_str("everyone", key="tournaments.scope.global"),
                            value="global"),
    ])
    async def leaderboard(self, interaction: discord.Interaction, game: str,
                          scope: str = "server", private: bool = False) -> None:
        # In a direct message there is no server: everyone's leaderboard.
        here = interaction.guild_id if scope == "server" else None
        board = await self.ratings.leaderboard(game, limit=15, guild_id=here)
        locale = await self._public(interaction, private=private)
        await self._answer(interaction, format_leaderboard(board, locale), private=private)

    @app_commands.command(name="profile", description="A player's ratings")
    @app_commands.describe(user="The player (default: you)",
                           private="Answer only to you, without posting in the channel")
    async def profile(self, interaction: discord.Interaction,
                      user: discord.User | None = None, private: bool = False) -> None:
        target = user or interaction.user
        profile = await self.ratings.profile(target.id, guild_id=interaction.guild_id)
        locale = await self._public(interaction, private=private)
        text = format_profile(profile, locale, in_server=interaction.guild_id is not None)
        records = await self.bot.services.aiseats.ai_record(target.id)
        if records:  # games against the AI are not rated: their record stands apart
            text += "\n" + ai_record_text(records, locale)
        # The chart of the last 12 months (bot.cogs._history), drawn in the heavy pool.
        file, note = await profile_file(self.bot, interaction, target.id, locale,
                                        private=private)
        if note:
            text += "\n" + note
        await self._answer(interaction, text, file=file, private=private)


def ai_record_text(records: list[Record], locale: Any) -> str:
    """A player's won/drawn/lost games against each AI level, one line per level."""
    lines = [t("ai.record.header", locale)]
    for record in records:
        lines.append(t("ai.record.line", locale, level=t(f"ai.level.{record.level}", locale),
                       won=Text("ai.record.won", count=record.won),
                       drawn=Text("ai.record.drawn", count=record.drawn),
                       lost=Text("ai.record.lost", count=record.lost)))
    return "\n".join(lines)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Tournaments(bot))


__all__ = ["Tournaments", "setup"]
