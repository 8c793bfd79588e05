"""Hostile input over every command, against the strict emulator: every interaction gets an
answer, Discord would refuse none of them (no reply over its limits), and nothing is logged at
ERROR (bad input is the user's mistake, not the bot's)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from emulator.api import (
    AUTOCOMPLETE,
    BOOLEAN,
    INTEGER,
    NUMBER,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
)

#: Text a user could type into any text option (Discord lets an option hold 6,000 characters).
HOSTILE_TEXT = (
    "a" * 6000,
    "é" * 3000,
    "🎉" * 1500,
    "@everyone @here <@1100000000000000001> <@&1> <#1> **bold** `code` ||hidden|| ~~x~~",
    "\u200b" * 40 + "a\u200db\u2060",
    "line\n" * 300,
    "{player} {0} %s %(x)s }{",
    "'; DROP TABLE games; --",
    "-1",
)
HOSTILE_INTEGERS = (-(2**53) + 1, -1, 0, 99999, 2**53 - 1)
#: Commands that end or leave things: run last, so the others meet a game in progress.
LAST = ("resign", "claim", "tournament cancel", "tournament leave", "tournament kick")


def leaves(commands: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Every runnable command path ("tournament create", "move"...) and its option list."""
    found = []

    def walk(path: str, node: dict[str, Any]) -> None:
        subs = [o for o in node.get("options", [])
                if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if not subs:
            found.append((path, node))
        for sub in subs:
            walk(f"{path} {sub['name']}", sub)

    for command in commands:
        if command.get("type", 1) == 1:
            walk(command["name"], command)
    return sorted(found, key=lambda leaf: (leaf[0] in LAST, leaf[0]))


def values_for(option: dict[str, Any], emu) -> list[Any]:
    """Hostile values a user could give this option (Discord itself enforces choices and
    integer ranges, so those stay within them)."""
    if option.get("choices"):
        return [option["choices"][-1]["value"]]
    kind = option["type"]
    if kind == STRING:
        return list(HOSTILE_TEXT)
    if kind in (INTEGER, NUMBER):
        low, high = option.get("min_value"), option.get("max_value")
        low = HOSTILE_INTEGERS[0] if low is None else low
        high = HOSTILE_INTEGERS[-1] if high is None else high
        return sorted({max(low, min(high, v)) for v in HOSTILE_INTEGERS})
    if kind == BOOLEAN:
        return [True]
    if kind == USER:
        return [emu.user("carol")]
    return []


def cases(path: str, leaf: dict[str, Any], emu) -> list[dict[str, Any]]:
    """Each option with each hostile value, the required options and those with choices filled
    in (so ``/rules game:… section:<hostile>`` reaches the section), and one bare call."""
    options = leaf.get("options", [])
    base = {o["name"]: values_for(o, emu)[0] for o in options
            if o.get("required") or o.get("choices")}
    runs = [dict(base)]
    for option in options:
        for value in values_for(option, emu):
            runs.append({**base, option["name"]: value})
    return runs


@pytest.mark.slow(11)
async def test_hostile_input_on_every_command_is_answered_within_discords_limits(world, caplog):
    emu = world.emu
    alak = await world.start_game("alice", "alak", "bob")
    lppg = await world.start_game("alice", "lppg", "bob")
    await (await emu.slash("alice", "tournament create",
                           {"game": "alak", "format": "swiss"})).reply()
    errors_before = len([r for r in caplog.records if r.levelno >= logging.ERROR])
    unanswered, sent = [], 0
    for channel in (lppg.channel_id, alak.channel_id, emu.channel_id):
        for path, leaf in leaves(emu.commands[None]):
            if path == "sync":
                continue  # owner-only and slow; its answers are fixed texts
            for values in cases(path, leaf, emu):
                interaction = await emu.slash("alice", path, values, channel=channel)
                sent += 1
                try:
                    await interaction.acknowledged()
                except TimeoutError:
                    unanswered.append((path, {k: str(v)[:30] for k, v in values.items()}))
            for option in leaf.get("options", []):
                if not option.get("autocomplete"):
                    continue
                for text in HOSTILE_TEXT:
                    required = {o["name"]: values_for(o, emu)[0]
                                for o in leaf.get("options", []) if o.get("required")}
                    choices = await emu.autocomplete(
                        "alice", path, {**required, option["name"]: text}, option["name"],
                        channel=channel)
                    sent += 1
                    assert len(choices) <= 25
    assert sent > 200
    refused = [(r.path.split("/")[1], r.code, str(r.body)[:120]) for r in emu.refusals]
    errors = [r.getMessage() for r in caplog.records[errors_before:]
              if r.levelno >= logging.ERROR]
    assert (len(unanswered), len(refused), len(errors)) == (0, 0, 0), (
        f"of {sent} interactions: unanswered {unanswered[:3]}, refused {refused[:3]}, "
        f"errors logged {errors[:3]}")
    assert all(i.type != AUTOCOMPLETE or i.callback_type == 8 for i in emu.interactions.values())
