"""One worker process spoken to over its standard input and output, from the event loop itself.

``concurrent.futures.ProcessPoolExecutor`` hands every job to two threads of the caller's
process (one that feeds the worker, one that waits for results), and each wakes and takes the
interpreter lock for every job: about 0.3 ms of the bot's CPU per board. Here the loop writes
the job to the worker's pipe and reads the answer when it arrives, like any other socket, with
no thread in between.

A job is a module-level function and its arguments, pickled (``fn`` goes by name, so the
worker imports it); the answer is its result or its exception. Frames are a 4-byte length and a
pickle. The worker's own standard output is sent to its standard error, so a stray ``print``
cannot break the frames. The worker ends when its input closes: when the bot closes it, and
when the bot dies (the kernel closes the pipe), whatever job it was running; an answer it
cannot send to a dead bot ends it too, without a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.core.settings import SECRET_VARIABLES

#: Bytes of the length before each frame.
LENGTH_BYTES = 4
#: How long ``close`` waits for the worker to finish its jobs before killing it.
CLOSE_TIMEOUT = 5.0


class WorkerGone(RuntimeError):
    """The worker process ended (killed, crashed, closed) before answering."""


class DrawingProcess:
    """A worker process that runs jobs sent over a pipe (see the module)."""

    def __init__(self, warm: str | None = None) -> None:
        """``warm``: ``"module:function"`` the worker calls once before its first job."""
        self.warm = warm
        self._process: asyncio.subprocess.Process | None = None
        self._starting: asyncio.Task | None = None
        self._reader: asyncio.Task | None = None
        self._pending: dict[int, asyncio.Future] = {}
        self._ids = itertools.count()
        self._closed = False

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def pending(self) -> int:
        return len(self._pending)

    async def run(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` in the worker; raises ``WorkerGone`` if the worker ends
        before answering (the next job starts a new one)."""
        process = await self._started()
        job = next(self._ids)
        frame = pickle.dumps((job, fn, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)
        answer = asyncio.get_running_loop().create_future()
        self._pending[job] = answer
        try:
            assert process.stdin is not None
            process.stdin.write(len(frame).to_bytes(LENGTH_BYTES, "big") + frame)
        except (ConnectionError, RuntimeError):  # the pipe closed under us
            self._pending.pop(job, None)
            raise WorkerGone("the drawing process is gone") from None
        try:
            return await answer
        finally:
            self._pending.pop(job, None)

    async def _started(self) -> asyncio.subprocess.Process:
        if self._closed:
            raise RuntimeError("the drawing process is closed")
        if self._process is not None:
            return self._process
        if self._starting is None or self._starting.done():
            self._starting = asyncio.ensure_future(self._start())
        # Shielded: one caller giving up must not stop the start the others wait for.
        return await asyncio.shield(self._starting)

    async def _start(self) -> asyncio.subprocess.Process:
        command = [sys.executable, "-m", __name__]
        if self.warm:
            command.append(self.warm)
        # The worker imports the jobs' modules from where this package is, wherever it runs.
        root = str(Path(__file__).resolve().parents[__name__.count(".")])
        paths = [root, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
        # A worker draws; it has no use for the bot's token, so it does not get it.
        env = {name: value for name, value in os.environ.items() if name not in SECRET_VARIABLES}
        process = await asyncio.create_subprocess_exec(
            *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            env={**env, "PYTHONPATH": os.pathsep.join(paths)},
        )
        self._process = process
        self._reader = asyncio.ensure_future(self._read(process))
        return process

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        try:
            while True:
                size = int.from_bytes(await process.stdout.readexactly(LENGTH_BYTES), "big")
                job, ok, value = pickle.loads(await process.stdout.readexactly(size))
                answer = self._pending.get(job)
                if answer is None or answer.done():
                    continue  # its caller gave up
                if ok:
                    answer.set_result(value)
                else:
                    answer.set_exception(value)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # the worker ended
        finally:
            # At once (no await before): the next job starts a new worker, and every job
            # sent to this one fails.
            if self._process is process:
                self._process = None
            for answer in list(self._pending.values()):
                if not answer.done():
                    answer.set_exception(WorkerGone("the drawing process ended"))
            with contextlib.suppress(ProcessLookupError):
                process.kill()  # a worker that broke its frames is no use either
            if process.stdin is not None:
                process.stdin.close()  # asyncio's wait() waits for every pipe to close
            await process.wait()

    async def close(self) -> None:
        """Let the worker finish the jobs it has, then end it (killed after
        ``CLOSE_TIMEOUT``)."""
        self._closed = True
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
        process = self._process
        if process is not None:
            if process.stdin is not None:
                process.stdin.close()
            try:
                await asyncio.wait_for(asyncio.shield(process.wait()), CLOSE_TIMEOUT)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader


# ----- the worker's side --------------------------------------------------------------------------


def serve(warm: str | None = None) -> None:
    """The worker: warm up, then run jobs from standard input until it closes, or until the
    bot is gone (its pipe broken: quietly, a killed bot is no error of the worker's)."""
    # Unbuffered: nothing is left to flush (and fail) at exit once the bot is gone.
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print goes to the log
    jobs = sys.stdin.buffer
    if warm:
        module, _, name = warm.partition(":")
        getattr(__import__(module, fromlist=[name]), name)()
    while True:
        header = jobs.read(LENGTH_BYTES)
        if len(header) < LENGTH_BYTES:
            return  # the bot closed our input, or is gone
        size = int.from_bytes(header, "big")
        body = jobs.read(size)
        if len(body) < size:
            return  # the bot died while writing the job
        job, fn, args, kwargs = pickle.loads(body)
        try:
            answer = (job, True, fn(*args, **kwargs))
        except Exception as error:  # the caller gets it
            answer = (job, False, error)
        try:
            frame = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # an unpicklable result or exception
            frame = pickle.dumps((job, False, RuntimeError(f"{type(error).__name__}: {error}")))
        try:
            write_all(answers, len(frame).to_bytes(LENGTH_BYTES, "big") + frame)
        except (BrokenPipeError, ConnectionResetError):
            return  # the bot is gone (killed): nobody waits for this answer


def write_all(pipe: Any, data: bytes) -> None:
    """Write every byte of ``data`` to an unbuffered ``pipe`` (a raw write may take part)."""
    view = memoryview(data)
    while view:
        view = view[pipe.write(view):]


if __name__ == "__main__":
    serve(sys.argv[1] if len(sys.argv) > 1 else None)
