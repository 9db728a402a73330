"""A large edit's undo and redo run on the worker, in the order asked, and the window
stays free meanwhile; a step that fails there leaves the stack as if never asked."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from paperdesk.core.api import Library
from paperdesk.gui import operations
from tests.conftest import SEEDS

WAIT_MS = 30000


@pytest.fixture
def large(monkeypatch):
    """Edits of 50 rows count as large (the seed library has under 2,000 papers)."""
    monkeypatch.setattr(operations, "LARGE", 50)


def worker_jobs(window) -> list[str]:
    """The labels of the jobs the worker finishes from now on."""
    labels: list[str] = []
    window.worker.finished_job.connect(lambda outcome: labels.append(outcome.label))
    return labels


def tagged(lib, tag: str) -> int:
    return len(lib.search(f"tag:{tag}").ids)


def test_a_large_undo_and_redo_run_on_the_worker(window, seed_lib, qtbot, large):
    ids = seed_lib.search("").ids
    assert len(ids) >= 50
    window.context.ops.edit(seed_lib.curation.add_tags, ids, "everything")
    assert tagged(seed_lib, "everything") == len(ids)
    jobs = worker_jobs(window)
    ui = threading.get_ident()
    threads: list[int] = []
    seed_lib.add_listener(lambda c: threads.append(threading.get_ident()))

    window.actions_by_name["undo"].trigger()
    progress = window.context.progress  # shown at once, the UI thread free meanwhile
    assert progress.isVisible() and "Undoing" in progress.label.text()
    assert not progress.cancel.isVisible()  # one transaction: nothing to cancel part way
    qtbot.waitUntil(lambda: bool(jobs), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not window.context.ops.busy, timeout=WAIT_MS)
    assert tagged(seed_lib, "everything") == 0
    assert jobs == [window.undo_stack.text(0)]  # written by the worker's connection
    assert threads == [ui]  # and announced on the UI thread, once
    assert window.undo_stack.index() == 0 and window.undo_stack.canRedo()
    assert not window.context.progress.isVisible()

    window.actions_by_name["redo"].trigger()
    qtbot.waitUntil(lambda: len(jobs) == 2, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not window.context.ops.busy, timeout=WAIT_MS)
    assert tagged(seed_lib, "everything") == len(ids) and window.undo_stack.index() == 1


def test_a_small_step_asked_while_a_large_one_runs_waits_behind_it(
        window, seed_lib, qtbot, large):
    ids = seed_lib.search("").ids
    pid = ids[0]
    window.context.ops.edit(seed_lib.curation.add_tags, ids, "everything")  # large
    window.context.ops.edit(seed_lib.curation.set_rating, [pid], 5)     # small, on top
    window.context.ops.edit(seed_lib.curation.add_tags, ids, "again")       # large, on top
    jobs = worker_jobs(window)
    undos = [window.undo_stack.text(i) for i in range(3)]

    for _ in range(3):  # three Ctrl+Z at once: the last two wait behind the first
        window.actions_by_name["undo"].trigger()
    qtbot.waitUntil(lambda: len(jobs) == 3, timeout=WAIT_MS)
    assert jobs == undos[::-1]  # the small one went to the worker too, in its place
    assert tagged(seed_lib, "again") == 0 and tagged(seed_lib, "everything") == 0
    assert seed_lib.paper(pid)["rating"] == 0
    assert window.undo_stack.index() == 0

    window.actions_by_name["redo"].trigger()  # nothing waits now: a small step is inline
    qtbot.waitUntil(lambda: len(jobs) == 4, timeout=WAIT_MS)
    assert tagged(seed_lib, "everything") == len(ids)
    window.actions_by_name["redo"].trigger()
    assert seed_lib.paper(pid)["rating"] == 5 and len(jobs) == 4  # inline: no job


def test_a_large_undo_that_fails_on_the_worker_leaves_the_stack(
        window, seed_lib, qtbot, large):
    ids = seed_lib.search("").ids
    window.context.ops.edit(seed_lib.curation.set_rating, [ids[0]], 4)
    window.context.ops.edit(seed_lib.curation.add_tags, ids, "everything")
    assert window.undo_stack.count() == 2
    other = sqlite3.connect(seed_lib.path)  # another program forbids taking tags off
    other.execute("CREATE TRIGGER keep_tags BEFORE DELETE ON paper_tags "
                  "BEGIN SELECT RAISE(ABORT, 'tags are kept here'); END")
    other.commit()
    messages: list[str] = []
    window.context.notify = messages.append

    window.actions_by_name["undo"].trigger()
    qtbot.waitUntil(lambda: bool(messages), timeout=WAIT_MS)
    assert "tags are kept here" in messages[0]
    assert tagged(seed_lib, "everything") == len(ids)  # nothing written
    # The failed step has left the stack, whose index is where it was: the rating's
    # undo is next, and there is nothing to redo.
    assert window.undo_stack.count() == 1 and window.undo_stack.index() == 1
    assert not window.undo_stack.canRedo()
    window.actions_by_name["undo"].trigger()
    assert seed_lib.paper(ids[0])["rating"] == 0
    other.execute("DROP TRIGGER keep_tags")
    other.commit()
    other.close()


def test_undo_of_a_large_import_runs_on_the_worker(
        make_window, tmp_path, qtbot, large):
    lib = Library.open(tmp_path / "lib.sqlite", create=True)
    window = make_window(lib)
    jobs = worker_jobs(window)
    window.importer.start(SEEDS[:2])
    qtbot.waitUntil(lambda: window.importer.report is not None, timeout=WAIT_MS)
    window.importer.report.close()
    count = lib.stats()["papers"]
    assert count >= 50

    window.undo_last_import()
    qtbot.waitUntil(lambda: len(jobs) == 2, timeout=WAIT_MS)  # the import, its undo
    assert jobs[-1].startswith("Undo import") and lib.stats()["papers"] == 0
    assert "removed" in window.statusBar().currentMessage().lower()
    window.actions_by_name["undo"].trigger()  # the undo of the undo: large, on the worker
    qtbot.waitUntil(lambda: len(jobs) == 3, timeout=WAIT_MS)
    assert lib.stats()["papers"] == count
