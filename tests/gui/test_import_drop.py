"""Files dropped on the window import on the worker; the table, sidebar and report follow."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from tests.conftest import SEED_PAPERS

from .conftest import sidebar_counts


def drop(target, paths: list[Path]) -> QMimeData:
    mime = QMimeData()  # the caller keeps it alive while Qt uses it
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    point = QPointF(target.width() / 2, target.height() / 2)
    action = Qt.DropAction.CopyAction
    enter = QDragEnterEvent(point.toPoint(), action, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(target, enter)
    assert enter.isAccepted()
    event = QDropEvent(point, action, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(target, event)
    return mime


@pytest.fixture
def four_seeds(lib, seeds):
    reports = lib.import_paths(seeds[:4])
    assert all(r.status == "imported" for r in reports)
    return lib


def test_dropping_a_digest_imports_it_on_the_worker(four_seeds, make_window, seeds, qtbot):
    lib = four_seeds
    window = make_window(lib)
    before = lib.stats()["papers"]
    assert window.feed.model.rowCount() == before
    mime = drop(window, [seeds[4]])
    assert window.progress.isVisible() or window.context.importer.report is not None
    qtbot.waitUntil(lambda: window.context.importer.report is not None, timeout=20000)
    after = lib.stats()["papers"]
    assert after == SEED_PAPERS > before
    assert window.feed.model.rowCount() == after
    counts = sidebar_counts(window)
    assert counts["All papers"] == str(after)
    assert len(lib.digests()) == 5
    rows = window.context.importer.report.rows()
    assert rows[0][0] == seeds[4].name and rows[0][1] == "Imported"
    new = int(rows[0][2])
    assert new == after - before
    assert not window.progress.isVisible()
    assert mime.hasUrls()


def test_dropping_on_the_search_box_imports_instead_of_pasting(four_seeds, make_window, seeds,
                                                               qtbot):
    window = make_window(four_seeds)
    mime = drop(window.search_bar.edit, [seeds[4]])
    qtbot.waitUntil(lambda: window.context.importer.report is not None, timeout=20000)
    assert window.search_bar.edit.text() == ""
    assert window.feed.model.rowCount() == SEED_PAPERS
    assert mime.hasUrls()


def test_a_dropped_non_digest_is_reported_and_changes_nothing(window, seed_lib, tmp_path,
                                                              qtbot):
    junk = tmp_path / "notes.txt"
    junk.write_text("Dear diary,\n\ntoday I read nothing at all.\n")
    stats = seed_lib.stats()
    mime = drop(window, [junk])
    qtbot.waitUntil(lambda: window.context.importer.report is not None, timeout=20000)
    [row] = window.context.importer.report.rows()
    assert row[0] == "notes.txt"
    assert row[1] == "Not imported"
    assert row[4]  # the reason, in words
    assert seed_lib.stats() == stats
    assert window.feed.model.rowCount() == SEED_PAPERS
    assert sidebar_counts(window)["All papers"] == f"{SEED_PAPERS}"
    assert mime.hasUrls()


def test_dropping_an_already_imported_file_says_so(window, seeds, qtbot):
    mime = drop(window, [seeds[0]])
    qtbot.waitUntil(lambda: window.context.importer.report is not None, timeout=20000)
    assert window.context.importer.report.rows()[0][1] == "Already imported"
    assert window.feed.model.rowCount() == SEED_PAPERS
    assert mime.hasUrls()


def test_a_drop_is_taken_as_a_copy_never_a_move(four_seeds, make_window, seeds, qtbot):
    window = make_window(four_seeds)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(seeds[4]))])
    point = QPointF(window.width() / 2, window.height() / 2)
    move, copy = Qt.DropAction.MoveAction, Qt.DropAction.CopyAction
    only_move = QDragEnterEvent(point.toPoint(), move, mime, Qt.MouseButton.LeftButton,
                                Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, only_move)
    assert not only_move.isAccepted()
    dropped = QDropEvent(point, move, mime, Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, dropped)
    assert not dropped.isAccepted() and window.context.importer.report is None
    enter = QDragEnterEvent(point.toPoint(), move | copy, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    enter.setDropAction(move)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted() and enter.dropAction() == copy
    either = QDropEvent(point, move | copy, mime, Qt.MouseButton.LeftButton,
                        Qt.KeyboardModifier.NoModifier)
    either.setDropAction(move)
    QApplication.sendEvent(window, either)
    assert either.isAccepted() and either.dropAction() == copy
    qtbot.waitUntil(lambda: window.context.importer.report is not None, timeout=20000)
    assert seeds[4].exists()
