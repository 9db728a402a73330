"""Long jobs report progress and honour cancellation without knowing who drives them.

A job takes ``progress(fraction, message)`` and ``cancel`` (anything with
``is_set()``, such as ``threading.Event``). The CLI, the tests and the GUI's
worker all pass their own.
"""

from __future__ import annotations

import contextlib
import gc
import sqlite3
from collections.abc import Callable, Iterator
from typing import Protocol

from paperdesk.core.model.errors import Cancelled

Progress = Callable[[float, str], None]


class CancelFlag(Protocol):
    def is_set(self) -> bool: ...


def no_progress(fraction: float, message: str) -> None:
    """The progress callback for callers that do not want one."""


def check_cancel(cancel: CancelFlag | None) -> None:
    """Raise Cancelled if the caller asked to stop."""
    if cancel is not None and cancel.is_set():
        raise Cancelled("cancelled; nothing was changed")


# SQLite virtual machine steps between looks at the cancel flag (a few milliseconds).
SQL_CANCEL_STEPS = 10_000


@contextlib.contextmanager
def cancellable_sql(conn: sqlite3.Connection, cancel: CancelFlag | None) -> Iterator[None]:
    """Inside a write: a statement running when the flag is set stops within
    milliseconds and the block raises Cancelled (the caller rolls back)."""
    if cancel is None:
        yield
        return
    conn.set_progress_handler(cancel.is_set, SQL_CANCEL_STEPS)
    try:
        yield
    except sqlite3.OperationalError as exc:
        if cancel.is_set() and "interrupt" in str(exc):
            raise Cancelled("cancelled; nothing was changed") from None
        raise
    finally:
        conn.set_progress_handler(None, 0)
    check_cancel(cancel)


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cycle collector off for the block, then on again if it was on.

    A large import makes millions of objects that live until it ends (entries,
    rows); each automatic collection walked them all again, a sixth of the time
    of a 100,000-entry import. They hold no reference cycles, so nothing is
    left waiting for the collector; reference counting frees them as before.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
