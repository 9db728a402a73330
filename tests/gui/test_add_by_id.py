"""Papers added in the window by identifier: a paste on the table, a link dropped from a
browser, Paper > Add by identifier; and Paper > Open on arXiv / Hugging Face / code."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QGuiApplication
from PySide6.QtWidgets import QApplication

from tests.fake_services import ArxivPaper, FakeServices

WAIT_MS = 30000
PAPER = ArxivPaper("2310.06825", "Mistral 7B", "We introduce Mistral 7B, a language model.",
                   ["Albert Q. Jiang", "Alexandre Sablayrolles"], published="2023-10-10")
OTHER = ArxivPaper("2001.08361", "Scaling Laws for Neural Language Models",
                   "We study empirical scaling laws.", ["Jared Kaplan"], published="2020-01-23")


@pytest.fixture
def services(monkeypatch):
    from paperdesk.core.hub import service

    monkeypatch.setattr(service.ARXIV_API, "spacing", 0.0)
    with FakeServices() as fake:
        fake.arxiv.update({p.arxiv_id: p for p in (PAPER, OTHER)})
        for name, value in fake.env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
        yield fake


def _titles(lib) -> set[str]:
    return {p["title"] for p in lib.papers(lib.search("").ids)}


def _drop(target, mime: QMimeData) -> bool:
    point = QPointF(target.width() / 2, target.height() / 2)
    action = Qt.DropAction.CopyAction
    enter = QDragEnterEvent(point.toPoint(), action, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(target, enter)
    if not enter.isAccepted():
        return False
    QApplication.sendEvent(target, QDropEvent(point, action, mime, Qt.MouseButton.LeftButton,
                                              Qt.KeyboardModifier.NoModifier))
    return True


def test_a_paste_on_the_table_adds_what_it_names_and_undo_takes_it_back(window, services,
                                                                        qtbot):
    lib = window.lib
    before = lib.stats()["papers"]
    QGuiApplication.clipboard().setText("see https://arxiv.org/abs/2310.06825v1 and more\n")
    QGuiApplication.clipboard().setText("https://arxiv.org/abs/2310.06825v1\nnot an id\n")
    window.feed.view.setFocus()
    window.actions_by_name["paste_ids"].trigger()
    qtbot.waitUntil(lambda: "Mistral 7B" in _titles(lib), timeout=WAIT_MS)
    assert lib.stats()["papers"] == before + 1
    qtbot.waitUntil(lambda: "1 added" in window.statusBar().currentMessage(), timeout=WAIT_MS)
    assert window.undo_stack.undoText() == "Add 1 paper by identifier"
    window.undo_stack.undo()
    assert "Mistral 7B" not in _titles(lib)


def test_a_link_dropped_from_a_browser_is_added_and_text_that_names_none_is_not(
        window, services, qtbot):
    lib = window.lib
    mime = QMimeData()
    mime.setUrls([QUrl("https://huggingface.co/papers/2001.08361")])
    assert _drop(window, mime)
    qtbot.waitUntil(lambda: OTHER.title in _titles(lib), timeout=WAIT_MS)
    words = QMimeData()
    words.setText("just some words, no paper")
    assert not _drop(window, words)
    empty = QMimeData()
    QGuiApplication.clipboard().setText("nothing here")
    window.feed.view.setFocus()
    window.actions_by_name["paste_ids"].trigger()
    assert window.statusBar().currentMessage().endswith("holds no arXiv id, DOI or link")
    assert empty.formats() == []


def test_open_on_arxiv_and_the_hub_opens_the_papers_pages(window, services, qtbot,
                                                          monkeypatch):
    from PySide6.QtGui import QDesktopServices

    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toString()))
    feature = window.context.features["add"]
    feature.add(["2310.06825"])
    qtbot.waitUntil(lambda: "Mistral 7B" in _titles(window.lib), timeout=WAIT_MS)
    (pid,) = window.lib.search('"Mistral 7B"').ids
    qtbot.waitUntil(lambda: pid in window.context.selection.shown_ids(), timeout=WAIT_MS)
    window.context.selection.select_ids([pid], pid)
    window.actions_by_name["open_arxiv"].trigger()
    window.actions_by_name["open_hf"].trigger()
    window.actions_by_name["open_code"].trigger()  # none known: one line, nothing opened
    assert opened == ["https://arxiv.org/abs/2310.06825",
                      "https://huggingface.co/papers/2310.06825"]
    assert "no code page" in window.statusBar().currentMessage()


def test_no_two_actions_of_the_window_share_a_key(window):
    keys: dict[str, str] = {}
    for name, action in window.actions_by_name.items():
        for sequence in action.shortcuts():
            text = sequence.toString()
            assert text not in keys, f"{text}: {keys.get(text)} and {name}"
            keys[text] = name
    assert keys["Ctrl+Shift+A"] == "add_by_id"
