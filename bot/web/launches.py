"""Which game an Activity opens: Discord tells the Activity the channel it was launched in,
never the button pressed, so the bot notes the game of each **Open board** press (by user and
channel) and the Activity asks for it; without a note (the App Launcher, a restart since), the
game played in the channel (its thread) if there is one."""

from __future__ import annotations

from collections import OrderedDict

#: How many presses are remembered (the oldest are forgotten first).
REMEMBERED = 10_000


class Launches:
    """The game each user last launched the Activity for, by channel (in this process)."""

    def __init__(self, size: int = REMEMBERED) -> None:
        self._games: OrderedDict[tuple[int, int], int] = OrderedDict()
        self._size = size

    def note(self, user_id: int, channel_id: int, game_id: int) -> None:
        self._games[(user_id, channel_id)] = game_id
        self._games.move_to_end((user_id, channel_id))
        while len(self._games) > self._size:
            self._games.popitem(last=False)

    def game(self, user_id: int, channel_id: int) -> int | None:
        return self._games.get((user_id, channel_id))
