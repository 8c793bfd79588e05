"""A throwaway PostgreSQL server for the tests and the storage benchmark.

``PostgresCluster.start()`` runs ``initdb`` in a new temporary folder and starts a server that
listens on 127.0.0.1 only, at a free port, without a Unix socket; ``stop()`` kills it and removes
the folder. The binaries come from ``$BOT_TEST_PG_BIN`` (when set, the only place looked),
the ``PATH``, or Debian's ``/usr/lib/postgresql/<version>/bin`` (``apt-get install -y
postgresql``). PostgreSQL refuses to
run as root, so under root the server runs as the unprivileged user ``nobody``.

The superuser gets a random password (scram-sha-256), so another local user cannot reach the
databases by guessing; ``fast=True`` turns durability off (fsync, synchronous commit), which is
right for tests and wrong for anything measured.

``$BOT_TEST_POSTGRES`` (a ``postgresql://`` URL of a role that may create databases) makes the
tests use that server instead of starting one.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import re
import secrets
import shutil
import subprocess
import tempfile
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import asyncpg

from tests.ports import free_port

INSTALL_HINT = "apt-get install -y postgresql"
UNPRIVILEGED_USER = "nobody"
SUPERUSER = "boardgames"
DEBIAN_BINARIES = Path("/usr/lib/postgresql")


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL to test against; the message says how to get one."""


def find_binaries() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``."""
    configured = os.environ.get("BOT_TEST_PG_BIN")
    candidates = [Path(configured)] if configured else []  # when set, the only place looked
    on_path = shutil.which("initdb")
    if on_path and not configured:
        candidates.append(Path(on_path).resolve().parent)
    if DEBIAN_BINARIES.is_dir() and not configured:
        versions = [p for p in DEBIAN_BINARIES.iterdir() if p.name.isdigit()]
        candidates += [p / "bin" for p in sorted(versions, key=lambda p: -int(p.name))]
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    raise PostgresUnavailable(f"PostgreSQL is not installed (no initdb found): {INSTALL_HINT}")


def with_database(url: str, database: str) -> str:
    """``url`` naming another database on the same server."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + database))


@dataclass
class PostgresCluster:
    """A running server: ``url`` connects as its superuser to the ``postgres`` database."""

    url: str
    folder: Path | None = None  # None: a server we did not start (left running on stop)
    binaries: Path | None = None
    run_as: str | None = None

    @property
    def data(self) -> Path:
        assert self.folder is not None
        return self.folder / "data"

    @classmethod
    def start(cls, *, fast: bool = False) -> PostgresCluster:
        existing = os.environ.get("BOT_TEST_POSTGRES")
        if existing:
            return cls(url=existing)
        binaries = find_binaries()
        run_as = UNPRIVILEGED_USER if os.geteuid() == 0 else None
        folder = Path(tempfile.mkdtemp(prefix="boardgames-pg-"))
        cluster = cls(url="", folder=folder, binaries=binaries, run_as=run_as)
        try:
            cluster._init(fast)
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def _run(self, *args: str | os.PathLike[str]) -> None:
        assert self.binaries is not None
        command = [str(self.binaries / str(args[0])), *map(str, args[1:])]
        done = subprocess.run(command, user=self.run_as, capture_output=True, text=True,
                              check=False, cwd=self.folder)
        if done.returncode != 0:
            raise PostgresUnavailable(
                f"{args[0]} failed ({done.returncode}): {done.stderr.strip()[-2000:]}"
            )

    def _init(self, fast: bool) -> None:
        assert self.folder is not None
        if self.run_as is not None:
            account = pwd.getpwnam(self.run_as)
            os.chown(self.folder, account.pw_uid, account.pw_gid)
        password = secrets.token_urlsafe(24)
        password_file = self.folder / "password"
        password_file.write_text(password + "\n")
        if self.run_as is not None:
            os.chown(password_file, pwd.getpwnam(self.run_as).pw_uid, -1)
        password_file.chmod(0o600)
        self._run("initdb", "-D", self.data, "-U", SUPERUSER, f"--pwfile={password_file}",
                  "--auth=scram-sha-256", "--encoding=UTF8", "--no-locale", "--no-sync")
        password_file.unlink()
        settings = {
            "listen_addresses": "127.0.0.1",
            "unix_socket_directories": "",
            "max_connections": "200",
        }
        if fast:
            settings |= {"fsync": "off", "synchronous_commit": "off",
                         "full_page_writes": "off"}
        options = " ".join(f"-c {name}={value!r}" if value == "" else f"-c {name}={value}"
                           for name, value in settings.items())
        for _ in range(5):  # another program may take the free port between probe and start
            port = free_port()
            try:
                self._run("pg_ctl", "-D", self.data, "-l", self.folder / "server.log", "-w",
                          "-t", "60", "-o", f"-p {port} {options}", "start")
            except PostgresUnavailable:
                if "could not bind" not in self.log_tail():
                    raise
                continue
            self.url = f"postgresql://{SUPERUSER}:{quote(password)}@127.0.0.1:{port}/postgres"
            return
        raise PostgresUnavailable("no free port for the test PostgreSQL server")

    def log_tail(self, lines: int = 40) -> str:
        if self.folder is None:
            return ""
        log = self.folder / "server.log"
        if not log.exists():
            return ""
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        """Stop the server we started (at once: nothing in it is worth keeping) and remove
        its folder."""
        if self.folder is None:
            return
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(PostgresUnavailable):
                self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    def create_database(self, prefix: str = "test") -> str:
        """A new empty database; returns its URL."""
        name = f"{re.sub(r'[^a-z0-9_]', '_', prefix.lower())}_{uuid.uuid4().hex[:12]}"
        self.admin(f'CREATE DATABASE "{name}"')
        return with_database(self.url, name)

    def drop_database(self, url: str) -> None:
        """Drop a database made by ``create_database``, closing what is still connected."""
        name = urlsplit(url).path.lstrip("/")
        self.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def admin(self, statement: str) -> None:
        """Run one statement as the superuser. On a thread of its own with its own event loop,
        so it works from synchronous code and from inside a running loop alike."""

        async def run() -> None:
            conn = await asyncpg.connect(self.url)
            try:
                await conn.execute(statement)
            finally:
                await conn.close()

        failure: list[BaseException] = []

        def thread_main() -> None:
            try:
                asyncio.run(run())
            except BaseException as error:  # handed to the caller
                failure.append(error)

        thread = threading.Thread(target=thread_main)
        thread.start()
        thread.join()
        if failure:
            raise failure[0]
