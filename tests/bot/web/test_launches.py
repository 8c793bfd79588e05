"""Which game the Activity opens: the last Open board press of a user in a channel."""

from bot.web.launches import Launches


def test_the_last_press_in_a_channel_is_the_game_opened():
    launches = Launches()
    launches.note(1, 100, 7)
    launches.note(1, 100, 8)
    launches.note(2, 100, 9)
    assert launches.game(1, 100) == 8
    assert launches.game(2, 100) == 9
    assert launches.game(1, 200) is None


def test_the_oldest_presses_are_forgotten_first():
    launches = Launches(size=2)
    launches.note(1, 100, 7)
    launches.note(2, 100, 8)
    launches.note(1, 100, 7)  # pressed again: the newest now
    launches.note(3, 100, 9)
    assert launches.game(2, 100) is None
    assert (launches.game(1, 100), launches.game(3, 100)) == (7, 9)
