"""``python -m bot`` (what ``make run`` runs): with a token, the bot on Discord; without one, the
local Discord emulator and a console to play through it (``bot.runtime.main``)."""

import sys

from bot.runtime.main import main

if __name__ == "__main__":
    sys.exit(main())
