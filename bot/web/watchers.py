"""Who may open a game's page: its players, and, for a game played in a server, the members of
that server who can see its channel (spectators). Discord knows who those are; the bot asks it
(``WebHost.sight``: the member, then their permissions in the game's thread, as Discord
resolves them) and remembers the answer a short while per visitor and game, so the reads of an
open page do not ask Discord each time.

A spectator sees what a public board shows and does nothing: every change is the players'.
Games in conversations (DMs, group DMs) stay their players' alone: the bot is no member there.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

from bot.core.errors import ServiceError
from bot.core.i18n import t
from bot.core.models import GameInfo
from bot.web.answers import Refused, refusal, status_of
from bot.web.sessions import Visitor

#: What Discord says of a visitor and a game's channel: they see it; they are not a member of
#: its server; they are a member who cannot see the channel; Discord did not answer (not kept:
#: the next read asks again).
Sight = Literal["sees", "stranger", "hidden", "unsure"]
#: How long an answer is kept: a member who loses sight of the channel stops watching within
#: this time.
SIGHT_SECONDS = 30.0
#: The most answers kept (the oldest go first).
MOST_KEPT = 10_000


class Watchers:
    """The admission of visitors to games' pages (``host``: the ``WebHost``)."""

    def __init__(self, host: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.host = host
        self._clock = clock
        self._seen: dict[tuple[int, int], tuple[float, Sight]] = {}

    async def sight(self, user_id: int, info: GameInfo) -> Sight:
        """Whether the visitor can see the game's channel (asked of Discord at most once per
        ``SIGHT_SECONDS`` for each visitor and game)."""
        key, now = (user_id, info.id), self._clock()
        kept = self._seen.get(key)
        if kept is not None and now - kept[0] < SIGHT_SECONDS:
            return kept[1]
        where = info.thread_id or info.channel_id
        if info.guild_id is None or where is None:
            return "stranger"
        found: Sight = await self.host.sight(user_id, info.guild_id, where)
        if found == "unsure":
            return found
        if len(self._seen) >= MOST_KEPT:
            del self._seen[next(iter(self._seen))]
        self._seen.pop(key, None)
        self._seen[key] = (now, found)
        return found

    async def admit(self, game_id: int, visitor: Visitor, lang: str, *,
                    acting: bool = False) -> GameInfo:
        """The game, if the visitor may open its page (``acting``: change it: players only).
        Raises ``Refused`` with the reason in the visitor's words."""
        try:
            info = await self.host.services.games.get_game(game_id)
        except ServiceError as error:
            raise Refused(status_of(error), refusal(error, lang)) from None
        seated = visitor.user_id in info.seats
        if info.in_conversation:
            raise Refused(403, t("web.conversation" if seated else "web.not_a_player", lang,
                                 id=game_id))
        if seated:
            return info
        sight = await self.sight(visitor.user_id, info)
        if sight == "stranger":
            raise Refused(403, t("web.not_in_server", lang, id=game_id))
        if sight == "hidden":
            raise Refused(403, t("web.channel_hidden", lang, id=game_id))
        if sight == "unsure":
            raise Refused(503, t("web.sight_unsure", lang, id=game_id))
        if acting:
            raise Refused(403, t("web.only_players", lang, id=game_id))
        return info
