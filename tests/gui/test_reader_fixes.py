"""What a person met in the reader driven by keys under X (bench/xtrial_pdf.py), offscreen
here, on the reader's 30-page PDF written byte by byte: a highlight's comment by the
keyboard alone (Ctrl+M, type, Enter a new line, Ctrl+Enter saves, Esc cancels and
writes nothing); the reader's window within the screen."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt, QTimer
from PySide6.QtWidgets import QApplication

from paperdesk.gui.pdf.comment_dialog import GAP, CommentDialog, beside
from tests.reader_pdf import PAGE3_PHRASE, attach, reader_pdf

from .test_reader import opened

CTRL = Qt.KeyboardModifier.ControlModifier


def _in_dialog(qtbot, steps):
    """Run ``steps(dialog)`` on the comment box once it is up (it runs modal)."""
    seen = []
    tries = [250]

    def act():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, CommentDialog):
            tries[0] -= 1
            if tries[0] > 0:
                QTimer.singleShot(20, act)
            elif dialog is not None:  # another box: closed, and the test fails
                dialog.close()
            return
        seen.append(dialog)
        try:
            steps(dialog)
        except BaseException as exc:  # said by the test, never a box left waiting
            seen.append(exc)
        finally:
            if dialog.isVisible():
                dialog.reject()

    QTimer.singleShot(0, act)
    return seen


def test_ctrl_m_types_a_comment_and_ctrl_enter_saves_it(qtbot, window, tmp_path):
    lib = window.context.lib
    aid = attach(lib, lib.search("").ids[0], reader_pdf(tmp_path, tex=False))
    shown = opened(qtbot, window, aid)
    shown.find(PAGE3_PHRASE)
    qtbot.waitUntil(lambda: bool(shown.view.hits) and shown.view.current_hit == 0)
    qtbot.keyClick(shown.view, Qt.Key.Key_H, CTRL)
    (made,) = lib.highlights.of_attachment(aid)

    def write(dialog):
        assert dialog.focusWidget() is dialog.edit and dialog.edit.tabChangesFocus()
        # Beside the passage, never over it, and on the screen.
        passage = shown.view.passage_on_screen(made["page"], made["quads"])
        box = dialog.frameGeometry()
        assert not passage.isEmpty() and not box.intersects(passage), (box, passage)
        assert shown.screen().availableGeometry().contains(box), box
        gap = max(box.top() - passage.bottom(), passage.top() - box.bottom(),
                  box.left() - passage.right(), passage.left() - box.right())
        assert 0 < gap <= GAP + 1, (box, passage)
        qtbot.keyClicks(dialog.edit, "horses")
        qtbot.keyClick(dialog.edit, Qt.Key.Key_Return)  # a new line, the box stays
        qtbot.keyClicks(dialog.edit, "really")
        assert dialog.isVisible()
        qtbot.keyClick(dialog.edit, Qt.Key.Key_Return, CTRL)

    seen = _in_dialog(qtbot, write)
    qtbot.keyClick(shown.view, Qt.Key.Key_M, CTRL)
    assert len(seen) == 1, seen
    assert lib.highlights.get(made["id"])["comment"] == "horses\nreally"

    def cancel(dialog):
        assert dialog.text() == "horses\nreally"  # the comment there, to change
        qtbot.keyClicks(dialog.edit, " not this")
        qtbot.keyClick(dialog.edit, Qt.Key.Key_Escape)

    shown.activateWindow()  # back from the box, as a window manager gives it
    qtbot.waitUntil(shown.isActiveWindow)
    seen = _in_dialog(qtbot, cancel)
    qtbot.keyClick(shown.view, Qt.Key.Key_M, CTRL)
    assert len(seen) == 1, seen
    assert lib.highlights.get(made["id"])["comment"] == "horses\nreally"
    shown.close()


def test_the_comment_box_goes_beside_its_passage():
    room = QRect(0, 0, 1000, 800)
    size = QSize(400, 200)
    line = QRect(100, 300, 500, 20)  # y 300-319
    assert beside(line, size, room) == QPoint(100, 320 + GAP)  # below
    low = QRect(100, 700, 500, 20)
    assert beside(low, size, room) == QPoint(100, 700 - GAP - 200)  # above
    # The frame counts: a title bar of 30 makes "below" too tall for line 560-579.
    at = QRect(100, 560, 500, 20)
    assert beside(at, size, room) == QPoint(100, 580 + GAP)
    assert beside(at, size, room, QSize(0, 30)) == QPoint(100, 560 - GAP - 230)
    # A tall passage on the left half: to its right, lined up with its top.
    tall = QRect(50, 100, 400, 650)
    assert beside(tall, size, room) == QPoint(450 + GAP, 100)
    # At the right edge, the box moves left to stay on the screen.
    edge = QRect(900, 300, 90, 20)
    assert beside(edge, size, room) == QPoint(600, 320 + GAP)
    # Nowhere to go: kept on the screen all the same.
    page = QRect(0, 0, 1000, 800)
    got = beside(page, size, room)
    assert room.contains(QRect(got, size))


def test_the_reader_opens_within_the_screen(qtbot, window, tmp_path):
    """At a scale of 2 a 1920 x 1200 screen holds 960 x 600: the reader's 900 x 1000 went
    past its bottom, tool bar and status line out of reach (the offscreen screen is
    smaller still)."""
    lib = window.context.lib
    aid = attach(lib, lib.search("").ids[0], reader_pdf(tmp_path, tex=False))
    shown = opened(qtbot, window, aid)
    room = shown.screen().availableGeometry()
    assert shown.frameGeometry().height() <= room.height()
    assert shown.frameGeometry().width() <= room.width()
    shown.close()
