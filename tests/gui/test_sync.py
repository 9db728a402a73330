"""Kept-in-sync files in the window: the dialog, the debounced background writes,
the list with states, someone else's edit, failures, and the last change on close."""

from __future__ import annotations

import os
import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QApplication

from paperdesk.core.sync.syncs import CONFLICT
from paperdesk.gui.bibtex import sync_writer

from .screenshots import save_screenshot

WAIT_MS = 15000


def panel(window):
    """The window's kept-in-sync feature's panel (menu, status line, questions)."""
    return window.context.features["sync"].panel


def writer(window):
    return window.context.features["sync"].writer


def _menu_texts(window) -> list[str]:
    panel(window).refresh()
    return [a.text() for a in panel(window).menu.actions()]


def _add(window, qtbot, **options):
    window.actions_by_name["keep_in_sync"].trigger()
    dialog = panel(window).dialog
    qtbot.addWidget(dialog)
    dialog.set_options(**options)
    return dialog


def _written(window, qtbot) -> None:
    """Wait until the writer is idle and its news has reached every listener.

    The writer's lane posts ``finished`` to each listener in turn: under load the
    window can hear it (and the writer look idle) before the lane has posted it to
    the test's own listener. Once the writer's task is over every post is made, and
    delivering the posted events gives the news to all."""
    def idle() -> bool:
        w = writer(window)
        return not w.busy and not w.writing and not w.timer.isActive() and w.posted
    qtbot.waitUntil(idle, timeout=WAIT_MS)
    QApplication.sendPostedEvents()


def test_the_dialog_adds_a_sync_written_at_once(window, seed_lib, qtbot, tmp_path):
    seed_lib.curation.add_tags([2, 9], ["to-cite"])
    dialog = _add(window, qtbot, path=tmp_path / "refs.bib", source="tag", value="to-cite",
                  style="csl-json")
    assert dialog.path.text() == str(tmp_path / "refs.json")  # the suffix follows the format
    save_screenshot(dialog, tmp_path, "sync-dialog.png")
    dialog.accept()
    assert dialog.added is not None and dialog.added.source == "tag"
    _written(window, qtbot)
    out = tmp_path / "refs.json"
    assert out.read_text(encoding="utf-8") == seed_lib.bibtex.export([2, 9], style="csl-json")
    assert _menu_texts(window) == ["refs.json — up to date"]


def test_the_dialog_offers_every_format_a_file_can_be_kept_in(window, qtbot, tmp_path):
    from paperdesk.core.bibtex.formats import FORMATS

    dialog = _add(window, qtbot, path=tmp_path / "refs.bib")
    offered = [(dialog.style.itemText(i), dialog.style.itemData(i))
               for i in range(dialog.style.count())]
    assert offered == [(f.label, f.name) for f in FORMATS if f.syncable]
    for chosen in (f for f in FORMATS if f.syncable):
        dialog.set_options(style=chosen.name)
        assert dialog.path.text() == str(tmp_path / f"refs{chosen.suffix}")
        assert dialog.ascii.isEnabled() == ("ascii" in chosen.options)
        assert chosen.ascii_means in dialog.ascii.text()


def test_a_bad_sync_is_refused_in_the_dialog(window, seed_lib, qtbot, tmp_path):
    seed_lib.syncs.add(tmp_path / "refs.bib")
    dialog = _add(window, qtbot, path=tmp_path / "refs.bib")
    dialog.accept()
    assert dialog.isVisible() and "already kept in sync" in dialog.message.text()
    assert len(seed_lib.syncs.all()) == 1


def test_edits_are_written_a_second_later_on_a_thread(window, seed_lib, qtbot, tmp_path):
    out = tmp_path / "good.bib"
    seed_lib.syncs.add(out, "query", "rating>=4")
    writer(window).write_all()
    _written(window, qtbot)
    assert out.read_text() == ""
    rounds = []
    writer(window).finished.connect(rounds.append)
    row = next(r for r in range(window.feed.model.rowCount()) if window.feed.model.paper_id(r) == 5)
    window.rate_row(row, 5)
    window.rate_row(row + 1, 4)
    assert writer(window).timer.isActive() and out.read_text() == ""  # debounced
    _written(window, qtbot)
    assert len(rounds) == 1  # two edits, one write
    ids = sorted([5, window.feed.model.paper_id(row + 1)])
    assert out.read_text(encoding="utf-8") == seed_lib.bibtex.export(ids)
    window.undo_stack.undo()
    _written(window, qtbot)
    assert out.read_text(encoding="utf-8") == seed_lib.bibtex.export([5])
    inode = os.stat(out).st_ino
    window.edit(seed_lib.curation.set_status, [5], "read")  # not in the file
    _written(window, qtbot)
    assert os.stat(out).st_ino == inode and len(rounds) == 3


def test_imports_on_the_worker_reach_the_sync(make_window, lib, seeds, qtbot, tmp_path):
    window = make_window(lib)
    out = tmp_path / "all.bib"
    lib.syncs.add(out)
    window.context.importer.start(seeds[:2])
    qtbot.waitUntil(lambda: out.exists() and out.read_text(encoding="utf-8")
                    == lib.bibtex.export(), timeout=WAIT_MS)
    _written(window, qtbot)
    assert out.read_text(encoding="utf-8") == lib.bibtex.export() != ""


def test_someone_elses_edit_asks_before_overwriting(window, seed_lib, qtbot, tmp_path):
    out = tmp_path / "refs.bib"
    seed_lib.syncs.add(out)
    writer(window).write_all()
    _written(window, qtbot)
    out.write_text(out.read_text() + "\n% mine\n")
    window.edit(seed_lib.curation.add_tags, [1], ["x"])
    qtbot.waitUntil(lambda: getattr(panel(window), "question", None) is not None
                    and panel(window).question.isVisible(), timeout=WAIT_MS)
    question = panel(window).question
    assert "changed by someone else" in question.text()
    assert question.grab().save(str(tmp_path / "sync-conflict.png"))
    assert out.read_text().endswith("% mine\n")
    assert seed_lib.syncs.get(out).state == CONFLICT
    assert _menu_texts(window)[0].startswith("refs.bib — stopped: the file was changed")
    assert panel(window).status.text().startswith("⚠ refs.bib: stopped")
    overwrite = next(b for b in question.buttons() if b.text() == "Overwrite")
    overwrite.click()
    _written(window, qtbot)
    assert out.read_text(encoding="utf-8") == seed_lib.bibtex.export()
    assert _menu_texts(window) == ["refs.bib — up to date"]
    assert not panel(window).status.isVisible()


def test_stop_syncing_from_the_question(window, seed_lib, qtbot, tmp_path):
    out = tmp_path / "refs.bib"
    out.write_text("% someone else's file\n")
    seed_lib.syncs.add(out)
    writer(window).write_all()
    qtbot.waitUntil(lambda: getattr(panel(window), "question", None) is not None,
                    timeout=WAIT_MS)
    stop = next(b for b in panel(window).question.buttons()
                if b.text() == "Stop syncing")
    stop.click()
    assert seed_lib.syncs.all() == [] and out.read_text() == "% someone else's file\n"
    assert _menu_texts(window) == ["No file is kept in sync"]


def test_a_failure_shows_why_and_the_next_change_retries(window, seed_lib, qtbot, tmp_path):
    folder = tmp_path / "overleaf"
    seed_lib.syncs.add(folder / "refs.bib")
    window.edit(seed_lib.curation.add_tags, [1], ["x"])
    _written(window, qtbot)
    (text,) = _menu_texts(window)
    assert text == f"refs.bib — failed: the folder {folder} does not exist"
    assert "failed: the folder" in panel(window).status.text()
    save_screenshot(window, tmp_path, "sync-failed.png")
    folder.mkdir()
    window.edit(seed_lib.curation.add_tags, [2], ["x"])
    _written(window, qtbot)
    assert (folder / "refs.bib").read_text(encoding="utf-8") == seed_lib.bibtex.export()


def test_the_last_change_is_written_when_the_window_closes(window, seed_lib, qtbot, tmp_path):
    out = tmp_path / "refs.bib"
    seed_lib.syncs.add(out)
    writer(window).write_all()
    _written(window, qtbot)
    window.edit(seed_lib.curation.add_tags, [3], ["last"])
    assert writer(window).timer.isActive()
    window.close()
    assert "keywords = {last}" in out.read_text(encoding="utf-8")


def test_the_menu_lists_states_while_writing(window, seed_lib, qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(sync_writer, "DEBOUNCE_MS", 1000)
    seed_lib.syncs.add(tmp_path / "a.bib")
    seed_lib.syncs.add(tmp_path / "b.bib", "tag", "x")
    writer(window).writing = {1}
    texts = _menu_texts(window)
    assert texts == ["a.bib — writing", "b.bib — not written yet"]
    assert panel(window).status.text() == "Writing a.bib…"
    writer(window).writing = set()
    writer(window).write_all()
    _written(window, qtbot)
    assert _menu_texts(window) == ["a.bib — up to date", "b.bib — up to date"]
    _screenshot_with_menus(window, tmp_path / "sync-menu.png")


def _screenshot_with_menus(window, path) -> None:
    """The window with File and File > Synced files open, painted into one picture
    (offscreen, popups are windows of their own)."""
    file_menu = window.menuBar().actions()[0].menu()
    file_menu.popup(window.mapToGlobal(window.menuBar().geometry().bottomLeft()))
    sub = panel(window).menu
    sub.popup(file_menu.geometry().topRight())
    QApplication.processEvents()
    picture = window.grab()
    painter = QPainter(picture)
    painter.drawPixmap(window.mapFromGlobal(file_menu.geometry().topLeft()), file_menu.grab())
    painter.drawPixmap(window.mapFromGlobal(sub.geometry().topLeft()), sub.grab())
    painter.end()
    sub.hide()
    file_menu.hide()
    assert picture.save(str(path))


@pytest.mark.slow  # keeps the writer's thread alive 3 s on purpose: 6 s in all
def test_an_overwrite_asked_for_while_the_writer_thread_ends_is_written(
        window, seed_lib, qtbot, tmp_path):
    """The writer's thread sends its outcomes and only then ends: an answer given in
    between (the thread is kept alive here 3 s after sending them, as a loaded machine
    may) used to be queued behind that finished write, and never written."""
    out = tmp_path / "refs.bib"
    out.write_text("% someone else's file\n")
    seed_lib.syncs.add(out)
    writer(window).finished.connect(lambda _outcomes: time.sleep(3),
                                        Qt.ConnectionType.DirectConnection)
    writer(window).write_all()
    qtbot.waitUntil(lambda: getattr(panel(window), "question", None) is not None,
                    timeout=WAIT_MS)
    overwrite = next(b for b in panel(window).question.buttons()
                     if b.text() == "Overwrite")
    overwrite.click()
    _written(window, qtbot)
    assert out.read_text(encoding="utf-8") == seed_lib.bibtex.export()
    assert _menu_texts(window) == ["refs.bib — up to date"]


def test_write_now_on_a_stopped_sync_is_disabled_and_says_why(window, seed_lib, qtbot,
                                                              tmp_path):
    out = tmp_path / "refs.bib"
    seed_lib.syncs.add(out)
    writer(window).write_all()
    _written(window, qtbot)
    out.write_text(out.read_text() + "\n% mine\n")
    window.edit(seed_lib.curation.add_tags, [1], ["x"])
    qtbot.waitUntil(lambda: seed_lib.syncs.get(out).state == CONFLICT, timeout=WAIT_MS)
    _written(window, qtbot)
    panel(window).refresh()
    sub = panel(window).menu.actions()[0].menu()
    write = next(a for a in sub.actions() if a.text().startswith("Write now"))
    assert not write.isEnabled() and "changed elsewhere" in write.text()
    assert any(a.text().startswith("Overwrite") and a.isEnabled() for a in sub.actions())


def test_the_status_bar_shows_what_is_on_disk_and_what_others_recorded(window, seed_lib,
                                                                        qtbot, tmp_path):
    """Edited on disk (no write since), or failed in another program: the status bar
    says so on its next look at the files, never nothing."""
    from paperdesk.core.library import Library

    out = tmp_path / "refs.bib"
    seed_lib.syncs.add(out)
    writer(window).write_all()
    _written(window, qtbot)
    panel(window).look()
    qtbot.waitUntil(lambda: out.exists() and writer(window).posted,
                    timeout=WAIT_MS)
    QApplication.sendPostedEvents()
    assert not panel(window).status.isVisible()
    out.write_text(out.read_text(encoding="utf-8") + "% mine\n", encoding="utf-8")
    panel(window).look()
    qtbot.waitUntil(lambda: "changed" in panel(window).status.text(), timeout=WAIT_MS)
    assert panel(window).status.text().startswith("⚠ refs.bib: changed: the file is not")
    assert _menu_texts(window)[0].startswith("refs.bib — changed")
    out.unlink()
    os.mkfifo(out)
    with Library.open(seed_lib.path, create=False) as other:  # another program's write
        assert other.syncs.write(other.syncs.get(out)).state == "failed"
    panel(window).look()
    qtbot.waitUntil(lambda: "failed" in panel(window).status.text(), timeout=WAIT_MS)
    assert "a FIFO, not a regular file" in panel(window).status.text()
