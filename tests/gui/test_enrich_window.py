"""Complete from Hugging Face and Fetch daily papers in the window, against a local Hub."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QPoint, Qt

from paperdesk.gui.hub.enrich_action import FetchDialog
from tests.conftest import SEED_PAPERS
from tests.fake_hub import record
from tests.gui.conftest import select_rows
from tests.gui.screenshots import save_screenshot


def _wait_report(qtbot, window):
    qtbot.waitUntil(lambda: window.context.features["hub"].report is not None, timeout=60000)
    report = window.context.features["hub"].report
    report.close()
    return report


def test_complete_the_selection_then_undo_it(window, server, qtbot):
    ids = select_rows(window, [0, 1, 2])
    before = window.lib.papers(ids)
    assert all(p["authors"] == [] or p["organization"] for p in before)
    window.actions_by_name["complete_selection"].trigger()
    report = _wait_report(qtbot, window)
    assert report.summary.text().startswith("completed 3 of 3 papers")
    after = window.lib.papers(ids)
    assert all(p["arxiv_id"] and p["authors"] for p in after)
    assert window.undo_stack.undoText().startswith("Complete 3 papers from Hugging Face")
    window.undo_stack.undo()
    assert window.lib.papers(ids) == before
    window.undo_stack.redo()
    assert window.lib.papers(ids) == after


def test_detail_pane_shows_sources_links_and_key_state(window, server, qtbot, tmp_path):
    (pid,) = select_rows(window, [4])
    # Sources are stamped with the UTC clock (whatever the local time zone), and the
    # day may turn while the job runs.
    days = {dt.datetime.now(dt.UTC).date().isoformat()}
    window.actions_by_name["complete_selection"].trigger()
    _wait_report(qtbot, window)
    days.add(dt.datetime.now(dt.UTC).date().isoformat())
    select_rows(window, [4])
    qtbot.waitUntil(lambda: "authors: Hugging Face, " in window.detail.provenance.text())
    text = window.detail.provenance.text()
    assert "arxiv.org/abs/" in window.detail.meta.text() and "provisional" in text
    assert any(f"authors: Hugging Face, {day}" in text for day in days), (days, text)
    qtbot.wait(200)  # the layout follows the new text on the next turn of the event loop
    print(save_screenshot(window, tmp_path, "enriched-detail.png"))
    window.lib.bibtex.freeze([pid])  # as a copy or an export would
    qtbot.waitUntil(lambda: "frozen" in window.detail.provenance.text())


def test_cancel_keeps_what_was_answered_and_reports_it(window, server, qtbot):
    server.fail("/api/papers/search", 0, times=10_000, delay=0.05)
    window.actions_by_name["complete_all"].trigger()
    qtbot.waitUntil(lambda: window.progress.bar.value() > 50, timeout=30000)
    window.progress.cancel.click()
    report = _wait_report(qtbot, window)
    assert "cancelled" in report.summary.text()
    done = window.lib.db.execute("SELECT count(*) FROM papers WHERE arxiv_id IS NOT NULL"
                                 ).fetchone()[0]
    assert 0 < done < SEED_PAPERS


def test_fetch_daily_papers_from_the_file_menu(window, server, qtbot):
    from paperdesk.gui.hub import enrich_action

    server.add(record("2511.09999", "Window Fetched Paper", "An abstract for the window.",
                      ["Ada Lovelace"], "2025-11-03"), day="2025-11-04")
    assert "fetch_daily" in window.actions_by_name
    before = window.lib.stats()["papers"]
    enrich_action.fetch(window, dt.date(2025, 11, 4), dt.date(2025, 11, 4))
    report = _wait_report(qtbot, window)
    assert "1 paper, 1 new" in report.summary.text()
    assert window.lib.stats()["papers"] == before + 1
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == before + 1)


def test_offline_gives_a_report_line_and_changes_nothing(window, server, qtbot, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    ids = select_rows(window, [0])
    before = window.lib.papers(ids)
    window.actions_by_name["complete_selection"].trigger()
    report = _wait_report(qtbot, window)
    assert "offline" in report.summary.text()
    assert window.lib.papers(ids) == before and server.requests == []


def test_completing_after_import_is_off_until_turned_on(window, server, qtbot, tmp_path):
    from tests.gui.conftest import sidebar_counts  # noqa: F401 (the window is up)

    digest = tmp_path / "day.txt"
    known = window.lib.paper(1)  # in the digest again: merged, not new, so not completed
    digest.write_text("new\n\nGet trending papers in your email inbox!\n\nSubscribe\n\n"
                      "byAK and the research community\n\nNov 4, 2025\n\n"
                      "After Import Paper\n\nAn abstract seen after an import.\n\n"
                      f"{known['title']}\n\n{known['abstract']}\n",
                      encoding="utf-8")
    server.add(record("2511.07777", "After Import Paper", "An abstract seen after an import.",
                      ["Ida Import"], "2025-11-03"))
    action = window.actions_by_name["complete_after_import"]
    assert not action.isChecked()
    action.trigger()
    assert action.isChecked()
    window.context.importer.start([digest])
    report = _wait_report(qtbot, window)
    assert report.summary.text().startswith("completed 1 of 1 papers")
    (pid,) = window.lib.search('"After Import Paper"').ids
    assert window.lib.paper(pid)["authors"] == ["Ida Import"]


def test_the_year_of_a_fetch_date_can_be_typed_after_a_click(qtbot):
    dialog = FetchDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    line = dialog.first.lineEdit()
    inside_year = QPoint(line.fontMetrics().horizontalAdvance("20") + 3, line.height() // 2)
    qtbot.mouseClick(line, Qt.MouseButton.LeftButton, pos=inside_year)
    qtbot.waitUntil(line.hasSelectedText)
    qtbot.keyClicks(line, "2024")
    assert dialog.first.date().year() == 2024
    month = QPoint(line.fontMetrics().horizontalAdvance("2024-0") + 3, line.height() // 2)
    qtbot.mouseClick(line, Qt.MouseButton.LeftButton, pos=month)
    qtbot.waitUntil(lambda: len(line.selectedText()) == 2)
    qtbot.keyClicks(line, "03")
    assert dialog.first.date().month() == 3 and dialog.first.date().year() == 2024
    assert dialog.first.calendarPopup()


def test_a_fetch_offers_to_triage_its_new_papers(window, server, qtbot):
    from PySide6.QtWidgets import QPushButton

    from paperdesk.gui.hub import enrich_action

    server.add(record("2511.09998", "Fetched And Triaged", "An abstract to triage.",
                      ["Ada Lovelace"], "2025-11-03"), day="2025-11-04")
    enrich_action.fetch(window, dt.date(2025, 11, 4), dt.date(2025, 11, 4))
    qtbot.waitUntil(lambda: window.context.features["hub"].report is not None, timeout=60000)
    report = window.context.features["hub"].report
    assert report.summary.text() == "Fetched 1 day: 1 paper, 1 new"
    button = report.findChild(QPushButton, "triage-new-button")
    assert button is not None and button.text() == "Triage the 1 new paper…"
    button.click()
    view = window.context.features["triage"].view
    qtbot.addWidget(view)
    assert view.title.text() == "Fetched And Triaged" and len(view.ids) == 1


def test_a_fetch_that_cannot_reach_the_hub_says_so(window, server, qtbot, monkeypatch):
    from paperdesk.gui.hub import enrich_action

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    enrich_action.fetch(window, dt.date(2025, 11, 4), dt.date(2025, 11, 5))
    report = _wait_report(qtbot, window)
    text = report.summary.text()
    assert text.startswith("Nothing fetched: offline") and "0 papers" not in text


def test_a_fetch_from_a_hub_that_is_not_there_says_so(window, server, qtbot, monkeypatch):
    import socket

    from paperdesk.gui.hub import enrich_action

    with socket.socket() as spare:  # a port nobody listens on
        spare.bind(("127.0.0.1", 0))
        port = spare.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    enrich_action.fetch(window, dt.date(2025, 11, 4), dt.date(2025, 11, 4))
    report = _wait_report(qtbot, window)
    assert report.summary.text().startswith("Nothing fetched: could not reach the Hub")
