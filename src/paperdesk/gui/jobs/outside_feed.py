"""The window hears other programs: a command run in a terminal or by cron, a sync, a
restore, any other program's committed write reaches the window within a second.

Twice a second the window asks its library for writes made outside
(``Library.external_changes``: one look at SQLite's data version) and passes what it
finds to the same change feed its own edits use, so the table, the detail pane and
the sidebar repaint as after an import. The current paper stays selected; when it
was in view it stays at the same height in the table however many rows the other
program put above it (the detail pane and the table agree); otherwise the table
stays where it was scrolled to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QAbstractItemView

from paperdesk.core.api import PaperDeskError
from paperdesk.gui.context import Feature

if TYPE_CHECKING:
    from paperdesk.gui.context import Context

INTERVAL_MS = 500


class OutsideWrites(Feature):
    """Looks for writes by other programs and feeds them to the window's views."""

    name = "outside"

    def install(self, context: Context) -> None:
        super().install(context)
        self.timer = QTimer(context, interval=INTERVAL_MS)
        self.timer.timeout.connect(self.look)
        self.timer.start()

    def look(self) -> bool:
        """Whether another program wrote since the last look (then the views heard it)."""
        ctx = self.context
        try:
            changes = ctx.lib.external_changes()
        except PaperDeskError as exc:  # the file went away under the window: say so once
            self.timer.stop()
            ctx.notify(str(exc))
            return False
        if changes is None:
            return False
        table = ctx.table
        if table is None:
            ctx.lib.notify(changes)
            return True
        bar = table.verticalScrollBar()
        scrolled, place = bar.value(), self._place_of_current()
        ctx.lib.notify(changes)
        QTimer.singleShot(0, table, lambda: self._back_in_place(place, scrolled))
        return True

    def _place_of_current(self) -> tuple[int, int] | None:
        """(paper, its row's height in the viewport) of the current row, when in view."""
        table, selection = self.context.table, self.context.selection
        index = table.currentIndex()
        pid = selection.current_id() if selection is not None else None
        if not index.isValid() or pid is None:
            return None
        y = table.rowViewportPosition(index.row())
        return (pid, y) if 0 <= y < table.viewport().height() else None

    def _back_in_place(self, place: tuple[int, int] | None, scrolled: int) -> None:
        """The current row where it was in the viewport; else the scroll as it was."""
        table = self.context.table
        bar = table.verticalScrollBar()
        model = table.model()
        row = model.row_of(place[0]) if place is not None else None
        if row is None or self.context.selection.current_id() != place[0]:
            bar.setValue(min(scrolled, bar.maximum()))  # where the reader was
            return
        per_item = table.verticalScrollMode() == QAbstractItemView.ScrollMode.ScrollPerItem
        delta = table.rowViewportPosition(row) - place[1]
        step = round(delta / max(1, table.rowHeight(row))) if per_item else delta
        bar.setValue(max(0, min(bar.value() + step, bar.maximum())))

    def close(self) -> None:
        self.timer.stop()
