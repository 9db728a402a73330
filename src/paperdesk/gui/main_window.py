"""The library window: sidebar, paper table and detail pane, search, import, undo.

The window lays its parts out and keeps them in step after every write
(``apply``); its context (``gui/context.py``) is what views and features work
with; the table is its own object (``gui/table/table_feed.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QInputDialog, QMainWindow, QSplitter, QStackedWidget

from paperdesk.core.api import DETAIL, SIDEBAR_COUNTS, TABLE_SET, Changes, Library, PaperDeskError
from paperdesk.gui import keyboard, paper_edits
from paperdesk.gui.actions import build_actions
from paperdesk.gui.common import settings
from paperdesk.gui.common.empty_page import EmptyPage
from paperdesk.gui.common.geometry import PANES, first_size, fit_to_screen, share_panes
from paperdesk.gui.common.icons import icon
from paperdesk.gui.context import Context, Feature
from paperdesk.gui.features import FEATURES
from paperdesk.gui.jobs import reads
from paperdesk.gui.menus import Menus
from paperdesk.gui.panes.detail_pane import DetailPane
from paperdesk.gui.panes.search_bar import SearchBar
from paperdesk.gui.panes.sidebar import Sidebar
from paperdesk.gui.table.table_feed import TableFeed


def _copy_in(event) -> bool:
    """Accept a drop of files as a copy (or a link), never a move: the file manager
    that offered them must not delete its files because PaperDesk read them."""
    for action in (Qt.DropAction.CopyAction, Qt.DropAction.LinkAction):
        if event.possibleActions() & action:
            event.setDropAction(action)
            event.accept()
            return True
    event.ignore()
    return False


class MainWindow(QMainWindow):
    def __init__(self, lib: Library) -> None:
        super().__init__()
        ctx = self.context = Context(lib, self)
        self.undo_stack, self.worker, self.progress = ctx.undo_stack, ctx.worker, ctx.progress
        self.notify, self.actions_by_name = ctx.notify, ctx.actions
        self.setWindowIcon(icon("app"))
        self.setAcceptDrops(True)
        self.drop_widget: QObject | None = None  # a text field a drop landed on (eventFilter)
        ctx.changed.connect(self.apply)
        ctx.leaving.connect(lambda: self.detail.flush_note())
        ctx.library_changed.connect(self._library_changed)
        self._counts_token = 0
        self._shown: list[int] | None = None  # the ids the detail pane was last given
        self._fitted = False
        self._make_parts()
        ctx.sidebar, ctx.table, ctx.selection = self.sidebar, self.feed.view, self.feed
        ctx.menus = Menus(self, ctx.actions, self.feed.view)
        build_actions(self, ctx.menus)
        self._lay_out()
        self._counts_timer = QTimer(self, singleShot=True, interval=120)
        self._counts_timer.timeout.connect(self.request_counts)
        self._restore_state()
        self.feed.model.active = True
        ctx.install(FEATURES)
        self.keys = keyboard.install(self)  # status keys, tag, note, triage, Esc, row menu
        self.reload_all()

    # -- building ------------------------------------------------------------

    def _make_parts(self) -> None:
        """The search bar, sidebar, reading thread, table and detail pane."""
        self.search_bar = SearchBar()
        self.sidebar = Sidebar()
        self.sidebar.delete_saved_search.connect(partial(paper_edits.delete_search,
                                                         self.context))
        reader = self.context.reader  # on the executor's reads lane
        reader.done.connect(self._read_done)
        feed = self.feed = TableFeed(self.context, self.sidebar, self.search_bar, reader)
        self.search_bar.search.connect(feed.set_query)
        self.search_bar.save_requested.connect(self.save_search)
        self.sidebar.source_changed.connect(lambda _s: feed.source_changed())
        feed.selection_changed.connect(self._selection_changed)
        feed.rated.connect(self.rate_row)
        self.detail = DetailPane()
        self._connect_detail()

    def _lay_out(self) -> None:
        """Sidebar, table and detail side by side (or the first-run page); the status
        bar; the toolbar."""
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for widget in (self.sidebar, self.feed.view, self.detail):
            self.splitter.addWidget(widget)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes(list(PANES))
        self.empty = EmptyPage()
        self.empty.import_files.connect(self.actions_by_name["import_files"].trigger)
        self.empty.open_demo.connect(self.open_demo)
        self.empty.today.connect(lambda: self.actions_by_name["today"].trigger())
        self.empty.open_guide.connect(lambda: self.actions_by_name["guide"].trigger())
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.splitter)
        self.setCentralWidget(self.stack)
        self.statusBar().addWidget(self.feed.count_label)
        self.statusBar().addPermanentWidget(self.progress)
        self.toolbar = self.addToolBar("Main")
        self.toolbar.setObjectName("main-toolbar")
        self.toolbar.setMovable(False)
        self.toolbar.addAction(self.actions_by_name["import_files"])
        self.toolbar.addSeparator()
        self.toolbar.addWidget(self.search_bar)
        # (The note takes drops on its viewport, where a scroll area's events arrive.)
        for field in (self.search_bar.edit, self.detail.note, self.detail.note.viewport(),
                      self.detail.tag_entry):
            field.installEventFilter(self)

    def _connect_detail(self) -> None:
        d, ctx = self.detail, self.context
        d.rate.connect(partial(paper_edits.set_rating, ctx))
        d.status_chosen.connect(partial(paper_edits.set_status, ctx))
        d.tags_added.connect(partial(paper_edits.add_tags, ctx))
        d.tag_removed.connect(partial(paper_edits.remove_tag, ctx))
        d.note_saved.connect(self.save_note)
        d.year_correction.connect(self.correct_year)

    # -- reading the library ---------------------------------------------------

    def refresh_sidebar(self) -> None:
        self._counts_token += 1  # an answer still on its way is older than this
        self._fill_sidebar(reads.counts(self.lib))

    def _fill_sidebar(self, counts: dict[str, Any]) -> None:
        self.sidebar.fill(counts)
        self.detail.set_tag_names([name for name, _n in counts["tags"]])
        empty = not counts["all"] and not self.lib.stats()["trash"]
        self.stack.setCurrentWidget(self.empty if empty else self.splitter)

    def _read_done(self, kind: str, token: int, result: Any, error: str | None) -> None:
        if kind != "counts":
            return
        if error is not None:
            self.notify(error)
        elif token == self._counts_token:
            self._fill_sidebar(result)

    def request_counts(self) -> None:
        """Recount the sidebar on the reading thread (after edits)."""
        self._counts_token += 1
        self.context.reader.request("counts", self._counts_token, self.lib.path, reads.counts)

    def reload_all(self) -> None:
        """After imports or undoing them: everything may have changed."""
        self.setWindowTitle(f"PaperDesk — {self.lib.name} ({self.lib.path})")  # its one owner
        self._shown = None  # what the detail pane shows may have changed too
        self.feed.reload()
        self.refresh_sidebar()

    def _selection_changed(self) -> None:
        """The table's selection was set again (a click, a search, a refresh): the
        detail pane reads the papers only when they are others than it shows (a
        write to the ones it shows reaches it through ``apply``)."""
        if self.feed.selected_ids() != self._shown:
            self.show_selection()

    def show_selection(self, read: dict[str, Any] | None = None) -> None:
        """Read the selected papers into the detail pane (``read``: the one selected
        paper, as just read after a write)."""
        ids = self._shown = self.feed.selected_ids()
        if len(ids) == 1:
            paper = read if read is not None and read["id"] == ids[0] else self.lib.paper(ids[0])
            # Read once for the pane and its sections (the PDFs' list, their highlights).
            paper["attachments"] = self.lib.pdf.of_paper(ids[0])
            paper["highlights"] = self.lib.highlights.of_paper(ids[0], paper["attachments"])
            query = self.context.selection.query if self.context.selection else ""
            paper["pdf_hits"] = self.lib.fulltext.hits(ids[0:1], query).get(ids[0], [])
            self.detail.show_papers([paper], self.lib.sightings(ids[0]))
        elif not ids:
            self.detail.show_papers([])
        else:  # counted and summed up in SQL: exact and quick for any number
            self.detail.show_many(ids, reads.summary(self.lib, ids))

    # -- editing ------------------------------------------------------------------

    @property
    def lib(self) -> Library:
        return self.context.lib

    def edit(self, fn: Callable[..., Changes], *args: Any) -> Changes | None:
        """One core edit through the operation runner (onto the undo stack)."""
        return self.context.ops.edit(fn, *args)

    def apply(self, changes: Changes, _initiator: object = None) -> None:
        """After every write: bring the table, detail pane and sidebar up to date."""
        views = changes.views
        if TABLE_SET in views:
            self.reload_all()
            return
        shown = DETAIL in views and bool(set(self.detail.ids) & changes.paper_ids)
        ids = self.feed.selected_ids() if shown else []
        # The one paper the pane shows, read once for the pane and for its table row.
        read = self.lib.paper(ids[0]) if len(ids) == 1 else None
        self.feed.apply(changes, {read["id"]: read} if read is not None else None)
        if shown:
            self.show_selection(read)
        if SIDEBAR_COUNTS in views:
            self._counts_timer.start()

    def rate_row(self, row: int, rating: int) -> None:
        """A click on the stars in the table rates that paper."""
        model = self.feed.model
        if 0 <= row < model.rowCount():
            paper_edits.set_rating(self.context, [model.paper_id(row)], rating)

    def rate_selected(self, rating: int) -> None:
        paper_edits.set_rating(self.context, self.feed.selected_ids(), rating)

    def mark_read(self) -> None:
        paper_edits.set_status(self.context, self.feed.selected_ids(), "read")

    def save_note(self, paper_id: int, note_id: int | None, text: str) -> None:
        changes = paper_edits.save_note(self.context, paper_id, note_id, text)
        if note_id is None and changes is not None and self.detail.ids == [paper_id]:
            self.detail.note_id = changes.result.get("note_id")

    def correct_year(self, paper_id: int) -> None:
        paper = self.lib.paper(paper_id, with_notes=False)
        year, ok = QInputDialog.getInt(self, "Correct the year",
                                       f"Year of “{paper['title']}”:",
                                       paper["year"] or 2024, 1900, 2100)
        if ok:
            paper_edits.set_year(self.context, paper_id, year)

    def save_search(self, query: str) -> None:
        name, ok = QInputDialog.getText(self, "Save as smart list",
                                        "Name for this search:", text=query)
        if ok and name.strip():
            paper_edits.save_search(self.context, name.strip(), query)

    # -- moving around ---------------------------------------------------------------

    def focus_search(self) -> None:
        self.search_bar.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_bar.edit.selectAll()

    # -- libraries, imports and drops ----------------------------------------------------

    def open_demo(self) -> None:
        from paperdesk.core.api import open_demo

        try:
            demo = open_demo()
        except PaperDeskError as exc:
            self.notify(str(exc))
            return
        self.context.set_library(demo)

    def _library_changed(self, lib: Library) -> None:
        self._shown = None
        self.detail.show_papers([])
        self.reload_all()

    def _drop_taker(self, event) -> Feature | None:
        """The feature that takes this drop (files from elsewhere: the importer; the
        table's own rows: nobody), asked in the features' order."""
        return self.context.drop_taker(event.mimeData())

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self._drop_taker(event) is not None:
            _copy_in(event)

    def dragMoveEvent(self, event) -> None:
        if self._drop_taker(event) is not None:
            _copy_in(event)

    def dropEvent(self, event: QDropEvent) -> None:
        taker = self._drop_taker(event)
        if taker is not None and _copy_in(event):
            taker.drop(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """File drops on text fields import too, instead of pasting file names."""
        kinds = (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop)
        if event.type() in kinds and self._drop_taker(event) is not None:
            if event.type() == QEvent.Type.Drop and isinstance(event, QDropEvent):
                self.drop_widget = watched  # whose coordinates the drop's position is in
                try:
                    self.dropEvent(event)
                finally:
                    self.drop_widget = None
            else:
                _copy_in(event)
            return True
        return super().eventFilter(watched, event)

    # -- state across runs ------------------------------------------------------------

    def _restore_state(self) -> None:
        if geometry := settings.load_bytes("window/geometry"):
            self.restoreGeometry(geometry)
        else:  # first run: roomy, but never larger than the screen
            self.resize(first_size(self))
        fit_to_screen(self)  # a size saved on a bigger screen, or at another scale
        if sizes := settings.load_bytes("window/splitter"):
            self.splitter.restoreState(sizes)
        if header := settings.load_bytes("table/header"):
            self.feed.restore_header(header)

    def save_state(self) -> None:
        settings.save({"window/geometry": self.saveGeometry(),
                       "window/splitter": self.splitter.saveState(),
                       "table/header": self.feed.header_state()})

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._fitted:  # the frame's size is known once shown
            self._fitted = True
            fit_to_screen(self)
            share_panes(self.splitter)  # the table's room, at any size and scale
            self.feed.to_first_column()  # a narrow table opens at its first column

    def closeEvent(self, event: QCloseEvent) -> None:
        self.context.ops.close()  # no new jobs; an import running is cancelled
        self.detail.flush_note()
        self._counts_timer.stop()
        self.search_bar.timer.stop()
        self.save_state()
        self.context.reader.stop()
        self.context.close()  # after the last edits (the note above) are in
        super().closeEvent(event)
