"""The image the Dockerfile builds can run the bot.

The test builds what ``docker build`` would, without Docker: it follows the Dockerfile's
``WORKDIR``, ``COPY`` (taking the files ``.dockerignore`` lets through, as Docker does) and
``RUN pip install .`` into a fresh virtual environment outside the source tree, non-editable;
then it runs the image's ``CMD`` where the image would, against the local Discord emulator, and
plays one move. A package the image forgets (``ai`` was forgotten once) fails here.

Where Docker runs (``.ci/run`` checks ``docker info``), ``BOT_DEPLOY_IMAGE`` names the image it
built, and the same bot is started from that image instead (``docker run --network host``)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pytest

from emulator import running_emulator

ROOT = Path(__file__).resolve().parents[2]
#: Seconds for the bot to connect, and for each answer.
START_TIMEOUT = 90.0
ANSWER_TIMEOUT = 30.0


def dockerignore_patterns(context: Path) -> list[tuple[bool, re.Pattern[str]]]:
    """``.dockerignore``'s rules as (is an exception ``!…``, regular expression), in order."""
    rules = []
    path = context / ".dockerignore"
    lines = path.read_text().splitlines() if path.exists() else []
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        pattern = str(PurePosixPath(line.lstrip("!").strip().lstrip("/")))
        rules.append((negated, re.compile(glob_to_regex(pattern))))
    return rules


def glob_to_regex(pattern: str) -> str:
    """Docker's pattern syntax (Go's filepath.Match, plus ``**`` for any number of folders)."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            end = pattern.index("]", i)
            out.append("[" + pattern[i + 1:end].replace("^", "\\^", 1) + "]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out) + "$"


def ignored(relative: str, rules: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """Whether Docker leaves ``relative`` out of the build context: the last rule that matches
    the path or one of its parent folders decides."""
    parts = relative.split("/")
    candidates = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    result = False
    for negated, regex in rules:
        if any(regex.match(candidate) for candidate in candidates):
            result = not negated
    return result


def build_context(context: Path) -> dict[str, Path]:
    """The files ``docker build`` sends: relative path → file."""
    rules = dockerignore_patterns(context)
    files = {}
    for folder, subfolders, names in os.walk(context):
        base = Path(folder).relative_to(context).as_posix()
        prefix = "" if base == "." else base + "/"
        subfolders[:] = [d for d in subfolders if not ignored(prefix + d, rules)
                         or any(negated for negated, _ in rules)]
        for name in names:
            relative = prefix + name
            if not ignored(relative, rules):
                files[relative] = Path(folder) / name
    return files


@dataclass
class Image:
    """What the Dockerfile built, under ``root`` (the image's ``/``)."""

    root: Path
    python: Path
    workdir: str = "/"
    cmd: list[str] = field(default_factory=list)
    pip_installs: int = 0

    def path(self, inside: str) -> Path:
        return self.root / inside.lstrip("/")


def instructions(dockerfile: Path) -> list[tuple[str, str]]:
    """(instruction, arguments), with continuation lines joined and comments left out."""
    joined, current = [], ""
    for line in dockerfile.read_text().splitlines():
        if line.lstrip().startswith("#"):
            continue
        if line.rstrip().endswith("\\"):
            current += line.rstrip()[:-1] + " "
            continue
        current += line
        if current.strip():
            keyword, _, rest = current.strip().partition(" ")
            joined.append((keyword.upper(), rest.strip()))
        current = ""
    return joined


def build_like_docker(context: Path, root: Path) -> Image:
    """Follow the Dockerfile: WORKDIR, COPY from the build context, ``pip install .`` into a
    fresh virtual environment (the image's Python), CMD."""
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    image = Image(root=root, python=venv / "bin" / "python")
    files = build_context(context)
    for keyword, arguments in instructions(context / "Dockerfile"):
        if keyword == "WORKDIR":
            image.workdir = str(PurePosixPath(image.workdir) / arguments)
            image.path(image.workdir).mkdir(parents=True, exist_ok=True)
        elif keyword == "COPY":
            *sources, destination = [a for a in shlex.split(arguments) if not a.startswith("--")]
            target = image.path(str(PurePosixPath(image.workdir) / destination))
            for source in sources:
                source = str(PurePosixPath(source))
                for relative, file in files.items():
                    if source == ".":
                        inside = relative
                    elif relative == source:
                        inside = PurePosixPath(relative).name
                    elif relative.startswith(source + "/"):
                        inside = relative[len(source) + 1:]
                    else:
                        continue
                    (target / inside).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(file, target / inside)
        elif keyword == "RUN":
            for command in re.split(r"&&|;", arguments):
                words = shlex.split(command)
                if words[:3] == ["pip", "install", "."] and len(words) == 3:
                    subprocess.run(
                        [str(image.python), "-m", "pip", "install", "--quiet", "."],
                        cwd=image.path(image.workdir), check=True, env=clean_environment(),
                    )
                    image.pip_installs += 1
                elif words[:2] == ["rm", "-rf"]:
                    for doomed in words[2:]:
                        shutil.rmtree(image.path(doomed), ignore_errors=True)
        elif keyword == "CMD":
            image.cmd = json.loads(arguments)
    return image


def clean_environment() -> dict[str, str]:
    """This environment without what would point Python at the source tree."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("DISCORD_", "BOT_", "PYTHON", "VIRTUAL_ENV"))}


def bot_environment(emu, database: str) -> dict[str, str]:
    return {
        "DISCORD_TOKEN": emu.token,
        "DISCORD_API_BASE": emu.api_base,
        "DISCORD_GATEWAY_URL": emu.gateway_url,
        "BOT_DATABASE": database,
        "BOT_SYNC_ON_START": "global",
        "PYTHONUNBUFFERED": "1",
    }


class Running:
    """A started bot process whose log (stderr) is read as it comes, so it never blocks."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process.stderr is not None
        while line := await self.process.stderr.readline():
            self.lines.append(line.decode(errors="replace"))

    @property
    def log(self) -> str:
        return "".join(self.lines)

    async def stop(self) -> str:
        if self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 30)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        await self.reader
        return self.log


async def play_one_move(emu, bot: Running, mark: int) -> None:
    """Wait for the bot to connect (or to die), then a challenge accepted and one move."""
    connected = asyncio.create_task(
        emu.wait_for(lambda e: e.kind == "identified", since=mark, timeout=START_TIMEOUT))
    exited = asyncio.create_task(bot.process.wait())
    done, _ = await asyncio.wait({connected, exited}, return_when=asyncio.FIRST_COMPLETED)
    if exited in done:
        connected.cancel()
        await bot.reader
        pytest.fail(f"the installed bot exited ({bot.process.returncode}) before connecting:\n"
                    f"{bot.log[-3000:]}")
    exited.cancel()
    challenge = await (await emu.slash("alice", "play alak", {"opponent": "bob"})).reply(
        timeout=ANSWER_TIMEOUT)
    mark = emu.mark()
    await emu.click("bob", challenge, label="Accept")
    board = await emu.wait_for_message(lambda m: bool(m.files), since=mark,
                                       timeout=ANSWER_TIMEOUT)
    move = await emu.slash("alice", "move", {"text": "c"}, channel=board.channel_id)
    answer = await move.reply(timeout=ANSWER_TIMEOUT)
    assert answer.files and "played **c**" in answer.content, answer.content


def test_build_context_follows_dockerignore():
    rules = [(False, re.compile(glob_to_regex(p))) for p in ("tests", "**/__pycache__", "*.db")]
    rules.append((True, re.compile(glob_to_regex("tests/keep.py"))))
    assert ignored("tests/e2e/test_x.py", rules)
    assert ignored("bot/store/__pycache__/x.pyc", rules)
    assert ignored("bot.db", rules) and not ignored("bot/x.db", rules)
    assert not ignored("tests/keep.py", rules)
    assert not ignored("bot/runtime/app.py", rules) and not ignored("emulator/server.py", rules)


def test_the_image_ships_every_package_of_the_project():
    """Every top-level package of the source tree is in the build context (a new one, too)."""
    shipped = {relative.split("/")[0] for relative in build_context(ROOT)}
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert packages - {"tests", "bench"} <= shipped
    assert not shipped & {"tests", "bench", ".git", ".venv"}


@pytest.mark.slow(60)
@pytest.mark.timeout(600)
async def test_the_bot_installed_as_the_dockerfile_does_plays_a_move(tmp_path):
    image_name = os.environ.get("BOT_DEPLOY_IMAGE")
    async with running_emulator() as emu:
        mark = emu.mark()
        if image_name:
            env = bot_environment(emu, "/data/boardgames.db")
            command = ["docker", "run", "--rm", "--network", "host",
                       *[a for k, v in env.items() for a in ("-e", f"{k}={v}")], image_name]
            process = await asyncio.create_subprocess_exec(
                *command, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE)
        else:
            image = await asyncio.to_thread(build_like_docker, ROOT, tmp_path / "image")
            assert image.pip_installs == 1 and image.cmd[:1] == ["python"]
            workdir = image.path(image.workdir)
            env = {**clean_environment(),
                   **bot_environment(emu, str(tmp_path / "boardgames.db")),
                   "BOT_CONFIG": str(tmp_path / "no-config.toml")}
            process = await asyncio.create_subprocess_exec(
                str(image.python), *image.cmd[1:], cwd=workdir, env=env,
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE)
        bot = Running(process)
        try:
            await play_one_move(emu, bot, mark)
        finally:
            log = await bot.stop()
    assert "Traceback" not in log, log[-3000:]
    if not image_name:
        # Non-editable, outside the source tree: the bot came from the environment's
        # site-packages (with its fonts, catalogs and migrations), not from a source folder.
        where = subprocess.run([str(image.python), "-c", "import bot; print(bot.__file__)"],
                               cwd=workdir, env=clean_environment(), capture_output=True,
                               text=True)
        assert where.returncode == 0, where.stderr
        assert "site-packages" in where.stdout and ROOT.as_posix() not in where.stdout
        # Every package the image's files hold was installed (the console's emulator too,
        # which a bot with a token never imports).
        shipped = sorted(relative.split("/")[0] for relative in build_context(ROOT)
                         if relative.count("/") == 1 and relative.endswith("/__init__.py"))
        assert "bot" in shipped and "ai" in shipped
        imported = subprocess.run(
            [str(image.python), "-c", f"import {', '.join(shipped)}"], cwd=workdir,
            env=clean_environment(), capture_output=True, text=True)
        assert imported.returncode == 0, imported.stderr
