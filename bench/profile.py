"""The /profile chart (``render.profile``): what matplotlib costs and where.

    python -m bench.profile

Prints, each in a fresh process: the bot's resident memory once ``bot.runtime.app`` is imported (the
bot's own process, which never imports matplotlib) and once matplotlib is imported beside it
(what a heavy worker holds), the first chart a worker draws (matplotlib's import included) and
the next ones (CPU time, best of 5), and the PNG's size.
"""

from __future__ import annotations

import subprocess
import sys

_MEMORY = ("import resource, {imports}; "
           "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)")
_DRAW = """
import time
first = time.process_time()
from render.gallery import sample_profile
png = sample_profile("fr")
first = time.process_time() - first
warm = []
for _ in range(5):
    start = time.process_time()
    sample_profile("fr")
    warm.append(time.process_time() - start)
print(first, min(warm), len(png))
"""


def _run(code: str) -> list[float]:
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True).stdout
    return [float(x) for x in out.split()]


def main() -> None:
    (bot_only,) = _run(_MEMORY.format(imports="bot.runtime.app"))
    (with_mpl,) = _run(_MEMORY.format(
        imports="bot.runtime.app, matplotlib.figure, matplotlib.backends.backend_agg"))
    first, warm, size = _run(_DRAW)
    print(f"bot process: {bot_only:.0f} MB resident; with matplotlib imported: {with_mpl:.0f} MB")
    print(f"first chart in a fresh worker (import included): {first * 1000:.0f} ms CPU")
    print(f"next charts: {warm * 1000:.0f} ms CPU (best of 5); PNG {size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
