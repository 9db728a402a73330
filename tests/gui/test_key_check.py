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
    for row in range(window.model.rowCount()):
        pid = window.model.paper_id(row)
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
