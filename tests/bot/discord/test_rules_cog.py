"""/rules and /help through the cog with a fake interaction (no Discord connection)."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.core import i18n, rules
from bot.core.i18n import t
from bot.discord.cogs import rules as cog_module
from bot.discord.cogs.rules import Rules
from bot.discord.shutdown import StopOrder
from bot.discord.translator import CatalogTranslator
from bot.workers import diagrams
from bot.workers.heavy import HeavyWork

FAKE_PNG = b"\x89PNG\r\n\x1a\nfake"


class FakeResponse:
    def __init__(self) -> None:
        self.sent: list[tuple[str | None, dict]] = []
        self.deferred = False

    async def send_message(self, content: str | None = None, **kwargs) -> None:
        assert not self.is_done(), "an interaction is answered only once"
        self.sent.append((content, kwargs))

    async def defer(self, **kwargs) -> None:
        assert not self.is_done()
        self.deferred = True
        self.defer_kwargs = kwargs

    def is_done(self) -> bool:
        return bool(self.sent) or self.deferred


class FakeFollowup:
    def __init__(self, response: FakeResponse) -> None:
        self.response = response

    async def send(self, content: str | None = None, **kwargs) -> None:
        assert self.response.deferred, "a follow-up comes after the interaction is acknowledged"
        self.response.sent.append((content, kwargs))


class FakeInteraction:
    def __init__(self, locale: str) -> None:
        self.locale = discord.Locale(locale)
        self.guild_id = None  # as in a direct message: no server language to follow
        self.response = FakeResponse()
        self.followup = FakeFollowup(self.response)

    @property
    def reply(self) -> tuple[str | None, dict]:
        (only,) = self.response.sent
        return only


@pytest.fixture
async def cog():
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    play = app_commands.Group(name="play", description="Start a game")

    @play.command(name="alak", description="Play Alak")
    async def alak(interaction: discord.Interaction) -> None:
        """Never called."""

    bot.tree.add_command(play)

    @app_commands.command(name="sync", description="Publish the commands (owner only)")
    @app_commands.default_permissions(administrator=True)
    async def sync(interaction: discord.Interaction) -> None:
        """Never called."""

    bot.tree.add_command(sync)
    bot.heavy = HeavyWork.create(kind="thread")
    bot.stop_order = StopOrder()
    await cog_module.setup(bot)
    rules_cog = bot.get_cog("Rules")
    # Let the warm-up (started by the first /rules) finish, then start every test with no
    # picture drawn.
    rules_cog._warm_up_once()
    await rules_cog._warming
    rules_cog._pictures.clear()
    yield rules_cog
    await bot.close()
    bot.heavy.close()


async def run_rules(cog: Rules, locale: str, game=None, section=None,
                    private=False) -> FakeInteraction:
    interaction = FakeInteraction(locale)
    await cog.rules_command.callback(cog, interaction, game=game, section=section,
                                     private=private)
    return interaction


def test_setup_registers_rules_and_help():
    assert Rules.rules_command.name == "rules"
    assert Rules.help_command.name == "help"


async def test_the_first_rules_warms_up_every_available_picture(monkeypatch):
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    bot.heavy = HeavyWork.create(kind="thread")
    bot.stop_order = StopOrder()
    drawn = []

    def fake_png(game: str, key: str, lang: str) -> bytes:
        drawn.append((game, key, lang))
        return FAKE_PNG

    monkeypatch.setattr(diagrams, "available", lambda game, key: game != "alak")
    monkeypatch.setattr(diagrams, "png", fake_png)
    await cog_module.setup(bot)
    rules_cog = bot.get_cog("Rules")
    assert rules_cog._warming is None and not drawn  # a bot nobody asks draws nothing
    # Its drawing stops before the pool it draws in closes (bot.shutdown).
    assert bot.stop_order.names() == [("pool users", "rules diagrams")]
    await run_rules(rules_cog, "en-US")
    await rules_cog._warming
    # Every picture in every language: a reader gets the words of the image in their own.
    assert set(rules_cog._pictures) == {
        (game, key, lang) for game, key in diagrams.RECIPES for lang in i18n.LANGUAGES
    }
    await bot.close()
    bot.heavy.close()


@pytest.mark.parametrize("game", [None, "alak", "palago"])
async def test_rules_may_be_answered_privately(cog, game):
    """``private``: only the reader sees the answer, with or without a picture to draw;
    without it the answer is public as before."""
    cog._pictures.clear()  # a picture to draw: the answer is deferred first
    private = await run_rules(cog, "en-US", game, private=True)
    assert private.reply[1]["ephemeral"] is True
    if private.response.deferred:
        assert private.response.defer_kwargs["ephemeral"] is True
    assert (await run_rules(cog, "en-US", game)).reply[1]["ephemeral"] is False


async def test_commands_are_in_the_tree(cog):
    names = {c.name for c in cog.bot.tree.get_commands()}
    assert {"rules", "help", "play"} <= names


async def test_bare_rules_lists_every_game_and_how_to_start(cog):
    english = (await run_rules(cog, "en-US")).reply[1]["embed"]
    assert len(english.fields) == len(rules.GAMES) + 1
    for field, game in zip(english.fields, rules.GAMES, strict=False):
        assert field.name.startswith(rules.title(game, "en"))
        assert field.value == rules.summary(game, "en")
    assert "/play" in english.fields[-1].value
    french = (await run_rules(cog, "fr")).reply[1]["embed"]
    assert french.title == t("rules.list_title", "fr") != english.title
    assert "/jouer" in french.fields[-1].value
    assert french.fields[0].value == rules.summary("alak", "fr")


async def test_player_counts_come_from_the_engines(cog):
    embed = (await run_rules(cog, "en-GB")).reply[1]["embed"]
    alak = next(f for f in embed.fields if f.name.startswith("Alak"))
    assert "2 players" in alak.name


def test_player_counts_read_naturally():
    assert cog_module.players_text("alak", "en") == "2 players"
    assert cog_module.players_text("kolory", "fr") == "2–5 joueurs"
    assert cog_module.players_text("lppg", "en") == "2 or 4 players"
    assert cog_module.players_text("lppg", "fr") == "2 ou 4 joueurs"


async def test_a_game_without_section_shows_its_overview_in_french(cog, monkeypatch):
    monkeypatch.setattr(diagrams, "available", lambda game, key: False)
    _content, kwargs = (await run_rules(cog, "fr", game="alak")).reply
    embed = kwargs["embed"]
    overview = rules.section("alak", "overview", "fr")
    assert embed.title == f"Alak — {overview.title}"
    assert embed.description == overview.body
    assert rules.section_title("variants", "fr") in embed.footer.text
    assert "file" not in kwargs


async def test_section_typed_as_a_french_title(cog, monkeypatch):
    monkeypatch.setattr(diagrams, "available", lambda game, key: False)
    kwargs = (await run_rules(cog, "fr", game="palam", section="Cas particuliers")).reply[1]
    assert kwargs["embed"].description.startswith(rules.section("palam", "special", "fr").body)


async def test_unknown_section_is_an_ephemeral_hint(cog):
    content, kwargs = (await run_rules(cog, "fr", game="kolory", section="histoire")).reply
    assert kwargs == {"ephemeral": True}
    assert "histoire" in content and rules.section_title("turn", "fr") in content


async def test_unknown_game_is_an_ephemeral_hint(cog):
    content, kwargs = (await run_rules(cog, "en-US", game="chess")).reply
    assert kwargs == {"ephemeral": True}
    assert "chess" in content


async def test_diagram_is_attached_with_its_caption(cog, monkeypatch):
    calls = []

    def fake_png(game: str, key: str, lang: str) -> bytes:
        calls.append((game, key, lang))
        return FAKE_PNG

    monkeypatch.setattr(diagrams, "available", lambda game, key: True)
    monkeypatch.setattr(diagrams, "png", fake_png)
    first = await run_rules(cog, "fr", game="palago", section="end")
    # Not drawn yet: the reply is deferred, then sent as a follow-up with the picture.
    assert first.response.deferred
    kwargs = first.reply[1]
    file, embed = kwargs["file"], kwargs["embed"]
    assert file.filename == "rules-palago-creature.png"
    assert file.fp.read() == FAKE_PNG
    assert embed.image.url == "attachment://rules-palago-creature.png"
    assert t("rules.diagram.palago.creature", "fr") in embed.description
    # The second request reuses the drawn picture and answers at once.
    second = await run_rules(cog, "fr", game="palago", section="overview")
    assert not second.response.deferred
    assert second.reply[1]["file"].filename == "rules-palago-creature.png"
    assert calls == [("palago", "creature", "fr")]


async def test_sections_without_a_picture_are_text_only(cog, monkeypatch):
    monkeypatch.setattr(diagrams, "available", lambda game, key: True)
    monkeypatch.setattr(diagrams, "png", lambda game, key, lang: FAKE_PNG)
    kwargs = (await run_rules(cog, "en-US", game="palago", section="notation")).reply[1]
    assert "file" not in kwargs
    assert kwargs["embed"].image.url is None


async def test_a_failing_picture_still_sends_the_text(cog, monkeypatch):
    def broken(game: str, key: str, lang: str) -> bytes:
        raise RuntimeError("renderer exploded")

    monkeypatch.setattr(diagrams, "available", lambda game, key: True)
    monkeypatch.setattr(diagrams, "png", broken)
    kwargs = (await run_rules(cog, "en-US", game="kolory", section="turn")).reply[1]
    assert "file" not in kwargs
    assert kwargs["embed"].description == rules.section("kolory", "turn", "en").body


async def test_section_autocomplete_is_localised_and_filtered(cog):
    everything = await cog.section_autocomplete(FakeInteraction("fr"), "")
    assert [c.value for c in everything] == list(rules.SECTIONS)
    assert everything[0].name == rules.section_title("overview", "fr")
    found = await cog.section_autocomplete(FakeInteraction("fr"), "fin")
    assert [(c.name, c.value) for c in found] == [("Fin et décompte", "end")]
    english = await cog.section_autocomplete(FakeInteraction("en-US"), "not")
    assert [c.value for c in english] == ["notation"]


async def test_help_lists_the_commands_with_their_french_names(cog):
    interaction = FakeInteraction("fr")
    await cog.help_command.callback(cog, interaction)
    _content, kwargs = interaction.reply
    assert kwargs["ephemeral"] is True
    text = kwargs["embed"].description
    assert "`/règles`" in text and "`/aide`" in text
    assert "`/jouer alak`" in text
    assert t("commands.rules.description", "fr") in text


async def test_help_in_english_uses_the_registered_names(cog):
    interaction = FakeInteraction("en-US")
    await cog.help_command.callback(cog, interaction)
    text = interaction.reply[1]["embed"].description
    assert "`/rules`" in text and "`/help`" in text and "`/play alak`" in text
    # A newcomer reads how to play first; admin-only commands are not advertised.
    assert text.index("`/play") < text.index("`/rules`") < text.index("`/help`")
    assert "/sync" not in text


async def test_the_rules_command_is_localised_for_discord(cog):
    payload = await cog.rules_command.get_translated_payload(cog.bot.tree, CatalogTranslator())
    assert payload["name_localizations"] == {"fr": "règles"}
    game, section, private = payload["options"]
    assert game["name_localizations"] == {"fr": "jeu"}
    assert private["name_localizations"] == {"fr": "privé"} and not private["required"]
    assert section["autocomplete"] is True
    assert [c["value"] for c in game["choices"]] == list(rules.GAMES)
