"""``python -m bot`` without a token: the local console, in its own process as ``make run``
starts it. Each run's database lives in a ``boardgames-local-*`` folder of the temporary
directory, removed at exit unless the user keeps it (``[emulator] keep_database``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest


def run_console(tmp_path: Path, typed: str, **settings: str) -> tuple[Path, str]:
    """Run the console with ``typed`` as its input: (its temporary directory, its stderr)."""
    temp, work = tmp_path / "tmp", tmp_path / "work"
    temp.mkdir()
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BOT_"))}
    env.update(TMPDIR=str(temp), BOT_CONFIG=str(work / "absent.toml"),
               BOT_BOARD_POOL="thread", BOT_HEAVY_POOL="thread", **settings)
    done = subprocess.run(
        [sys.executable, "-m", "bot"], input=typed, capture_output=True, text=True, env=env,
        cwd=work, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "alice #games>" in done.stdout
    (work / "out.txt").write_text(done.stdout, encoding="utf-8")
    return temp, done.stderr


@pytest.mark.parametrize("typed", ["/quit\n", "/help\n"], ids=["quit", "end of input"])
def test_each_run_removes_its_database_folder_at_exit(tmp_path, typed):
    temp, _ = run_console(tmp_path, typed)
    assert list(temp.glob("boardgames-local-*")) == []


def test_a_run_keeps_its_database_when_asked(tmp_path):
    temp, stderr = run_console(tmp_path, "/quit\n", BOT_KEEP_LOCAL_DATABASE="1")
    kept = list(temp.glob("boardgames-local-*"))
    assert len(kept) == 1 and (kept[0] / "local.db").is_file()
    assert f"kept in {kept[0]}" in stderr


def test_the_console_runs_the_web_board_and_links_to_it(tmp_path):
    work = tmp_path / "work"
    _, stderr = run_console(tmp_path, "/web bob\n/quit\n")
    out = (work / "out.txt").read_text(encoding="utf-8")
    board = re.search(r"Web board at (http://127\.0\.0\.1:\d+)/", out)
    assert board is not None, out
    link = re.search(r"Open the board as bob: (\S+)", out)
    assert link is not None, out
    query = parse_qs(urlsplit(link.group(1)).query)
    assert query == {"user": ["bob"], "next": [board.group(1)]}
    # Stopped before the database closed: nothing failed on the way out.
    assert "Traceback" not in stderr and "Error" not in stderr


def test_the_console_runs_the_board_as_the_apps_activity(tmp_path):
    """Activities are on in the console: the global sync keeps the Entry Point command (the
    bot starts), and /activity opens the board in the emulated Discord client."""
    work = tmp_path / "work"
    _, stderr = run_console(tmp_path, "/activity bob\n/quit\n")
    out = (work / "out.txt").read_text(encoding="utf-8")
    link = re.search(r"Open the Activity in \S+ as bob: (http://127\.0\.0\.1:\d+/\.emulator/"
                     r"client/\S+)", out)
    assert link is not None, out
    assert "Traceback" not in stderr and "Error" not in stderr
