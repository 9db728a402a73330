"""The background worker: progress, Cancel, results and errors reach the UI thread."""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
import time

from paperdesk.core.library import Library
from paperdesk.core.model.jobs import check_cancel
from paperdesk.gui.jobs.worker import Worker
from tests.conftest import SEED_PAPERS


def test_a_job_reports_progress_and_stops_when_cancelled(seed_lib, qtbot):
    worker = Worker()
    seen: list[tuple[float, str]] = []
    outcomes = []
    worker.progress.connect(lambda _id, f, m: seen.append((f, m)))
    worker.finished_job.connect(outcomes.append)
    ui_thread = threading.get_ident()

    def job(lib, progress, cancel):
        assert threading.get_ident() != ui_thread
        progress(0.5, f"{lib.stats()['papers']} papers")
        deadline = time.monotonic() + 10
        while not cancel.is_set() and time.monotonic() < deadline:
            time.sleep(0.01)
        check_cancel(cancel)
        return "finished"

    worker.submit("Long job", seed_lib.path, job)
    qtbot.waitUntil(lambda: seen == [(0.5, f"{SEED_PAPERS} papers")])
    worker.cancel()
    qtbot.waitUntil(lambda: len(outcomes) == 1)
    assert outcomes[0].result is None
    assert "cancelled" in outcomes[0].error

    worker.submit("Count", seed_lib.path, lambda lib, p, c: lib.stats()["papers"])
    worker.submit("Broken", seed_lib.path, lambda lib, p, c: 1 / 0)
    qtbot.waitUntil(lambda: len(outcomes) == 3)
    assert outcomes[1].result == SEED_PAPERS and outcomes[1].error is None
    assert outcomes[2].error == "Broken failed: ZeroDivisionError: division by zero"
    worker.stop()


def test_the_worker_keeps_its_library_open_between_jobs(seed_lib, qtbot, tmp_path):
    """One connection from job to job, its writes in the main file after each; a new one
    after a failed job, for another library, and for a file replaced under it."""
    worker = Worker()
    outcomes = []
    worker.finished_job.connect(outcomes.append)

    def run(job, path=seed_lib.path):
        done = len(outcomes) + 1
        worker.submit("Job", path, job)
        qtbot.waitUntil(lambda: len(outcomes) == done, timeout=10000)
        return outcomes[-1]

    def rate(lib, progress, cancel):
        lib.curation.set_rating([1], 4)
        return lib

    worker.prepare(seed_lib.path)
    first = run(lambda lib, p, c: lib).result
    assert run(rate).result is first
    # The write is in the main file, not only in the write-ahead log: read without it.
    main = sqlite3.connect(f"file:{seed_lib.path}?immutable=1", uri=True)
    assert main.execute("SELECT rating FROM papers WHERE id = 1").fetchone() == (4,)
    main.close()

    assert run(lambda lib, p, c: 1 / 0).error is not None
    after_failure = run(lambda lib, p, c: lib).result
    assert after_failure is not first

    other = Library.open(tmp_path / "other.sqlite")
    other.close()
    assert run(lambda lib, p, c: lib, other.path).result.path == other.path
    back = run(lambda lib, p, c: lib).result
    assert back is not after_failure and back.path == seed_lib.path

    # The file replaced under the open connection (a restore from another program).
    shutil.copyfile(seed_lib.path, tmp_path / "copy.sqlite")
    os.replace(tmp_path / "copy.sqlite", seed_lib.path)
    assert run(lambda lib, p, c: lib).result is not back
    worker.stop()


def test_a_library_that_cannot_be_opened_ahead_fails_its_first_job_not_the_worker(
        seed_lib, qtbot, tmp_path):
    worker = Worker()
    outcomes = []
    worker.finished_job.connect(outcomes.append)
    missing = tmp_path / "nowhere" / "gone.sqlite"
    worker.prepare(missing)
    worker.submit("Count", missing, lambda lib, p, c: lib.stats()["papers"])
    worker.submit("Count", seed_lib.path, lambda lib, p, c: lib.stats()["papers"])
    qtbot.waitUntil(lambda: len(outcomes) == 2, timeout=10000)
    assert outcomes[0].error is not None and "gone.sqlite" in outcomes[0].error
    assert outcomes[1].result == SEED_PAPERS
    worker.stop()
