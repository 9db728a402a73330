"""The paper table as an object: what it shows (the sidebar's source and the search,
in SQL, a page first), its order, and its selection.

``TableFeed`` owns the Qt model, the view, the count line under it and the
selection (the context's ``selection``: ``selected_ids``, ``current_id``,
``select_ids``, ``shown_ids``). It reads the sidebar's source and the
search text; it asks the reading thread for the rest of a long list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QItemSelectionModel, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QAbstractItemView, QLabel

from paperdesk.core.api import TABLE_ROWS, Changes, PaperDeskError, QueryError
from paperdesk.gui.jobs import reads
from paperdesk.gui.table.paper_model import COLUMNS, RATING, TITLE, PaperModel
from paperdesk.gui.table.paper_table import PaperTable
from paperdesk.gui.table.stars import StarClicks, StarDelegate
from paperdesk.gui.table.table_header import setup_header

if TYPE_CHECKING:
    from paperdesk.gui.context import Context
    from paperdesk.gui.jobs.reader import Reader
    from paperdesk.gui.panes.search_bar import SearchBar
    from paperdesk.gui.panes.sidebar import Sidebar

SPECIAL_ORDERS = ("relevance", "reading-list")  # orders that no column header shows
ROW_HEIGHT_EXTRA = 8
ADDED = COLUMNS.index(("Added", "added"))


class TableFeed(QObject):
    """The paper table: fetching ids, keeping the selection, choosing the order."""

    selection_changed = Signal()  # the detail pane shows the selection again
    rated = Signal(int, int)      # row, stars: a click on the stars in a row

    def __init__(self, context: Context, sidebar: Sidebar, search_bar: SearchBar,
                 reader: Reader) -> None:
        super().__init__(context)
        self.context, self.sidebar, self.search_bar, self.reader = (
            context, sidebar, search_bar, reader)
        self._base: tuple[reads.Source, list[int] | None] | None = None
        self.query = ""
        # The paper the user chose, to select whenever it is listed: kept while a search
        # or a source that leaves it out shows another row (the first) in its place.
        self._want: int | None = None
        self._fallback = False  # the current row is one put in the wanted one's place
        self._placing = False   # the feed itself is moving the selection
        self._settled = True    # the last reset's selection is decided
        self._near: tuple[int, int] | None = None  # row and scroll before a reload
        self._column_sort = (ADDED, Qt.SortOrder.DescendingOrder)
        self.model = PaperModel(context.lib, self.fetch_ids, self.fetch_rest, self)
        self.model.active = False  # no queries while the window is being set up
        self.model.completed.connect(self._completed)
        self.view = self._make_view()
        self.empty_note = self.view.empty_note
        # After the view's own handlers (made by setModel), which clear its selection.
        self.model.modelAboutToBeReset.connect(self._before_reset)
        self.model.modelReset.connect(self._after_reset)
        self.count_label = QLabel()
        reader.done.connect(self._read_done)
        context.library_changed.connect(self._library_changed)

    def _make_view(self) -> PaperTable:
        table = PaperTable(self.model.complete_now)
        table.setModel(self.model)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        table.setSortingEnabled(True)
        table.setWordWrap(False)
        table.setShowGrid(False)
        table.setAlternatingRowColors(True)
        table.setItemDelegateForColumn(RATING, StarDelegate(table))
        # Kept: its Python side (the event filter) must live as long as the table.
        self.star_clicks = StarClicks(table, RATING)
        self.star_clicks.rated.connect(self.rated)
        vh = table.verticalHeader()
        vh.hide()
        vh.setSectionResizeMode(vh.ResizeMode.Fixed)
        vh.setDefaultSectionSize(table.fontMetrics().height() + ROW_HEIGHT_EXTRA)
        setup_header(table, self.model)
        table.horizontalHeader().setSortIndicator(ADDED, Qt.SortOrder.DescendingOrder)
        table.selectionModel().selectionChanged.connect(lambda *_: self.selection_changed.emit())
        table.selectionModel().currentChanged.connect(self._moved)
        table.pressed.connect(lambda index: self._moved(index, None))  # the row put in its place
        return table

    def _moved(self, current, _previous) -> None:
        """The user (or a view, by ``select_ids``) put the current row on a paper: that
        paper is the one to keep from now on."""
        if not self._placing and current.isValid():
            self._fallback, self._want = False, None

    # -- the library and its changes --------------------------------------------------

    def _library_changed(self, lib) -> None:
        self.model.lib = lib

    def reload(self) -> None:
        """Everything may have changed: list the papers again."""
        self._base = None
        index = self.view.currentIndex()
        if index.isValid():  # a paper gone (trashed, merged) leaves its next one selected
            self._near = (index.row(), self.view.verticalScrollBar().value())
        self.model.forget()
        self.refresh_table()

    def apply(self, changes: Changes, read: dict[int, dict[str, Any]] | None = None) -> None:
        """After a write that leaves the set of papers listed as it was (TABLE_SET
        reloads): repaint the rows it changed (``read``: papers just read, by id); the
        queue lists again (its order)."""
        self._base = None
        if self.context.lists_again(changes):
            self.refresh_table()  # a feature's own order (the queue's) may have changed
        elif TABLE_ROWS in changes.views:
            self.model.refresh_rows(changes.paper_ids, read)

    def fetch_ids(self, sort: str | None, descending: bool,
                  limit: int | None) -> tuple[list[int], bool]:
        """The ids the table shows: the sidebar's source, narrowed by the search.

        Returns the ids and whether they are all of them (else the first ``limit``).
        """
        source = self.sidebar.current_source()
        browse = self.context.lib.browse
        within = None
        if browse.is_id_list(source[0]):  # its ids are read once, kept till a change
            if self._base is None or self._base[0] != source:
                self._base = (source, reads.source_ids(self.context.lib, source))
            within = self._base[1] or ()
        # A first page may be ranked among the newest matches only; the full list
        # (in order) follows from the reading thread and replaces it.
        return browse.search(*source, self.query, sort=sort, descending=descending,
                             limit=limit, first_page=limit is not None, within=within)

    def fetch_rest(self, token: int, sort: str | None, descending: bool) -> None:
        source, text = self.sidebar.current_source(), self.query
        self.reader.request("ids", token, self.context.lib.path, lambda lib: lib.browse.search(
            *source, text, sort=sort, descending=descending).ids)

    def _read_done(self, kind: str, token: int, result: Any, error: str | None) -> None:
        if kind != "ids":
            return
        if error is not None:
            self.context.notify(error)
        else:
            self.model.rest_arrived(token, result)

    def _completed(self) -> None:
        self._update_count()
        if not self._settled:
            self._after_reset()
        self.show_empty()

    def select_row(self, row: int) -> None:
        """Make ``row`` the current and only selected row, scrolled into view up or
        down, never sideways (a title wider than a narrow table, at QT_SCALE_FACTOR=2,
        used to open the window scrolled right)."""
        index = self.model.index(row, TITLE)
        sideways = self.view.horizontalScrollBar()
        kept = sideways.value()
        self.view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)
        self.view.scrollTo(index)
        sideways.setValue(kept)

    def to_first_column(self) -> None:
        """Scroll the table back to its first column (now and once laid out): Qt
        scrolls a table narrower than its current cell to show that cell's end."""
        bar = self.view.horizontalScrollBar()
        bar.setValue(0)
        QTimer.singleShot(0, bar, lambda: bar.setValue(0))

    def refresh_table(self) -> None:
        try:
            self.model.reload()
        except QueryError as exc:
            message = self._query_error(str(exc))
            self.search_bar.show_error(message)
            self.context.notify(message)  # whole, however narrow
            return
        except PaperDeskError as exc:
            self.context.notify(str(exc))
            return
        self.search_bar.show_error(None)
        self.context.clear_warning()  # a query error of before is put right
        self._update_count()

    def _before_reset(self) -> None:
        self._settled = False
        current = self.current_id()
        if current is not None and not self._fallback:  # else the paper wanted stays so
            self._want = current

    def _place(self, row: int | None, fallback: bool) -> None:
        """Select ``row`` (None: nothing) as the feed's own move, not the user's."""
        self._placing = True
        try:
            if row is None:
                self.view.clearSelection()
            else:
                self.select_row(row)
        finally:
            self._placing = False
        self._fallback = fallback

    def _after_reset(self) -> None:
        """Keep the current paper selected and in view across searches, sorts, sidebar
        switches, refreshes and imports, if it is still listed; otherwise select the
        first row and scroll to the top; after a reload (a paper trashed, merged or
        brought back), the row where it was, the scroll kept (that paper is the one
        kept from then on). A paper left out (a search with a typo) is still the one
        wanted: once listed again (Esc) it is
        selected again, wherever it is. The detail pane follows the selection."""
        row = self.model.row_of(self._want) if self._want is not None else None
        near, rows = self._near, self.model.rowCount()
        if row is not None or self.model.complete:
            self._near, self._settled = None, True
        if near is not None and (row is not None or rows):
            self.view.verticalScrollBar().setValue(near[1])
        if row is not None:
            self._place(row, fallback=False)
            self._want = None  # it is current: the next reset wants it again
        elif self.model.complete:
            if near is not None and rows:  # the paper is gone: its next one is the place
                self._place(min(near[0], rows - 1), fallback=False)
                self._want = None
            elif rows:
                self._place(0, fallback=True)
                self.view.scrollToTop()
            else:
                self._place(None, fallback=True)
            self.selection_changed.emit()
        self.show_empty()

    def _query_error(self, message: str) -> str:
        """The message about the user's own text (not the source's query around it),
        with the field or value probably meant."""
        try:
            self.context.lib.search(self.query, limit=0)
        except QueryError as exc:
            message = str(exc)
        if found := self.context.lib.browse.hint(self.query):
            message += f" — {found}"
        return message

    def show_empty(self) -> None:
        """Over an empty table, say so, with a hint when the search names nothing."""
        if self.model.rowCount() or not self.model.complete:
            self.empty_note.hide()
            return
        label = (self.sidebar.label_of(self.sidebar.current_source()) or "All papers")
        self.empty_note.show_text(self.context.lib.browse.empty_message(
            self.query, label.split("  (")[0]))

    def set_query(self, text: str) -> None:
        self.query = text
        self._choose_order()
        self.refresh_table()

    def source_changed(self) -> None:
        self._choose_order()
        self.refresh_table()

    def _choose_order(self) -> None:
        """While the query has words, the best matches come first; the reading list
        keeps its own order; otherwise the column the user sorted by."""
        if self.context.lib.browse.ranks(self.query):
            special = "relevance"
        elif self.sidebar.current_source()[0] == "list":
            special = "reading-list"
        else:
            special = None
        header = self.view.horizontalHeader()
        if special is not None:
            if self.model.sort_key not in SPECIAL_ORDERS:
                self._column_sort = (header.sortIndicatorSection(), header.sortIndicatorOrder())
                self._set_indicator(-1, Qt.SortOrder.AscendingOrder)
            self.model.sort_key, self.model.descending = special, False
        elif self.model.sort_key in SPECIAL_ORDERS:
            self._set_indicator(*self._column_sort)

    def _set_indicator(self, section: int, order: Qt.SortOrder) -> None:
        """Move the header's sort indicator without querying (the caller reloads)."""
        self.model.active = False
        self.view.horizontalHeader().setSortIndicator(section, order)
        self.model.active = True


    # -- the count line ---------------------------------------------------------------

    def _update_count(self) -> None:
        n = self.model.rowCount()
        label = self.sidebar.label_of(self.sidebar.current_source()) or "All papers"
        label = label.split("  (")[0]
        self.count_label.setText(f"{n} paper{'s' if n != 1 else ''} — {label}"
                                 + (f" matching “{self.query}”" if self.query else ""))

    # -- the selection ------------------------------------------------------------------

    def selected_ids(self) -> list[int]:
        """The selected papers in table order (from selection ranges: cheap for 100k)."""
        rows: set[int] = set()
        selection = self.view.selectionModel().selection()
        for r in (selection.at(i) for i in range(selection.count())):
            rows.update(range(r.top(), r.bottom() + 1))
        ids = self.model.ids()
        return [ids[row] for row in sorted(rows) if row < len(ids)]

    def select_ids(self, ids: list[int], current: int | None = None) -> None:
        """Select the listed rows of ``ids``; ``current`` (or the first) becomes current."""
        model = self.view.selectionModel()
        rows = [r for r in (self.model.row_of(pid) for pid in ids) if r is not None]
        if not rows:
            return
        lead = self.model.row_of(current) if current is not None else None
        self.select_row(lead if lead is not None else rows[0])
        flags = model.SelectionFlag.Select | model.SelectionFlag.Rows
        for row in rows:
            model.select(self.model.index(row, 0), flags)

    def current_id(self) -> int | None:
        index = self.view.currentIndex()
        return self.model.paper_id(index.row()) if index.isValid() else None

    def shown_ids(self) -> list[int]:
        """Every paper the table lists, in its order, even while only its first page is in."""
        if self.model.complete:
            return list(self.model.ids())
        return self.fetch_ids(self.model.sort_key, self.model.descending, None)[0]

    def step(self, delta: int) -> None:
        rows = self.model.rowCount()
        if not rows:
            return
        index = self.view.currentIndex()
        self.select_row(0 if not index.isValid() else max(0, min(rows - 1, index.row() + delta)))

    # -- the header across runs ----------------------------------------------------------

    def restore_header(self, state: QByteArray) -> None:
        header = self.view.horizontalHeader()
        header.restoreState(state)
        if 0 <= header.sortIndicatorSection() < len(COLUMNS):
            self.model.sort_key = COLUMNS[header.sortIndicatorSection()][1] or "added"
            self.model.descending = header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder

    def header_state(self) -> QByteArray:
        if self.model.sort_key in SPECIAL_ORDERS:  # remember the column the user chose
            self._set_indicator(*self._column_sort)
        return self.view.horizontalHeader().saveState()
