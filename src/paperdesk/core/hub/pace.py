"""Requests to one service one at a time and spaced apart, in every PaperDesk program at once.

arXiv's terms for automated clients (one connection, at least three seconds between
requests) hold for the computer, not for one program: ``paperdesk add`` run beside
``paperdesk pdf fetch``, or beside the window fetching PDFs, must still keep to them.
A ``Pace`` is that rule for one service, and every client of the service shares it
(arXiv's API and its PDFs share ``ARXIV``):

- a turn is taken under a lock held in this process (a thread lock) and, for a
  shared pace, across processes (a file lock, ``NAME-requests.lock`` in the data
  folder, portable through ``filelock``);
- the lock is held for the whole request, answer and body included, so a second
  program waits for the first one's answer: one connection at a time;
- ``NAME-requests.stamp`` beside the lock says when the last request ended and the
  earliest moment the service allows the next (its ``Retry-After``), so the next
  turn, in whichever program, waits for both. The stamp is wall-clock time, the one
  clock processes share; a stamp in the future (a clock set back) is read as at
  most one spacing, or ``max_wait``, to wait, never an endless one.

Where the data folder cannot hold the lock (read-only, missing), the pace still
holds in this process. Every wait, for the lock as for the spacing, looks at
``stop`` (the cancel flag) every ``hub_http.SLICE`` seconds.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paperdesk.core.hub import hub_http


@dataclass
class Turn:
    """One request's turn; ``retry_after`` (seconds) is what the service asked for."""

    retry_after: float | None = None


class Pace:
    """The turns of one service's requests (``shared``: across processes too)."""

    def __init__(self, name: str, *, shared: bool) -> None:
        self.name = name
        self.shared = shared
        self.requests = 0            # turns taken in this process
        self._lock = threading.Lock()
        self._last = -1e9            # monotonic end of this process's last request
        self._not_before = -1e9      # monotonic: a Retry-After heard in this process

    def reset(self) -> None:
        """Forget this process's last request (tests: each starts from rest)."""
        self._last = self._not_before = -1e9

    def paths(self) -> tuple[Path, Path]:
        """The lock and the stamp, in the data folder."""
        from paperdesk.core.db.paths import data_dir

        folder = data_dir()
        return folder / f"{self.name}-requests.lock", folder / f"{self.name}-requests.stamp"

    @contextlib.contextmanager
    def turn(self, spacing: float, stop: Callable[[], None],
             max_wait: float = 60.0) -> Iterator[Turn]:
        """Wait for this request's turn, hold it while the block asks, then stamp it."""
        _acquire(self._lock.acquire, stop)
        try:
            with self._shared_lock(stop) as stamp:
                ended, not_before = _read(stamp) if stamp is not None else (None, None)
                mono, wall = time.monotonic(), time.time()
                waits = [self._last + spacing - mono, self._not_before - mono]
                if ended is not None:
                    waits.append(min(spacing, ended + spacing - wall))
                if not_before is not None:
                    waits.append(min(max_wait, not_before - wall))
                hub_http.wait(max(waits), stop)
                turn = Turn()
                self.requests += 1
                try:
                    yield turn
                finally:
                    self._last = time.monotonic()
                    after = turn.retry_after if turn.retry_after is not None else 0.0
                    self._not_before = self._last + min(after, max_wait)
                    if stamp is not None:
                        _write(stamp, time.time(), time.time() + min(after, max_wait))
        finally:
            self._lock.release()

    @contextlib.contextmanager
    def _shared_lock(self, stop: Callable[[], None]) -> Iterator[Path | None]:
        """The file lock held (yielding the stamp's path), or None where it cannot be."""
        if not self.shared:
            yield None
            return
        from filelock import FileLock

        lock_path, stamp = self.paths()
        try:
            lock_path.parent.mkdir(parents=True, exist_ok=True)
            lock = FileLock(lock_path, mode=0o600)
        except (OSError, ValueError):
            yield None
            return
        if not _locked(lock, stop):  # the folder is not writable: this process's pace only
            yield None
            return
        try:
            yield stamp
        finally:
            lock.release()


def _locked(lock: Any, stop: Callable[[], None]) -> bool:
    """Take the file lock, looking at ``stop`` while another program holds it; False
    when the lock file cannot be made."""
    from filelock import Timeout

    while True:
        try:
            lock.acquire(timeout=hub_http.SLICE)
            return True
        except Timeout:
            stop()
        except OSError:
            return False


def _acquire(acquire: Callable[..., bool], stop: Callable[[], None]) -> None:
    while not acquire(timeout=hub_http.SLICE):
        stop()


def _read(stamp: Path) -> tuple[float | None, float | None]:
    """(when the last request ended, the earliest next), wall-clock; a stamp that
    cannot be read is a request that just ended (the safe reading)."""
    try:
        text = stamp.read_text(encoding="ascii")
    except FileNotFoundError:
        return None, None
    except (OSError, UnicodeDecodeError):
        return time.time(), None
    try:
        ended, not_before = (float(part) for part in text.split())
    except ValueError:
        return time.time(), None
    return ended, not_before


def _write(stamp: Path, ended: float, not_before: float) -> None:
    """The stamp rewritten whole (a temporary file renamed over it); quietly not
    where it cannot be, as the pace then holds in this process only."""
    temp = stamp.with_name(f"{stamp.name}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError):
        temp.write_text(f"{ended:.3f} {not_before:.3f}\n", encoding="ascii")
        os.replace(temp, stamp)


# One per service and process; every client of arXiv (its API, its PDFs) takes turns
# from this one, and so does every other PaperDesk program on the computer.
ARXIV = Pace("arxiv", shared=True)
