"""How the bot stops: one order for everything it runs in the background, so that nothing uses
what is already closed (a rules diagram sent to a closed worker pool, a board posted on a
closed gateway).

The order, each stage over before the next begins (``STAGES``; the bot's ``close`` runs it):

1. ``refuse``: new interactions are turned away with a short translated notice (the command
   tree's ``interaction_check`` here, ``Host.closing`` in the buttons); the bot's ``closing``
   is set before anything stops.
2. ``producers``: the tasks that make new work stop: the correspondence scheduler (reminders,
   forfeits, digests, pruning) and the AI player (its turns in hand).
3. ``in flight``: the interactions being answered and the background work they started (tasks
   named ``background-…``: buttons taken off, woken deliveries, tournament posts) finish,
   for ``STOP_GRACE_SECONDS`` at most.
4. ``pool users``: the tasks that draw in the pools below are cancelled: the rules diagrams
   (``bot.discord.cogs.rules``), the post-game reviews (``bot.workers.review``), the boards' warm-up
and the
   outbox delivery's loop.
5. ``pools``: the AI's workers (which the hints in flight and the reviews used too), the heavy
   pool and the board workers close.
6. ``gateway``: the bot stops reading the gateway and closes it normally (1000) at once, so
   Discord sends nothing more; the interactions read before that get their answer (mostly the
   notice of step 1), for ``ANSWER_GRACE_SECONDS`` at most, before discord.py closes its HTTP
   session (an answer cut off there would be lost, and fail in a task nobody awaits). Then
   ``bot.runtime.app`` lets go of the shards and closes the database.

A part with a background task adds its stop to a stage (``StopOrder.add``) when it starts; a
stop that fails is logged and the others still run.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable

import aiohttp
import discord
from discord import app_commands

from bot.core.i18n import t
from bot.discord.replies import send_ephemeral

log = logging.getLogger(__name__)

#: The stages a stop goes through, in order (see the module).
STAGES = ("refuse", "producers", "in flight", "pool users", "pools", "gateway")
#: Names discord.py gives the tasks that run slash commands and button callbacks.
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-")
#: The tasks waited for in the ``in flight`` stage: interactions, event listeners (named after
#: discord.py's dispatcher) and the work they left in the background.
IN_FLIGHT_TASKS = (*HANDLER_TASKS, "discord.py: ", "background-")
#: How long a stop waits for the work in flight (the process must be gone within 5 s).
STOP_GRACE_SECONDS = 3.0
#: How long the answers to the last interactions read from the gateway may take.
ANSWER_GRACE_SECONDS = 1.0

Stop = Callable[[], Awaitable[None] | None]


class StopOrder:
    """The stops of the bot's parts, run stage by stage (see the module)."""

    def __init__(self) -> None:
        self._stops: dict[str, list[tuple[str, Stop]]] = {stage: [] for stage in STAGES}
        self.stopped = False

    def add(self, stage: str, name: str, stop: Stop) -> None:
        """Run ``stop()`` (a function or a coroutine function) in ``stage``, after the stops
        added to it before."""
        if stage not in self._stops:
            raise ValueError(f"no stop stage {stage!r}; the stages are {STAGES}")
        self._stops[stage].append((name, stop))

    def names(self) -> list[tuple[str, str]]:
        """(stage, name) of every stop, in the order they run."""
        return [(stage, name) for stage in STAGES for name, _ in self._stops[stage]]

    async def run(self) -> None:
        """Run every stop once, in order."""
        if self.stopped:
            return
        self.stopped = True
        for stage in STAGES:
            for name, stop in self._stops[stage]:
                log.info("stopping: %s (%s)", name, stage)
                try:
                    result = stop()
                    if inspect.isawaitable(result):
                        await result
                except Exception:
                    log.exception("stopping %s failed", name)


async def finish_answers(timeout: float = ANSWER_GRACE_SECONDS) -> None:
    """Let the interactions read before the gateway closed get their answers."""
    await finish_in_flight(timeout, HANDLER_TASKS)


async def cancel_and_wait(task: asyncio.Task | None) -> None:
    """Cancel a background task and wait until it has ended."""
    if task is None or task.done():
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def finish_in_flight(
    timeout: float = STOP_GRACE_SECONDS, names: tuple[str, ...] = IN_FLIGHT_TASKS
) -> None:
    """Let work in flight finish before the pools, the connections and the database close (a
    stop must not cut a move's answer in half): the tasks whose names start with one of
    ``names``. Work started meanwhile (a board's buttons taken off after its answer, a late
    interaction turned away) is waited for too, until ``timeout``."""
    current = asyncio.current_task()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        running = [
            task for task in asyncio.all_tasks()
            if task is not current and not task.done()
            and task.get_name().startswith(names)
        ]
        left = deadline - loop.time()
        if not running or left <= 0:
            return
        await asyncio.wait(running, timeout=left)


class GameTree(app_commands.CommandTree):
    """The command tree; while the bot shuts down it starts no new command (a short notice
    instead; autocomplete gets no suggestions)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        # Which command, by whom, where: never its options (a move typed, a hand's card).
        log.debug("%s /%s by user %s in channel %s", interaction.type.name,
                  interaction.command and interaction.command.qualified_name,
                  interaction.user.id, interaction.channel_id)
        if not getattr(self.client, "closing", False):
            return True
        # Nothing may escape: discord.py runs this in a task nobody awaits.
        with contextlib.suppress(discord.HTTPException, aiohttp.ClientError, OSError):
            if interaction.type == discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await send_ephemeral(interaction, t("bot.errors.closing", interaction.locale))
        return False
