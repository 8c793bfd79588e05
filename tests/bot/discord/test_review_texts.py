"""The review's words in the reader's language (English and French): the picture's texts,
each player's line with plural forms, the mistakes' captions, the progress message."""

from __future__ import annotations

from bot.core.review import analyse
from bot.discord.cogs._review import captions, progress_text, review_texts, summary_text
from bot.services.review import ReviewSource
from bot.workers.review import Progress
from words import NBSP

SCORES = [(0.5, 0.5), (0.2, 0.8), (0.3, 0.7), (0.3, 0.7), (0.6, 0.4)]


def make(game: str = "alak", perspective: int = -1):
    review = analyse(game, 2, ["a", "b", "c", "d"], [0, 1, 0, 1], [False] * 4, SCORES,
                     better={1: "z"}, full_information=perspective == -1,
                     finished=perspective == -1)
    source = ReviewSource(12, 5, game, 2, 1, {}, ("a", "b", "c", "d"), None, perspective)
    return review, source


def test_the_picture_speaks_english_and_french():
    review, source = make()
    english = review_texts(review, source, "Alak", ["Ann", "Bo"], "en")
    french = review_texts(review, source, "Alak", ["Ann", "Bo"], "fr")
    assert english.title == "Review of game #12 · Alak"
    assert french.title == "Analyse de la partie n°12 · Alak"
    assert english.ticks == ["0", "0.5", "1"] and french.ticks == ["0", "0,5", "1"]
    assert (english.axis_moves, french.axis_moves) == ("move", "coup")
    assert any("0.15 or more" in note for note in english.notes)
    assert any("0,15 ou plus" in note for note in french.notes)
    assert english.results == ["0.6", "0.4"] and french.results == ["0,6", "0,4"]
    assert english.mistakes_heading == ["Ann's biggest mistakes", "Bo's biggest mistakes"]
    assert french.mistakes_heading[0] == "Les plus grosses erreurs d'Ann"  # elided before a vowel


def test_player_lines_use_plural_forms():
    review, source = make()
    english = review_texts(review, source, "Alak", ["Ann", "Bo"], "en").player_lines
    french = review_texts(review, source, "Alak", ["Ann", "Bo"], "fr").player_lines
    # Ann lost 0.3 then nothing (one mistake); Bo lost 0.1 then 0.3 (one mistake).
    assert english[0] == "Ann: 0.15 lost per move on average, 1 mistake"
    assert english[1] == "Bo: 0.2 lost per move on average, 1 mistake"
    assert french[0] == f"Ann{NBSP}: 0,15 perdu par coup en moyenne, 1 erreur"
    none = analyse("alak", 2, ["a"], [0], [False], [(0.5, 0.5), (1.0, 0.0)])
    assert review_texts(none, source, "Alak", ["Ann", "Bo"], "en").player_lines[0].endswith(
        "0 mistakes")
    assert review_texts(none, source, "Alak", ["Ann", "Bo"], "fr").player_lines[0].endswith(
        "0 erreur")


def test_captions_say_the_move_the_loss_and_the_ais_move():
    review, _ = make()
    english = captions(review, ["Ann", "Bo"], "en")
    assert english[0] == ["Move 1 · Ann", "played a (−0.3)", "the AI: z"]
    assert english[1] == ["Move 4 · Bo", "played d (−0.3)", "the AI was not asked"]
    assert captions(review, ["Ann", "Bo"], "fr")[0][2] == f"l'IA{NBSP}: z"


def test_what_the_picture_says_about_hidden_cards_and_running_games():
    review, source = make("lppg")
    notes = review_texts(review, source, "LPPG", ["Ann", "Bo"], "en").notes
    assert any("every card is known" in note for note in notes)
    review, source = make("alak", perspective=1)
    running = review_texts(review, source, "Alak", ["Ann", "Bo"], "fr")
    assert any("ce que voit Bo" in note for note in running.notes)
    assert running.result == "maintenant"  # where it stands, not a result
    review, source = make("alak")
    assert review_texts(review, source, "Alak", ["Ann", "Bo"], "fr").result == "résultat"


def test_the_message_and_the_progress_are_translated():
    review, _ = make()
    text = summary_text(review, 12, "Alak", ["Ann", "Bo"], "fr")
    assert text.splitlines()[0] == f"Analyse de la partie n°12 (Alak){NBSP}:"
    assert len(text.splitlines()) == 3
    assert progress_text(Progress(3, 41), 12, "en") == \
        "Reviewing game #12: 3/41 positions evaluated…"
    assert "2/6" in progress_text(Progress(41, 41, 2, 6), 12, "fr")
