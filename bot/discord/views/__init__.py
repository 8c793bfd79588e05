"""Persistent buttons: every ``custom_id`` carries the ids it acts on (``discord.ui.DynamicItem``),
so a button keeps working after the bot restarts; so does a Move… form (``answer_move_form``,
which the client calls for every interaction). They reach the bot through
``bot.discord.host``."""

from bot.discord.views.actions import (
    ActivityButton,
    GameActionButton,
    HandButton,
    MoveFormButton,
    ResignAskButton,
    answer_move_form,
)
from bot.discord.views.challenge import ChallengeButton
from bot.discord.views.draws import AbortButton, DrawAnswerButton, DrawOfferButton
from bot.discord.views.game import MoveButton, RematchButton, ResignButton, UndoButton
from bot.discord.views.history import HistoryButton
from bot.discord.views.review import ReviewButton
from bot.discord.views.seeks import LobbyButton, SeekButton

#: Registered once with ``bot.add_dynamic_items(*DYNAMIC_ITEMS)``.
DYNAMIC_ITEMS = (ChallengeButton, MoveButton, UndoButton, ResignButton, RematchButton,
                 ReviewButton, SeekButton, LobbyButton, HistoryButton, DrawAnswerButton,
                 DrawOfferButton, AbortButton, MoveFormButton, ResignAskButton, HandButton,
                 GameActionButton, ActivityButton)

__all__ = [
    "DYNAMIC_ITEMS",
    "AbortButton",
    "ActivityButton",
    "ChallengeButton",
    "DrawAnswerButton",
    "DrawOfferButton",
    "GameActionButton",
    "HandButton",
    "HistoryButton",
    "LobbyButton",
    "MoveButton",
    "MoveFormButton",
    "RematchButton",
    "ResignAskButton",
    "ResignButton",
    "ReviewButton",
    "SeekButton",
    "UndoButton",
    "answer_move_form",
]
