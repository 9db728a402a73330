"""The morning of issue 39 as a person goes through it, by keys, offscreen: Today on a
stand-in Hub with papers of this week (Ctrl+T, a few triage keys, Esc), a paste of
an arXiv link on the table (Ctrl+V) answered by a stand-in arXiv, a search with a
typo then Esc (the paper comes back), the rows dragged onto a tag, F1, the follow
dialog. Each step asserts what the person would see, and its picture is saved (with
PAPERDESK_SCREENSHOTS=1 also to docs/screenshots/: morning-*.png).

A real X window (Xvfb, xdotool) is the slow tier's ``test_queue_real_drag.py``; it
needs Qt's xcb libraries."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from tests.fake_hub import record
from tests.fake_services import FakeServices

from .conftest import select_rows, sidebar_counts
from .screenshots import save_screenshot
from .test_add_by_id import PAPER
from .test_sidebar_39 import drag_to, tag_item

CTRL = Qt.KeyboardModifier.ControlModifier


def test_the_morning_by_keys(window, server, qtbot, tmp_path, monkeypatch):
    from paperdesk.core.hub import service

    monkeypatch.setattr(service.ARXIV_API, "spacing", 0.0)
    lib = window.lib
    today = dt.date.today()
    for n, votes in ((1, 5), (2, 48), (3, 17)):
        day = (today - dt.timedelta(days=n - 1)).isoformat()
        server.add(record(f"2612.0000{n}", f"Morning Paper {n}: Adapters (\\eg LoRA) at scale",
                          f"We tune adapters (\\eg LoRA) for task {n}.", [f"Author {n}"], day,
                          upvotes=votes), day=day)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    # Today: one key, the triage opens on this week's papers
    window.feed.view.setFocus()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_T, CTRL)
    feature = window.context.features["today"]
    qtbot.waitUntil(lambda: feature.result is not None, timeout=60000)
    view = feature.view
    qtbot.addWidget(view)
    assert view.title.text().startswith("Morning Paper 1")  # the newest day first
    assert "(e.g. LoRA)" in view.abstract.toPlainText()  # LaTeX as text
    save_screenshot(view, tmp_path, "morning-today.png")
    qtbot.keyClick(view, Qt.Key.Key_T)  # to read
    qtbot.keyClick(view, Qt.Key.Key_S)  # seen
    first, second = view.ids[:2]
    assert lib.paper(first)["status"] == "to-read"
    assert lib.paper(second)["status"] == "unread" and view.index == 2  # seen, stays unread
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    # A link a colleague sent: pasted on the table
    with FakeServices() as fake:
        fake.arxiv[PAPER.arxiv_id] = PAPER
        for name, value in fake.env.items():
            monkeypatch.setenv(name, value)
        QGuiApplication.clipboard().setText(f"https://arxiv.org/abs/{PAPER.arxiv_id}\n")
        window.activateWindow()  # back from the triage window
        qtbot.waitUntil(window.isActiveWindow)
        window.feed.view.setFocus()
        assert window.feed.view.hasFocus()
        qtbot.keyClick(window.feed.view, Qt.Key.Key_V, CTRL)
        qtbot.waitUntil(lambda: bool(lib.search('"Mistral 7B"').ids), timeout=30000)
    # A search with a typo, then Esc: the paper is selected again, in view
    qtbot.waitUntil(lambda: not window.context.ops.busy)  # the added paper is selected
    window.feed.view.setFocus()
    for _ in range(12):
        qtbot.keyClick(window.feed.view, Qt.Key.Key_J)
    chosen = window.feed.current_id()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_F, CTRL)
    assert window.search_bar.edit.hasFocus()
    qtbot.keyClicks(window.search_bar.edit, "adaptres")  # the typo
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == 0)
    save_screenshot(window, tmp_path, "morning-typo.png")
    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: window.feed.current_id() == chosen)
    assert window.detail.ids == [chosen] and window.feed.view.hasFocus()
    # Rows onto a tag
    window.edit(lib.curation.add_tags, [chosen], ["morning"])
    window.refresh_sidebar()
    ids = select_rows(window, [0, 1, 2])
    offered, drop = drag_to(window, tag_item(window, "morning"), _mime(window, ids))
    assert offered and drop.isAccepted()
    qtbot.waitUntil(lambda: sidebar_counts(window).get("morning") == str(
        len(set(ids) | {chosen})))
    save_screenshot(window, tmp_path, "morning-tagged.png")
    # F1, then the follow dialog
    window.feed.view.setFocus()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_F1)
    sheet = next(w for w in QGuiApplication.topLevelWindows() if w.title() ==
                 "Keyboard shortcuts")
    assert sheet.isVisible()
    window.actions_by_name["follows"].trigger()
    dialog = window.context.features["follows"].dialog
    qtbot.addWidget(dialog)
    dialog.entry.setText("cs.CL")
    dialog.follow()
    save_screenshot(dialog, tmp_path, "morning-follow.png")
    assert [r["value"] for r in lib.follows.listed()] == ["cs.CL"]


def _mime(window, ids):
    from paperdesk.gui.curation.queue_view import ids_mime

    return ids_mime(window.context, ids)

