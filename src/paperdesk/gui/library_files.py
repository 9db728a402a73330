"""Library files: New library, Open library, recent libraries, Show library folder,
Back up library.

A file that is not a PaperDesk library (another program's database, a text
file) is refused by the core before anything is written; the window says so
in a dialog and keeps the library it had. The window title carries the path
of the open library.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu

from paperdesk.core.db.backup import default_backup_path
from paperdesk.core.library import Library
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.gui import dialogs, settings

if TYPE_CHECKING:
    from paperdesk.gui.main_window import MainWindow

RECENT_KEY = "library/recent"
MAX_RECENT = 8
LIBRARY_FILTER = "PaperDesk libraries (*.sqlite *.paperdesk);;All files (*)"


# -- recent libraries (kept as one JSON list, the same in every settings format) --

def recent() -> list[str]:
    raw = settings.settings().value(RECENT_KEY)
    try:
        paths = json.loads(raw) if isinstance(raw, str) else []
    except ValueError:
        paths = []
    return [p for p in paths if isinstance(p, str)]


def remember(path: Path) -> None:
    paths = [str(path), *(p for p in recent() if p != str(path))][:MAX_RECENT]
    settings.save({RECENT_KEY: json.dumps(paths)})


def forget(path: str) -> None:
    settings.save({RECENT_KEY: json.dumps([p for p in recent() if p != path])})


# -- opening ---------------------------------------------------------------------

def title(lib: Library) -> str:
    return f"PaperDesk — {lib.name} ({lib.path})"


def open_path(window: MainWindow, path: str | Path, *, create: bool = False) -> bool:
    """Make the library at ``path`` the window's; False (after saying why) when it cannot."""
    path = Path(path).expanduser().absolute()
    if path == window.lib.path:
        return True
    try:
        lib = Library.open(path, create=create, new=create)
    except PaperDeskError as exc:
        dialogs.warn(window, "Cannot open this library", str(exc))
        return False
    window.set_library(lib)
    remember(lib.path)
    show_title(window)
    return True


def show_title(window: MainWindow) -> None:
    window.setWindowTitle(title(window.lib))


def new_library(window: MainWindow) -> bool:
    path, _ = QFileDialog.getSaveFileName(window, "New library", str(window.lib.path.parent
                                                                       / "library.sqlite"),
                                          LIBRARY_FILTER)
    if not path:
        return False
    return open_path(window, path if Path(path).suffix else f"{path}.sqlite", create=True)


def open_library(window: MainWindow) -> bool:
    path, _ = QFileDialog.getOpenFileName(window, "Open library", str(window.lib.path.parent),
                                          LIBRARY_FILTER)
    return open_path(window, path) if path else False


def open_recent(window: MainWindow, path: str) -> None:
    if not Path(path).exists():
        dialogs.warn(window, "Library not found", f"{path}: the file is no longer there")
        forget(path)
        return
    open_path(window, path)


def folder_url(window: MainWindow) -> QUrl:
    return QUrl.fromLocalFile(str(window.lib.path.parent))


def show_folder(window: MainWindow) -> None:
    QDesktopServices.openUrl(folder_url(window))


def back_up(window: MainWindow) -> None:
    suggested = default_backup_path(window.lib.path)
    path, _ = QFileDialog.getSaveFileName(window, "Back up library", str(suggested),
                                          LIBRARY_FILTER)
    if path:
        back_up_to(window, Path(path))


def back_up_to(window: MainWindow, dest: Path) -> None:
    """Write a consistent copy on the worker; the app stays usable meanwhile."""
    window.context.ops.run(
        "Backing up the library", lambda lib, progress, cancel: lib.backup(dest),
        lambda written: window.notify(f"Backed up to {written}"))


# -- the menu ----------------------------------------------------------------------

def _fill_recent(window: MainWindow, menu: QMenu) -> None:
    menu.clear()
    paths = [p for p in recent() if p != str(window.lib.path)]
    for path in paths:
        action = menu.addAction(path)
        action.triggered.connect(lambda _c=False, p=path: open_recent(window, p))
    if not paths:
        menu.addAction("No other libraries yet").setEnabled(False)


def install(window: MainWindow, file_menu: QMenu, before: QAction | None) -> None:
    actions = window.actions_by_name

    def add(name: str, text: str, slot, shortcut=None) -> QAction:
        action = QAction(text, window)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _c=False: slot())
        file_menu.insertAction(before, action)
        actions[name] = action
        return action

    add("new_library", "&New library…", lambda: new_library(window), QKeySequence.StandardKey.New)
    add("open_library", "Open &library…", lambda: open_library(window), "Ctrl+Shift+L")
    recent_menu = QMenu("Open &recent", window)
    recent_menu.aboutToShow.connect(lambda: _fill_recent(window, recent_menu))
    file_menu.insertMenu(before, recent_menu)
    window.recent_menu = recent_menu
    add("show_folder", "Show library &folder", lambda: show_folder(window))
    add("back_up", "&Back up library…", lambda: back_up(window))
    file_menu.insertSeparator(before)
    remember(window.lib.path)
    window.windowTitleChanged.connect(lambda _t: _keep_title(window))
    show_title(window)


def _keep_title(window: MainWindow) -> None:
    """The window names its library by name; add the path (once)."""
    if window.windowTitle() != title(window.lib):
        show_title(window)
