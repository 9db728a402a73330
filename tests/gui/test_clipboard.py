"""Copy BibTeX, Copy citation keys, and the .bib file a drag out of the table carries."""

from __future__ import annotations

from pathlib import Path

import bibtexparser
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QGuiApplication, QMouseEvent
from PySide6.QtWidgets import QApplication

from paperdesk.gui.common import clipboard

from .conftest import select_rows


def _entries(text: str):
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks
    return library.entries


def test_copy_bibtex_puts_parseable_entries_on_the_clipboard(window, seed_lib, qtbot):
    ids = select_rows(window, [0, 1, 4])
    window.feed.view.setFocus()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_C,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    data = QGuiApplication.clipboard().mimeData()
    assert data.hasFormat("text/x-bibtex")
    text = data.text()
    assert bytes(data.data("text/x-bibtex")).decode("utf-8") == text
    entries = _entries(text)
    papers = seed_lib.papers(ids)
    assert [e.key for e in entries] == [p["citekey"] for p in papers]
    assert len(entries) == 3


def test_copy_citation_keys_as_a_cite_command(window, seed_lib):
    ids = select_rows(window, [2, 3])
    window.actions_by_name["copy_cite"].trigger()
    keys = [p["citekey"] for p in seed_lib.papers(ids)]
    assert QGuiApplication.clipboard().text() == "\\cite{" + ",".join(keys) + "}"


def test_nothing_selected_copies_nothing(window):
    QGuiApplication.clipboard().setText("before")
    window.feed.view.clearSelection()
    assert clipboard.copy_bibtex(window) == 0
    assert clipboard.copy_cite(window) == ""
    assert QGuiApplication.clipboard().text() == "before"


def test_dragging_papers_out_carries_a_bib_file(window, seed_lib, qtbot, monkeypatch):
    ids = select_rows(window, [0, 3])
    dragged = []
    monkeypatch.setattr(clipboard.DragOut, "start_drag",
                        lambda self: dragged.append(clipboard.drag_mime(window.lib,
                                                                        window.feed.selected_ids())))
    viewport = window.feed.view.viewport()
    start = window.feed.view.visualRect(window.feed.model.index(0, 0)).center()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    end = QPointF(start + QPoint(0, 40))
    move = QMouseEvent(QEvent.Type.MouseMove, end, viewport.mapToGlobal(end),
                       Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(viewport, move)
    assert window.feed.selected_ids() == ids  # pressing a selected row kept the selection
    [data] = dragged
    [url] = data.urls()
    path = Path(url.toLocalFile())
    assert path.suffix == ".bib" and path.name == "2-papers.bib"
    entries = _entries(path.read_text(encoding="utf-8"))
    assert [e.key for e in entries] == [p["citekey"] for p in seed_lib.papers(ids)]
    assert data.text() == path.read_text(encoding="utf-8")

    single = clipboard.drag_mime(seed_lib, ids[:1])
    assert Path(single.urls()[0].toLocalFile()).stem == seed_lib.paper(ids[0])["citekey"]


def test_a_plain_click_on_a_selected_row_selects_just_it(window, qtbot):
    select_rows(window, [0, 1, 2])
    viewport = window.feed.view.viewport()
    point = window.feed.view.visualRect(window.feed.model.index(1, 0)).center()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=point)
    assert window.feed.selected_ids() == [window.feed.model.paper_id(1)]


def test_copy_pandoc_citation_and_formatted_references(window, seed_lib):
    ids = select_rows(window, [1, 2])
    keys = [p["citekey"] for p in seed_lib.papers(ids)]
    window.actions_by_name["copy_pandoc"].trigger()
    assert QGuiApplication.clipboard().text() == "[" + "; ".join(f"@{k}" for k in keys) + "]"
    window.actions_by_name["copy_reference"].trigger()
    data = QGuiApplication.clipboard().mimeData()
    lines = data.text().split("\n")
    titles = [p["title"] for p in seed_lib.papers(ids)]
    assert len(lines) == 2 and all(line.startswith(f"[{n}] ") for n, line in
                                   zip((1, 2), lines, strict=True))
    assert sorted(titles) == sorted(next(t for t in titles if t in line) for line in lines)
    assert data.hasHtml() and all(t.replace("&", "&amp;") in data.html() for t in titles)


def test_a_drag_offers_every_citation_form(window, seed_lib):
    import json

    ids = select_rows(window, [0, 3])
    data = clipboard.drag_mime(seed_lib, ids)
    keys = [p["citekey"] for p in seed_lib.papers(ids)]
    csl = json.loads(bytes(data.data(clipboard.CSL_JSON_MIME)).decode("utf-8"))
    assert [item["id"] for item in csl] == keys
    assert bytes(data.data(clipboard.LATEX_CITE_MIME)).decode() == f"\\cite{{{','.join(keys)}}}"
    assert bytes(data.data(clipboard.PANDOC_CITE_MIME)).decode() == \
        "[" + "; ".join(f"@{k}" for k in keys) + "]"
    assert data.hasHtml() and data.html().count("[") >= 2
    assert data.hasFormat("text/x-bibtex") and data.hasUrls()
