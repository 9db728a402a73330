"""Paper > Get PDF, PDFs dropped on a row, on the detail pane and elsewhere, and the
detail pane's list of PDFs (missing, Locate…, open), offscreen against a local
stand-in for arXiv (tests/fake_services.py)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from paperdesk.core.library import Library
from tests.fake_services import ArxivPaper, FakeServices
from tests.made_pdfs import pdf_bytes

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
ONE = ArxivPaper("2401.00001", "Attention Is Still All You Need", "A first abstract.",
                 ["Ada Lovelace", "Alan Turing"], version=2)
TWO = ArxivPaper("2401.00002", "Scaling Everything", "A second abstract.", ["Grace Hopper"])


@pytest.fixture
def arxiv(monkeypatch):
    from paperdesk.core.hub import arxiv_pdf, pace, service

    pace.ARXIV.reset()
    monkeypatch.setattr(service.ARXIV_API, "spacing", 0.0)
    monkeypatch.setattr(arxiv_pdf.ARXIV_PDF, "spacing", 0.0)
    with FakeServices() as fake:
        fake.arxiv.update({p.arxiv_id: p for p in (ONE, TWO)})
        fake.pdfs.update({"2401.00001v2": pdf_bytes("one v2", pages=3),
                          "2401.00002v1": pdf_bytes("two v1")})
        for name, value in fake.env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
        yield fake


@pytest.fixture
def two_papers(tmp_path, arxiv):
    lib = Library.open(tmp_path / "library.sqlite")
    lib.add([ONE.arxiv_id, TWO.arxiv_id])
    yield lib
    lib.close()


def _row(window, paper_id: int) -> int:
    return window.feed.model.ids().index(paper_id)


def _select(window, paper_id: int) -> None:
    from .conftest import select_row

    select_row(window, _row(window, paper_id))


def _drop_at(window, point: QPoint, paths: list[Path]) -> QMimeData:
    mime = QMimeData()  # kept alive by the caller while Qt uses it
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    action = Qt.DropAction.CopyAction
    enter = QDragEnterEvent(point, action, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    QApplication.sendEvent(window, QDropEvent(QPointF(point), action, mime,
                                              Qt.MouseButton.LeftButton,
                                              Qt.KeyboardModifier.NoModifier))
    return mime


def _row_point(window, paper_id: int) -> QPoint:
    table = window.feed.view
    rect = table.visualRect(window.feed.model.index(_row(window, paper_id), 1))
    return table.viewport().mapTo(window, rect.center())


def _attachments(lib, paper_id):
    return lib.pdf.of_paper(paper_id)


def _list_lines(window) -> list[str]:
    files = window.context.features["get_pdf"].files
    return [files.list.item(n).text() for n in range(files.list.count())]


def test_get_pdf_fetches_on_the_worker_shows_it_and_undo_takes_it_off(
        make_window, two_papers, arxiv, qtbot):
    window = make_window(two_papers)
    _select(window, 1)
    files = window.context.features["get_pdf"].files
    qtbot.waitUntil(lambda: files.isVisible())
    assert files.get_button.isVisible() and _list_lines(window) == []
    window.actions_by_name["get_pdf"].trigger()
    qtbot.waitUntil(lambda: len(_attachments(window.lib, 1)) == 1)
    qtbot.waitUntil(lambda: "Fetched 1 PDF" in window.statusBar().currentMessage())
    [row] = _attachments(window.lib, 1)
    assert row["source"] == "arxiv" and row["arxiv_version"] == 2 and row["pages"] == 3
    qtbot.waitUntil(lambda: len(_list_lines(window)) == 1)
    assert _list_lines(window) == [
        "Attention Is Still All You Need.pdf\n3 pages · stored · arXiv v2"]
    assert not files.get_button.isVisible() and files.open_button.isEnabled()
    SHOTS.mkdir(exist_ok=True)
    window.resize(1400, 800)
    qtbot.wait(50)
    assert window.grab().save(str(SHOTS / "get-pdf.png"))
    assert arxiv.paths("/pdf/") == ["/pdf/2401.00001v2"]
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: _attachments(window.lib, 1) == [])
    qtbot.waitUntil(lambda: _list_lines(window) == [])


def test_get_pdf_is_cancelled_while_it_waits_for_arxiv(make_window, two_papers, arxiv, qtbot):
    window = make_window(two_papers)
    arxiv.answer("/pdf/", 503, b"", headers={"Retry-After": "30"})
    _select(window, 1)
    window.actions_by_name["get_pdf"].trigger()
    qtbot.waitUntil(lambda: arxiv.paths("/pdf/") != [])  # the 503: it waits 30 s
    window.context.ops.cancel()
    qtbot.waitUntil(lambda: "cancelled" in window.statusBar().currentMessage())
    assert _attachments(window.lib, 1) == [] and arxiv.paths("/pdf/") == ["/pdf/2401.00001v2"]
    assert [p.name for p in window.lib.path.parent.iterdir() if ".fetching-" in p.name] == []


def test_a_failed_pdf_is_reported_and_nothing_kept(make_window, two_papers, arxiv, qtbot):
    window = make_window(two_papers)
    arxiv.answer("/pdf/", 200, b"<!DOCTYPE html><html>Wait</html>")
    _select(window, 1)
    window.actions_by_name["get_pdf"].trigger()
    feature = window.context.features["get_pdf"]
    qtbot.waitUntil(lambda: feature.report is not None)
    text = feature.report.details.toPlainText()
    assert "is not a PDF (a web page); nothing kept" in text
    assert _attachments(window.lib, 1) == []
    feature.report.close()


def test_a_pdf_dropped_on_a_row_is_attached_to_that_paper(make_window, two_papers, arxiv,
                                                          qtbot, tmp_path):
    window = make_window(two_papers)
    _select(window, 1)  # the selection is another paper: the row dropped on decides
    pdf = tmp_path / "dropped.pdf"
    pdf.write_bytes(pdf_bytes("mine", pages=2))
    mime = _drop_at(window, _row_point(window, 2), [pdf])
    qtbot.waitUntil(lambda: len(_attachments(window.lib, 2)) == 1)
    assert mime is not None and _attachments(window.lib, 1) == []
    assert window.lib.stats()["papers"] == 2
    qtbot.waitUntil(lambda: "attached" in window.statusBar().currentMessage())


def test_a_pdf_dropped_on_the_detail_pane_is_attached_to_its_paper(
        make_window, two_papers, arxiv, qtbot, tmp_path):
    window = make_window(two_papers)
    _select(window, 2)
    qtbot.waitUntil(lambda: window.detail.ids == [2])
    pdf = tmp_path / "notes.pdf"
    pdf.write_bytes(pdf_bytes("pane"))
    point = window.detail.mapTo(window, window.detail.rect().center())
    mime = _drop_at(window, point, [pdf])
    qtbot.waitUntil(lambda: len(_attachments(window.lib, 2)) == 1)
    qtbot.waitUntil(lambda: len(_list_lines(window)) == 1)
    assert mime is not None and _list_lines(window)[0].endswith("\n1 page · stored")


def test_a_pdf_dropped_on_the_note_field_is_its_papers(make_window, two_papers, arxiv, qtbot,
                                                        tmp_path):
    """The note field takes drops on its viewport (the window filters them there too):
    the drop's position is in the viewport's coordinates, and still names the pane's
    paper; nothing is pasted into the note."""
    window = make_window(two_papers)
    _select(window, 1)
    qtbot.waitUntil(lambda: window.detail.ids == [1])
    window.detail.ensureWidgetVisible(window.detail.note)
    qtbot.waitUntil(lambda: window.detail.note.isVisible())
    pdf = tmp_path / "note.pdf"
    pdf.write_bytes(pdf_bytes("note"))
    target = window.detail.note.viewport()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(pdf))])
    point = QPointF(target.width() / 2, min(10, target.height() / 2))
    action = Qt.DropAction.CopyAction
    enter = QDragEnterEvent(point.toPoint(), action, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(target, enter)
    assert enter.isAccepted()
    QApplication.sendEvent(target, QDropEvent(point, action, mime, Qt.MouseButton.LeftButton,
                                              Qt.KeyboardModifier.NoModifier))
    qtbot.waitUntil(lambda: len(_attachments(window.lib, 1)) == 1)
    assert _attachments(window.lib, 2) == [] and window.detail.note.toPlainText() == ""


def test_a_missing_linked_pdf_says_so_and_locate_puts_it_right(
        make_window, two_papers, arxiv, qtbot, tmp_path):
    lib = two_papers
    mine = tmp_path / "elsewhere" / "my copy.pdf"
    mine.parent.mkdir()
    mine.write_bytes(pdf_bytes("linked", pages=4))
    lib.pdf.attach(1, mine, link=True)
    moved = tmp_path / "moved.pdf"
    mine.rename(moved)
    window = make_window(lib)
    _select(window, 1)
    files = window.context.features["get_pdf"].files
    qtbot.waitUntil(lambda: len(_list_lines(window)) == 1)
    assert _list_lines(window) == ["my copy.pdf\n4 pages · linked · MISSING"]
    assert files.locate_button.isVisible() and not files.open_button.isEnabled()
    window.resize(1400, 800)
    qtbot.wait(50)
    assert window.detail.grab().save(str(SHOTS / "pdf-missing.png"))
    [row] = lib.pdf.of_paper(1)
    window.context.features["get_pdf"].relink(row["id"], moved)
    qtbot.waitUntil(lambda: _list_lines(window) in (["moved.pdf\n4 pages · linked"],
                                                    ["my copy.pdf\n4 pages · linked"]))
    assert lib.pdf.of_paper(1)[0]["state"] == "ok"
    assert not files.locate_button.isVisible()


def test_activating_a_pdf_opens_it_in_the_system_viewer(make_window, two_papers, arxiv,
                                                        qtbot, tmp_path, monkeypatch):
    opened = tmp_path / "opened.txt"
    viewer = tmp_path / "viewer.sh"
    viewer.write_text(f'#!/bin/sh\nprintf "%s" "$1" > "{opened}"\n')
    viewer.chmod(viewer.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PAPERDESK_PDF_OPENER", str(viewer))
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(pdf_bytes("open me"))
    two_papers.pdf.attach(2, pdf)
    window = make_window(two_papers)
    window.context.features.pop("reader", None)  # a window without the built-in reader
    _select(window, 2)
    files = window.context.features["get_pdf"].files
    qtbot.waitUntil(lambda: files.list.count() == 1)
    files.list.itemActivated.emit(files.list.item(0))
    qtbot.waitUntil(lambda: opened.exists() and opened.read_text() != "")
    assert Path(opened.read_text()) == Path(two_papers.pdf.of_paper(2)[0]["file"])
    assert os.path.isfile(opened.read_text())


def test_activating_a_pdf_opens_the_built_in_reader_where_there_is_one(
        make_window, two_papers, arxiv, qtbot, tmp_path):
    pytest.importorskip("paperdesk.gui.pdf.reader_feature")  # the reader's branch
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(pdf_bytes("read me", pages=3))
    two_papers.pdf.attach(2, pdf)
    window = make_window(two_papers)
    _select(window, 2)
    files = window.context.features["get_pdf"].files
    qtbot.waitUntil(lambda: files.list.count() == 1)
    files.list.itemActivated.emit(files.list.item(0))
    reader = window.context.features["reader"]
    aid = two_papers.pdf.of_paper(2)[0]["id"]
    qtbot.waitUntil(lambda: reader.opened_window(aid) is not None)
    reader.opened_window(aid).close()


def test_get_pdfs_when_marked_to_read_is_the_librarys_setting(make_window, two_papers, arxiv,
                                                              qtbot):
    from paperdesk.gui import paper_edits

    window = make_window(two_papers)
    action = window.actions_by_name["auto_fetch_pdf"]
    assert not action.isChecked()
    paper_edits.set_status(window.context, [2], "to-read")
    qtbot.wait(300)
    assert arxiv.paths("/pdf/") == []  # off: nothing asked
    action.trigger()
    assert two_papers.settings.get("fetch_to_read") is True
    paper_edits.set_status(window.context, [1], "to-read")
    qtbot.waitUntil(lambda: len(_attachments(window.lib, 1)) == 1)
    assert arxiv.paths("/pdf/") == ["/pdf/2401.00001v2"]
    action.trigger()
    assert two_papers.settings.get("fetch_to_read") is False


TEX = r"""\pdfcompresslevel=0
\documentclass{article}
\title{A Paper Seen Only as a PDF}
\begin{document}
\maketitle
arXiv:2401.00002v1 [cs.CL]

The body of the paper, on its first page.
\end{document}
"""


@pytest.mark.tex
def test_pdflatex_pdfs_dropped_on_a_row_and_elsewhere(make_window, two_papers, arxiv, qtbot,
                                                      tmp_path):
    """A PDF made by pdflatex: on a row it is that paper's; dropped on the sidebar it is
    matched to the paper whose arXiv id its first page names."""
    from tests.latex_build import latex, require_tools

    require_tools()
    build = tmp_path / "tex"
    build.mkdir()
    (build / "paper.tex").write_text(TEX, encoding="utf-8")
    (build / "draft.tex").write_text(TEX.replace("The body", "A draft of the body"),
                                     encoding="utf-8")
    latex(build, "paper.tex")
    latex(build, "draft.tex")
    window = make_window(two_papers)
    sidebar = window.sidebar
    mime = _drop_at(window, sidebar.mapTo(window, sidebar.rect().center()),
                    [build / "paper.pdf"])
    qtbot.waitUntil(lambda: len(_attachments(window.lib, 2)) == 1)
    assert window.lib.stats()["papers"] == 2  # matched by its arXiv id, not a new paper
    # The draft names the same arXiv id, but the row it is dropped on decides.
    mime2 = _drop_at(window, _row_point(window, 1), [build / "draft.pdf"])
    qtbot.waitUntil(lambda: len(_attachments(window.lib, 1)) == 1)
    assert mime is not None and mime2 is not None
    assert len(_attachments(window.lib, 2)) == 1 and window.lib.stats()["papers"] == 2
