"""The web board's HTML: small pages written here, escaped, in the visitor's language; a
game's page is an empty frame that ``static/game.js`` fills from the API."""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape

import engines
from bot.core.i18n import t
from bot.web.sessions import Visitor

#: The words ``game.js`` shows, sent with each state (its language is the visitor's).
PAGE_WORDS = ("play", "back", "clear", "resign", "resign_confirm", "cancel", "moves",
              "no_moves_yet", "pick_hint", "your_cards", "choices", "live_lost", "due",
              "paused", "offer_draw", "accept_draw", "decline_draw", "ask_undo",
              "accept_undo", "decline_undo", "hint", "claim", "show_move", "past_board",
              "to_current", "time_left", "time_up", "days", "rules",
              "rematch", "rematch_asked", "rematch_open", "watching")


def _page(title: str, body: str, lang: str, *, script: str = "") -> str:
    module = f'<script type="module" src="/static/{script}"></script>' if script else ""
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="color-scheme" content="light dark">'
            f'<title>{escape(title)}</title><link rel="stylesheet" href="/static/style.css">'
            f"{module}</head><body>{body}</body></html>")


def _signed_in(visitor: Visitor, lang: str) -> str:
    return ('<header><span>' + escape(t("web.signed_in_as", lang, name=visitor.name))
            + '</span><form method="post" action="/auth/logout"><button type="submit">'
            + escape(t("web.sign_out", lang)) + "</button></form></header>")


def home(visitor: Visitor, games: Sequence[tuple[int, str, bool]], lang: str) -> str:
    """The visitor's games: (id, game name, whether it is their turn)."""
    title = t("web.your_games", lang)
    if games:
        items = "".join(
            f'<li><a href="/games/{game_id}">'
            + escape(t("web.title", lang, id=game_id, game=engines.get(name).title))
            + "</a>" + (" — " + escape(t("web.your_turn", lang)) if mine else "") + "</li>"
            for game_id, name, mine in games)
        listing = f"<ul>{items}</ul>"
    else:
        listing = "<p>" + escape(t("web.no_games", lang)) + "</p>"
    return _page(title, _signed_in(visitor, lang)
                 + f"<main><h1>{escape(title)}</h1>{listing}</main>", lang)


def game(game_id: int, visitor: Visitor, lang: str) -> str:
    """A game's frame: ``game.js`` reads ``data-game`` and draws the rest."""
    body = (_signed_in(visitor, lang)
            + f'<main id="game" data-game="{game_id}" aria-live="polite"></main>')
    return _page(t("web.title", lang, id=game_id, game=""), body, lang, script="game.js")


#: The words ``activity.js`` shows (its list of games, its sign-in's steps).
ACTIVITY_WORDS = ("your_games", "no_games", "your_turn", "activity_connecting",
                  "activity_no_sdk", "activity_failed")


def activity(client_id: str, lang: str) -> str:
    """The Activity's page: ``activity.js`` signs in through Discord's client (the Embedded
    App SDK), then shows the player's games with ``game.js``."""
    words = {key: t(f"web.{key}", lang, reason="{reason}") for key in ACTIVITY_WORDS}
    body = (f'<main id="activity" data-client="{escape(client_id)}" '
            f'data-words="{escape(json.dumps(words))}" aria-live="polite">'
            f'<p role="status">{escape(words["activity_connecting"])}</p></main>')
    return _page(t("web.your_games", lang), body, lang, script="activity.js")


def plain(title: str, body: str, lang: str) -> str:
    """A page of ``body`` (HTML the caller escaped) without a script."""
    return _page(title, body, lang)


def message(text: str, lang: str) -> str:
    """A page saying one thing (a refusal, a failed sign-in)."""
    back = escape(t("web.your_games", lang))
    return _page(text, f'<main><p role="alert">{escape(text)}</p>'
                       f'<p><a href="/">{back}</a></p></main>', lang)


def words(lang: str, game_id: int) -> dict[str, str]:
    # The page fills in the due time itself (in the visitor's time zone), and the moves.
    found = {key: t(f"web.{key}", lang, when="{when}", control="{control}", n="{n}",
                    move="{move}", left="{left}")
             for key in PAGE_WORDS}
    found["resign_question"] = t("web.resign_question", lang, id=game_id)
    return found
