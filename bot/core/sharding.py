"""Which Discord servers a bot process answers for (docs/architecture.md).

Discord splits a bot's servers into shards: the events of server ``guild_id`` go to shard
``(guild_id >> 22) % shard_count`` (direct messages to shard 0), and a process connects to the
shards it runs. Everything else about a server follows the same rule, so that exactly one
process does it: delivering its outbox rows, its reminders and forfeits, pruning its old rows.
``Shards`` is that set; it is a plain value, used by the store (to select rows) and the bot.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Discord's snowflakes keep their creation time above bit 22; shards split on it.
SHARD_SHIFT = 22


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard of a server; a direct message (no server) is shard 0's, as on Discord."""
    return 0 if guild_id is None else (guild_id >> SHARD_SHIFT) % count


@dataclass(frozen=True)
class Shards:
    """Shards ``ids`` of ``count``: the servers this process answers for."""

    count: int = 1
    ids: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids:
            raise ValueError("a process runs at least one of at least one shard")
        if any(not 0 <= shard < self.count for shard in self.ids):
            raise ValueError(f"shard ids must be from 0 to {self.count - 1}")

    @classmethod
    def configured(cls, count: int, ids: tuple[int, ...]) -> Shards:
        """From the settings: ``count`` 0 is an unsharded bot (one shard), no ``ids`` all."""
        if count == 0:
            return cls()
        return cls(count, tuple(sorted(ids)) if ids else tuple(range(count)))

    @property
    def every_server(self) -> bool:
        """Does this process answer for every server (no need to select rows)?"""
        return len(set(self.ids)) == self.count

    def owns(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        return f"shard{'s' if len(self.ids) > 1 else ''} {','.join(map(str, self.ids))} " \
               f"of {self.count}"


#: One process answering for every server.
EVERY_SERVER = Shards()
