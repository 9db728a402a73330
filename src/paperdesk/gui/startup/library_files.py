"""Library files: New library, Open library, recent libraries, Show library folder,
Back up library.

A file that is not a PaperDesk library (another program's database, a text
file) is refused by the core before anything is written; the window says so
in a dialog and keeps the library it had. The functions take the window's
context (or the window).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu

from paperdesk.core.api import Library, PaperDeskError, default_backup_path
from paperdesk.gui.common import dialogs, settings
from paperdesk.gui.context import Feature, context_of

if TYPE_CHECKING:
    from paperdesk.gui.context import Context

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

def open_path(owner: Any, path: str | Path, *, create: bool = False) -> bool:
    """Make the library at ``path`` the window's; False (after saying why) when it cannot."""
    context = context_of(owner)
    path = Path(path).expanduser().absolute()
    if path == context.lib.path:
        return True
    try:
        lib = Library.open(path, create=create, new=create)
    except PaperDeskError as exc:
        dialogs.warn(context.widget, "Cannot open this library", str(exc))
        return False
    context.set_library(lib)
    remember(lib.path)
    return True


def new_library(context: Context) -> bool:
    path, _ = QFileDialog.getSaveFileName(context.widget, "New library",
                                          str(context.lib.path.parent / "library.sqlite"),
                                          LIBRARY_FILTER)
    if not path:
        return False
    return open_path(context, path if Path(path).suffix else f"{path}.sqlite", create=True)


def open_library(context: Context) -> bool:
    path, _ = QFileDialog.getOpenFileName(context.widget, "Open library",
                                          str(context.lib.path.parent), LIBRARY_FILTER)
    return open_path(context, path) if path else False


def open_recent(owner: Any, path: str) -> None:
    context = context_of(owner)
    if not Path(path).exists():
        dialogs.warn(context.widget, "Library not found",
                     f"{path}: the file is no longer there")
        forget(path)
        return
    open_path(context, path)


def folder_url(owner: Any) -> QUrl:
    context = context_of(owner)
    return QUrl.fromLocalFile(str(context.lib.path.parent))


def show_folder(context: Context) -> None:
    QDesktopServices.openUrl(folder_url(context))


def back_up(context: Context) -> None:
    suggested = default_backup_path(context.lib.path)
    path, _ = QFileDialog.getSaveFileName(context.widget, "Back up library", str(suggested),
                                          LIBRARY_FILTER)
    if path:
        back_up_to(context, Path(path))


def back_up_to(owner: Any, dest: Path) -> None:
    """Write a consistent copy on the worker; the app stays usable meanwhile."""
    context = context_of(owner)
    context.ops.run(
        "Backing up the library", lambda lib, progress, cancel: lib.backup(dest),
        lambda written: context.notify(f"Backed up to {written}"))


# -- the menu ----------------------------------------------------------------------

def _fill_recent(context: Context, menu: QMenu) -> None:
    menu.clear()
    paths = [p for p in recent() if p != str(context.lib.path)]
    for path in paths:
        action = menu.addAction(path)
        action.triggered.connect(lambda _c=False, p=path: open_recent(context, p))
    if not paths:
        menu.addAction("No other libraries yet").setEnabled(False)


class LibraryFiles(Feature):
    """File > New library, Open library, Open recent, Show library folder, Back up."""

    name = "library_files"

    def install(self, context: Context) -> None:
        super().install(context)
        menus, before = context.menus, "open_demo"
        menus.add("file", "new_library", "&New library…", lambda: new_library(context),
                  QKeySequence.StandardKey.New, before=before)
        menus.add("file", "open_library", "Open &library…", lambda: open_library(context),
                  "Ctrl+Shift+L", before=before)
        self.recent_menu = menus.add_submenu("file", "Open &recent", before=before)
        self.recent_menu.aboutToShow.connect(lambda: _fill_recent(context, self.recent_menu))
        menus.add("file", "show_folder", "Show library &folder", lambda: show_folder(context),
                  before=before)
        menus.add("file", "back_up", "&Back up library…", lambda: back_up(context),
                  before=before)
        menus.separator("file", before=before)
        remember(context.lib.path)
