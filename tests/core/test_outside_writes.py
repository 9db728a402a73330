"""Writes by other programs are heard (``Library.external_changes``); this process's own
connections (the window's worker) are not heard a second time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from paperdesk.core.db import changes as ch
from paperdesk.core.library import Library

SRC = Path(__file__).resolve().parents[2] / "src"


def _cli(lib: Library, *args: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-m", "paperdesk", "--library", str(lib.path), *args],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr


def test_a_command_in_another_process_is_heard_once(seed_lib):
    assert seed_lib.external_changes() is None
    paper = seed_lib.search("").ids[0]
    _cli(seed_lib, "tag", str(paper), "+from-cron")
    changes = seed_lib.external_changes()
    assert changes is not None and changes.how == ch.OUTSIDE
    assert changes.kinds == ch.ALL_KINDS and ch.TABLE_SET in changes.views
    assert seed_lib.external_changes() is None  # heard once
    assert "from-cron" in seed_lib.paper(paper)["tags"]


def test_a_command_that_only_reads_is_not_heard(seed_lib):
    _cli(seed_lib, "stats")
    assert seed_lib.external_changes() is None


def test_own_writes_and_other_connections_of_this_process_are_not_heard(seed_lib):
    paper = seed_lib.search("").ids[0]
    seed_lib.curation.set_rating([paper], 3)  # this connection
    assert seed_lib.external_changes() is None
    with Library.open(seed_lib.path, create=False) as worker:  # as the window's worker
        worker.curation.set_rating([paper], 5)
        assert seed_lib.external_changes() is None
        worker.curation.set_rating([paper], 4)
    assert seed_lib.external_changes() is None  # the second, and the statistics at close
    _cli(seed_lib, "tag", str(paper), "+later")  # and one from outside after them
    assert seed_lib.external_changes() is not None


def test_a_command_between_two_writes_of_this_process_is_heard(seed_lib):
    """Another program's commit that lands between the same two looks as commits of
    this process's own connections (the worker, the sync writer) is still heard."""
    paper = seed_lib.search("").ids[0]
    with Library.open(seed_lib.path, create=False) as worker:
        assert seed_lib.external_changes() is None
        worker.curation.set_rating([paper], 5)
        _cli(seed_lib, "tag", str(paper), "+between")
        worker.curation.set_rating([paper], 4)
        seed_lib.curation.set_rating([paper], 2)
        assert seed_lib.external_changes() is not None
        worker.curation.set_rating([paper], 1)
        assert seed_lib.external_changes() is None


def test_a_program_that_is_not_paperdesk_writing_is_heard(seed_lib):
    import sqlite3

    with sqlite3.connect(seed_lib.path) as other:
        other.execute("UPDATE papers SET rating = 5 WHERE id = 1")
    assert seed_lib.external_changes() is not None
