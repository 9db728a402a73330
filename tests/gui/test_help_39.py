"""The empty state and Help name Today, the Hub, the version and the guide (issue 39,
"What broke" 5): the empty page's Today button runs Today, its guide button and
Help > PaperDesk guide open docs/guide.md, Help > About names the version."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QPushButton

import paperdesk
from paperdesk.core.library import Library
from paperdesk.gui import help_menu

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide.md"


def test_the_empty_page_names_today_the_hub_the_version_and_the_guide(
        make_window, tmp_path, qtbot, monkeypatch):
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # Today asks no one real
    window = make_window(Library.open(tmp_path / "empty.sqlite"))
    assert window.stack.currentWidget() is window.empty
    said = window.empty.text.text() + " " + window.empty.version.text()
    for words in ("Today", "Ctrl+T", "Hugging Face Hub", paperdesk.__version__, "guide"):
        assert words in said, words
    ran: list[bool] = []
    window.actions_by_name["today"].triggered.connect(lambda *_: ran.append(True))
    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    buttons = {b.text(): b for b in window.empty.findChildren(QPushButton)}
    buttons["Today: fetch from the Hub"].click()
    assert ran == [True]
    qtbot.waitUntil(lambda: not window.context.ops.busy)  # unreachable, said so
    buttons["Read the guide"].click()
    assert [Path(u.toLocalFile()) for u in opened] == [GUIDE]


def test_help_has_the_guide_and_about_with_the_version(window):
    texts = [a.text() for a in window.context.menus.menu("help").actions()]
    assert "PaperDesk &guide" in texts and "&About PaperDesk" in texts
    about = help_menu.about_text(window.context)
    for words in (paperdesk.__version__, "Today", "Hugging Face Hub", "guide.md",
                  str(window.lib.path)):
        assert words in about, words
    assert help_menu.guide_path() == GUIDE
