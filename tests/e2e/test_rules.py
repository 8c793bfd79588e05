"""/rules and /help through the real discord.py bot and the local Discord emulator."""

from __future__ import annotations

from bot.core import rules


async def ensure_rules_loaded(world) -> None:
    """The rules cog is discovered with every module of bot.cogs; load it if it was not."""
    if world.bot.get_cog("Rules") is None:
        await world.bot.load_extension("bot.discord.cogs.rules")
        await world.bot.sync_commands("global")


def embed_of(message) -> dict:
    (embed,) = message.data["embeds"]
    return embed


async def test_rules_palago_in_french_gets_french_text_and_a_diagram(world):
    await ensure_rules_loaded(world)
    interaction = await world.emu.slash("alice", "rules", {"game": "palago"}, locale="fr")
    reply = await interaction.reply(lambda m: bool(m.data.get("embeds")))
    embed = embed_of(reply)
    overview = rules.section("palago", "overview", "fr")
    assert embed["title"] == f"Palago — {overview.title}"
    assert embed["description"].startswith(overview.body)
    assert "créature" in embed["description"]
    assert reply.files and reply.files[0].is_png
    assert embed["image"]["url"] == f"attachment://{reply.files[0].filename}"
    assert not reply.ephemeral


async def test_a_picture_is_attached_for_the_first_and_the_next_request(world):
    await ensure_rules_loaded(world)
    for user in ("alice", "bob"):
        interaction = await world.emu.slash(
            user, "rules", {"game": "kolory", "section": "special"}, locale="fr"
        )
        reply = await interaction.reply(lambda m: bool(m.data.get("embeds")))
        embed = embed_of(reply)
        assert embed["title"] == f"Kolory — {rules.section_title('special', 'fr')}"
        assert reply.files and reply.files[0].is_png
        assert reply.files[0].filename == "rules-kolory-overlap.png"


async def test_rules_in_english_and_sections_by_autocomplete(world):
    await ensure_rules_loaded(world)
    emu = world.emu
    choices = await emu.autocomplete(
        "bob", "rules", {"game": "kolory", "section": "sc"}, "section", locale="en-US"
    )
    assert [c["value"] for c in choices] == ["end"]
    french = await emu.autocomplete(
        "bob", "rules", {"game": "kolory", "section": "tour"}, "section", locale="fr"
    )
    assert [(c["name"], c["value"]) for c in french] == [("Un tour", "turn")]
    interaction = await emu.slash("bob", "rules", {"game": "alak", "section": "notation"})
    reply = await interaction.reply(lambda m: bool(m.data.get("embeds")))
    embed = embed_of(reply)
    assert embed["title"] == "Alak — Notation"
    assert "`f`" in embed["description"]
    assert not reply.files, "Alak's notation needs no picture"


async def test_bare_rules_lists_the_games_and_help_lists_the_commands(world):
    await ensure_rules_loaded(world)
    emu = world.emu
    listing = await (await emu.slash("carol", "rules", locale="fr")).reply()
    text = listing.text()
    for game in rules.GAMES:
        assert rules.summary(game, "fr") in text
    assert "/jouer" in text
    helped = await (await emu.slash("carol", "help")).reply()
    assert helped.ephemeral
    for command in ("`/rules`", "`/help`", "`/play ", "`/move`"):
        assert command in helped.text()


async def test_commands_reach_discord_with_french_localisations(world):
    await ensure_rules_loaded(world)
    synced = [c for commands in world.emu.commands.values() for c in commands]
    by_name = {c["name"]: c for c in synced}
    assert by_name["rules"]["name_localizations"]["fr"] == "règles"
    assert by_name["help"]["name_localizations"]["fr"] == "aide"
    game_option = by_name["rules"]["options"][0]
    assert game_option["name_localizations"]["fr"] == "jeu"
