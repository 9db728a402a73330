"""A real library window over a real library file, offscreen."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from paperdesk.core.curation import triage
from paperdesk.gui.curation import triage_view
from paperdesk.gui.main_window import MainWindow

# A wait for the window is a bound, not a measure: on a busy machine (two CPU-bound
# processes beside the suite) an import or a worker's write takes longer than
# pytest-qt's 5 s default. A condition that never comes still fails, only later.
WAIT_MS = 30_000
_wait_until, _wait_signal = QtBot.waitUntil, QtBot.waitSignal


def _generous_wait_until(self, callback, *, timeout=WAIT_MS):
    return _wait_until(self, callback, timeout=max(timeout, WAIT_MS))


def _generous_wait_signal(self, signal=None, *, timeout=WAIT_MS, **kwargs):
    return _wait_signal(self, signal, timeout=max(timeout, WAIT_MS), **kwargs)


QtBot.waitUntil, QtBot.waitSignal = _generous_wait_until, _generous_wait_signal


@pytest.fixture
def make_window(qtbot):
    windows: list[MainWindow] = []

    def make(lib) -> MainWindow:
        window = MainWindow(lib)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        # Qt keeps the modifiers of the last key event: an earlier test's Ctrl+key
        # would otherwise make a click here a Ctrl+click. A plain key resets them.
        qtbot.keyClick(window.statusBar(), Qt.Key.Key_F35)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.close()
        window.worker.stop()


@pytest.fixture
def window(seed_lib, make_window) -> MainWindow:
    return make_window(seed_lib)


def sidebar_counts(window: MainWindow) -> dict[str, str]:
    """Sidebar entry text by label, e.g. {"All papers": "193"}."""
    out = {}
    for item in window.sidebar.entries():
        label, _, count = item.text(0).partition("  (")
        out[label] = count.rstrip(")")
    return out


def active(window: MainWindow, qtbot: QtBot) -> None:
    """Make the window the active one (keys go to it) and wait until it is."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


def first_digest_triage(window: MainWindow, seed_lib, qtbot: QtBot):
    """Triage of the library's first digest, open and active: (the view, the digest's
    paper ids in triage order, the digest)."""
    digest = seed_lib.digests()[0]
    ids = triage.digest_papers(seed_lib, [digest["id"]])
    view = triage_view.open_triage(window, [digest["id"]])
    qtbot.addWidget(view)
    qtbot.waitUntil(view.isActiveWindow)
    return view, ids, digest


def select_row(window: MainWindow, row: int) -> int:
    """Make ``row`` the current and only selected row (selectRow would toggle a row
    already selected while Qt believes Ctrl is held after an earlier key click)."""
    model = window.feed.view.selectionModel()
    model.setCurrentIndex(window.feed.model.index(row, 0),
                          model.SelectionFlag.ClearAndSelect | model.SelectionFlag.Rows)
    return window.feed.model.paper_id(row)


def select_rows(window: MainWindow, rows: list[int]) -> list[int]:
    """Select whole rows (replacing the selection); the selected paper ids."""
    model = window.feed.view.selectionModel()
    model.clearSelection()
    for row in rows:
        model.select(window.feed.model.index(row, 0),
                     model.SelectionFlag.Select | model.SelectionFlag.Rows)
    return window.feed.selected_ids()


@pytest.fixture(autouse=True)
def _weak_keys_as_they_are(monkeypatch):
    """Copying or exporting a paper with a weak provisional key asks first (a modal
    question, ``gui/bibtex/key_check.py``); tests that do not test that answer "as they are"."""
    from paperdesk.gui.bibtex import key_check

    monkeypatch.setattr(key_check, "ask", lambda _context, _weak: key_check.AS_THEY_ARE)


@pytest.fixture
def server(seed_lib, monkeypatch):
    """A stand-in Hub on this machine that knows the seed library's papers."""
    from paperdesk.core.hub import hub as hub_module
    from paperdesk.core.hub.hub import Limits
    from tests.fake_hub import FakeHub, populate_from

    monkeypatch.setattr(hub_module, "DEFAULT_LIMITS", Limits(rate=500, workers=4))
    with FakeHub() as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        populate_from(seed_lib, hub)
        yield hub
