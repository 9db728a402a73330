"""Keys for everything frequent, the rows' context menu, Tab order, and text boxes
that keep their own Ctrl+Z.

``install(window)`` adds the reading-status keys (U unread, T to read, W reading;
R read is in actions.py), G add a tag, N write a note, Ctrl+Shift+T triage,
Esc clear the search, Ctrl+Home and Ctrl+End the first and the last paper,
Help > Keyboard shortcuts; a context menu on the table's rows with the same
actions; Tab from the search box to the table (never cell by cell) and on to
the detail pane's fields, and from the note back to the table (where J and K
work), never into the sidebar. Inside a text box Ctrl+Z and
Ctrl+Shift+Z undo and redo the typing there, never a library edit; a note
still waiting to be saved is saved when the box loses focus or a menu opens,
so the library's undo never takes away a note being typed.
"""

from __future__ import annotations

import functools
import itertools
from typing import TYPE_CHECKING, Protocol, cast

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QMenu

from paperdesk.gui.common.geometry import fit_to_screen
from paperdesk.gui.shortcuts_sheet import ShortcutsSheet

if TYPE_CHECKING:
    from paperdesk.gui.main_window import MainWindow

STATUS_KEYS = [("mark_unread", "Mark as &unread", "unread", "U"),
               ("mark_to_read", "Add to the reading &queue (to read)", "to-read", "T"),
               ("mark_reading", "Mark as reading (&working on it)", "reading", "W")]
_TEXT_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)


class _Opens(Protocol):
    """A feature the keys open by name (the triage), known by what it does, not by
    its module: the keys import no feature."""

    def open(self) -> None: ...


def set_status(window: MainWindow, status: str) -> None:
    if ids := window.feed.selected_ids():
        window.context.ops.edit(window.lib.curation.set_status, ids, status)


def add_tag(window: MainWindow) -> None:
    if window.feed.selected_ids():
        window.detail.tag_entry.setFocus(Qt.FocusReason.ShortcutFocusReason)


def write_note(window: MainWindow) -> None:
    if len(window.feed.selected_ids()) == 1:
        window.detail.note.setFocus(Qt.FocusReason.ShortcutFocusReason)
        window.detail.ensureWidgetVisible(window.detail.note)


def to_end(window: MainWindow, last: bool) -> None:
    """Select the first (or the last) paper listed, the whole list read first."""
    window.feed.model.complete_now()
    if rows := window.feed.model.rowCount():
        window.feed.select_row(rows - 1 if last else 0)


def clear_search(window: MainWindow) -> None:
    if window.search_bar.edit.text():
        window.search_bar.edit.clear()
        window.search_bar.fire()
    window.feed.view.setFocus(Qt.FocusReason.ShortcutFocusReason)


class TextKeys(QObject):
    """Ctrl+Z / Ctrl+Shift+Z stay in the text box that has focus; Esc in the search
    box clears it; Enter or Esc in the tag box goes back to the table (the next
    T/N/J is a command again); a pending note is saved when its box loses focus."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.boxes = [window.search_bar.edit, window.detail.note, window.detail.tag_entry]
        for box in self.boxes:
            box.installEventFilter(self)
        window.detail.tag_entry.returnPressed.connect(self.back_to_table)

    def back_to_table(self) -> None:
        self.window.feed.view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _key(self, watched: QObject, kind: QEvent.Type, event: QKeyEvent) -> bool:
        """Whether the text fields' own keys took ``event``."""
        if kind == QEvent.Type.ShortcutOverride and any(
                event.matches(k) for k in _TEXT_KEYS):
            event.accept()  # the box's own undo, not the library's
            return True
        if kind == QEvent.Type.KeyPress and watched is self.window.search_bar.edit \
                and event.key() == Qt.Key.Key_Escape:
            clear_search(self.window)
            return True
        if kind == QEvent.Type.KeyPress and watched is self.window.detail.tag_entry \
                and event.key() == Qt.Key.Key_Escape:
            self.window.detail.tag_entry.clear()
            self.back_to_table()
            return True
        if kind == QEvent.Type.KeyPress and watched is self.window.detail.note \
                and event.key() == Qt.Key.Key_Tab and not event.modifiers():
            self.back_to_table()  # the last field: back where the keys work
            return True
        return False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if isinstance(event, QKeyEvent) and self._key(watched, kind, event):
            return kind == QEvent.Type.KeyPress  # a shortcut override goes on to the box
        if kind == QEvent.Type.FocusOut and watched is self.window.detail.note:
            self.window.detail.flush_note()
        return False


def row_menu(window: MainWindow, pos) -> QMenu | None:
    """The context menu of the rows under ``pos``: the frequent actions."""
    index = window.feed.view.indexAt(pos)
    if not index.isValid():
        return None
    if not window.feed.view.selectionModel().isRowSelected(index.row()):
        window.feed.select_row(index.row())
    a = window.actions_by_name
    menu = QMenu(window.feed.view)
    menu.setObjectName("row-menu")
    for name in ("mark_to_read", "mark_reading", "mark_read", "mark_unread"):
        menu.addAction(a[name])
    rate = menu.addMenu("Rate")
    for n in range(6):
        rate.addAction(a[f"rate{n}"])
    menu.addSeparator()
    for name in ("add_tag", "write_note"):
        menu.addAction(a[name])
    menu.addSeparator()
    for name in ("queue_up", "queue_down", "queue_top", "queue_bottom"):
        if name in a:
            menu.addAction(a[name])
    menu.addSeparator()
    for name in ("copy_bibtex", "copy_cite", "trash"):
        if name in a:
            menu.addAction(a[name])
    return menu


def install(window: MainWindow) -> TextKeys:
    """The window's keys and row menu (after the features, whose actions it lists)."""
    menus = window.context.menus
    paper = menus.menu("paper")
    if paper.actions():
        paper.insertSeparator(paper.actions()[0])
    else:
        paper.addSeparator()
    for name, text, status, key in STATUS_KEYS:
        menus.add(paper, name, text, functools.partial(set_status, window, status), key,
                  table_only=True, before="mark_read")
    paper.addSeparator()
    menus.add(paper, "add_tag", "Add a &tag…", lambda: add_tag(window), "G", table_only=True)
    menus.add(paper, "write_note", "Write a n&ote", lambda: write_note(window), "N",
              table_only=True)
    paper.addSeparator()
    menus.add(paper, "triage", "&Triage a digest…",
              lambda: cast(_Opens, window.context.features["triage"]).open(), "Ctrl+Shift+T")
    menus.add("edit", "clear_search", "Clear the search", lambda: clear_search(window), "Esc",
              table_only=True)
    menus.add("edit", "first_row", "Go to the &first paper", lambda: to_end(window, False),
              "Ctrl+Home", table_only=True)
    menus.add("edit", "last_row", "Go to the &last paper", lambda: to_end(window, True),
              "Ctrl+End", table_only=True)
    menus.add("help", "shortcuts", "&Keyboard shortcuts", lambda: show_sheet(window), "F1")
    for menu in (paper, menus.menu("edit"), menus.menu("file")):
        menu.aboutToShow.connect(window.detail.flush_note)  # before any library undo
    keys = TextKeys(window)
    _table_keys(window)
    return keys


def _table_keys(window: MainWindow) -> None:
    """Tab leaves the table; the rows' context menu; the Tab order."""
    table = window.feed.view
    table.setTabKeyNavigation(False)  # Tab leaves the table instead of walking its cells
    table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)

    def context(pos) -> None:
        if (menu := row_menu(window, pos)) is not None:
            menu.exec(table.viewport().mapToGlobal(pos))

    table.customContextMenuRequested.connect(context)
    d = window.detail
    chain = [window.search_bar.edit, table, d.status, d.tag_entry, d.note]
    for widget in chain:
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    for before, after in itertools.pairwise(chain):
        window.setTabOrder(before, after)


def show_sheet(window: MainWindow) -> ShortcutsSheet:
    sheet = ShortcutsSheet(window.actions_by_name, window.context.feature_keys(), window)
    sheet.show()
    fit_to_screen(sheet)
    return sheet
