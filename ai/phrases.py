"""What a hint says, as phrases (``engines.phrases``): the English of every reason the AI gives
with a hint. The bot translates the keys (``phrase.ai.*`` in its catalogs)."""

from __future__ import annotations

from engines.phrases import define

define({
    "ai.captures": {"one": "captures {count} stone", "other": "captures {count} stones"},
    "ai.alak.wins_now": "ends the game with more stones on the line",
    "ai.alak.saves": {
        "one": "saves {count} stone from capture",
        "other": "saves {count} stones from capture",
    },
    "ai.palam.camp": "{role}'s camp has the better pieces in this deal",
    "ai.palam.swap": "rearranges your camp: the next duels look better this way",
    "ai.palam.wins_duel": {
        "one": "wins the duel and {count} point",
        "other": "wins the duel and {count} points",
    },
    "ai.palam.loses_least": "every answer loses this duel: this one costs least",
    "ai.kolory.patch": {
        "one": "grows your largest patch to {count} square",
        "other": "grows your largest patch to {count} squares",
    },
    "ai.kolory.cut": {
        "one": "cuts {seat}'s largest patch down to {count} square",
        "other": "cuts {seat}'s largest patch down to {count} squares",
    },
    "ai.palago.creature": "completes {creature}",
    "ai.palago.threat": "threatens to close {creature} next turn",
    "ai.palago.double_threat": "makes two threats to close {creature}: only one can be blocked",
    "ai.polygo.pass": "nothing is left to gain on the board: pass",
    "ai.polygo.accept": "the count is {points} to {other} in your favour",
    "ai.polygo.alive": "your groups marked dead are alive",
    "ai.polygo.resume": "the count is against you, but playing on can still change it",
    "ai.lppg.wins": "ends the game: your side holds the smallest territory",
    "ai.lppg.mark": {
        "one": "marks the closed region of {count} square",
        "other": "marks the closed region of {count} squares",
    },
    "ai.lppg.permanent": {
        "one": "marks the region of {count} square for good: it can no longer be opened",
        "other": "marks the region of {count} squares for good: it can no longer be opened",
    },
    "ai.lppg.leads": {
        "one": "leaves your side with the smallest territory ({count} square)",
        "other": "leaves your side with the smallest territory ({count} squares)",
    },
})
