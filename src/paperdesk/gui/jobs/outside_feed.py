"""The window hears other programs: a command run in a terminal or by cron, a sync, a
restore, any other program's committed write reaches the window within a second.

Twice a second the window asks its library for writes made outside
(``Library.external_changes``: one look at SQLite's data version) and passes what it
finds to the same change feed its own edits use, so the table, the detail pane and
the sidebar repaint as after an import. The current paper stays selected, and the
table stays where it was scrolled to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer

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
        bar = ctx.table.verticalScrollBar() if ctx.table is not None else None
        scrolled = bar.value() if bar is not None else 0
        ctx.lib.notify(changes)
        if bar is not None:  # where the reader was, not the current row's place
            QTimer.singleShot(0, lambda: bar.setValue(min(scrolled, bar.maximum())))
        return True

    def close(self) -> None:
        self.timer.stop()
