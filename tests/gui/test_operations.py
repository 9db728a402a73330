"""The window's one operation runner: edits on the UI thread, jobs on the worker, undo,
and one ``changed`` signal per write carrying the core's ``Changes`` and who asked."""

from __future__ import annotations

import threading

from paperdesk.core.db import changes as ch
from paperdesk.core.model.errors import PaperDeskError

WAIT_MS = 30000


def heard_papers(context) -> list[tuple[ch.Changes, object]]:
    """Every ``changed`` of kind papers from now on (scans in the background aside)."""
    heard: list[tuple[ch.Changes, object]] = []
    context.changed.connect(
        lambda changes, who: heard.append((changes, who)) if ch.PAPERS in changes.kinds
        else None)
    return heard


def test_a_job_writes_on_the_worker_goes_on_the_undo_stack_and_is_heard_once(
        window, seed_lib, qtbot):
    context = window.context
    pid = window.feed.model.paper_id(2)
    heard = heard_papers(context)
    threads: list[int] = []
    order: list[str] = []
    context.changed.connect(lambda c, _w: order.append("changed") if ch.PAPERS in c.kinds
                            else None)

    def job(lib, progress, cancel) -> ch.Changes:
        threads.append(threading.get_ident())
        progress(0.5, "rating")
        return lib.curation.set_rating([pid], 5)

    results: list[ch.Changes] = []
    owner = object()
    before = context.undo_stack.count()
    job_id = context.ops.run("Rate on the worker", job,
                             lambda r: (order.append("done"), results.append(r)),
                             undo=True, initiator=owner)
    assert job_id is not None and context.progress.isVisible()
    qtbot.waitUntil(lambda: bool(results), timeout=WAIT_MS)

    assert threads and threads[0] != threading.get_ident()  # not the UI thread
    assert seed_lib.paper(pid)["rating"] == 5
    [(changes, who)] = heard
    assert who is owner and changes.paper_ids == {pid} and changes.how == ch.DONE
    assert order == ["changed", "done"]  # the views hear before the caller's done
    assert context.undo_stack.count() == before + 1
    assert context.undo_stack.undoText() == results[0].label
    # the job is over (a scan for duplicates in the background may still run: quiet)
    assert not context.progress.isVisible() and job_id not in context.ops._pending
    qtbot.waitUntil(lambda: window.feed.model.index(window.feed.model.row_of(pid), 0).isValid())

    context.undo_stack.undo()
    assert seed_lib.paper(pid)["rating"] == 0
    assert [(c.how, w) for c, w in heard[1:]] == [(ch.UNDONE, None)]


def test_an_edit_runs_on_the_ui_thread_and_a_refused_one_only_says_why(window, seed_lib):
    context = window.context
    pid = window.feed.model.paper_id(0)
    heard = heard_papers(context)
    owner = object()
    before = context.undo_stack.count()

    changes = context.ops.edit(seed_lib.curation.set_status, [pid], "read", initiator=owner)
    assert changes is not None and seed_lib.paper(pid)["status"] == "read"
    assert heard == [(changes, owner)]
    assert context.undo_stack.count() == before + 1

    heard.clear()
    assert context.ops.edit(seed_lib.curation.set_rating, [999999], 3) is None
    assert heard == [] and context.undo_stack.count() == before + 1
    assert window.statusBar().currentMessage().startswith("⚠ ")


def test_a_job_that_fails_calls_failed_and_an_inline_job_runs_at_once(window, seed_lib,
                                                                      qtbot):
    context = window.context
    errors: list[str] = []

    def job(lib, progress, cancel):
        raise PaperDeskError("no such thing")

    context.ops.run("Failing", job, lambda _r: None, errors.append)
    qtbot.waitUntil(lambda: bool(errors), timeout=WAIT_MS)
    assert errors == ["no such thing"]
    assert not context.progress.isVisible()

    results: list[int] = []
    assert context.ops.run("Counting", lambda lib, p, c: lib.stats()["papers"],
                           results.append, inline=True) is None
    assert results == [seed_lib.stats()["papers"]]


def test_writes_by_anyone_on_the_library_are_heard_without_an_initiator(window, seed_lib):
    heard = heard_papers(window.context)
    pid = window.feed.model.paper_id(1)
    seed_lib.curation.set_rating([pid], 2)  # not through the runner
    [(changes, who)] = heard
    assert who is None and changes.paper_ids == {pid}
    assert window.feed.model.index(window.feed.model.row_of(pid), 0).isValid()
