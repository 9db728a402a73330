"""The reading queue in the window: reorder by drag inside the table, by keys and menus.

In the queue view (the sidebar's "Reading queue") the table lists the to-read
papers in the user's order with a "#" column. Dragging selected rows and
dropping them between others moves them there: an internal move, one undoable
edit, never an import (drags from the table carry ``PAPER_IDS_MIME`` and the
window never imports them). Alt+Up / Alt+Down move the selection one place,
Alt+Home / Alt+End to the top or bottom, from anywhere a to-read paper shows.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QMimeData, QObject, QRect, Qt
from PySide6.QtGui import QAction, QKeySequence, QPainter, QPen
from PySide6.QtWidgets import QWidget

from paperdesk.core.areas import queue

if TYPE_CHECKING:
    from paperdesk.gui.main_window import MainWindow

PAPER_IDS_MIME = "application/x-paperdesk-paper-ids"
QUEUE = ("list", None)


def ids_mime(window: MainWindow, ids: list[int], data: QMimeData | None = None) -> QMimeData:
    """Mark a drag as this window's own rows (``data`` gets the mark, or a new one)."""
    data = data if data is not None else QMimeData()
    data.setData(PAPER_IDS_MIME, json.dumps(
        {"pid": os.getpid(), "library": str(window.lib.path), "ids": ids}).encode())
    return data


def own_ids(window: MainWindow, data: QMimeData) -> list[int] | None:
    """The paper ids of a drag that came from this window's table, else None."""
    if data is None or not data.hasFormat(PAPER_IDS_MIME):
        return None
    try:
        found = json.loads(bytes(data.data(PAPER_IDS_MIME)).decode())
    except ValueError:
        return None
    if found.get("pid") != os.getpid() or found.get("library") != str(window.lib.path):
        return None
    return [int(i) for i in found.get("ids", [])]


def in_queue(window: MainWindow) -> bool:
    return window.sidebar.current_source() == QUEUE


class DropLine(QWidget):
    """The line between rows where a drop will put the papers."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.hide()

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setPen(QPen(self.palette().highlight().color(), 2))
        painter.drawLine(0, 1, self.width(), 1)


class QueueDrops(QObject):
    """Drops on the table's viewport in the queue view: a move inside the queue."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        viewport = window.table.viewport()
        viewport.setAcceptDrops(True)
        viewport.installEventFilter(self)
        self.line = DropLine(viewport)

    def target_row(self, y: int) -> int:
        """The row a drop at ``y`` puts the papers before (rowCount: the end)."""
        table = self.window.table
        row = table.rowAt(y)
        if row < 0:
            return self.window.model.rowCount() if y > 0 else 0
        rect = table.visualRect(self.window.model.index(row, 0))
        return row + 1 if y > rect.center().y() else row

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop,
                        QEvent.Type.DragLeave):
            return False
        if kind == QEvent.Type.DragLeave:
            self.line.hide()
            return False
        ids = own_ids(self.window, event.mimeData())
        if ids is None:
            return False  # files from elsewhere: the window imports them
        if not in_queue(self.window):
            event.ignore()  # the window's own rows are never imported
            self.line.hide()
            return True
        y = event.position().toPoint().y()
        row = self.target_row(y)
        if kind == QEvent.Type.Drop:
            self.line.hide()
            event.setDropAction(Qt.DropAction.MoveAction)
            event.accept()
            self.drop(ids, row)
            return True
        event.setDropAction(Qt.DropAction.MoveAction)
        event.accept()
        self._show_line(row)
        return True

    def _show_line(self, row: int) -> None:
        table, model = self.window.table, self.window.model
        if model.rowCount() == 0:
            return
        if row < model.rowCount():
            y = table.visualRect(model.index(row, 0)).top()
        else:
            y = table.visualRect(model.index(model.rowCount() - 1, 0)).bottom()
        self.line.setGeometry(QRect(0, y - 1, table.viewport().width(), 3))
        self.line.show()
        self.line.raise_()

    def drop(self, ids: list[int], row: int) -> None:
        """Put ``ids`` before the paper now at ``row`` (papers moving do not count)."""
        shown = self.window.model.ids()
        moving = set(ids)
        index = sum(1 for pid in shown[:row] if pid not in moving)
        move(self.window, lambda lib, chosen: queue.move_to(lib, chosen, index), ids)


def move(window: MainWindow, how: Callable, ids: list[int] | None = None) -> None:
    """Move the selected papers (or ``ids``) in the queue; they stay selected."""
    ids = ids if ids is not None else window.selected_ids()
    if not ids:
        return
    current = window.current_id()
    if window.edit(how, window.lib, ids) is not None:
        window.select_ids(ids, current if current in ids else ids[0])


def install(window: MainWindow, menu) -> None:
    """The queue's menu entries and keys, and drops inside the table."""
    window.queue_drops = QueueDrops(window)
    window.sidebar.next_up.connect(lambda pid: window.select_ids([pid], pid))
    entries = [
        ("queue_up", "Move &up in the queue", "Alt+Up", lambda: move(
            window, lambda lib, ids: queue.step(lib, ids, -1))),
        ("queue_down", "Move d&own in the queue", "Alt+Down", lambda: move(
            window, lambda lib, ids: queue.step(lib, ids, 1))),
        ("queue_top", "Move to the &top of the queue", "Alt+Home",
         lambda: move(window, queue.to_top)),
        ("queue_bottom", "Move to the &bottom of the queue", "Alt+End",
         lambda: move(window, queue.to_bottom)),
    ]
    menu.addSeparator()
    for name, text, keys, slot in entries:
        action = QAction(text, window)
        action.setShortcut(QKeySequence(keys))
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(lambda _c=False, slot=slot: slot())
        window.table.addAction(action)
        menu.addAction(action)
        window.actions_by_name[name] = action
