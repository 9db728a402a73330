"""What the window's views and features work with, instead of the window itself.

A ``Context`` holds the open library (``library_changed`` when another one is
opened), the undo stack, the one operation runner (``ops``, whose ``changed``
signal carries every write's ``Changes``), the background worker and its
progress panel, ``notify``/``show_message`` for the status line, the
selection of the paper table, the menus and the sidebar (through their small
public APIs) and the named actions. ``widget`` is the window, for dialogs to
sit on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QUndoStack

from paperdesk.core.library import Library
from paperdesk.gui.importing import ProgressPanel
from paperdesk.gui.operations import Operations
from paperdesk.gui.worker import Worker

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow


class Selection(Protocol):
    """The paper table's selection, as views see it."""

    def selected_ids(self) -> list[int]: ...

    def current_id(self) -> int | None: ...

    def select_ids(self, ids: list[int], current: int | None = None) -> None: ...


class Context(QObject):
    library_changed = Signal(object)  # the Library now open in the window

    def __init__(self, lib: Library, window: QMainWindow) -> None:
        super().__init__(window)
        self.widget = window
        self._lib = lib
        self.undo_stack = QUndoStack(window)
        self.worker = Worker(window)
        self.progress = ProgressPanel(lambda: self.ops.cancel())
        self.ops = Operations(self)
        self.changed = self.ops.changed  # (Changes, initiator) after every write
        self.selection: Selection | None = None  # set once the table is made
        self.actions: dict[str, QAction] = {}
        self.close_hooks: list[Callable[[], None]] = []
        lib.add_listener(self.ops.hear)

    @property
    def lib(self) -> Library:
        return self._lib

    def set_library(self, lib: Library) -> Library:
        """Make ``lib`` the window's library; returns the old one (still open)."""
        old, self._lib = self._lib, lib
        old.remove_listener(self.ops.hear)
        lib.add_listener(self.ops.hear)
        self.undo_stack.clear()
        self.library_changed.emit(lib)
        return old

    def selected_ids(self) -> list[int]:
        return self.selection.selected_ids() if self.selection is not None else []

    def notify(self, message: str) -> None:
        """Show an error as a readable line."""
        self.show_message(f"⚠ {message}", 15000)

    def show_message(self, text: str, ms: int = 5000) -> None:
        self.widget.statusBar().showMessage(text, ms)

    def close(self) -> None:
        """The window closes: no new jobs, the features' last words, the feed let go."""
        self.ops.close()
        self.worker.stop()
        for hook in self.close_hooks:
            hook()
        self.lib.remove_listener(self.ops.hear)
