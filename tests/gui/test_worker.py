"""The background worker: progress, Cancel, results and errors reach the UI thread."""

from __future__ import annotations

import threading
import time

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
