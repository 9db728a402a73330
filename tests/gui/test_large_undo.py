"""A large edit's undo and redo run on a thread of their own, and the window stays free
meanwhile; Undo and Redo wait for them, an edit asked meanwhile lands after them, and a
step that fails there leaves the stack as if never asked. The progress panel shows the
job that runs, and its Cancel stops that one."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from paperdesk.core.api import Cancelled, Library
from paperdesk.gui import operations
from tests.conftest import SEEDS

WAIT_MS = 30000


@pytest.fixture
def large(monkeypatch):
    """Edits of 50 rows count as large (the seed library has under 2,000 papers)."""
    monkeypatch.setattr(operations, "LARGE", 50)


def finished_jobs(worker) -> list[str]:
    """The labels of the jobs ``worker`` finishes from now on (the scans for duplicates
    in the background aside: when they run depends on a timer and the machine's load)."""
    labels: list[str] = []
    worker.finished_job.connect(lambda outcome: labels.append(outcome.label)
                                if outcome.label != "Looking for duplicates" else None)
    return labels


def tagged(lib, tag: str) -> int:
    return len(lib.search(f"tag:{tag}").ids)


def undo(window) -> None:
    window.actions_by_name["undo"].trigger()


def redo(window) -> None:
    window.actions_by_name["redo"].trigger()


def test_a_large_undo_and_redo_run_on_their_own_thread(window, seed_lib, qtbot, large):
    ids = seed_lib.search("").ids
    assert len(ids) >= 50
    window.context.ops.edit(seed_lib.curation.add_tags, ids, "everything")
    assert tagged(seed_lib, "everything") == len(ids)
    jobs = finished_jobs(window.context.history_worker)
    ui = threading.get_ident()
    threads: list[int] = []
    seed_lib.add_listener(lambda c: threads.append(threading.get_ident()))

    undo(window)
    progress = window.context.progress  # shown at once, the UI thread free meanwhile
    assert progress.isVisible() and "Undoing" in progress.label.text()
    assert not progress.cancel.isVisible()  # one transaction: nothing to cancel part way
    qtbot.waitUntil(lambda: bool(jobs), timeout=WAIT_MS)
    assert tagged(seed_lib, "everything") == 0
    assert jobs == [window.undo_stack.text(0)]  # written by that thread's connection
    assert threads == [ui]  # and announced on the UI thread, once
    assert window.undo_stack.index() == 0 and window.undo_stack.canRedo()
    qtbot.waitUntil(lambda: not progress.isVisible(), timeout=WAIT_MS)

    redo(window)
    qtbot.waitUntil(lambda: len(jobs) == 2, timeout=WAIT_MS)
    assert tagged(seed_lib, "everything") == len(ids) and window.undo_stack.index() == 1


def test_undo_and_redo_wait_while_a_large_step_is_written(window, seed_lib, qtbot, large):
    ids = seed_lib.search("").ids
    pid = ids[0]
    window.context.ops.edit(seed_lib.curation.set_rating, [pid], 5)     # small
    window.context.ops.edit(seed_lib.curation.add_tags, ids, "everything")  # large
    jobs = finished_jobs(window.context.history_worker)
    actions = window.actions_by_name

    for _ in range(3):  # three Ctrl+Z at once: the first is written, the others wait
        undo(window)
    assert not actions["undo"].isEnabled() and not actions["redo"].isEnabled()
    qtbot.waitUntil(lambda: bool(jobs), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: actions["undo"].isEnabled(), timeout=WAIT_MS)
    assert window.undo_stack.index() == 1 and tagged(seed_lib, "everything") == 0
    assert seed_lib.paper(pid)["rating"] == 5  # not undone: its Ctrl+Z came too early
    undo(window)  # small: inline, no job
    assert seed_lib.paper(pid)["rating"] == 0 and len(jobs) == 1


def test_an_edit_asked_while_a_large_undo_is_written_lands_after_it(
        window, seed_lib, qtbot, large):
    """Rate every paper, Ctrl+Z, and rate one paper at once: that rating stays (it came
    after the undo), and its own Ctrl+Z takes it back to the unrated paper."""
    ids = seed_lib.search("").ids
    pid = ids[3]
    window.context.ops.edit(seed_lib.curation.set_rating, ids, 5)
    undo(window)
    window.context.ops.edit(seed_lib.curation.set_rating, [pid], 3)
    assert seed_lib.paper(pid)["rating"] == 3
    assert {seed_lib.paper(i)["rating"] for i in ids if i != pid} == {0}
    qtbot.waitUntil(lambda: window.actions_by_name["undo"].isEnabled(), timeout=WAIT_MS)
    assert window.undo_stack.count() == 1  # the undone rating of all left for the new one
    undo(window)
    assert seed_lib.paper(pid)["rating"] == 0


def test_a_large_undo_that_fails_leaves_the_stack(window, seed_lib, qtbot, large):
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

    undo(window)
    undo(window)  # waits: Undo is off while the first is written
    qtbot.waitUntil(lambda: bool(messages), timeout=WAIT_MS)
    assert "tags are kept here" in messages[0]
    assert tagged(seed_lib, "everything") == len(ids)  # nothing written
    # The failed step has left the stack, whose index is where it was: the rating's
    # undo is next, and there is nothing to redo.
    assert window.undo_stack.count() == 1 and window.undo_stack.index() == 1
    assert not window.undo_stack.canRedo() and seed_lib.paper(ids[0])["rating"] == 4
    qtbot.waitUntil(lambda: window.actions_by_name["undo"].isEnabled(), timeout=WAIT_MS)
    undo(window)
    assert seed_lib.paper(ids[0])["rating"] == 0
    other.execute("DROP TRIGGER keep_tags")
    other.commit()
    other.close()


def test_undo_of_a_large_import_runs_on_the_worker_and_undo_waits_for_it(
        make_window, tmp_path, qtbot, large):
    lib = Library.open(tmp_path / "lib.sqlite", create=True)
    window = make_window(lib)
    jobs = finished_jobs(window.worker)
    window.context.importer.start(SEEDS[:2])
    qtbot.waitUntil(lambda: window.context.importer.report is not None, timeout=WAIT_MS)
    window.context.importer.report.close()
    count = lib.stats()["papers"]
    assert count >= 50
    window.context.ops.edit(lib.curation.set_rating, [lib.search("").ids[0]], 5)

    window.context.features["imports"].undo_last()
    undo(window)  # at once: waits (Undo is off) until the import's undo is on the stack
    qtbot.waitUntil(lambda: len(jobs) == 2, timeout=WAIT_MS)  # the import, its undo
    assert jobs[-1].startswith("Undo import") and lib.stats()["papers"] == 0
    assert "removed" in window.statusBar().currentMessage().lower()
    assert window.undo_stack.count() == 2  # the rating, the import's undo
    qtbot.waitUntil(lambda: window.actions_by_name["undo"].isEnabled(), timeout=WAIT_MS)
    undo(window)  # the undo of the undo: large, on its own thread
    qtbot.waitUntil(lambda: lib.stats()["papers"] == count, timeout=WAIT_MS)


def test_the_panel_shows_the_running_job_and_cancel_stops_that_one(
        window, seed_lib, qtbot, large):
    ids = seed_lib.search("").ids
    window.context.ops.edit(seed_lib.curation.add_tags, ids, "everything")
    started, outcomes = threading.Event(), []

    def slow(_lib, _progress, cancel):
        started.set()
        while not cancel.wait(0.01):
            pass
        raise Cancelled("cancelled; nothing was changed")

    ops, progress = window.context.ops, window.context.progress
    ops.run("Slow", slow, outcomes.append, outcomes.append, text="Working…")
    assert started.wait(10)
    undo(window)  # large: written beside it, on its own thread
    assert progress.label.text() == "Working…" and progress.cancel.isVisible()
    qtbot.waitUntil(lambda: tagged(seed_lib, "everything") == 0, timeout=WAIT_MS)
    assert progress.label.text() == "Working…" and not outcomes  # still running
    progress.cancel.click()  # stops the job shown, not the undo (done already)
    qtbot.waitUntil(lambda: bool(outcomes), timeout=WAIT_MS)
    assert "cancelled" in outcomes[0]
    qtbot.waitUntil(lambda: not progress.isVisible(), timeout=WAIT_MS)
    assert window.undo_stack.index() == 0


def test_a_large_undo_asked_just_before_the_window_closes_is_written(
        make_window, seed_lib, qtbot, large):
    window = make_window(seed_lib)
    ids = seed_lib.search("").ids
    window.context.ops.edit(seed_lib.curation.add_tags, ids, "everything")
    undo(window)
    window.close()  # waits for the undo asked: it cannot stop part way
    assert tagged(seed_lib, "everything") == 0


def test_an_import_beside_a_large_undo_is_shown_and_can_be_cancelled(
        window, seed_lib, qtbot, large):
    """A job on the window's worker runs beside an undo on its own thread: the panel
    shows the one that can be cancelled, and Cancel stops it, not the undo."""
    ids = seed_lib.search("").ids
    window.context.ops.edit(seed_lib.curation.add_tags, ids, "everything")
    gate, started, outcomes = threading.Event(), threading.Event(), []

    def slow(_lib, _progress, cancel):
        started.set()
        while not cancel.wait(0.01):
            pass
        raise Cancelled("cancelled; nothing was changed")

    def held(lib, undo_data):  # the undo, held until the job below runs
        gate.wait(10)
        return lib.undo(undo_data)

    ops, progress = window.context.ops, window.context.progress
    command = window.undo_stack.command(0)
    ops.run("Undo held", lambda lib, _p, _c: held(lib, command.undo_data), text="Undoing…",
            cancellable=False, worker=window.context.history_worker)
    ops.run("Slow", slow, outcomes.append, outcomes.append, text="Working…")
    assert started.wait(10)
    qtbot.waitUntil(lambda: progress.label.text() == "Working…", timeout=WAIT_MS)
    assert progress.cancel.isVisible()
    progress.cancel.click()
    qtbot.waitUntil(lambda: bool(outcomes), timeout=WAIT_MS)
    assert "cancelled" in outcomes[0]
    assert progress.label.text() == "Undoing…" and not progress.cancel.isVisible()
    gate.set()
    qtbot.waitUntil(lambda: tagged(seed_lib, "everything") == 0, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not progress.isVisible(), timeout=WAIT_MS)


def test_the_menu_names_an_undone_import_without_saying_the_opposite(
        make_window, tmp_path, qtbot):
    lib = Library.open(tmp_path / "lib.sqlite", create=True)
    window = make_window(lib)
    window.context.importer.start(SEEDS[:1])
    qtbot.waitUntil(lambda: window.context.importer.report is not None, timeout=WAIT_MS)
    window.context.importer.report.close()
    window.context.features["imports"].undo_last()
    name = SEEDS[0].name
    assert window.actions_by_name["undo"].text() == f"&Undo removal of the import of {name}"
    undo(window)  # the import is back: Redo takes it away again
    assert window.actions_by_name["redo"].text() == f"&Redo removal of the import of {name}"
    assert lib.stats()["papers"] > 0


def test_an_unmerge_is_named_by_what_it_did(window, seed_lib):
    from tests.core.test_duplicates import add_copy

    pid = seed_lib.search("").ids[0]
    copy = add_copy(seed_lib, pid, title=seed_lib.paper(pid)["title"] + " (again)")
    merge_id = seed_lib.duplicates.merge(pid, [copy]).result["merge_id"]
    window.context.ops.edit(seed_lib.duplicates.unmerge, merge_id)
    assert window.actions_by_name["undo"].text() == (
        f"&Undo unmerge of merge {merge_id} (papers {pid}, {copy})")


def test_an_edit_after_a_large_undo_that_never_began_goes_on(window, seed_lib, qtbot,
                                                              large, tmp_path):
    """The library moved away before the undo's thread could open it: the step fails
    without running, and an edit asked at once neither hangs nor lands unsaid."""
    import faulthandler
    import sys

    ids = seed_lib.search("").ids
    window.context.ops.edit(seed_lib.curation.add_tags, ids, "everything")
    messages: list[str] = []
    window.context.notify = messages.append
    seed_lib.path.rename(tmp_path / "moved.sqlite")
    undo(window)
    faulthandler.dump_traceback_later(60, exit=True, file=sys.stderr)  # a hang fails
    try:
        window.context.ops.edit(seed_lib.curation.set_rating, [ids[0]], 2)
    finally:
        faulthandler.cancel_dump_traceback_later()
    qtbot.waitUntil(lambda: len(messages) >= 2, timeout=WAIT_MS)  # the edit's, the undo's
    assert window.undo_stack.count() == 0  # the failed step left; the edit was refused


def test_a_worker_says_it_is_done_with_a_job_it_could_not_begin(qtbot, tmp_path):
    from paperdesk.gui.jobs.worker import Worker

    worker = Worker()
    ran: list[int] = []
    job_id = worker.submit("Never", tmp_path / "missing.sqlite", lambda *_a: ran.append(1))
    try:
        assert worker.ended(job_id).wait(30) and not ran
    finally:
        worker.stop()
