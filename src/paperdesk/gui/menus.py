"""The window's menus by name, and the one way to add an action to them.

``menu("file")`` is the File menu (made on first use, in the order asked);
``add(menu, name, text, slot, ...)`` makes a named action, puts it in that menu
(before the action named ``before``, else at the end) and in the window's
``actions`` by name. ``table_only`` actions are single keys that work only
while the paper table has focus, never while typing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QWidget

from paperdesk.gui.common.icons import icon

TITLES = {"file": "&File", "edit": "&Edit", "paper": "&Paper", "help": "&Help"}


class Menus:
    def __init__(self, window: QMainWindow, actions: dict[str, QAction],
                 table: QWidget) -> None:
        self.window = window
        self.actions = actions
        self.table = table
        self._menus: dict[str, QMenu] = {}

    def menu(self, name: str | QMenu) -> QMenu:
        """The menu named ``name`` ("file", "edit", "paper", "help"), made on first use."""
        if isinstance(name, QMenu):
            return name
        if name not in self._menus:
            self._menus[name] = self.window.menuBar().addMenu(TITLES.get(name, name))
        return self._menus[name]

    def all(self) -> list[QMenu]:
        return list(self._menus.values())

    def _before(self, before: str | QAction | None) -> QAction | None:
        return self.actions.get(before) if isinstance(before, str) else before

    def add(self, menu: str | QMenu, name: str, text: str, slot: Callable[[], Any],
            shortcut: Any = None, icon_name: str | None = None, *, table_only: bool = False,
            before: str | QAction | None = None, checkable: bool = False) -> QAction:
        action = QAction(text, self.window)
        if icon_name:
            action.setIcon(icon(icon_name))
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if table_only:
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.table.addAction(action)
        action.setCheckable(checkable)
        action.triggered.connect(lambda _checked=False: slot())
        place, into = self._before(before), self.menu(menu)
        if place is None:  # (Qt's insert before no action: the end)
            into.addAction(action)
        else:
            into.insertAction(place, action)
        self.actions[name] = action
        return action

    def add_submenu(self, menu: str | QMenu, text: str,
                    before: str | QAction | None = None) -> QMenu:
        sub = QMenu(text, self.window)
        place, into = self._before(before), self.menu(menu)
        if place is None:
            into.addMenu(sub)
        else:
            into.insertMenu(place, sub)
        return sub

    def separator(self, menu: str | QMenu, before: str | QAction | None = None) -> None:
        place, into = self._before(before), self.menu(menu)
        if place is None:
            into.addSeparator()
        else:
            into.insertSeparator(place)

    def put(self, menu: str | QMenu, name: str, action: QAction) -> QAction:
        """An action made elsewhere (the undo stack's), in ``menu`` under ``name``."""
        self.menu(menu).addAction(action)
        self.actions[name] = action
        return action
