"""The detail pane's list of PDFs shown for one paper after another: its buttons are
shown or hidden only when what they offer changes (each show or hide lays the whole
pane out again, and a keystroke's search shows the first result's PDFs)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject

from paperdesk.gui.panes.attachments_list import AttachmentsList


class Counter(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.seen = 0

    def eventFilter(self, _watched, event) -> bool:
        if event.type() in (QEvent.Type.Show, QEvent.Type.Hide):
            self.seen += 1
        return False


def pdf(aid: int, state: str = "ok") -> dict:
    return {"id": aid, "name": f"paper-{aid}.pdf", "pages": 3, "kind": "stored",
            "state": state}


def test_papers_with_pdfs_one_after_another_leave_the_buttons_be(qtbot):
    files = AttachmentsList()
    qtbot.addWidget(files)
    files.show_attachments([pdf(1)], can_fetch=False)
    files.show()
    qtbot.waitExposed(files)
    counters = {b: Counter() for b in (files.open_button, files.locate_button)}
    for button, counter in counters.items():
        button.installEventFilter(counter)
    for aid in range(2, 12):
        files.show_attachments([pdf(aid), pdf(aid + 100)], can_fetch=True)
        assert files.current()["id"] == aid and files.open_button.isVisible()
    assert [c.seen for c in counters.values()] == [0, 0]
    files.show_attachments([pdf(50, "missing")], can_fetch=False)
    assert files.locate_button.isVisible() and counters[files.locate_button].seen == 1
    files.show_attachments([], can_fetch=False)
    assert not files.open_button.isVisible() and files.empty.isVisible()
