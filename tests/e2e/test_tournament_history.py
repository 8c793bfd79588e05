"""Tournaments a community can look back on (issue 31 §5), through the emulator: a bye in
single elimination counts as a win in the standings, the final standings are posted with a
picture of the table, ``/tournament list status:`` shows finished tournaments (with their
winner), and ``standings``/``pairings`` suggest finished ones, in English and French."""

from __future__ import annotations

from emulator import EPHEMERAL
from tests.e2e.test_tournament import thread_of, tournaments


async def resign_losers(world, tournament_id: int, loser_of) -> None:
    """In each game of the current round (byes have none), the chosen loser resigns."""
    emu = world.emu
    for board in await tournaments(world).reading.pairings(tournament_id):
        if board.game_id is None or board.decided:
            continue
        thread = await thread_of(world, board.game_id)
        await emu.wait_for_message(lambda m: bool(m.files), channel_id=thread)
        user = next(u for u in emu.users.values()
                    if u.id == loser_of(board.first_id, board.second_id))
        question = await (await emu.slash(user, "resign", {}, channel=thread)).reply()
        confirmed = await (await emu.click(user, question, custom_id=next(
            b["custom_id"] for b in question.buttons()
            if b["custom_id"].startswith("bg:resign:")))).reply()
        assert confirmed.flags & EPHEMERAL


async def play_cup(world, locale: str = "en-US"):
    """An elimination of three (Alice has the bye), Alice beats Carol in the final:
    (tournament, the final post)."""
    emu = world.emu
    ids = {name: emu.user(name).id for name in ("alice", "bob", "carol")}
    await (await emu.slash("alice", "tournament create", {
        "game": "alak", "format": "elimination", "name": "Cup"}, locale=locale)).reply()
    (tournament,) = await tournaments(world).reading.tournaments(emu.guild_id)
    for name in ids:
        await (await emu.slash(name, "tournament join", {}, locale=locale)).reply()
    await (await emu.slash("alice", "tournament start", {}, locale=locale)).reply()
    mark = emu.mark()
    await resign_losers(world, tournament.id, lambda a, b: ids["bob"])  # Carol beats Bob
    await emu.wait_for_message(lambda m: bool(m.files) and ("round 2 of 2" in m.content
                                                            or "ronde 2 sur 2" in m.content),
                               channel_id=emu.channel_id, since=mark)
    # Round 1 is over: Alice's bye is a win beside Carol's.
    table = await tournaments(world).reading.standings(tournament.id)
    points = {row.user_id: row.points for row in table.rows}
    assert (points[ids["alice"]], points[ids["carol"]], points[ids["bob"]]) == (1.0, 1.0, 0.0), ids
    mark = emu.mark()
    await resign_losers(world, tournament.id, lambda a, b: ids["carol"])
    final = await emu.wait_for_message(
        lambda m: bool(m.files) and ("final standings" in m.content
                                     or "classement final" in m.content),
        channel_id=emu.channel_id, since=mark)
    return tournament, final, ids


async def test_final_standings_have_a_picture_and_a_bye_counts_as_a_win(world):
    emu = world.emu
    tournament, final, ids = await play_cup(world)
    assert "final standings" in final.content
    names = [f.filename for f in final.files]
    assert names == [f"standings-{tournament.id}.png", f"bracket-{tournament.id}.png"]
    assert all(f.is_png for f in final.files)
    lines = final.content.splitlines()
    assert lines[1].startswith(f"1. <@{ids['alice']}> — 2 pts")  # the bye and the final
    table = await (await emu.slash("bob", "tournament standings",
                                   {"tournament": tournament.id})).reply()
    assert f"<@{ids['alice']}> — 2 pts" in table.content


async def test_finished_tournaments_are_listed_and_suggested(world):
    emu = world.emu
    tournament, _, ids = await play_cup(world)
    running = await (await emu.slash("bob", "tournament list", {})).reply()
    assert "Cup" not in running.content
    finished = await (await emu.slash("bob", "tournament list",
                                      {"status": "finished"})).reply()
    assert "Finished tournaments" in finished.content and "Cup" in finished.content
    assert f"won by <@{ids['alice']}>" in finished.content
    assert finished.notified == frozenset(), "a list pings nobody"
    everything = await (await emu.slash("bob", "tournament list", {"status": "all"})).reply()
    assert "Every tournament" in everything.content and "won by" in everything.content
    # What everyone sees speaks the server's language.
    await world.services.settings.set_guild_settings(emu.guild_id, locale="fr")
    everything = await (await emu.slash("bob", "tournament list", {"status": "all"})).reply()
    assert "Tous les tournois" in everything.content and "remporté par" in everything.content
    for command in ("tournament standings", "tournament pairings"):
        choices = await emu.autocomplete("bob", command, {"tournament": ""}, "tournament")
        assert [c["value"] for c in choices] == [tournament.id]
    pairings = await (await emu.slash("bob", "tournament pairings",
                                      {"tournament": tournament.id, "round": 1})).reply()
    assert f"<@{ids['bob']}>" in pairings.content


async def test_the_final_post_in_french(world):
    emu = world.emu
    await world.services.settings.set_guild_settings(emu.guild_id, locale="fr")
    tournament, final, _ = await play_cup(world, locale="fr")
    assert "classement final" in final.content.lower()
    assert final.files[0].filename == f"standings-{tournament.id}.png"
    none = await (await emu.slash("bob", "tournament list", {"status": "finished"},
                                  locale="fr")).reply()
    assert "Tournois terminés" in none.content


async def test_an_ai_player_entered_by_the_organiser_plays_at_once(world):
    """Alice organises a round robin, signs up, enters an AI (easy) and starts: the AI's
    moves come at once, Alice plays hers, the final standings name the AI (never pinged)
    and nobody's rating moved."""
    from tests.e2e.test_ai import assert_no_ai_reached, until_human_turn

    emu = world.emu
    alice = emu.user("alice")
    await (await emu.slash("alice", "tournament create", {
        "game": "alak", "format": "round_robin", "name": "Robots"})).reply()
    await (await emu.slash("alice", "tournament join", {})).reply()
    refused = await (await emu.slash("bob", "tournament add-ai", {"level": "easy"})).reply()
    assert refused.flags & EPHEMERAL and "organiser" in refused.content
    added = await (await emu.slash("alice", "tournament add-ai", {"level": "easy"})).reply()
    assert "entered AI (easy)" in added.content and not added.flags & EPHEMERAL
    assert added.notified == frozenset()
    (tournament,) = await tournaments(world).reading.tournaments(emu.guild_id)
    mark = emu.mark()
    await (await emu.slash("alice", "tournament start", {})).reply()
    pairing = await emu.wait_for_message(lambda m: "round 1" in m.content,
                                         channel_id=emu.channel_id, since=mark)
    assert "AI (easy)" in pairing.content and pairing.notified == {alice.id}
    (board,) = await tournaments(world).reading.pairings(tournament.id)
    game = await until_human_turn(world.services, board.game_id)
    thread = await thread_of(world, game.id)
    while game.status == "active":
        moves = await world.services.games.legal_moves(game.id, alice.id)
        await (await emu.slash("alice", "move", {"text": moves[0]}, channel=thread)).reply()
        game = await until_human_turn(world.services, game.id)
    final = await emu.wait_for_message(lambda m: "final standings" in m.content,
                                       channel_id=emu.channel_id, since=mark)
    assert "AI (easy)" in final.content and final.files
    # Looking back: the finished round robin's standings come with the table's picture, in
    # the server's language.
    await world.services.settings.set_guild_settings(emu.guild_id, locale="fr")
    table = await (await emu.slash("bob", "tournament standings",
                                   {"tournament": tournament.id})).reply()
    assert table.files[0].filename == f"standings-{tournament.id}.png"
    assert "IA (facile)" in table.content
    ratings = world.bot.get_cog("Tournaments").ratings
    assert (await ratings.glicko_of("alak", [alice.id]))[alice.id].games == 0
    assert_no_ai_reached(emu)


async def test_standings_and_pairings_without_a_number_show_the_last_finished(world):
    """With no tournament open here, ``standings`` and ``pairings`` without a number show the
    tournament that finished last (the one their suggestions list first); once one opens,
    that one."""
    emu = world.emu
    tournament, _, ids = await play_cup(world)
    table = await (await emu.slash("bob", "tournament standings", {})).reply()
    assert not table.flags & EPHEMERAL, table.content
    assert f"**Cup** (#{tournament.id})" in table.content
    assert f"<@{ids['alice']}> — 2 pts" in table.content and table.files
    pairings = await (await emu.slash("bob", "tournament pairings", {})).reply()
    assert not pairings.flags & EPHEMERAL and f"<@{ids['carol']}>" in pairings.content
    await (await emu.slash("alice", "tournament create", {
        "game": "alak", "format": "round_robin", "name": "Spring"})).reply()
    table = await (await emu.slash("bob", "tournament standings", {})).reply()
    assert "**Spring**" in table.content and "Cup" not in table.content


async def test_two_ai_entrants_of_one_level_have_distinct_names(world):
    """Two AI players of one level entered in a tournament are "AI 1 (easy)" and "AI 2
    (easy)" everywhere the tournament names them (as their game's thread does), and the list
    of players is separated by commas."""
    emu = world.emu
    alice = emu.user("alice").mention
    await (await emu.slash("alice", "tournament create", {
        "game": "alak", "format": "round_robin", "name": "Robots"})).reply()
    await (await emu.slash("alice", "tournament join", {})).reply()
    await (await emu.slash("alice", "tournament add-ai", {"level": "easy"})).reply()
    second = await (await emu.slash("alice", "tournament add-ai", {"level": "easy"})).reply()
    assert "entered AI 2 (easy)" in second.content
    mark = emu.mark()
    await (await emu.slash("alice", "tournament start", {})).reply()
    await emu.wait_for_message(lambda m: "round 1" in m.content, channel_id=emu.channel_id,
                               since=mark)
    pairings = await (await emu.slash("bob", "tournament pairings", {})).reply()
    # Round 1 of three: one game, one bye; each AI named is named with its number.
    assert pairings.content.count("AI 1 (easy)") + pairings.content.count("AI 2 (easy)") >= 1
    assert "AI (easy)" not in pairings.content, pairings.content
    table = await (await emu.slash("bob", "tournament standings", {})).reply()
    assert f"Players (3): {alice}, AI 1 (easy), AI 2 (easy)" in table.content, table.content
    assert "AI (easy)" not in table.content
    # The summary and a standings line each.
    assert table.content.count("AI 1 (easy)") == 2 and table.content.count("AI 2 (easy)") == 2
