"""The window's menus and keyboard shortcuts."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFileDialog

from paperdesk.gui.common.icons import icon

if TYPE_CHECKING:
    from paperdesk.gui.importing.file_drops import Imports
    from paperdesk.gui.main_window import MainWindow
    from paperdesk.gui.menus import Menus

DIGEST_FILTER = ("Digests and BibTeX (*.txt *.md *.bib);;Digests (*.txt *.md);;"
                 "BibTeX (*.bib);;All files (*)")


def _choose_files(w: MainWindow) -> None:
    files, _ = QFileDialog.getOpenFileNames(w, "Import digest or BibTeX files", "", DIGEST_FILTER)
    w.context.importer.start([Path(f) for f in files])


def _choose_folder(w: MainWindow) -> None:
    folder = QFileDialog.getExistingDirectory(w, "Import a folder of digests")
    if folder:
        w.context.importer.start([Path(folder)])


def build_actions(w: MainWindow, menus: Menus) -> None:
    """The window's own menus and keys (features add theirs through ``menus``)."""
    add = menus.add
    add("file", "import_files", "&Import files…", lambda: _choose_files(w),
        QKeySequence.StandardKey.Open, "import")
    add("file", "import_folder", "Import a &folder…", lambda: _choose_folder(w), "Ctrl+Shift+O")
    add("file", "undo_import", "&Undo last import",
        lambda: cast("Imports", w.context.features["imports"]).undo_last()).setEnabled(False)
    menus.separator("file")
    add("file", "open_demo", "Open the &demo library", w.open_demo)
    menus.separator("file")
    add("file", "quit", "&Quit", w.close, QKeySequence.StandardKey.Quit)

    undo = w.undo_stack.createUndoAction(w, "&Undo")
    undo.setShortcut(QKeySequence.StandardKey.Undo)
    undo.setIcon(icon("undo"))
    redo = w.undo_stack.createRedoAction(w, "&Redo")
    redo.setShortcut(QKeySequence.StandardKey.Redo)
    redo.setIcon(icon("redo"))
    w.context.ops.history.gate(undo, redo)  # off while a large undo is written
    menus.put("edit", "undo", undo)
    menus.put("edit", "redo", redo)
    menus.separator("edit")
    add("edit", "find", "&Find…", w.focus_search, QKeySequence.StandardKey.Find, "search")
    add("edit", "save_search", "Save search as smart &list…",
        lambda: w.save_search(w.search_bar.text()) if w.search_bar.text() else None)

    add("paper", "next", "&Next paper", lambda: w.feed.step(1), "J", table_only=True)
    add("paper", "previous", "&Previous paper", lambda: w.feed.step(-1), "K", table_only=True)
    menus.separator("paper")
    for n in range(6):
        add("paper", f"rate{n}", f"Rate {'★' * n if n else 'none'}",
            functools.partial(w.rate_selected, n), str(n), table_only=True)
    menus.separator("paper")
    add("paper", "mark_read", "Mark as &read", w.mark_read, "R", "read", table_only=True)
