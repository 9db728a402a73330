"""Reading a large .bib file's chunks in other processes while this one writes.

Reading fields (LaTeX, names, the kept entry's JSON) costs more than writing the
rows, so a large file's chunks (``core/importing/bib_records.py``) go to reading
processes, round robin, and come back in file order; the importing process
matches and writes them meanwhile. Small files, and machines with one core, are
read in the importing process, by the same code.

The processes are *spawned*, never forked: the GUI imports on a thread of a
process that runs Qt, and forking a process with threads is unsafe. Each one
holds only its own end of one pipe, so when the importing process ends in any
way (even ``kill -9``) its next read or write fails and it exits. On cancel, on
an error and at the end they are stopped and waited for. Should a process fail
to start or die, the chunks it had not returned are read here instead.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
import types
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection
from typing import Any

from paperdesk.core.importing.bib_records import Chunk, ChunkResult, chunk_reader
from paperdesk.core.model.jobs import CancelFlag, check_cancel

PARALLEL_FROM = 8 * 2**20  # bytes (~10,000 entries); below, a start costs more than it saves
AHEAD = 3  # chunks sent to each process before its first result comes back
_POLL = 0.05  # seconds between looks at the cancel flag while waiting for a result
_STARTING = threading.Lock()  # one reader starts at a time, with the caller's program hidden


def reader_count(size: int) -> int:
    """How many reading processes a file of ``size`` bytes gets (0: read here)."""
    if size < PARALLEL_FROM:
        return 0
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return min(2, cores) if cores > 1 else 0


def _serve(conn: Connection) -> None:
    """A reading process: the file's definitions, then chunks in and results out, until
    told to stop or the other end is gone."""
    try:
        read = chunk_reader(*conn.recv())
    except (EOFError, OSError):
        return
    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        try:
            result: Any = read(chunk)
        except Exception as exc:  # raised again in the importing process
            result = exc
        try:
            conn.send(result)
        except OSError:
            return


@contextlib.contextmanager
def _caller_hidden() -> Iterator[None]:
    """Start a reading process without the program that imports.

    A spawned process runs the file of the caller's ``__main__`` again (as
    ``__mp_main__``) unless the program guards itself with ``if __name__ ==
    "__main__"``. A script that imports through ``Library`` without that guard would
    repeat its own work in each reader: open, write, even delete the library. The
    reader needs nothing of the caller's program, so an empty ``__main__`` stands
    in for it while the process starts; the bundle's entry point still turns a
    started bundle into a reader (``multiprocessing.freeze_support``).
    """
    with _STARTING:
        main = sys.modules["__main__"]
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            yield
        finally:
            sys.modules["__main__"] = main


class _Reader:
    """One reading process, the chunks it was sent and a thread sending them."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs,), daemon=True,
                                       name="paperdesk-bib-reader")
        with _caller_hidden():
            self.process.start()
        theirs.close()  # only the reading process holds its end
        self.sent: deque[Chunk] = deque()
        self.queue: deque[Any] = deque()
        self.ready = threading.Condition()
        self.failed = False
        self.feeder = threading.Thread(target=self._feed, daemon=True,
                                       name="paperdesk-bib-feeder")
        self.feeder.start()

    def send(self, chunk: Any) -> None:
        """Queue a chunk (None: stop); the feeder thread sends it, so that this process
        never waits on a full pipe while the reader waits on it."""
        with self.ready:
            self.queue.append(chunk)
            self.ready.notify()

    def _feed(self) -> None:
        while True:
            with self.ready:
                while not self.queue:
                    self.ready.wait()
                chunk = self.queue.popleft()
            try:
                self.conn.send(chunk)
            except (OSError, ValueError):  # the process is gone, or closed here
                return
            if chunk is None:
                return

    def receive(self, cancel: CancelFlag | None) -> ChunkResult | None:
        """The next result, or None when the process is gone."""
        try:
            while not self.conn.poll(_POLL):
                check_cancel(cancel)
                if not self.process.is_alive() and not self.conn.poll(0):
                    return None
            result = self.conn.recv()
        except (EOFError, OSError):
            return None
        if isinstance(result, BaseException):
            raise result
        return result

    def stop(self, *, now: bool = False) -> None:
        """Tell the process to stop and wait for it (``now``: kill it at once)."""
        if not now:
            self.send(None)
            self.process.join(1.0)
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.send(None)  # the feeder thread ends, whatever it was waiting for: its
        self.feeder.join(1.0)  # send fails on a pipe whose other end is gone
        self.conn.close()


class ReaderPool:
    """Reading processes, started when the pool is made (the .bib import makes it once
    the file is scanned and its text let go, so that they are not held beside it).
    Leaving the block on an error or a cancel kills them; they are always waited for."""

    def __init__(self, processes: int) -> None:
        self.readers: list[_Reader] = []
        try:
            for _ in range(processes):
                self.readers.append(_Reader())
        except OSError:  # no process could be started: read here
            self.close(now=True)

    def __enter__(self) -> ReaderPool:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        self.close(now=kind is not None)

    def close(self, *, now: bool = False) -> None:
        readers, self.readers = self.readers, []
        for reader in readers:
            reader.stop(now=now)

    def read(self, chunks: Iterable[Chunk], strings: dict[str, str], string_keys: set[str],
             name: str, cancel: CancelFlag | None = None,
             shas: bool = True) -> Iterator[ChunkResult]:
        """Each chunk's result, in order (``shas``: see ``read_chunk``); the processes stop
        when the last one is read."""
        args = (strings, string_keys, name, shas)
        here = chunk_reader(*args)
        if not self.readers:
            for chunk in chunks:
                check_cancel(cancel)
                yield here(chunk)
            return
        for reader in self.readers:
            reader.send(args)
        yield from _round_robin(iter(chunks), self.readers, here, cancel)
        self.close()


def _round_robin(chunks: Iterator[Chunk], readers: list[_Reader],
                 here: Callable[[Chunk], ChunkResult],
                 cancel: CancelFlag | None) -> Iterator[ChunkResult]:
    order: deque[_Reader] = deque()  # whose result comes next
    for _ in range(AHEAD):
        for reader in readers:
            chunk = next(chunks, None)
            if chunk is None:
                break
            reader.sent.append(chunk)
            reader.send(chunk)
            order.append(reader)
    while order:
        reader = order.popleft()
        chunk = reader.sent.popleft()
        result = None if reader.failed else reader.receive(cancel)
        if result is None:  # the process is gone: what it had is read here, in turn
            reader.failed = True
            check_cancel(cancel)
            result = here(chunk)
        yield result
        following = next(chunks, None)
        if following is not None:
            reader.sent.append(following)
            if not reader.failed:
                reader.send(following)
            order.append(reader)
