"""What the paper table shows: the sidebar's source and the search, in SQL, a page first.

A part of ``MainWindow`` (it reads the window's sidebar, search bar, model and
reading thread), kept in a file of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelectionModel, Qt

from paperdesk.core.areas.query import compile_query
from paperdesk.core.areas.query_hints import empty_message, hint
from paperdesk.core.model.errors import PaperDeskError, QueryError
from paperdesk.gui import reads
from paperdesk.gui.paper_model import TITLE

if TYPE_CHECKING:
    from paperdesk.gui.main_window import MainWindow

SPECIAL_ORDERS = ("relevance", "reading-list")  # orders that no column header shows


def _has_words(query: str) -> bool:
    """Whether a query searches text (so relevance can order it)."""
    try:
        return compile_query(query).fts is not None
    except QueryError:
        return False


def _both(*queries: str | None) -> str:
    """The queries joined by AND; a lone query as it is, so that it keeps the nesting
    the query language allows (parentheses around it would be one more level)."""
    parts = [q for q in queries if q]
    return parts[0] if len(parts) == 1 else " ".join(f"({q})" for q in parts)


class TableFeed:
    """Mixed into MainWindow: fetching ids, keeping the selection, choosing the order."""

    def fetch_ids(self: MainWindow, sort: str | None, descending: bool,
                  limit: int | None) -> tuple[list[int], bool]:
        """The ids the table shows: the sidebar's source, narrowed by the search.

        Returns the ids and whether they are all of them (else the first ``limit``).
        """
        source = self.sidebar.current_source()
        query = self.combined_query()
        if query is not None:
            ids = self.lib.search(query, sort=sort, descending=descending, limit=limit).ids
            return ids, limit is None or len(ids) < limit
        if self._base is None or self._base[0] != source:
            self._base = (source, reads.source_ids(self.lib, source))
        keep = set(self._base[1] or ())
        narrow = reads.narrowing_query(self.lib, source)
        query = _both(narrow, self.query)
        found = self.lib.search(query, sort=sort, descending=descending).ids
        return [i for i in found if i in keep], True

    def combined_query(self) -> str | None:
        """The search text within the sidebar's source, or None for id-list sources."""
        base = reads.source_query(self.sidebar.current_source())
        if base is None:
            return None
        return _both(base, self.query)

    def fetch_rest(self, token: int, sort: str | None, descending: bool) -> None:
        query = self.combined_query() or ""
        self.reader.request("ids", token, self.lib.path, lambda lib: lib.search(
            query, sort=sort, descending=descending).ids)

    def _read_done(self, kind: str, token: int, result: Any, error: str | None) -> None:
        if error is not None:
            self.notify(error)
        elif kind == "ids":
            self.model.rest_arrived(token, result)
        elif kind == "counts" and token == self._counts_token:
            self._fill_sidebar(result)

    def request_counts(self) -> None:
        """Recount the sidebar on the reading thread (after edits)."""
        self._counts_token += 1
        self.reader.request("counts", self._counts_token, self.lib.path, reads.counts)

    def _completed(self) -> None:
        self._update_count()
        if self._want is not None:
            self._after_reset()
        self.show_empty()

    def select_row(self, row: int) -> None:
        """Make ``row`` the current and only selected row, scrolled into view."""
        index = self.model.index(row, TITLE)
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(index)

    def refresh_table(self) -> None:
        try:
            self.model.reload()
        except QueryError as exc:
            message = self._query_error(str(exc))
            self.search_bar.show_error(message)
            self.statusBar().showMessage(f"⚠ {message}", 15000)  # whole, however narrow
            return
        except PaperDeskError as exc:
            self.notify(str(exc))
            return
        self.search_bar.show_error(None)
        self._update_count()

    def _before_reset(self) -> None:
        current = self.current_id()
        if current is not None:  # else a paper still awaited stays wanted
            self._want = current

    def _after_reset(self) -> None:
        """Keep the current paper selected and in view across searches, sorts, sidebar
        switches, refreshes and imports, if it is still listed; otherwise select the
        first row and scroll to the top. The detail pane follows the selection."""
        row = self.model.row_of(self._want) if self._want is not None else None
        if row is not None:
            self._want = None
            self.select_row(row)
        elif self.model.complete:
            self._want = None
            if self.model.rowCount():
                self.select_row(0)
            else:
                self.table.clearSelection()
            self.table.scrollToTop()
            self.show_selection()
        self.show_empty()

    def _query_error(self, message: str) -> str:
        """The message about the user's own text (not the source's query around it),
        with the field or value probably meant."""
        try:
            self.lib.search(self.query, limit=0)
        except QueryError as exc:
            message = str(exc)
        if found := hint(self.lib, self.query):
            message += f" — {found}"
        return message

    def show_empty(self) -> None:
        """Over an empty table, say so, with a hint when the search names nothing."""
        if self.model.rowCount() or not self.model.complete:
            self.empty_note.hide()
            return
        label = (self.sidebar.label_of(self.sidebar.current_source()) or "All papers")
        self.empty_note.show_text(empty_message(self.lib, self.query, label.split("  (")[0]))

    def set_query(self, text: str) -> None:
        self.query = text
        self._choose_order()
        self.refresh_table()

    def _source_changed(self) -> None:
        self._choose_order()
        self.refresh_table()

    def _choose_order(self) -> None:
        """While the query has words, the best matches come first; the reading list
        keeps its own order; otherwise the column the user sorted by."""
        if _has_words(self.query):
            special = "relevance"
        elif self.sidebar.current_source()[0] == "list":
            special = "reading-list"
        else:
            special = None
        header = self.table.horizontalHeader()
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
        self.table.horizontalHeader().setSortIndicator(section, order)
        self.model.active = True

