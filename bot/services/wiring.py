"""``Services``: every game service, built once on one store and held side by side.

Each feature is one service with its own module; none inherits from another, and one calls
another only through its public methods, given to it here (who calls whom is these
constructor arguments). They all share one ``ServiceContext`` (store, clock, seeds, engines,
held states, the ``on_change`` hook).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.core.models import utcnow
from bot.services.admin import AdminService
from bot.services.aiseats import AiSeatService
from bot.services.challenges import ChallengeService
from bot.services.context import ServiceContext
from bot.services.conversations import ConversationService
from bot.services.draws import DrawService
from bot.services.games import GameReads, OutboxService
from bot.services.gamestate import secret_seed
from bot.services.play import PlayService
from bot.services.rematches import RematchService
from bot.services.seeks import SeekService
from bot.services.settings import SettingsService
from bot.store import Store


class Services:
    """The game services on one store: ``services.play.move(...)``,
    ``services.challenges.accept(...)``… (``bot.services`` lists what each owns)."""

    # No other attribute: an assignment meant for a service (``services.on_change = …``
    # instead of ``services.context.on_change = …``) fails instead of doing nothing.
    __slots__ = ("admin", "aiseats", "challenges", "context", "conversations", "draws", "games",
                 "outbox", "play", "rematches", "seeks", "settings")

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], datetime] = utcnow,
        seeds: Callable[[], int] = secret_seed,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        #: What they share; ``context.clock``, ``context.seeds`` and ``context.on_change``
        #: may be replaced later (the bot sets ``on_change``, tests move the clock).
        self.context = ServiceContext(store, clock=clock, seeds=seeds, on_change=on_change)
        context = self.context
        self.settings = SettingsService(context)
        self.games = GameReads(context)
        self.outbox = OutboxService(context)
        self.challenges = ChallengeService(context, self.settings)
        self.seeks = SeekService(context, self.challenges, self.settings)
        self.aiseats = AiSeatService(context, self.challenges, self.settings)
        self.play = PlayService(context)
        self.draws = DrawService(context)
        self.rematches = RematchService(context, self.challenges)
        self.conversations = ConversationService(context)
        self.admin = AdminService(context)

    @property
    def store(self) -> Store:
        """The store they share, for services built beside them (clocks, ratings, tournaments,
        notifications, reviews)."""
        return self.context.store
