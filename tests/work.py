"""Counting work instead of timing it: a test that times itself fails when the machine
is busy, a count of the work done says the same thing on any machine.

- ``Checks``: a cancel flag that counts how often a job looked at it, and can set itself
  at a given look, so a test cancels at a known point of the work, not after a delay.
- ``statements(conn)``: the SQL statements a connection ran inside the block.
- ``comparisons()``: every string the title and abstract comparisons (rapidfuzz) were
  handed inside the block, so a test can say how many and how long.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass


class Checks:
    """A cancel flag (``is_set()``, ``set()``) that counts the looks at it.

    ``at``: set itself at that look (1 is the first). ``looks`` counts every look,
    ``seen`` the looks that found it set: a job that stops at the first look after the
    press sees it once (or twice: its last check, then the message it returns)."""

    def __init__(self, at: int | None = None) -> None:
        self.at, self.looks, self.seen, self.set_at = at, 0, 0, None
        self._set = False
        self._lock = threading.Lock()

    def set(self) -> None:
        with self._lock:
            if not self._set:
                self._set, self.set_at = True, self.looks

    def is_set(self) -> bool:
        with self._lock:
            self.looks += 1
            if self.at is not None and self.looks >= self.at and not self._set:
                self._set, self.set_at = True, self.looks - 1
            if self._set:
                self.seen += 1
            return self._set


@contextlib.contextmanager
def statements(conn: sqlite3.Connection) -> Iterator[list[str]]:
    """The statements ``conn`` runs inside the block, in order."""
    ran: list[str] = []
    conn.set_trace_callback(ran.append)
    try:
        yield ran
    finally:
        conn.set_trace_callback(None)


@dataclass
class Compared:
    calls: int = 0
    strings: int = 0
    longest: int = 0

    def saw(self, *texts: object) -> None:
        self.calls += 1
        for t in texts:
            for s in (t if isinstance(t, list | tuple) else [t]):
                if isinstance(s, str):
                    self.strings += 1
                    self.longest = max(self.longest, len(s))


@contextlib.contextmanager
def comparisons() -> Iterator[Compared]:
    """Every call of rapidfuzz's ``fuzz.ratio``, ``process.cpdist`` and
    ``process.extract`` inside the block (the code loads them by attribute at the call,
    so the counting stand-ins are what it calls), with the strings handed to them."""
    from rapidfuzz import fuzz, process

    seen = Compared()
    ratio, cpdist, extract = fuzz.ratio, process.cpdist, process.extract

    def plain(kwargs: dict) -> dict:
        if kwargs.get("scorer") is counted_ratio:
            kwargs = {**kwargs, "scorer": ratio}
        return kwargs

    def counted_ratio(a, b, **kwargs):
        seen.saw(a, b)
        return ratio(a, b, **kwargs)

    def counted_cpdist(a, b, **kwargs):
        seen.saw(list(a), list(b))
        return cpdist(a, b, **plain(kwargs))

    def counted_extract(query, choices, **kwargs):
        choices = list(choices)
        seen.saw(query, choices)
        return extract(query, choices, **plain(kwargs))

    fuzz.ratio, process.cpdist, process.extract = counted_ratio, counted_cpdist, counted_extract
    try:
        yield seen
    finally:
        fuzz.ratio, process.cpdist, process.extract = ratio, cpdist, extract


def finishes(work, wait: float = 60.0):
    """``work()`` on a thread of its own, waited for at most ``wait`` seconds: its
    result, or its exception raised here. Not a measure of speed: a bound on a wait,
    set far above the work's time and far below what it would take without the fix."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["result"] = work()
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(wait)
    assert not thread.is_alive(), f"still running after {wait:g} s"
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome.get("result")


@contextlib.contextmanager
def every_statement() -> Iterator[list[str]]:
    """The statements run by every connection opened in this process inside the block
    (the one place that opens them calls ``sqlite3.connect``)."""
    ran: list[str] = []
    connect = sqlite3.connect

    def traced(*args, **kwargs):
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(ran.append)
        return conn

    sqlite3.connect = traced
    try:
        yield ran
    finally:
        sqlite3.connect = connect


# ``paperdesk ARGS`` in a process of its own that counts, through an audit hook, every
# open of one path (by open() or os.open(), through any link); the count is stderr's
# last line.
_COUNTING_OPENS = """
import os, sys
watched = {sys.argv[1], os.path.realpath(sys.argv[1])}
opens = []
def hook(event, args):
    if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.fsdecode(args[0])
        if path in watched or os.path.realpath(path) in watched:
            opens.append(path)
sys.addaudithook(hook)
from paperdesk.app import main
try:
    code = main(sys.argv[2:])
finally:
    sys.stderr.write(f"opens: {len(opens)}\\n")
sys.exit(code)
"""


def counting_opens(target, *args, timeout: float = 120):
    """(the finished process, how often it opened ``target``) for ``paperdesk ARGS``."""
    import subprocess
    import sys

    from tests.command_line import cli_env

    done = subprocess.run([sys.executable, "-c", _COUNTING_OPENS, str(target),
                           *map(str, args)], capture_output=True, text=True,
                          env=cli_env(), timeout=timeout)
    *said, last = done.stderr.splitlines() or ["opens: -1"]
    assert last.startswith("opens: "), done.stderr
    done.stderr = "".join(line + "\n" for line in said)
    return done, int(last.split()[1])


@dataclass
class Steps:
    steps: int = 0


@contextlib.contextmanager
def steps(conn: sqlite3.Connection, every: int = 1000) -> Iterator[Steps]:
    """The SQLite virtual machine steps ``conn`` runs inside the block, to ``every``
    (its progress handler, which the block must not need for a cancel)."""
    counted = Steps()

    def tick() -> int:
        counted.steps += every
        return 0

    conn.set_progress_handler(tick, every)
    try:
        yield counted
    finally:
        conn.set_progress_handler(None, 0)
