"""The window's one executor: its jobs, reads and syncs run on its lanes' threads, each
lane on one connection it keeps, and a tag edit that reaches a synced file opens no
library again."""

from __future__ import annotations

import threading
import time

from paperdesk.core.library import Library
from paperdesk.core.model.jobs import check_cancel
from paperdesk.gui import paper_edits
from paperdesk.gui.jobs.executor import Executor
from paperdesk.gui.jobs.reader import Reader
from paperdesk.gui.jobs.worker import Worker
from tests.conftest import SEED_PAPERS

from .test_sync import _written, writer

WAIT_MS = 30_000


def _opens(monkeypatch) -> list[str]:
    """The threads that open a library from now on, one entry an open."""
    opened: list[str] = []
    real = Library.open.__func__

    def counted(cls, *args, **kwargs):
        opened.append(threading.current_thread().name)
        return real(cls, *args, **kwargs)

    monkeypatch.setattr(Library, "open", classmethod(counted))
    return opened


def test_jobs_reads_and_syncs_run_on_the_executors_threads(window, seed_lib, qtbot, tmp_path):
    executor = window.context.executor
    ran: dict[str, threading.Thread] = {}
    out = tmp_path / "refs.bib"
    seed_lib.syncs.add(out)
    writer(window).write_all()
    _written(window, qtbot)

    def job(lib, _progress, _cancel):
        ran["job"] = threading.current_thread()
        return lib.stats()["papers"]

    def read(lib):
        ran["read"] = threading.current_thread()
        return lib.stats()["papers"]

    results: list = []
    window.context.ops.run("Count", job, results.append)
    window.context.reader.request("test", 1, seed_lib.path, read)
    syncs = executor.lane("syncs")
    syncs.put(lambda lane: ran.setdefault("sync", threading.current_thread()))
    qtbot.waitUntil(lambda: len(ran) == 3 and results == [SEED_PAPERS], timeout=WAIT_MS)
    threads = executor.threads()
    assert {t.name for t in threads} >= {"paperdesk-jobs", "paperdesk-reads", "paperdesk-syncs"}
    assert all(t in threads for t in ran.values())
    assert ran["job"].name == "paperdesk-jobs" and ran["read"].name == "paperdesk-reads"
    assert ran["sync"] is writer(window).lane.thread  # the writer's lane is the executor's
    ui = threading.current_thread()
    assert ui not in ran.values()


def test_a_tag_edit_reaches_the_synced_file_without_opening_the_library_again(
        window, seed_lib, qtbot, tmp_path, monkeypatch):
    """The writer writes on the executor's syncs lane, on the connection it keeps: a
    round after a tag edit opens no second connection (nor does any lane)."""
    out = tmp_path / "refs.bib"
    seed_lib.syncs.add(out)
    writer(window).write_all()
    _written(window, qtbot)
    lanes = window.context.executor.lanes
    opened_before = {name: lane.opened for name, lane in lanes.items()}
    opens = _opens(monkeypatch)
    rounds: list = []
    writer(window).finished.connect(rounds.append)
    pid = window.feed.model.paper_id(0)
    paper_edits.add_tags(window.context, [pid], ["kept-in-sync"])
    _written(window, qtbot)
    assert len(rounds) == 1 and rounds[0][0].written
    assert "kept-in-sync" in out.read_text(encoding="utf-8")
    assert opens == []
    assert {name: lane.opened for name, lane in lanes.items()} == opened_before
    assert lanes["syncs"].opened == 1  # opened with the window, kept since


def test_a_lane_keeps_one_connection_from_task_to_task(seed_lib, qtbot):
    reader = Reader(lane=Executor().lane("reads"))
    done: list = []
    reader.done.connect(lambda kind, token, result, error: done.append((token, result, error)))
    for token in range(1, 6):
        reader.request(f"count {token}", token, seed_lib.path, lambda lib: lib.stats()["papers"])
    qtbot.waitUntil(lambda: len(done) == 5, timeout=WAIT_MS)
    assert done == [(t, SEED_PAPERS, None) for t in range(1, 6)]
    assert reader.lane.opened == 1
    reader.stop()
    assert reader.lane.thread is not None and not reader.lane.thread.is_alive()


def test_a_newer_read_of_a_kind_replaces_the_one_not_begun(seed_lib, qtbot):
    lane = Executor().lane("reads")
    reader = Reader(lane=lane)
    gate, done = threading.Event(), []
    reader.done.connect(lambda kind, token, result, error: done.append((kind, token)))
    lane.put(lambda _lane: gate.wait(10))  # the lane busy: the requests wait
    for token in (1, 2, 3):
        reader.request("ids", token, seed_lib.path, lambda lib: None)
    gate.set()
    qtbot.waitUntil(lambda: done == [("ids", 3)], timeout=WAIT_MS)
    qtbot.wait(100)
    assert done == [("ids", 3)]
    reader.stop()


def test_cancel_stops_the_running_job_and_the_lane_goes_on(seed_lib, qtbot):
    executor = Executor()
    worker = Worker(lane=executor.lane("jobs"))
    outcomes: list = []
    worker.finished_job.connect(outcomes.append)
    began = threading.Event()

    def long(_lib, progress, cancel):
        began.set()
        while not cancel.wait(0.01):
            progress(0.5, "half")
        check_cancel(cancel)

    worker.submit("Long", seed_lib.path, long)
    assert began.wait(10)
    worker.cancel()
    worker.submit("Count", seed_lib.path, lambda lib, p, c: lib.stats()["papers"])
    qtbot.waitUntil(lambda: len(outcomes) == 2, timeout=WAIT_MS)
    assert "cancelled" in outcomes[0].error and outcomes[1].result == SEED_PAPERS
    # A job that stopped part way leaves the lane's connection: the next opens afresh.
    assert executor.lane("jobs").opened == 2
    executor.stop()
    assert executor.threads() == []


def test_a_read_finished_as_the_reader_stops_is_not_delivered(seed_lib, qtbot):
    """The window closes its library after stopping its reader: a read whose answer was
    on its way to the UI thread then would be shown from a closed library."""
    reader = Reader(lane=Executor().lane("reads"))
    done: list = []
    reader.done.connect(lambda *args: done.append(args))
    reader.request("counts", 1, seed_lib.path, lambda lib: lib.stats()["papers"])
    deadline = time.monotonic() + 30
    while reader.busy and time.monotonic() < deadline:
        time.sleep(0.01)  # no event delivered meanwhile: the answer waits in the queue
    assert not reader.busy
    reader.stop()
    qtbot.wait(200)
    assert done == []
    reader.request("counts", 2, seed_lib.path, lambda lib: lib.stats()["papers"])
    qtbot.waitUntil(lambda: done == [("counts", 2, SEED_PAPERS, None)], timeout=WAIT_MS)
    reader.stop()


def test_a_task_that_raises_leaves_the_lane_running_its_next_tasks(seed_lib, qtbot):
    lane = Executor().lane("jobs")
    ran: list = []

    def broken(lane):
        lane.library(seed_lib.path)
        raise RuntimeError("a bug in a task")

    lane.put(broken)
    lane.put(lambda lane: ran.append((threading.current_thread(),
                                      lane.library(seed_lib.path).stats()["papers"])))
    qtbot.waitUntil(lambda: bool(ran), timeout=WAIT_MS)
    assert ran == [(lane.thread, SEED_PAPERS)]
    assert lane.opened == 2  # the failed task's connection went with it
    lane.stop()
