"""The review, export, trash and library-file parts of the window, added in one call.

``install(window)`` adds the menu entries and shortcuts, the sidebar's
"Duplicates" and "Trash" entries, and the two views they open in place of
the paper table; it links the import report to the duplicate review.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMenu, QSizePolicy, QStackedWidget

from paperdesk.gui import clipboard, enrich_action, library_files, sync_panel
from paperdesk.gui.duplicates_view import SOURCE as DUPLICATES
from paperdesk.gui.duplicates_view import DuplicatesView
from paperdesk.gui.export_dialog import open_export
from paperdesk.gui.icons import icon
from paperdesk.gui.sidebar import SOURCE_ROLE, Sidebar
from paperdesk.gui.trash_view import SOURCE as TRASH
from paperdesk.gui.trash_view import TrashView, trash_count

if TYPE_CHECKING:
    from paperdesk.core.formats.file_report import FileReport
    from paperdesk.gui.main_window import MainWindow


def _menu(window: MainWindow, title: str) -> QMenu:
    for action in window.menuBar().actions():
        if action.text() == title and action.menu() is not None:
            return action.menu()
    return window.menuBar().addMenu(title)


def _action(window: MainWindow, menu: QMenu, name: str, text: str, slot, shortcut=None,
            icon_name: str | None = None, table_only: bool = False,
            before: QAction | None = None) -> QAction:
    action = QAction(text, window)
    if icon_name:
        action.setIcon(icon(icon_name))
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    if table_only:  # keys that mean something else while typing
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        window.table.addAction(action)
    action.triggered.connect(lambda _c=False: slot())
    menu.insertAction(before, action)
    window.actions_by_name[name] = action
    return action


class _Pages(QObject):
    """Shows the duplicates or trash view in place of the table and detail pane."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.duplicates = DuplicatesView(window)
        self.trash = TrashView(window)
        self.content = QStackedWidget()
        index = window.splitter.indexOf(window.table)
        window.splitter.replaceWidget(index, self.content)
        for page in (window.table, self.duplicates, self.trash):
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
            w.count_label.setText("Duplicates to review")
        elif source == TRASH:
            self.trash.reload()
            self.content.setCurrentWidget(self.trash)
            w.detail.hide()
            w.count_label.setText("Trash")
        else:
            self.content.setCurrentWidget(w.table)
            w.detail.show()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Window state is saved on close: save it with the table and detail pane showing.
        if watched is self.window and event.type() == QEvent.Type.Close:
            self.content.setCurrentWidget(self.window.table)
            self.window.detail.show()
        return False


def _sidebar_entries(window: MainWindow, pages: _Pages, sidebar: Sidebar) -> None:
    section = sidebar._section("Review")
    sidebar._entry(section, "Duplicates", pages.duplicates.count(), DUPLICATES, "duplicates")
    sidebar._entry(section, "Trash", trash_count(window), TRASH, "trash")
    if pages.trash.isVisible():
        pages.trash.reload()


def update_counts(window: MainWindow) -> None:
    """Rewrite the Duplicates entry's count without rebuilding the sidebar."""
    pages: _Pages = window.extra_pages
    count = pages.duplicates.count()
    for item in window.sidebar._items():
        if item.data(0, SOURCE_ROLE) == f"{DUPLICATES[0]}\x1f{DUPLICATES[1]}":
            item.setText(0, "Duplicates" if count is None else f"Duplicates  ({count})")


def _link_report(window: MainWindow, reports: list[FileReport]) -> None:
    """Under the import report, a link to the likely duplicates the import brought."""
    likely = sum(getattr(r, "likely_duplicates", 0) or 0 for r in reports)
    report = window.importer.report
    if not likely or report is None:
        return
    link = QLabel(f'<a href="review">{likely} new paper{"s" if likely != 1 else ""} may '
                  f"repeat papers already in the library: review them</a>")
    link.setObjectName("duplicates-link")
    new = [pid for r in reports for pid in r.paper_ids]

    def review(_href: str) -> None:
        report.accept()
        window.extra_pages.duplicates.focus(new)
        window.sidebar.select(DUPLICATES)

    link.linkActivated.connect(review)
    report.layout().insertWidget(1, link)


def install(window: MainWindow) -> None:
    pages = window.extra_pages = _Pages(window)
    window.sidebar.extras.append(lambda sidebar: _sidebar_entries(window, pages, sidebar))
    pages.duplicates.count_changed.connect(lambda: update_counts(window))
    window.importer.done.connect(
        lambda reports: QTimer.singleShot(0, lambda: _link_report(window, reports)))

    actions = window.actions_by_name
    file_menu = _menu(window, "&File")
    library_files.install(window, file_menu, actions.get("open_demo"))
    export = _action(window, file_menu, "export_bibtex", "&Export BibTeX…",
                     lambda: open_export(window), "Ctrl+E", "export", before=actions.get("quit"))
    sync_panel.install(window, file_menu, actions.get("quit"))
    file_menu.insertSeparator(actions.get("quit"))
    edit = _menu(window, "&Edit")
    edit.addSeparator()
    _action(window, edit, "copy_bibtex", "Copy &BibTeX", lambda: clipboard.copy_bibtex(window),
            "Ctrl+Shift+C")
    _action(window, edit, "copy_cite", "Copy citation &key(s)",
            lambda: clipboard.copy_cite(window), "Ctrl+Shift+K")
    _action(window, edit, "copy_pandoc", "Copy &pandoc citation [@key]",
            lambda: clipboard.copy_pandoc(window), "Ctrl+Shift+M")
    _action(window, edit, "copy_reference", "Copy formatted &reference (IEEE)",
            lambda: clipboard.copy_reference(window), "Ctrl+Shift+R")
    paper = _menu(window, "&Paper")
    paper.addSeparator()
    _action(window, paper, "trash", "Move to &Trash", lambda: move_to_trash(window),
            QKeySequence.StandardKey.Delete, "trash", table_only=True)
    _action(window, paper, "review_duplicates", "Review &duplicates",
            lambda: window.sidebar.select(DUPLICATES), "Ctrl+Shift+D", "duplicates")
    enrich_action.install(window, file_menu, paper, _action)
    window.toolbar.insertAction(window.toolbar.actions()[1] if window.toolbar.actions()
                                else None, export)
    window.drag_out = clipboard.DragOut(window)
    pages.duplicates.invalidate()  # the first scan, once the window is up


def move_to_trash(window: MainWindow) -> None:
    if ids := window.selected_ids():
        window.context.ops.edit(window.lib.trash.delete, ids)
