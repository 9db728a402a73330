"""The text of the PDFs in the window: indexed in the background while the window
answers, pdf: typed in the search bar, the hit's page and snippet in the detail pane,
its link opening the reader there with the words marked."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.gui.conftest import select_row
from tests.gui.screenshots import save_screenshot
from tests.pdf_library import attach_pdf, paper_ids

PAGES = [["A first page about nothing much."],
         ["The second page holds the quokka marmalade phrase."],
         ["A third page, and the end."]]


def test_indexed_in_the_background_then_found_with_page_and_snippet(qtbot, seed_lib,
                                                                   make_window, tmp_path):
    pid = paper_ids(seed_lib, 1)[0]
    aid = attach_pdf(seed_lib, pid, PAGES, "marmalade.pdf")
    window = make_window(seed_lib)
    feature = window.context.features["fulltext"]
    assert feature.runs == 1  # started with the window, on a thread of its own
    qtbot.waitUntil(lambda: feature.thread is None)
    assert seed_lib.fulltext.status()["waiting"] == 0
    assert not feature.status.isVisible()

    qtbot.keyClicks(window.search_bar.edit, 'pdf:"quokka marmalade"')
    qtbot.waitUntil(lambda: window.feed.query == 'pdf:"quokka marmalade"')
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == 1)
    assert select_row(window, 0) == pid
    qtbot.waitUntil(lambda: window.detail.pdf_hits.isVisible())
    text = window.detail.pdf_hits.text()
    assert f'href="pdfhit:{aid}:1"' in text and "p. 2</a> of marmalade.pdf" in text
    assert "<b>quokka marmalade</b>" in text
    qtbot.wait(200)  # the pane laid out again
    save_screenshot(window, tmp_path, "pdf-hits.png")

    # The link opens the reader on that page (0-based 1), the words marked.
    window.detail.pdf_hits.linkActivated.emit(f"pdfhit:{aid}:1")
    reader = window.context.features["reader"]
    qtbot.waitUntil(lambda: reader.opened_window(aid) is not None)
    shown = reader.opened_window(aid)
    qtbot.waitUntil(lambda: shown.view.current_page() == 1)
    qtbot.waitUntil(lambda: bool(shown.view.hits))
    assert [h[0] for h in shown.view.hits] == [1]
    shown.close()


def test_a_new_attachment_is_indexed_and_a_search_answers_meanwhile(qtbot, seed_lib,
                                                                   make_window):
    window = make_window(seed_lib)
    feature = window.context.features["fulltext"]
    assert feature.runs == 0  # no PDF yet: no indexer, no process
    ids = paper_ids(seed_lib, 6)
    for i, pid in enumerate(ids):
        attach_pdf(seed_lib, pid, [[f"Paper {i} speaks of walrus{i} on page one."]] * 8,
                   f"w{i}.pdf")
    # Each attach is a write the window hears: the first starts the indexer, the others
    # ask the run on for one more.
    assert feature.runs >= 1
    qtbot.keyClicks(window.search_bar.edit, "has:pdf")  # answered while it indexes
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == 6)
    qtbot.waitUntil(lambda: feature.thread is None)
    window.search_bar.edit.clear()
    qtbot.keyClicks(window.search_bar.edit, "pdf:walrus3")
    qtbot.waitUntil(lambda: window.feed.query == "pdf:walrus3")
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == 1)
    assert window.feed.model.paper_id(0) == ids[3]
    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Escape)

