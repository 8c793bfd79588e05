"""French writes a game's number "n°12", as every French text of the bot does: the answer to
a French ``/play`` against the AI names the new game so until its thread can be linked, and
the French Move… form's title has no space in "n°12"."""

from __future__ import annotations

from bot.core.i18n import t


async def test_a_french_game_against_the_ai_is_announced_with_its_french_number(world):
    emu = world.emu
    mark = emu.mark()
    answer = await (await emu.slash("alice", "play alak", {"level": "easy"}, locale="fr")
                    ).reply()
    game = (await world.services.games.games_of(emu.user("alice").id))[0]
    first = next(e.data for e in emu.events[mark:]
                 if e.kind == "message" and e.data.id == answer.id)
    said = first.content.replace("\u00a0", " ")
    assert f"n°{game.id}" in said and "#" not in said, said
    assert t("anywhere.form.title", "fr", id=12) == "Votre coup, partie n°12"
