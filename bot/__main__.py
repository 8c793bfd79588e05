"""Entry point of `make run` / `python -m bot`."""

import sys

# The Discord layer is not built yet (issue: the Discord bot and the local emulator). Say so
# plainly rather than pretend to run.
print("The Discord bot is not built yet: only the game engines exist so far.", file=sys.stderr)
sys.exit(2)
