"""The duplicate review and the Trash, a feature of the window.

It adds Paper > Move to Trash and Review duplicates, the sidebar's
"Duplicates" and "Trash" entries, and the two views they open in place of
the paper table; it links the import report to the duplicate review.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QLabel, QSizePolicy, QStackedWidget

from paperdesk.gui.context import Feature
from paperdesk.gui.curation.trash_view import SOURCE as TRASH
from paperdesk.gui.curation.trash_view import TrashView, trash_count
from paperdesk.gui.duplicates.duplicates_view import SOURCE as DUPLICATES
from paperdesk.gui.duplicates.duplicates_view import DuplicatesView
from paperdesk.gui.panes.sidebar import Sidebar

if TYPE_CHECKING:
    from paperdesk.core.api import FileReport
    from paperdesk.gui.context import Context


class _Pages(QObject):
    """Shows the duplicates or trash view in place of the table and detail pane."""

    def __init__(self, context: Context) -> None:
        window = context.widget
        super().__init__(window)
        self.window = window
        self.table = table = context.table
        self.count_label = context.selection.count_label
        self.duplicates = DuplicatesView(context)
        self.trash = TrashView(context)
        self.content = QStackedWidget()
        index = window.splitter.indexOf(table)
        window.splitter.replaceWidget(index, self.content)
        for page in (table, self.duplicates, self.trash):
            self.content.addWidget(page)
        window.splitter.setStretchFactor(index, 1)
        # Only the page showing sets the minimum size (the review's would widen the window).
        self.content.currentChanged.connect(self._sizes)
        self._sizes()
        window.sidebar.source_changed.connect(self.show_source)
        window.installEventFilter(self)

    def _sizes(self, *_args) -> None:
        for i in range(self.content.count()):
            page = self.content.widget(i)
            policy = QSizePolicy.Policy.Preferred if page is self.content.currentWidget() \
                else QSizePolicy.Policy.Ignored
            page.setSizePolicy(policy, policy)
        self.content.adjustSize() if not self.content.isVisible() else None

    def show_source(self, source) -> None:
        w = self.window
        if source == DUPLICATES:
            self.content.setCurrentWidget(self.duplicates)
            w.detail.hide()
            if self.duplicates.groups is None and not self.duplicates.scanning:
                self.duplicates.scan()
            self.count_label.setText("Duplicates to review")
        elif source == TRASH:
            self.trash.reload()
            self.content.setCurrentWidget(self.trash)
            w.detail.hide()
            self.count_label.setText("Trash")
        else:
            self.content.setCurrentWidget(self.table)
            w.detail.show()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Window state is saved on close: save it with the table and detail pane showing.
        if watched is self.window and event.type() == QEvent.Type.Close:
            self.content.setCurrentWidget(self.table)
            self.window.detail.show()
        return False


class Review(Feature):
    """The duplicate review and the Trash: sidebar entries, menu entries, their pages."""

    name = "review"

    def install(self, context: Context) -> None:
        super().install(context)
        self.pages = _Pages(context)
        self.duplicates, self.trash, self.content = (
            self.pages.duplicates, self.pages.trash, self.pages.content)
        context.sidebar.add_filler(self._sidebar_entries)
        self.duplicates.count_changed.connect(self.update_counts)
        context.importer.done.connect(
            lambda reports: QTimer.singleShot(0, context.widget,
                                             lambda: self._link_report(reports)))
        menus = context.menus
        menus.separator("paper")
        menus.add("paper", "trash", "Move to &Trash", self.move_to_trash,
                  QKeySequence.StandardKey.Delete, "trash", table_only=True)
        menus.add("paper", "review_duplicates", "Review &duplicates",
                  lambda: context.sidebar.select(DUPLICATES), "Ctrl+Shift+D", "duplicates")
        self.duplicates.invalidate()  # the first scan, once the window is up

    def _sidebar_entries(self, sidebar: Sidebar) -> None:
        section = sidebar.section("Review")
        sidebar.entry(section, "Duplicates", self.duplicates.count(), DUPLICATES, "duplicates")
        sidebar.entry(section, "Trash", trash_count(self.context), TRASH, "trash")
        if self.trash.isVisible():
            self.trash.reload()

    def update_counts(self) -> None:
        """Rewrite the Duplicates entry's count without rebuilding the sidebar."""
        self.context.sidebar.set_count(DUPLICATES, "Duplicates", self.duplicates.count())

    def _link_report(self, reports: list[FileReport]) -> None:
        """Under the import report, a link to the likely duplicates the import brought."""
        likely = sum(getattr(r, "likely_duplicates", 0) or 0 for r in reports)
        report = self.context.importer.report
        if not likely or report is None:
            return
        link = QLabel(f'<a href="review">{likely} new paper{"s" if likely != 1 else ""} may '
                      f"repeat papers already in the library: review them</a>")
        link.setObjectName("duplicates-link")
        new = [pid for r in reports for pid in r.created_ids]  # the import's new papers

        def review(_href: str) -> None:
            report.accept()
            self.duplicates.focus(new)
            self.context.sidebar.select(DUPLICATES)

        link.linkActivated.connect(review)
        report.layout().insertWidget(1, link)

    def move_to_trash(self) -> None:
        if ids := self.context.selected_ids():
            self.context.ops.edit(self.context.lib.trash.delete, ids)
