"""The built-in reader, offscreen, on a PDF pdflatex made with known phrases on known pages:
open it (to-read becomes reading), find on page 3, copy, highlight, undo, redo, merge,
keep the page; a hostile file is one line and the window lives."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from paperdesk.gui.pdf.reader_feature import open_reader
from tests.gui.conftest import select_row
from tests.reader_pdf import PAGE3_PHRASE, ZEBRA, ZEBRA_HITS, attach, reader_pdf


@pytest.fixture(scope="module", params=["bytes", pytest.param("pdflatex", marks=pytest.mark.tex)])
def pdf(request, tmp_path_factory):
    """The 30 pages written byte by byte (the fast tier), and as pdflatex typesets them."""
    return reader_pdf(tmp_path_factory.mktemp("pdf"), tex=request.param == "pdflatex")


def opened(qtbot, window, aid, page=None, words=None):
    reader = window.context.features["reader"]
    open_reader(window.context, aid, page, words)
    qtbot.waitUntil(lambda: reader.opened_window(aid) is not None)
    shown = reader.opened_window(aid)
    qtbot.waitExposed(shown)
    return shown


def test_read_a_to_read_paper_find_copy_highlight_undo_redo(qtbot, window, pdf):
    lib = window.context.lib
    pid = select_row(window, 0)
    lib.curation.set_status([pid], "to-read")
    aid = attach(lib, pid, pdf)
    qtbot.keyClick(window.feed.view, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    reader = window.context.features["reader"]
    qtbot.waitUntil(lambda: reader.opened_window(aid) is not None)
    shown = reader.opened_window(aid)
    assert lib.paper(pid)["status"] == "reading"
    qtbot.waitUntil(lambda: shown.view.has_page_image(0))
    assert shown.view.page_count == 30
    # Find: every hit on every page, the first one on page 3.
    shown.find(ZEBRA)
    qtbot.waitUntil(lambda: len(shown.view.texts) == 30)
    by_page = {}
    for page, _s, _e in shown.view.hits:
        by_page[page] = by_page.get(page, 0) + 1
    assert by_page == ZEBRA_HITS
    shown.find(PAGE3_PHRASE)
    assert [h[0] for h in shown.view.hits] == [2, 2]
    assert shown.view.current_page() == 2
    assert shown.hits_label.text().strip() == "1 of 2"
    qtbot.keyClick(shown.view, Qt.Key.Key_F3)
    assert shown.view.current_hit == 1
    qtbot.keyClick(shown.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == PAGE3_PHRASE
    # Highlight the find hit by keyboard, then comment on it.
    qtbot.keyClick(shown.view, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    (made,) = lib.highlights.of_attachment(aid)
    assert (made["page"], made["text"], made["colour"]) == (2, PAGE3_PHRASE, "green")
    assert len(made["quads"]) == 1 and len(made["quads"][0]) == 8
    assert shown.view.highlights and shown.view.highlights[0]["id"] == made["id"]
    shown.comment("horses, really")
    assert lib.highlights.get(made["id"])["comment"] == "horses, really"
    # Undo twice (comment, highlight) in the reader, redo once.
    qtbot.keyClick(shown.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert lib.highlights.get(made["id"])["comment"] == ""
    qtbot.keyClick(shown.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: lib.highlights.of_attachment(aid) == [])
    assert shown.view.highlights == []
    qtbot.keyClick(shown.view, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: len(lib.highlights.of_attachment(aid)) == 1)
    assert [h["id"] for h in shown.view.highlights] == [made["id"]]
    # The page in view is kept when the reader closes; opening again goes back there.
    shown.view.go_to(11)
    shown.close()
    assert lib.reading.attachment(aid)["last_page"] == 11
    again = opened(qtbot, window, aid)
    assert again.view.current_page() == 11
    again.close()


def test_reading_a_to_read_paper_makes_it_reading_and_undo_takes_it_back(qtbot, window,
                                                                         pdf):
    lib = window.context.lib
    pid = select_row(window, 0)
    lib.curation.set_status([pid], "to-read")
    aid = attach(lib, pid, pdf)
    shown = opened(qtbot, window, aid)
    assert lib.paper(pid)["status"] == "reading"
    assert window.undo_stack.undoText() == "Mark 1 paper reading"
    shown.close()
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: lib.paper(pid)["status"] == "to-read")
    shown = opened(qtbot, window, aid)  # again: reading again
    assert lib.paper(pid)["status"] == "reading"
    shown.close()
    lib.curation.set_status([pid], "read")
    count = window.undo_stack.count()
    shown = opened(qtbot, window, aid)  # a paper read stays read, and nothing is recorded
    assert lib.paper(pid)["status"] == "read" and window.undo_stack.count() == count
    shown.close()


def test_a_mouse_drag_over_the_text_selects_it_and_copies(qtbot, window, pdf):
    from PySide6.QtCore import QPoint

    lib = window.context.lib
    aid = attach(lib, lib.search("").ids[0], pdf)
    shown = opened(qtbot, window, aid, page=2)
    view = shown.view
    qtbot.waitUntil(lambda: 2 in view.texts)
    text = view.texts[2]
    start, end = text.find(PAGE3_PHRASE)[0]

    def at(index: int) -> QPoint:
        x, y, w, h = view.layout_.box_to_view(2, text.boxes[index])
        return QPoint(int(x + w / 2 - view.horizontalScrollBar().value()),
                      int(y + h / 2 - view.verticalScrollBar().value()))

    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=at(start))
    qtbot.mouseMove(view.viewport(), at((start + end) // 2))
    qtbot.mouseMove(view.viewport(), at(end - 1))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=at(end - 1))
    assert view.selected_text() == PAGE3_PHRASE
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == PAGE3_PHRASE
    qtbot.keyClick(view, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    (made,) = lib.highlights.of_attachment(aid)
    assert made["text"] == PAGE3_PHRASE and made["colour"] == "yellow"
    # A click on the highlight makes it the one Comment and Delete act on.
    shown.set_current_highlight(None)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at(start + 3))
    assert shown.current_highlight == made["id"]
    qtbot.keyClick(view, Qt.Key.Key_Delete, Qt.KeyboardModifier.ControlModifier)
    assert lib.highlights.of_attachment(aid) == []
    shown.close()


def test_a_selection_by_drag_highlights_and_a_merge_keeps_it(qtbot, window, pdf):
    lib = window.context.lib
    pid, other = lib.search("").ids[:2]
    aid = attach(lib, other, pdf)
    shown = opened(qtbot, window, aid, page=2)
    qtbot.waitUntil(lambda: 2 in shown.view.texts)
    text = shown.view.texts[2]
    start, end = text.find(PAGE3_PHRASE)[0]
    shown.view.set_selection((2, start, end))
    assert shown.view.selected_text() == PAGE3_PHRASE
    hid = shown.highlight("blue")
    assert lib.highlights.get(hid)["text"] == PAGE3_PHRASE
    shown.close()
    lib.duplicates.merge(pid, [other])
    assert [h["id"] for h in lib.highlights.of_paper(pid)] == [hid]
    assert lib.search("has:highlights").ids == [pid]


def test_open_reader_on_a_page_with_words_marked(qtbot, window, pdf):
    lib = window.context.lib
    pid = lib.search("").ids[0]
    aid = attach(lib, pid, pdf)
    shown = opened(qtbot, window, aid, page=6, words=["lone", ZEBRA])
    qtbot.waitUntil(lambda: len(shown.view.texts) == 30)
    pages = {h[0] for h in shown.view.hits}
    assert pages == {2, 6}
    assert shown.view.hits[shown.view.current_hit][0] == 6
    assert shown.view.current_page() == 6
    shown.close()


def test_a_hostile_file_is_one_line_and_the_window_lives(qtbot, window, tmp_path, pdf):
    lib = window.context.lib
    pid = lib.search("").ids[0]
    bad = tmp_path / "not-a.pdf"
    bad.write_bytes(pdf.read_bytes())
    aid = attach(lib, pid, bad)  # a linked file, changed under the library after
    bad.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 500)
    open_reader(window.context, aid)
    bar = window.statusBar()
    qtbot.waitUntil(lambda: "not-a.pdf" in bar.currentMessage())
    assert "\n" not in bar.currentMessage()
    assert window.context.features["reader"].opened_window(aid) is None
    assert window.isVisible()
    # The window still answers: the next reader opens.
    select_row(window, 1)
    assert window.feed.selected_ids()


def test_the_detail_pane_shows_highlights_and_reads_one_at_its_page(qtbot, window, pdf):
    lib = window.context.lib
    pid = select_row(window, 0)
    aid = attach(lib, pid, pdf)
    quads = [[72.0, 700.0, 300.0, 700.0, 72.0, 688.0, 300.0, 688.0]]
    window.context.ops.edit(lib.highlights.add, aid, 6, quads, "A lone zebra", "pink",
                            "the odd one out")
    qtbot.waitUntil(lambda: window.detail.marks.isVisible())
    shown = window.detail.marks.text()
    assert "p. 7" in shown and "A lone zebra" in shown and "the odd one out" in shown
    window.detail.marks.linkActivated.emit(f"highlight:{aid}:6")
    reader = window.context.features["reader"]
    qtbot.waitUntil(lambda: reader.opened_window(aid) is not None)
    opened_at = reader.opened_window(aid)
    assert opened_at.view.current_page() == 6
    assert [h["text"] for h in opened_at.view.highlights] == ["A lone zebra"]
    opened_at.close()
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: not window.detail.marks.isVisible())


def test_the_reader_keys_are_the_guide_s_and_none_is_taken_twice():
    from paperdesk.gui.pdf.reader_window import ACTIONS
    from tests.gui.test_guide_keys import keys_in, section

    named = keys_in(section("## Reading and highlighting PDFs"))
    keys = [k for _name, _text, ks in ACTIONS for k in ks]
    assert len(keys) == len(set(keys))
    assert sorted(set(keys) - named) == []


def test_the_readers_process_starts_ahead_so_opening_starts_none(qtbot, make_window,
                                                                   seed_lib, pdf):
    pid = seed_lib.search("").ids[0]
    aid = attach(seed_lib, pid, pdf)
    window = make_window(seed_lib)  # a library with a PDF: the process starts soon after
    reader = window.context.features["reader"]
    qtbot.waitUntil(lambda: reader.warmed is not None and not reader.warmed.is_alive())
    assert reader.sandbox.started == 1
    shown = opened(qtbot, window, aid)
    qtbot.waitUntil(lambda: shown.view.has_page_image(0))
    assert reader.sandbox.started == 1  # the open and the render went to that process
    shown.close()


def test_a_library_without_pdfs_starts_no_reader_process(qtbot, window):
    reader = window.context.features["reader"]
    qtbot.wait(2500)
    assert reader.warmed is None and reader._sandbox is None


def test_a_first_pdf_attached_starts_the_reader_process_so_reading_starts_none(qtbot, window,
                                                                              pdf):
    reader = window.context.features["reader"]
    lib = window.context.lib
    assert reader.warmed is None  # no PDF yet: nothing started
    changes = window.context.ops.edit(lambda: lib.pdf.attach(lib.search("").ids[0], pdf, link=True))
    qtbot.waitUntil(lambda: reader.warmed is not None and not reader.warmed.is_alive())
    assert reader.sandbox.started == 1
    shown = opened(qtbot, window, changes.result.attachment_id)
    qtbot.waitUntil(lambda: shown.view.has_page_image(0))
    assert reader.sandbox.started == 1  # the open went to the process already there
    shown.close()


def test_pages_are_rendered_a_few_ahead_and_no_further(qtbot, window, pdf):
    from paperdesk.gui.pdf.page_view import AHEAD

    lib = window.context.lib
    aid = attach(lib, lib.search("").ids[0], pdf)
    shown = opened(qtbot, window, aid, page=0)
    view = shown.view
    on_screen = list(view.layout_.visible(0, view.viewport().height()))
    last = on_screen[-1] + AHEAD
    qtbot.waitUntil(lambda: all(view.has_page_image(p) for p in range(last + 1)))
    qtbot.wait(300)  # nothing more comes when nothing more was asked
    rendered = sorted({p for p, _s in view.images})
    assert rendered == list(range(last + 1))
    # An image and a text a page, once each; the first page's image came with the open.
    assert shown.renderer.calls == 2 * (last + 1) - 1
    # A zoom renders again, at the new zoom; the old images stand in meanwhile.
    qtbot.keyClick(view, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: view.has_page_image(0))
    assert view.zoom == pytest.approx(1.2)
    shown.close()


def test_open_in_the_system_viewer_runs_the_viewer_on_the_file(qtbot, window, pdf, tmp_path,
                                                              monkeypatch):
    import sys

    said = tmp_path / "viewer-was-given.txt"
    viewer = tmp_path / "viewer.py"
    viewer.write_text(f"import sys\nopen({str(said)!r}, 'w').write(sys.argv[1])\n")
    monkeypatch.setenv("PAPERDESK_PDF_OPENER", f"{sys.executable} {viewer}")
    lib = window.context.lib
    aid = attach(lib, lib.search("").ids[0], pdf)
    shown = opened(qtbot, window, aid)
    qtbot.keyClick(shown.view, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: said.exists() and said.read_text() != "")
    assert said.read_text() == str(pdf.resolve())
    shown.close()


def test_the_f1_sheet_lists_the_reader_s_keys(qtbot, window):
    from paperdesk.gui import keyboard

    sheet = keyboard.show_sheet(window)
    rows = set(sheet.entries)
    assert ("Reader", "Ctrl+H", "Highlight the selection (or the find hit)") in rows
    assert ("Reader", "PgDown", "Next page") in rows
    assert ("PDFs", "Ctrl+Shift+P", "Read PDF") in rows
    sheet.close()
