"""Which PaperDesk modules a dropped digest goes through, from the drop to the table rows.

Opens a window (offscreen) on a library holding four of the seed digests, drops the fifth
on it the way a file manager does, waits until the table shows the new papers, and lists
every module of ``paperdesk`` that ran code on the way, on any thread: the figure
docs/architecture.md gives for "the path of a dropped digest".

    python bench/trace_drop.py            # the count and the modules, by folder
    python bench/trace_drop.py --count    # the count alone
"""

from __future__ import annotations

import os
import sqlite3
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
SRC = str(ROOT / "src" / "paperdesk")
sys.path.insert(0, str(ROOT / "src"))

seen: set[str] = set()
CHAIN = "--chain" in sys.argv  # only the modules on a call chain that reaches SQL or the table
tracing = False


def stack_modules(frame) -> tuple[list[str], set[str]]:
    modules, functions = [], set()
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(SRC):
            modules.append(name[len(SRC) + 1:])
            functions.add(frame.f_code.co_name)
        frame = frame.f_back
    return modules, functions


def is_sink(frame, event, arg) -> bool:
    """An SQL statement, the table model at work, or the hand-off to the worker."""
    if event == "c_call":
        owner = getattr(arg, "__self__", None)
        return (isinstance(owner, (sqlite3.Connection, sqlite3.Cursor))
                and arg.__name__.startswith("execute"))
    if event != "call":
        return False
    name = frame.f_code.co_filename
    return name.endswith("gui/table/paper_model.py") or (
        name.endswith("queue.py") and frame.f_code.co_name == "put")


def hook(frame, event, arg):
    if not tracing:
        return
    on_gui = threading.current_thread() is threading.main_thread()
    if not on_gui and event == "call" and not CHAIN:  # the worker runs the import job only
        name = frame.f_code.co_filename
        if name.startswith(SRC):
            seen.add(name[len(SRC) + 1:])
        return
    if not is_sink(frame, event, arg):
        return
    modules, functions = stack_modules(frame)
    if on_gui and "dropEvent" not in functions and "gui/table/table_feed.py" not in modules:
        return  # other views, or a timer's work (the outside feed): not this path
    seen.update(modules)


def traced_run(run):
    def wrapper(self, *args, **kwargs):
        sys.setprofile(hook)
        return run(self, *args, **kwargs)
    return wrapper


def main() -> int:
    global tracing
    from PySide6.QtCore import QMimeData, QPointF, Qt, QThread, QUrl
    from PySide6.QtGui import QDragEnterEvent, QDropEvent
    from PySide6.QtWidgets import QApplication

    from paperdesk.core.api import Library
    from paperdesk.gui.main_window import MainWindow

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)
    for cls in list(subclasses(QThread)):
        if cls.__module__.startswith("paperdesk") and "run" in vars(cls):
            cls.run = traced_run(cls.run)
    threading.setprofile(hook)
    sys.setprofile(hook)

    seeds = sorted((ROOT / "seeds").glob("*.txt"))
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library.open(Path(tmp) / "lib.sqlite")
        lib.import_paths(seeds[:4])
        window = MainWindow(lib)
        window.show()
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            app.processEvents()
        before = window.model.rowCount()
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(str(seeds[4]))])
        point = QPointF(window.width() / 2, window.height() / 2)
        copy = Qt.DropAction.CopyAction
        tracing = True
        enter = QDragEnterEvent(point.toPoint(), copy, mime, Qt.MouseButton.LeftButton,
                                Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(window, enter)
        QApplication.sendEvent(window, QDropEvent(point, copy, mime, Qt.MouseButton.LeftButton,
                                                  Qt.KeyboardModifier.NoModifier))
        deadline = time.monotonic() + 60
        while window.model.rowCount() == before and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.01)
        tracing = False
        after = window.model.rowCount()
        window.close()
        window.worker.stop()
        lib.close()
    if after == before:
        print("the table never showed the dropped digest's papers", file=sys.stderr)
        return 1
    modules = sorted(m for m in seen if not m.endswith("__init__.py"))
    if "--count" in sys.argv:
        print(len(modules))
        return 0
    folders: dict[str, list[str]] = defaultdict(list)
    for m in modules:
        folder, _, name = m.rpartition("/")
        folders[folder or "."].append(name)
    print(f"{len(modules)} modules from the drop to the table rows ({before} -> {after} rows)")
    for folder, names in sorted(folders.items()):
        print(f"  {folder + '/':18} {len(names):3}  {', '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
