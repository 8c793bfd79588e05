"""A button whose custom_id was forged to name a number no id can be (2^63 or more: Discord's
snowflakes fit in 63 bits, the databases' integers in 64 signed bits) is refused with a clear
private answer where the custom_id is read; nothing reaches the database, nothing changes and
nothing is logged as an error."""

from __future__ import annotations

import copy
import logging
import re

import pytest

from emulator import Message
from tests.e2e.test_clocks import start_timed

#: The answer to a button naming an impossible number.
REFUSAL = "This button names a number no game, player or request can have"


def forged(message: Message, custom_id: str, number: int) -> tuple[Message, str]:
    """``message`` as a modified client would show it: the button ``custom_id`` with every
    number in it replaced by ``number``. Returns the message and the forged custom_id."""
    fake = re.sub(r"\d+", str(number), custom_id)
    data = copy.deepcopy(message.data)
    for row in data["components"]:
        for button in row["components"]:
            if button.get("custom_id") == custom_id:
                button["custom_id"] = fake
    message.data = data
    return message, fake


@pytest.mark.parametrize("number", [2**63, 2**64, 10**30])
async def test_a_button_naming_an_impossible_number_is_refused_plainly(world, caplog, number):
    emu = world.emu
    game, board = await start_timed(world, "1d")
    challenge = await world.challenge("carol", "palago", {"opponent": "dave"})
    errors_before = len([r for r in caplog.records if r.levelno >= logging.ERROR])
    pressed = 0
    for message in (board, challenge):
        for button in [dict(b) for b in message.buttons()]:
            current = emu.messages[message.id]
            shown, custom_id = forged(current, button["custom_id"], number)
            press = await emu.click("bob", shown, custom_id)
            answer = await press.reply()
            assert answer.ephemeral and REFUSAL in answer.content, (custom_id, answer.content)
            pressed += 1
    assert pressed >= 6
    errors = [r.getMessage() for r in caplog.records[errors_before:]
              if r.levelno >= logging.ERROR]
    assert errors == []
    after = await world.services.games.get_game(game.id)
    assert (after.ply, after.status) == (0, "active")
    still = await world.services.challenges.get_challenge(int(challenge_id(challenge)))
    assert still.status == "open"


def challenge_id(message: Message) -> str:
    return re.search(r"bg:ch:(\d+):", message.buttons()[0]["custom_id"])[1]
