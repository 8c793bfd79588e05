"""A command whose transaction keeps losing to the database's deadlock breaking
(``TransactionConflict``, nothing written) is run again a few times, then answers the user
privately that the database was busy and to try again, like every other command: never the
generic "something went wrong". The test makes every transaction of the bot lose at its very
end (after its writes, before the commit) for the one command, then checks nothing was kept."""

from __future__ import annotations

from contextlib import asynccontextmanager

import pytest

from bot.store import TransactionConflict
from emulator import EPHEMERAL

BUSY = "The database was busy and nothing was changed: please try again."


class Conflicts:
    """While ``on``, each transaction of the bot's store raises ``TransactionConflict`` at its
    end instead of committing (``lost`` counts them)."""

    def __init__(self, store) -> None:
        self.on = False
        self.lost = 0
        real = store.transaction

        @asynccontextmanager
        async def transaction(**scope):
            async with real(**scope) as tx:
                yield tx
                if self.on:
                    self.lost += 1
                    raise TransactionConflict("deadlock detected (injected by the test)")

        store.transaction = transaction

    async def answer(self, emu, user: str, command: str, options: dict, **where) -> str:
        """``user`` types the command while every transaction loses: its private answer."""
        self.on, self.lost = True, 0
        try:
            reply = await (await emu.slash(user, command, options, **where)).reply()
        finally:
            self.on = False
        assert reply.flags & EPHEMERAL, reply.content
        assert self.lost >= 1, f"/{command} wrote nothing: the test forced no conflict"
        return reply.content


@pytest.fixture
def conflicts(world):
    return Conflicts(world.services.store)


async def test_an_ai_game_start_that_keeps_conflicting_says_try_again(world, conflicts):
    alice = world.emu.user("alice").id
    assert await conflicts.answer(world.emu, "alice", "play alak", {"level": "easy"}) == BUSY
    assert await world.services.games.games_of(alice) == []
    assert world.emu.threads() == []


@pytest.mark.parametrize("options", [{"digest": True}, {"time_zone": "Europe/Paris"},
                                     {"dm_reminders": True}], ids=["digest", "time_zone",
                                                                  "dm_reminders"])
async def test_a_settings_change_that_keeps_conflicting_says_try_again(world, conflicts,
                                                                       options):
    alice = world.emu.user("alice").id
    before = await world.bot.notify.settings(alice)
    assert await conflicts.answer(world.emu, "alice", "settings", options) == BUSY
    assert await world.bot.notify.settings(alice) == before


async def test_a_mute_that_keeps_conflicting_says_try_again(world, conflicts):
    thread = await world.play_ai("alice", "alak")
    game = await world.services.games.game_for_thread(thread)
    alice = world.emu.user("alice").id
    assert await conflicts.answer(world.emu, "alice", "mute", {}, channel=thread) == BUSY
    assert not await world.bot.notify.muted(alice, game.id)


async def test_a_vacation_that_keeps_conflicting_says_try_again(world, conflicts):
    alice = world.emu.user("alice").id
    assert await conflicts.answer(world.emu, "alice", "vacation", {"days": 3}) == BUSY
    status = await world.bot.clocks.vacation_status(alice)
    assert status.until is None and status.used_days == 0


async def test_a_server_settings_change_that_keeps_conflicting_says_try_again(world,
                                                                              conflicts):
    guild = world.emu.guild_id
    assert await conflicts.answer(world.emu, "alice", "admin settings",
                                  {"language": "fr"}) == BUSY
    assert await world.services.settings.guild_settings(guild) == (None, {})
