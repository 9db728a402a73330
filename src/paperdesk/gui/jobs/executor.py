"""The window's one executor of background work: its jobs, its reads and its syncs.

``Executor`` owns a few threads, one per lane: ``jobs`` (imports, scans, fetches:
``gui/jobs/worker.py``), ``history`` (large undos and redos, never behind a job),
``reads`` (the table's long id lists and the sidebar's counts: ``gui/jobs/reader.py``)
and ``syncs`` (the kept-in-sync files and their hashes: ``gui/bibtex/sync_writer.py``).
A lane runs its tasks one after another, in the order they came, so a long import
never holds up a read, nor a read a sync. Each lane keeps one connection to the
library (SQLite connections stay in the thread that opened them), reused from task
to task: opened ahead (``prepare``, as the window opens a library) or at its first
task, and opened again only for another library, for a file replaced under it, or
after a task that failed (``discard``). The connection is closed on its own thread
when the lane stops.

A task is a function ``task(lane)`` run on the lane's thread; it takes the library
through ``lane.library(path)`` and says what it did through its own signals (a Qt
signal emitted on the lane's thread reaches the UI thread queued). The UI thread never
waits for a lane, except when the window closes (``stop``).
"""

from __future__ import annotations

import contextlib
import os
import queue
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from paperdesk.core.api import Library

LANES = ("jobs", "history", "reads", "syncs")
AHEAD = ("jobs", "reads", "syncs")  # the lanes whose connection opens with the window
NICE = {"syncs": 5}  # a lane that leaves the processor to the window's thread

Task = Callable[["Lane"], None]


class Lane:
    """One thread of the executor, its queue of tasks and its library connection."""

    def __init__(self, name: str, nice: int = 0) -> None:
        self.name = name
        self.nice = nice
        self._tasks: queue.Queue[Task | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._lib: Library | None = None
        self.opened = 0  # connections this lane opened (for the tests that count work)

    @property
    def thread(self) -> threading.Thread | None:
        return self._thread

    @property
    def idle(self) -> bool:
        """No task is queued (one may still be running)."""
        return self._tasks.empty()

    def put(self, task: Task) -> None:
        """Run ``task(lane)`` on the lane's thread after the tasks before it."""
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name=f"paperdesk-{self.name}",
                                                daemon=True)
                self._thread.start()
            self._tasks.put(task)

    def prepare(self, path: Path) -> None:
        """Open the library at ``path`` now (closing the one kept), so that the first task
        finds it open; a failure waits for that task, which reports it."""
        def open_ahead(lane: Lane) -> None:
            with contextlib.suppress(Exception):
                lane.library(path)

        self.put(open_ahead)

    def library(self, path: Path) -> Library:
        """On the lane's thread: the connection kept, if it is still to the library at
        ``path``; else a new one (the one kept closed). Raises what opening raises."""
        path = Path(path).absolute()
        lib = self._lib
        if lib is not None and (lib.path != path or lib.moved()):
            self.discard()
        if self._lib is None:
            self._lib = Library.open(path, create=False)
            self.opened += 1
        return self._lib

    def discard(self) -> None:
        """On the lane's thread: close the connection kept; the next task opens afresh."""
        lib, self._lib = self._lib, None
        if lib is not None:
            with contextlib.suppress(Exception):
                lib.close()

    def stop(self) -> None:
        """Run the tasks queued, then end the thread (its connection closed)."""
        with self._lock:
            thread = self._thread
            if thread is None or not thread.is_alive():
                return
            self._tasks.put(None)
        thread.join()

    def _run(self) -> None:
        if self.nice and sys.platform.startswith("linux"):
            # On Linux a thread has a nice value of its own.
            with contextlib.suppress(OSError, AttributeError):
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)
        try:
            while (task := self._tasks.get()) is not None:
                try:
                    task(self)
                except Exception:  # a task's own bug: the lane goes on, on a new connection
                    import logging

                    logging.getLogger("paperdesk").exception("%s task failed", self.name)
                    self.discard()
        finally:
            self.discard()


class Executor:
    """The lanes (``lane(name)``), their threads and their connections."""

    def __init__(self) -> None:
        self.lanes = {name: Lane(name, NICE.get(name, 0)) for name in LANES}

    def lane(self, name: str) -> Lane:
        return self.lanes[name]

    def prepare(self, path: Path) -> None:
        """The library at ``path`` is the window's: the lanes that serve it from the
        start open their connections to it now, off the UI thread."""
        for name in AHEAD:
            self.lanes[name].prepare(path)

    def threads(self) -> list[threading.Thread]:
        """The threads the lanes run on now."""
        return [lane.thread for lane in self.lanes.values()
                if lane.thread is not None and lane.thread.is_alive()]

    def stop(self) -> None:
        """Every lane finishes what it was given and ends."""
        for lane in self.lanes.values():
            lane.stop()
