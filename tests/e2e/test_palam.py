"""Palam's camp choice as the players read it: the seat the toss picked takes a camp, and the
post names that player, the camp they took and the camp that moves first, in English and in
French (whose buttons read "camp Isis", "camp Anubis": the moves stay `camp isis`...)."""

from __future__ import annotations

import pytest

#: The camp choice's post in each language: chooser, chosen camp, camp that moves first.
SAYS = {
    "en-US": ("Accept", "{chooser} chooses to play {role}: {first} makes the first move."),
    "fr": ("Accepter", "{chooser} choisit de jouer {role} : {first} joue le premier coup."),
}
NAMES = {"isis": "Isis", "anubis": "Anubis"}


@pytest.mark.parametrize("camp", ["isis", "anubis"])
@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_the_camp_choice_says_who_took_which_camp(world, locale, camp):
    emu = world.emu
    accept, sentence = SAYS[locale]
    offer = await (await emu.slash("alice", "play palam", {"opponent": "bob"},
                                   locale=locale)).reply()
    mark = emu.mark()
    await emu.click("bob", offer, label=accept)
    first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    game = await world.services.games.game_for_thread(first.channel_id)
    chooser, _ = await world.turn(game.id)
    # The buttons speak the game's language; the move they play is the engine's.
    label = f"camp {camp}" if locale == "en-US" else f"camp {NAMES[camp]}"
    labels = {b["label"]: b["custom_id"] for b in first.buttons()}
    assert labels[label].endswith(f":camp {camp}"), labels
    post = await (await emu.click(chooser, first, label=label)).reply()
    other = "anubis" if camp == "isis" else "isis"
    said = post.content.splitlines()[0].replace("\u00a0", " ").replace("\u202f", " ")
    assert said == sentence.format(chooser=chooser.mention, role=NAMES[camp],
                                   first=NAMES[other])
