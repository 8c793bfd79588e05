"""The words of a /history page: a full page of the longest lines fits one Discord message."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.discord.cogs._history import game_line, page_text, rating_change
from bot.services.history import (
    LOST,
    PAGE_SIZE,
    WON,
    FinishedGame,
    HistoryPage,
    RatingChange,
)

BIG = 1_234_567_890_123_456_789  # Discord ids have up to 19 digits


def long_game(number: int, game: str) -> FinishedGame:
    lppg = game == "lppg"
    return FinishedGame(
        game_id=10**9 + number, game=game, players=4 if lppg else 5, result=LOST,
        opponents=tuple(BIG + i for i in range(2 if lppg else 4)),
        partners=(BIG + 5,) if lppg else (), ended_at=datetime(
            2026, 9, 30, tzinfo=UTC), guild_id=BIG, thread_id=BIG + 9,
        rating=RatingChange("skill", 2345.6, 2301.2))


def test_a_page_of_the_longest_lines_fits_a_message_in_both_languages():
    for game in ("kolory", "lppg"):
        page = HistoryPage(BIG, game, 99, tuple(long_game(i, game) for i in range(PAGE_SIZE)),
                           True)
        for lang in ("en", "fr"):
            text = page_text(page, lang)
            assert len(text) <= 2000, (game, lang, len(text))
            assert len(text.splitlines()) == PAGE_SIZE + 1


def test_a_line_says_result_opponents_partners_rating_date_and_thread():
    game = FinishedGame(7, "lppg", 4, WON, (-100, 22), (33,), datetime(2026, 8, 3, tzinfo=UTC),
                        1, 44, RatingChange("skill", 1500, 1523.4))
    assert game_line(game, "en") == (
        "• #7 **LPPG — Le Plus Petit Gagne** · won against AI (easy) and <@22>"
        " (partner: <@33>) · 3 Aug 2026 · rating 1,523 (+23) · <#44>")
    assert game_line(game, "fr") == (
        "• n°7 **LPPG — Le Plus Petit Gagne** · gagnée contre IA (facile) et <@22>"
        " (partenaire\u00a0: <@33>) · 3 août 2026 · classement 1\u202f523 (+23) · <#44>")
    assert rating_change(-7.6, "en") == "−8" and rating_change(0.3, "fr") == "±0"
