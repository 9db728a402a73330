"""Keys ready before they freeze: copying or exporting a paper whose provisional key was
made without an author or a year offers to complete it from the Hub first (or does it,
when the user turned that on); the key then freezes, made from the completed record."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QGuiApplication

from paperdesk.gui.bibtex import export_dialog, key_check
from paperdesk.gui.common import clipboard, settings

from .conftest import select_rows


def _weak_row(window) -> tuple[int, str]:
    lib = window.lib
    for row in range(window.feed.model.rowCount()):
        pid = window.feed.model.paper_id(row)
        if lib.bibtex.weak_keys([pid]) and not lib.paper(pid)["organization"]:
            return row, lib.paper(pid)["citekey"]
    raise AssertionError("the seeds have papers without author names")


def _frozen(lib, pid) -> bool:
    return bool(lib.db.execute("SELECT id IN frozen_keys FROM papers WHERE id = ?",
                               [pid]).fetchone()[0])


def test_copy_offers_to_complete_a_weak_key_first(window, server, qtbot, monkeypatch):
    lib = window.lib
    row, weak = _weak_row(window)
    [pid] = select_rows(window, [row])
    asked: list[list[int]] = []
    monkeypatch.setattr(key_check, "ask",
                        lambda _c, ids: asked.append(ids) or key_check.COMPLETE)
    QGuiApplication.clipboard().setText("before")
    assert clipboard.copy_bibtex(window) == 0  # not yet: the Hub first
    assert asked == [[pid]]
    qtbot.waitUntil(lambda: QGuiApplication.clipboard().text() != "before", timeout=30000)
    paper = lib.paper(pid)
    assert paper["authors"] and paper["citekey"] != weak
    assert f"{{{paper['citekey']}," in QGuiApplication.clipboard().text()
    assert _frozen(lib, pid) and lib.bibtex.weak_keys([pid]) == []


def test_as_they_are_freezes_the_weak_key_at_once(window, server, monkeypatch):
    row, weak = _weak_row(window)
    [pid] = select_rows(window, [row])
    assert clipboard.copy_cite(window) == f"\\cite{{{weak}}}"  # the autouse answer
    assert _frozen(window.lib, pid) and server.requests == []


def test_turned_on_it_completes_without_asking(window, server, qtbot, monkeypatch,
                                               tmp_path):
    lib = window.lib
    toggle = window.actions_by_name["complete_weak_keys"]
    assert not toggle.isChecked()
    toggle.trigger()  # Paper > Complete from Hugging Face > Complete weak keys...
    assert settings.settings().value(key_check.ALWAYS, False, type=bool)
    monkeypatch.setattr(key_check, "ask", lambda *_a: pytest.fail("asked"))
    row, weak = _weak_row(window)
    [pid] = select_rows(window, [row])
    dialog = export_dialog.open_export(window.context)
    qtbot.addWidget(dialog)
    dialog.set_scope(export_dialog.SELECTED)
    dialog.path.setText(str(tmp_path / "out.bib"))
    dialog.accept()
    qtbot.waitUntil(lambda: (tmp_path / "out.bib").exists(), timeout=30000)
    key = lib.paper(pid)["citekey"]
    assert key != weak and f"{{{key}," in (tmp_path / "out.bib").read_text()
    assert _frozen(lib, pid)


def _closed_port() -> int:
    """A loopback port no one listens on: the Hub unreachable, as offline."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _copy_cite_completing(window, qtbot, monkeypatch, answer: bool) -> tuple[int, str, list]:
    """Copy citation of a weak key, answering Complete first; the "anyway" question is
    answered ``answer``. The paper, its key and what was asked (still weak, why)."""
    row, weak = _weak_row(window)
    [pid] = select_rows(window, [row])
    asked: list = []
    monkeypatch.setattr(key_check, "ask", lambda _c, ids: key_check.COMPLETE)
    monkeypatch.setattr(key_check, "anyway",
                        lambda _c, still, why, action: asked.append((still, why, action))
                        or answer)
    QGuiApplication.clipboard().setText("before")
    clipboard.copy_cite(window)
    qtbot.waitUntil(lambda: bool(asked) or QGuiApplication.clipboard().text() != "before")
    qtbot.wait(50)
    return pid, weak, asked


def test_offline_the_copy_stops_and_the_weak_key_stays_unfrozen(window, qtbot, monkeypatch):
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{_closed_port()}")
    pid, weak, asked = _copy_cite_completing(window, qtbot, monkeypatch, answer=False)
    assert [(still, action) for still, _why, action in asked] == [([pid], "Copy")]
    assert "offline" in asked[0][1] or "reach" in asked[0][1], asked
    assert QGuiApplication.clipboard().text() == "before"  # nothing copied
    assert not _frozen(window.lib, pid) and window.lib.paper(pid)["citekey"] == weak
    assert "did not improve" in window.statusBar().currentMessage()


def test_not_on_the_hub_copy_anyway_copies_and_freezes(window, server, qtbot, monkeypatch):
    row, weak = _weak_row(window)
    title = window.lib.paper(window.feed.model.paper_id(row))["title"]
    for arxiv_id in [i for i, p in server.papers.items() if p["title"] == title]:
        del server.papers[arxiv_id]  # the Hub does not know this one
    pid, weak, asked = _copy_cite_completing(window, qtbot, monkeypatch, answer=True)
    assert asked and asked[0][0] == [pid] and "not on the Hub" in asked[0][1], asked
    assert QGuiApplication.clipboard().text() == f"\\cite{{{weak}}}"  # Copy anyway
    assert _frozen(window.lib, pid)


def test_the_question_names_the_keys_and_why(window, qtbot, tmp_path):
    """The real box: its text, its buttons, and a screenshot of it."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    _row, weak = _weak_row(window)
    pid = window.feed.model.paper_id(_row)
    seen: dict = {}

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        seen["text"] = box.text()
        seen["buttons"] = [b.text() for b in box.buttons()]
        box.grab().save(str(tmp_path / "keys-did-not-improve.png"))
        seen["path"] = tmp_path / "keys-did-not-improve.png"
        box.reject()

    QTimer.singleShot(20, answer)
    assert key_check.anyway(window.context, [pid], "offline (cannot reach the Hub)",
                            "Copy") is False
    assert weak in seen["text"] and "offline" in seen["text"]
    assert "Copy anyway" in seen["buttons"]
    assert seen["path"].stat().st_size > 1000
