"""A server that chose French (``/admin settings language:fr``) hears French in everything the
bot posts for everyone, whoever typed the command and whatever their client's language; only
what one user sees (ephemeral answers) speaks that user's language."""

from __future__ import annotations

from emulator import EPHEMERAL, MANAGE_GUILD


def plain(text: str) -> str:
    return text.replace("\u00a0", " ").replace("\u202f", " ")


async def test_public_answers_follow_the_servers_language_not_the_users(world):
    emu = world.emu
    emu.grant("alice", MANAGE_GUILD)
    saved = await (await emu.slash("alice", "admin settings", {"language": "fr"})).reply()
    assert saved.flags & EPHEMERAL and "French" in saved.content  # her own answer: English

    # Every client below is English (the emulator's default locale).
    created = await (await emu.slash("alice", "tournament create", {
        "game": "alak", "format": "round_robin", "name": "Alak cup"})).reply()
    assert not created.flags & EPHEMERAL
    assert "ouvre le tournoi **Alak cup**" in created.content, created.content
    joined = []
    for name in ("alice", "bob", "carol", "dave"):
        joined.append(await (await emu.slash(name, "tournament join", {})).reply())
    assert all("s'inscrit à **Alak cup**" in j.content for j in joined), joined[-1].content
    kicked = await (await emu.slash("alice", "tournament kick", {"player": "dave"})).reply()
    assert not kicked.flags & EPHEMERAL
    assert "a retiré" in kicked.content and "des inscrits à **Alak cup**" in kicked.content, (
        kicked.content)
    listed = await (await emu.slash("bob", "tournament list", {})).reply()
    assert "Tournois en inscription ou en cours" in listed.content, listed.content
    started = await (await emu.slash("alice", "tournament start", {})).reply()
    assert "commence avec 3 joueurs" in plain(started.content), started.content

    profile = await (await emu.slash("bob", "profile", {})).reply()
    assert not profile.flags & EPHEMERAL
    assert "Classements de" in profile.content, profile.content
    board = await (await emu.slash("bob", "leaderboard", {"game": "alak"})).reply()
    assert not board.flags & EPHEMERAL
    assert "Personne n'a encore fini de partie classée" in board.content, board.content
    rules = await (await emu.slash("bob", "rules", {"game": "alak"})).reply(
        lambda m: bool(m.data.get("embeds")))
    assert "Aperçu" in str(rules.data["embeds"]), rules.data["embeds"]

    # What only Bob sees stays in his English.
    private = await (await emu.slash("bob", "profile", {"private": True})).reply()
    assert private.flags & EPHEMERAL and "Ratings of" in private.content, private.content
    refused = await (await emu.slash("bob", "tournament start", {})).reply()
    assert refused.flags & EPHEMERAL and "tournoi" not in refused.content, refused.content
