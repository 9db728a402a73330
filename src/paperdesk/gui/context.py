"""What the window's views and features work with, instead of the window itself.

A ``Context`` holds the open library (``library_changed`` when another one is
opened), the undo stack, the one operation runner (``ops``, whose ``changed``
signal carries every write's ``Changes``), the one executor of background work
(``executor``: the worker's jobs, the reader's reads, the syncs) and the
progress panel, the ``importer`` (imports one after another, and what Undo last
import takes back), ``notify``/``show_message`` for the status line, the
selection of the paper table (``selection``, and the table itself, ``table``),
the menus and the sidebar (through their small public APIs) and the named
actions. ``widget`` is the window, for dialogs to sit on.

A ``Feature`` is one part of the window installed from the one list in
``gui/features.py`` (``install``); the installed ones are ``features`` by name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QUndoStack

from paperdesk.core.api import Library
from paperdesk.gui.common.message_line import MessageLine
from paperdesk.gui.importing.importing import Importer
from paperdesk.gui.jobs.executor import Executor
from paperdesk.gui.jobs.progress_panel import ProgressPanel
from paperdesk.gui.jobs.reader import Reader
from paperdesk.gui.jobs.worker import Worker
from paperdesk.gui.operations import Operations

if TYPE_CHECKING:
    from PySide6.QtCore import QMimeData
    from PySide6.QtGui import QDropEvent
    from PySide6.QtWidgets import QLabel, QMainWindow, QTableView

    from paperdesk.core.api import Changes
    from paperdesk.gui.menus import Menus
    from paperdesk.gui.panes.sidebar import Sidebar


class Selection(Protocol):
    """The paper table's selection, as views see it (``TableFeed``): also the search
    it lists (``query``) and its count line (``count_label``)."""

    query: str
    count_label: QLabel

    def selected_ids(self) -> list[int]: ...

    def current_id(self) -> int | None: ...

    def select_ids(self, ids: list[int], current: int | None = None) -> None: ...

    def shown_ids(self) -> list[int]: ...


class Feature:
    """One part of the window, installed from the list in ``gui/features.py``.

    ``install`` adds its menus, keys, sidebar entries and views; afterwards it
    hears ``library_changed`` (another library is open), ``changes_applied``
    (after every write: the ``Changes`` and who asked for it) and ``close``.

    The window asks its features, in the list's order, about what it does not own:
    a drop (``accepts_drop``, then ``drop``: calibre's ``accepts_drops`` and
    ``drop_event``), whether the table must list its papers again after a write
    (``lists_again``), and the keys of the views a feature opens (``keys``, for the
    shortcuts sheet).
    """

    name = ""
    keys: tuple[str, list[tuple[str, str]]] | None = None  # (where, [(keys, what)])

    def accepts_drop(self, data: QMimeData) -> bool | None:
        """True: this feature takes the drop; False: nobody may (a drag of its own);
        None: not its business (the next feature is asked)."""
        return None

    def drop(self, event: QDropEvent) -> None:
        """The drop it accepted (the window has accepted it as a copy)."""

    def lists_again(self, changes: Changes) -> bool:
        """Whether the table must list its papers again after ``changes`` (rather than
        repaint the rows they name)."""
        return False

    def install(self, context: Context) -> None:
        self.context = context

    def library_changed(self, lib: Library) -> None:
        """Another library is open in the window."""

    def changes_applied(self, changes: Changes, initiator: object | None) -> None:
        """A write was committed (or undone, or redone)."""

    def close(self) -> None:
        """The window closes (after its last edits are in)."""


class Context(QObject):
    leaving = Signal()                # another library is about to be opened: save what waits
    library_changed = Signal(object)  # the Library now open in the window

    def __init__(self, lib: Library, window: QMainWindow) -> None:
        super().__init__(window)
        self.widget = window
        self._lib = lib
        self.undo_stack = QUndoStack(window)
        self.executor = Executor()
        self.worker = Worker(window, lane=self.executor.lane("jobs"))
        # Large undos and redos, never behind a job.
        self.history_worker = Worker(window, lane=self.executor.lane("history"))
        self.reader = Reader(window, lane=self.executor.lane("reads"))
        self.executor.prepare(lib.path)  # the lanes' connections, open before their work
        self.progress = ProgressPanel(lambda: self.ops.cancel())
        self.ops = Operations(self)
        self.changed = self.ops.changed  # (Changes, initiator) after every write
        self.actions: dict[str, QAction] = {}
        self.features: dict[str, Feature] = {}
        # The window's parts, set as it makes them (before any feature is installed).
        self.selection: Selection | None = None
        self.table: QTableView | None = None
        self._menus: Menus | None = None  # made by the window (main_window)
        self.sidebar: Sidebar | None = None
        self.importer = Importer(self)  # imports one after another; Undo last import
        self.close_hooks: list[Callable[[], None]] = []
        self._warning: str | None = None  # the warning the status bar shows, if any
        self.messages = MessageLine(window.statusBar())  # its one message area
        self.changed.connect(lambda *_: self.clear_warning())
        lib.add_listener(self.ops.hear)

    @property
    def lib(self) -> Library:
        return self._lib

    @property
    def menus(self) -> Menus:
        """The window's menus, which it makes before any feature is installed."""
        if self._menus is None:
            raise RuntimeError("the window has no menus yet")
        return self._menus

    @menus.setter
    def menus(self, menus: Menus) -> None:
        self._menus = menus

    def set_library(self, lib: Library) -> None:
        """Make ``lib`` the window's library (the one it had is closed)."""
        if lib.path == self._lib.path:
            return
        self.leaving.emit()
        old, self._lib = self._lib, lib
        old.remove_listener(self.ops.hear)
        lib.add_listener(self.ops.hear)
        self.undo_stack.clear()
        self.executor.prepare(lib.path)
        self.library_changed.emit(lib)
        old.close()

    def install(self, features: list[type[Feature]]) -> None:
        """Install ``features`` in order; each then hears the library and the writes."""
        for cls in features:
            feature = cls()
            feature.install(self)
            self.features[feature.name] = feature
            self.library_changed.connect(feature.library_changed)
            self.changed.connect(feature.changes_applied)
            self.close_hooks.append(feature.close)

    def drop_taker(self, data: QMimeData | None) -> Feature | None:
        """The feature that takes a drop of ``data``: the first with an opinion decides."""
        if data is None:
            return None
        for feature in self.features.values():
            answer = feature.accepts_drop(data)
            if answer is not None:
                return feature if answer else None
        return None

    def lists_again(self, changes: Changes) -> bool:
        return any(f.lists_again(changes) for f in self.features.values())

    def feature_keys(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """(where, keys) of every feature that opens a view with keys of its own."""
        return [f.keys for f in self.features.values() if f.keys is not None]

    def selected_ids(self) -> list[int]:
        return self.selection.selected_ids() if self.selection is not None else []

    def notify(self, message: str) -> None:
        """Show an error as a readable line (until it is put right, or 15 s); it
        replaces the window's warning before it (the search typed further), not
        the other messages."""
        if self._warning is not None:
            self.messages.drop(self._warning)
        self._warning = f"⚠ {message}"
        self.show_message(self._warning, 15000)

    def clear_warning(self) -> None:
        """A warning no longer true (the search is put right, an edit went in) goes."""
        if self._warning is not None:
            self.messages.drop(self._warning)
        self._warning = None

    def show_message(self, text: str, ms: int = 5000) -> None:
        """A line in the status bar's one message area, after those still being read."""
        self.messages.show(text, ms)

    def close(self) -> None:
        """The window closes: no new jobs, the features' last words, the feed let go."""
        self.ops.close()
        self.worker.stop()
        self.history_worker.stop()
        for hook in self.close_hooks:
            hook()
        self.executor.stop()  # the last sync written, every lane's connection closed
        self.lib.remove_listener(self.ops.hear)


def context_of(owner: Any) -> Context:
    """The context of a window (or the context itself)."""
    return owner if isinstance(owner, Context) else owner.context
