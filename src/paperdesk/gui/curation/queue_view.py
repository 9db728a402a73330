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
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QWidget

from paperdesk.core.api import PAPERS
from paperdesk.gui.context import Feature

if TYPE_CHECKING:
    from paperdesk.core.api import Changes
    from paperdesk.gui.context import Context

PAPER_IDS_MIME = "application/x-paperdesk-paper-ids"
QUEUE = ("list", None)


def ids_mime(context: Context, ids: list[int], data: QMimeData | None = None) -> QMimeData:
    """Mark a drag as this window's own rows (``data`` gets the mark, or a new one)."""
    data = data if data is not None else QMimeData()
    data.setData(PAPER_IDS_MIME, json.dumps(
        {"pid": os.getpid(), "library": str(context.lib.path), "ids": ids}).encode())
    return data


def own_ids(context: Context, data: QMimeData) -> list[int] | None:
    """The paper ids of a drag that came from this window's table, else None."""
    if data is None or not data.hasFormat(PAPER_IDS_MIME):
        return None
    try:
        found = json.loads(bytes(data.data(PAPER_IDS_MIME)).decode())
    except ValueError:
        return None
    if found.get("pid") != os.getpid() or found.get("library") != str(context.lib.path):
        return None
    return [int(i) for i in found.get("ids", [])]


def in_queue(context: Context) -> bool:
    return context.sidebar.current_source() == QUEUE


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

    def __init__(self, context: Context) -> None:
        super().__init__(context)
        self.context = context
        self.table = context.table
        viewport = self.table.viewport()
        viewport.setAcceptDrops(True)
        viewport.installEventFilter(self)
        self.line = DropLine(viewport)

    def target_row(self, y: int) -> int:
        """The row a drop at ``y`` puts the papers before (rowCount: the end)."""
        table = self.table
        row = table.rowAt(y)
        if row < 0:
            return self.table.model().rowCount() if y > 0 else 0
        rect = table.visualRect(self.table.model().index(row, 0))
        return row + 1 if y > rect.center().y() else row

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop,
                        QEvent.Type.DragLeave):
            return False
        if kind == QEvent.Type.DragLeave:
            self.line.hide()
            return False
        ids = own_ids(self.context, event.mimeData())
        if ids is None:
            return False  # files from elsewhere: the window imports them
        if not in_queue(self.context):
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
        table, model = self.table, self.table.model()
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
        shown = self.table.model().ids()
        moving = set(ids)
        index = sum(1 for pid in shown[:row] if pid not in moving)
        move(self.context, lambda chosen: self.context.lib.queue.move_to(chosen, index), ids)


def move(context: Context, how: Callable, ids: list[int] | None = None) -> None:
    """Move the selected papers (or ``ids``) in the queue by ``how(ids)`` (a method of
    ``lib.queue``); they stay selected."""
    selection = context.selection
    ids = ids if ids is not None else selection.selected_ids()
    if not ids:
        return
    on = set(context.lib.curation.reading_list())
    if missing := [pid for pid in ids if pid not in on]:  # said by its title, never its id
        title = context.lib.paper(missing[0], with_notes=False)["title"]
        shown = title if len(title) <= 60 else title[:59] + "…"
        more = f" and {len(missing) - 1} more are" if len(missing) > 1 else " is"
        context.notify(f"“{shown}”{more} not in the reading queue (T adds to it)")
        return
    current = selection.current_id()
    if context.ops.edit(how, ids) is not None:
        selection.select_ids(ids, current if current in ids else ids[0])


class Queue(Feature):
    """The queue's menu entries and keys, drops inside the table, "Next up"."""

    name = "queue"

    def install(self, context: Context) -> None:
        super().install(context)
        self.drops = QueueDrops(context)
        context.sidebar.next_up.connect(lambda pid: context.selection.select_ids([pid], pid))
        entries = [
            ("queue_up", "Move &up in the queue", "Alt+Up", lambda: move(
                context, lambda ids: context.lib.queue.step(ids, -1))),
            ("queue_down", "Move d&own in the queue", "Alt+Down", lambda: move(
                context, lambda ids: context.lib.queue.step(ids, 1))),
            ("queue_top", "Move to the &top of the queue", "Alt+Home",
             lambda: move(context, context.lib.queue.to_top)),
            ("queue_bottom", "Move to the &bottom of the queue", "Alt+End",
             lambda: move(context, context.lib.queue.to_bottom)),
        ]
        context.menus.separator("paper")
        for name, text, keys, slot in entries:
            context.menus.add("paper", name, text, slot, keys, table_only=True)

    def accepts_drop(self, data: QMimeData) -> bool | None:
        """The table's own rows dropped on the window: nobody takes them (inside the
        table, in the queue, ``QueueDrops`` moves them)."""
        return False if own_ids(self.context, data) is not None else None

    def lists_again(self, changes: Changes) -> bool:
        """In the queue, a change to papers may change its order or its members."""
        return PAPERS in changes.kinds and in_queue(self.context)
