"""``/rules`` and ``/help``: the rules of every game, section by section, in the reader's language.

``/rules game:<game> [section]`` answers with one embed (the section's text, with a picture of
an example position where one helps); ``/rules`` alone lists the games and how to start one;
``private: True`` answers only the reader (an ephemeral reply, in their language), so reading
does not fill the channel; a public answer speaks the server's language (``answer_language``);
``/help`` lists the bot's commands as the reader sees them in Discord (localised names).
The texts are data (``bot.core.rules``); the pictures are engine positions drawn by ``render``
(``bot.workers.diagrams``), rendered off the event loop and kept once drawn.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.core import rules
from bot.core.i18n import DEFAULT_LANGUAGE, catalog, language_of, t, typeset
from bot.discord.cogs._common import answer_language
from bot.discord.replies import ECHO_MAX, clip
from bot.discord.shutdown import cancel_and_wait
from bot.workers import diagrams

if TYPE_CHECKING:
    from bot.discord.host import CogHost

log = logging.getLogger(__name__)

#: A picture that takes longer than this is skipped (the reply is deferred while it is drawn).
DIAGRAM_TIMEOUT = 10.0
#: Autocomplete answers at most this many choices (Discord's limit).
MAX_CHOICES = 25

#: The invite link's permissions (the README's): View Channels, Send Messages, Attach Files,
#: Create Public Threads, Send Messages in Threads.
INVITE_PERMISSIONS = 309237681152
#: /help lists these first, in the order a newcomer needs them; other commands follow by name.
HELP_ORDER = ("play", "move", "board", "games", "hand", "resign", "undo", "rules", "help")

GAME_COLOURS = {
    "alak": 0x2B2D31,
    "polygo": 0xB03A2E,
    "palago": 0x2E86C1,
    "palam": 0xC9A227,
    "lppg": 0x27AE60,
    "kolory": 0xE67E22,
}


def _en(key: str) -> str:
    return t(key, DEFAULT_LANGUAGE)


def players_text(game: str, language: str) -> str | None:
    """``2 players``, ``2–5 players`` or ``2, 4 players`` (None when the engine is missing)."""
    if game not in engines.GAMES:
        return None
    counts = engines.get(game).allowed_player_counts()
    if len(counts) == 1:
        span = str(counts[0])
    elif list(counts) == list(range(counts[0], counts[-1] + 1)):
        span = f"{counts[0]}–{counts[-1]}"
    else:
        span = t("rules.or", language).join(
            (", ".join(str(n) for n in counts[:-1]), str(counts[-1]))
        )
    return t("rules.players", language, players=span)


def games_embed(language: str) -> discord.Embed:
    """The answer to a bare ``/rules``: every game in one line, and how to start one."""
    embed = discord.Embed(
        title=t("rules.list_title", language),
        description=t("rules.list_intro", language),
        colour=0x5865F2,
    )
    for game in rules.games():
        name = rules.title(game, language)
        players = players_text(game, language)
        if players:
            name = f"{name} · {players}"
        embed.add_field(name=name, value=rules.summary(game, language), inline=False)
    embed.add_field(
        name=t("rules.list_start_title", language),
        value=t("rules.list_start", language),
        inline=False,
    )
    return embed


def section_embed(
    game: str, section_id: str, language: str, *, picture: str | None = None
) -> discord.Embed:
    """One section as an embed; ``picture`` is the attachment name of its diagram, if any."""
    section = rules.section(game, section_id, language)
    description = section.body
    key = diagrams.diagram_key(game, section_id)
    if picture and key:
        description += "\n\n*" + t(f"rules.diagram.{game}.{key}", language) + "*"
    embed = discord.Embed(
        title=f"{rules.title(game, language)} — {section.title}",
        description=description,
        colour=GAME_COLOURS.get(game, 0x5865F2),
    )
    if picture:
        embed.set_image(url=f"attachment://{picture}")
    titles = " · ".join(rules.section_title(s, language) for s in rules.SECTIONS)
    # Assembled here, so spaced here: French puts a no-break space before the colon.
    embed.set_footer(text=typeset(f"{t('rules.sections_title', language)} : {titles}", language)
                     if language == "fr" else f"{t('rules.sections_title', language)}: {titles}")
    return embed


def section_choices(current: str, language: str) -> list[app_commands.Choice[str]]:
    """Sections whose id or title (in the reader's language) contains what was typed."""
    typed = (current or "").strip().lower()
    found = []
    for section_id in rules.SECTIONS:
        title = rules.section_title(section_id, language)
        if not typed or typed in title.lower() or typed in section_id:
            found.append(app_commands.Choice(name=title, value=section_id))
    return found[:MAX_CHOICES]


def command_lines(tree_commands: list[Any], language: str) -> list[str]:
    """One line per command as the reader sees it: localised name, then what it does."""
    texts = catalog(language)

    def shown(path: str, default_name: str, default_description: str) -> tuple[str, str]:
        key = "commands." + path.replace(" ", ".")
        if language == DEFAULT_LANGUAGE:
            return default_name, default_description
        return (
            texts.get(f"{key}.name", default_name),
            texts.get(f"{key}.description", default_description),
        )

    def order(command: Any) -> tuple[int, str]:
        name = command.name
        rank = HELP_ORDER.index(name) if name in HELP_ORDER else len(HELP_ORDER)
        return rank, name

    lines = []
    for command in sorted(tree_commands, key=order):
        if getattr(command, "default_permissions", None) is not None:
            continue  # admin commands are hidden from other members: do not advertise them
        name, description = shown(command.qualified_name, command.name, command.description)
        if isinstance(command, app_commands.Group):
            subs = [
                shown(sub.qualified_name, sub.name, sub.description)[0]
                for sub in command.commands
            ]
            lines.append(f"`/{name} {'|'.join(subs)}` — {description}")
        else:
            lines.append(f"`/{name}` — {description}")
    return lines


class Rules(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot
        self._pictures: dict[tuple[str, str, str], bytes] = {}
        self._warming: asyncio.Task | None = None

    async def cog_load(self) -> None:
        # The pictures are drawn in the heavy pool: stopped before it closes (bot.shutdown).
        self.bot.stop_order.add("pool users", "rules diagrams", self.stop_drawing)

    async def cog_unload(self) -> None:
        await self.stop_drawing()

    async def stop_drawing(self) -> None:
        """Stop drawing the pictures in the background (a reply waiting for its own picture
        still gets its text)."""
        await cancel_and_wait(self._warming)

    def _warm_up_once(self) -> None:
        """At the first ``/rules``, draw every picture in the background, so later replies
        rarely wait for one (not at start: a bot nobody asks for rules starts no worker)."""
        if self._warming is None:
            self._warming = asyncio.create_task(self._warm_up(), name="rules-diagrams")

    async def _warm_up(self) -> None:
        for language in rules.LANGUAGES:
            for game, key in diagrams.RECIPES:
                if diagrams.available(game, key):
                    await self._draw(game, key, language)

    async def _draw(self, game: str, key: str, language: str) -> bytes | None:
        """The diagram's PNG in ``language``, drawn in the bot's worker pool the first time;
        None if it fails."""
        cached = self._pictures.get((game, key, language))
        if cached is not None:
            return cached
        try:
            data = await asyncio.wait_for(
                self.bot.heavy.run(None, diagrams.png, game, key, language),
                timeout=DIAGRAM_TIMEOUT,
            )
        except Exception:
            # A missing picture must not cost the player the text.
            log.warning("no rules diagram %s/%s (%s)", game, key, language, exc_info=True)
            return None
        self._pictures[(game, key, language)] = data
        return data

    @app_commands.command(name="rules", description=_en("commands.rules.description"))
    @app_commands.describe(
        game=_en("commands.rules.options.game.description"),
        section=_en("commands.rules.options.section.description"),
        private=_en("commands.rules.options.private.description"),
    )
    @app_commands.choices(
        game=[app_commands.Choice(name=rules.title(g), value=g) for g in rules.GAMES]
    )
    async def rules_command(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        section: str | None = None,
        private: bool = False,
    ) -> None:
        self._warm_up_once()
        language = language_of(interaction.locale)  # for refusals and what was typed
        # The answer everyone sees speaks the server's language.
        shown = await answer_language(self.bot, interaction, private=private)
        if not game:
            await interaction.response.send_message(embed=games_embed(shown),
                                                    ephemeral=private)
            return
        game = game.strip().lower()
        if game not in rules.GAMES:
            await interaction.response.send_message(
                t("rules.unknown_game", language, game=clip(game, ECHO_MAX),
                  games=", ".join(rules.GAMES)),
                ephemeral=True,
            )
            return
        section_id = rules.find_section(section, language) if section else "overview"
        if section_id is None:
            titles = ", ".join(rules.section_title(s, language) for s in rules.SECTIONS)
            await interaction.response.send_message(
                t("rules.unknown_section", language, section=clip(section, ECHO_MAX),
                  sections=titles),
                ephemeral=True,
            )
            return
        key = diagrams.diagram_key(game, section_id)
        language = shown
        data = self._pictures.get((game, key, language)) if key else None
        send = interaction.response.send_message
        if key and data is None and diagrams.available(game, key):
            # Not drawn yet: acknowledge first so the picture never races Discord's 3 s limit.
            await interaction.response.defer(thinking=True, ephemeral=private)
            send = interaction.followup.send
            data = await self._draw(game, key, language)
        extra: dict[str, Any] = {}
        picture = None
        if data is not None and key is not None:
            picture = diagrams.filename(game, key)
            extra["file"] = discord.File(io.BytesIO(data), filename=picture)
        embed = section_embed(game, section_id, language, picture=picture)
        await send(embed=embed, ephemeral=private, **extra)

    @rules_command.autocomplete("section")
    async def section_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return section_choices(current, language_of(interaction.locale))

    @app_commands.command(name="help", description=_en("commands.help.description"))
    async def help_command(self, interaction: discord.Interaction) -> None:
        language = language_of(interaction.locale)
        lines = command_lines(self.bot.tree.get_commands(), language)
        description = "\n\n".join(
            (
                t("help.intro", language),
                f"**{t('help.commands_title', language)}**\n" + "\n".join(lines),
                t("help.more", language),
                install_links(self.bot.application_id, language),
            )
        )
        embed = discord.Embed(
            title=t("help.title", language), description=description[:4096], colour=0x5865F2
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


def install_links(application_id: int | None, language: str) -> str:
    """Both ways to get the app: on a server (the bot joins, games get threads) or on one's
    own account (games in DMs, group DMs and any server), as the README gives them."""
    if application_id is None:
        return ""
    base = f"https://discord.com/oauth2/authorize?client_id={application_id}"
    return t("anywhere.help_install", language,
             server=f"<{base}&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}>",
             user=f"<{base}&integration_type=1&scope=applications.commands>")


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Rules(bot))
