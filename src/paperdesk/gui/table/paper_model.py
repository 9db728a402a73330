"""The paper table's model: an ordered list of ids, with rows fetched a page at a time.

Which papers show, and in what order, is decided in SQL (``lib.search`` and
the sidebar's source); the model keeps only the ids and a cache of compact
row tuples filled a page at a time as rows are painted. No proxy model:
sorting asks SQL again. A new search or sort shows its first page at once and
the rest of the ids follow from a reading thread (``fetch_rest``), appended
without a reset. An edit refetches its own rows and emits ``dataChanged`` for
them alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)

from paperdesk.core.api import Library, plain_text

# (header, sort key understood by lib.search or None)
COLUMNS = [
    ("Title", "title"), ("Year", "year"), ("Upvotes", "upvotes"), ("Rating", "rating"),
    ("Status", "status"), ("Tags", None), ("Digests", "digests"), ("Added", "added"),
    ("Momentum", "momentum"), ("#", None),
]
TITLE, YEAR, UPVOTES, RATING, STATUS, TAGS, DIGESTS, ADDED, MOMENTUM, QUEUE = range(len(COLUMNS))
NUMERIC = {YEAR, UPVOTES, DIGESTS, MOMENTUM, QUEUE}
HEADER_TIPS = {MOMENTUM: "Upvotes gained per day across the digests that showed the paper",
               QUEUE: "Place in the reading queue"}
STATUS_LABELS = {"unread": "Unread", "to-read": "To read", "reading": "Reading", "read": "Read"}
PAGE = 200
MANY = 500  # an edit of more papers than this repaints the table instead of each row
CHUNK = 64  # rows read together when the view first paints one of them
REST_DELAY_MS = 40  # the rest of a long list is asked for once the first page is painted
_DISPLAY, _EDIT, _TIP = (int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.EditRole),
                         int(Qt.ItemDataRole.ToolTipRole))
_ALIGN, _ID = int(Qt.ItemDataRole.TextAlignmentRole), int(Qt.ItemDataRole.UserRole)
_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_ROLES = frozenset((_DISPLAY, _EDIT, _TIP, _ALIGN, _ID))
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_ROOT = QModelIndex()
ID_ROLE = Qt.ItemDataRole.UserRole

# Row tuple fields
(_PID, _TITLE, _YEAR, _INFERRED, _UPVOTES, _RATING, _STATUS, _TAGS, _SEEN, _ADDED,
 _MOMENTUM) = range(11)
_FIELD = {TITLE: _TITLE, UPVOTES: _UPVOTES, TAGS: _TAGS, DIGESTS: _SEEN, ADDED: _ADDED,
          MOMENTUM: _MOMENTUM}

# fetch_ids(sort, descending, limit) -> (ids, complete); fetch_rest(token, sort, descending)
# asks for the complete list, which comes back through ``rest_arrived(token, ids)``.
FetchIds = Callable[[str | None, bool, int | None], tuple[list[int], bool]]
FetchRest = Callable[[int, str | None, bool], None]


def _row(p: dict[str, Any]) -> tuple:
    year = p["year"]
    # The title's LaTeX as text, as the detail pane shows it.
    return (p["id"], plain_text(p["title"]), year, bool(p["year_inferred"]) and year is not None,
            p["upvotes"], p["rating"], p["status"], ", ".join(p["tags"]), p["seen_count"],
            (p["added"] or "")[:10],
            None if p.get("momentum") is None else f"{p['momentum']:.1f}")


class PaperModel(QAbstractTableModel):
    completed = Signal()  # the whole list is in (after the first page)

    def __init__(self, lib: Library, fetch_ids: FetchIds, fetch_rest: FetchRest | None = None,
                 parent=None) -> None:
        super().__init__(parent)
        self.lib = lib
        self.fetch_ids = fetch_ids
        self.fetch_rest = fetch_rest
        self.sort_key: str | None = "added"
        self.descending = True
        self.active = True  # False: sort() only records the order (while the view is built)
        self.complete = True
        self._token = 0
        self._ids: list[int] = []
        self._rows: dict[int, tuple] = {}
        self._index: dict[int, int] | None = None
        self.queue: dict[int, int] = {}  # paper id -> place in the reading queue (1 = next)
        self._rest_timer = QTimer(self, singleShot=True, interval=REST_DELAY_MS)
        self._rest_timer.timeout.connect(
            lambda: self.fetch_rest(self._token, self.sort_key, self.descending)
            if self.fetch_rest is not None and not self.complete else None)

    # -- contents ------------------------------------------------------------

    def reload(self) -> None:
        """Ask for the ids again (new search, source or sort), keeping cached rows.

        The first page comes at once; the rest through ``rest_arrived``.
        """
        limit = PAGE if self.fetch_rest is not None else None
        ids, complete = self.fetch_ids(self.sort_key, self.descending, limit)
        self.read_queue()
        self._token += 1
        self.beginResetModel()
        self._ids = list(ids)
        self._index = None
        self.complete = complete
        self.endResetModel()
        if complete:
            self.completed.emit()
        elif self.fetch_rest is not None:
            # After the first page has painted, and only for the last of quick changes.
            self._rest_timer.start()

    def rest_arrived(self, token: int, ids: list[int]) -> None:
        """The complete list for request ``token``; stale answers are ignored."""
        if token != self._token or self.complete:
            return
        n = len(self._ids)
        if ids[:n] == self._ids:
            if len(ids) > n:
                self.beginInsertRows(QModelIndex(), n, len(ids) - 1)
                self._ids = list(ids)
                self._index = None
                self.endInsertRows()
        else:  # the library changed in between: start over from the full list
            self.beginResetModel()
            self._ids = list(ids)
            self._index = None
            self.endResetModel()
        self.complete = True
        self.completed.emit()

    def read_queue(self) -> None:
        """Where each to-read paper stands in the queue (few papers: one indexed query)."""
        self.queue = {pid: n for n, pid in enumerate(self.lib.curation.reading_list(), 1)}

    def complete_now(self) -> None:
        """Read the rest of the list at once (select-all needs every row)."""
        if self.complete:
            return
        ids, _ = self.fetch_ids(self.sort_key, self.descending, None)
        self.rest_arrived(self._token, ids)

    def forget(self, paper_ids: Iterable[int] | None = None) -> None:
        """Drop cached rows (all of them with None) so they are read again."""
        if paper_ids is None:
            self._rows.clear()
        else:
            for pid in paper_ids:
                self._rows.pop(pid, None)

    def refresh_rows(self, paper_ids: Iterable[int],
                     read: Mapping[int, dict[str, Any]] | None = None) -> None:
        """Reread the rows of ``paper_ids`` and repaint just those rows (``read``: papers
        the caller has just read, by id: not read again)."""
        paper_ids = list(paper_ids)
        self.forget(paper_ids)
        self.read_queue()
        last = self.columnCount() - 1
        if len(paper_ids) > MANY and self._ids:  # read again as they are painted
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._ids) - 1, last))
            return
        shown = [pid for pid in paper_ids if self.row_of(pid) is not None]
        if not shown:
            return
        read = read or {}
        for pid in shown:
            if pid in read:
                self._rows[pid] = _row(read[pid])
        if unread := [pid for pid in shown if pid not in read]:
            self._load(unread)
        for pid in shown:
            row = self.row_of(pid)
            if row is not None:
                self.dataChanged.emit(self.index(row, 0), self.index(row, last))

    def ids(self) -> list[int]:
        return self._ids

    def paper_id(self, row: int) -> int:
        return self._ids[row]

    def row_of(self, paper_id: int) -> int | None:
        if self._index is None:
            self._index = {pid: row for row, pid in enumerate(self._ids)}
        return self._index.get(paper_id)

    def _load(self, ids: Sequence[int]) -> None:
        for paper in self.lib.papers(ids):
            self._rows[paper["id"]] = _row(paper)

    def _get(self, row: int) -> tuple | None:
        pid = self._ids[row]
        found = self._rows.get(pid)
        if found is None:
            start = row - row % CHUNK
            page = [i for i in self._ids[start:start + CHUNK] if i not in self._rows]
            self._load(page)
            found = self._rows.get(pid)
        return found

    # -- Qt model API ----------------------------------------------------------

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(COLUMNS):
            if role == Qt.ItemDataRole.DisplayRole:
                return COLUMNS[section][0]
            if role == Qt.ItemDataRole.ToolTipRole:
                return HEADER_TIPS.get(section) or (
                    "Not sortable" if COLUMNS[section][1] is None else None)
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex,
             role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # Called thousands of times a paint: plain ints, the common cases first.
        role = int(role)
        if role not in _ROLES or not index.isValid():
            return None
        row, col = index.row(), index.column()
        if row >= len(self._ids):
            return None
        if role == _ALIGN:
            return _RIGHT if col in NUMERIC else None
        if role == _ID:
            return self._ids[row]
        if col == QUEUE:
            place = self.queue.get(self._ids[row])
            return None if place is None or role == _TIP else str(place)
        r = self._rows.get(self._ids[row]) or self._get(row)
        if r is None:
            return None
        if role == _TIP:
            if col == YEAR and r[_INFERRED]:
                return "Year inferred from the digest's dates; correct it in the detail pane"
            return r[_TITLE] if col == TITLE else None
        if col == YEAR:
            if r[_YEAR] is None:
                return None
            return f"{r[_YEAR]}?" if r[_INFERRED] else str(r[_YEAR])
        if col == RATING:
            return r[_RATING] if role == _EDIT else None
        if col == STATUS:
            return STATUS_LABELS.get(r[_STATUS], r[_STATUS])
        return r[_FIELD[col]]

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        return _FLAGS if index.isValid() else _NO_FLAGS

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        key = COLUMNS[column][1] if 0 <= column < len(COLUMNS) else None
        if key is None:
            return
        descending = order == Qt.SortOrder.DescendingOrder
        if (key, descending) == (self.sort_key, self.descending) and self._token:
            return  # the view asks twice (indicator change, then sortByColumn)
        self.sort_key, self.descending = key, descending
        if self.active:
            self.reload()
