"""Which PaperDesk modules a path goes through, and how it goes: the dropped digest
(from the drop to the table rows), the search keystroke (from the key to the rows),
the tag edit that reaches a kept-in-sync .bib (from the edit to the file).

Opens a window (offscreen) on a library holding four of the seed digests and runs the
path the way a user does: drops the fifth digest as a file manager does, types one
more letter of a search, or adds a tag to a paper while a .bib is kept in sync. It
lists every module of ``paperdesk`` that ran code on the way, on any thread (the
module count: reported, not targeted), and, from every call between two modules
(caller -> callee) and every SQL statement, four measures that should be 0:

- calls up a floor: a module calling one on a higher floor (the floors are the layers
  contracts of pyproject.toml: app > gui | cli > core.api > ... > core.model, and the
  layers inside each core folder); a callable handed down (an argument, a local, an
  attribute of ``self``: a listener, a progress callback, a slot) is excepted;
- modules re-entered: a module that is on the call stack, left for another, and
  entered again (A -> B -> A), handed-down callables excepted again;
- decisions outside their owner: a write (INSERT, UPDATE, DELETE, REPLACE) to a table
  from a module other than its owner (tests/test_table_owners.py);
- values derived twice: one SELECT with the same parameters run twice on the path with
  no write between to a table it reads (after one the same SELECT derives another
  value: an edit's before and after images, the rows read again after an insert), or
  a query compiled twice from the same text (``core/search/query_parse.py``'s ``parse``,
  the first step of every compilation).

    python bench/trace_drop.py                   # the dropped digest: counts, modules
    python bench/trace_drop.py --path keystroke  # or tag
    python bench/trace_drop.py --count           # the module count alone
    python bench/trace_drop.py --measures        # the four measures and their examples
"""

from __future__ import annotations

import os
import re
import sqlite3
import sys
import tempfile
import threading
import time
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
SRC = str(ROOT / "src" / "paperdesk")
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

seen: set[str] = set()
VERBOSE = "--verbose" in sys.argv
CHAIN = "--chain" in sys.argv  # only the modules on a call chain that reaches SQL or the table
tracing = False


def module_of(frame) -> str | None:
    name = frame.f_code.co_filename
    return name[len(SRC) + 1:] if name.startswith(SRC) else None


def stack_modules(frame) -> tuple[list[str], set[str]]:
    modules, functions = [], set()
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(SRC):
            modules.append(name[len(SRC) + 1:])
            functions.add(frame.f_code.co_name)
        frame = frame.f_back
    return modules, functions


# -- floors ---------------------------------------------------------------------------

def _floors() -> dict[str, tuple[int, ...]]:
    """{dotted module prefix: rank} from the layers contracts (higher: a higher floor).
    A module's floor is the tuple of its ranks, outermost first."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    ranks: dict[str, tuple[int, ...]] = {}
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract.get("type") != "layers":
            continue
        containers = contract.get("containers") or [""]
        layers = contract["layers"]
        for container in containers:
            for n, layer in enumerate(layers):
                for name in re.split(r"[|:]", layer):
                    dotted = f"{container}.{name.strip()}" if container else name.strip()
                    ranks[dotted] = (len(layers) - n,)
    return ranks


RANKS = _floors()


def floor(module: str) -> list[tuple[str, int]]:
    """[(the contract's prefix, rank)] for a module path under paperdesk/, outermost
    first: where the layers contracts place it."""
    dotted = "paperdesk." + module.removesuffix(".py").replace("/", ".")
    parts = dotted.split(".")
    out = []
    for n in range(1, len(parts) + 1):
        prefix = ".".join(parts[:n])
        if prefix in RANKS:
            out.append((".".join(parts[:n - 1]), RANKS[prefix][0]))
    return out


def is_up(caller: str, callee: str) -> bool:
    """Whether ``callee`` is on a higher floor than ``caller`` in the first contract
    that places both (the same container)."""
    b = dict(floor(callee))
    for container, rank in floor(caller):
        if container in b and b[container] != rank:
            return b[container] > rank
    return False


# -- the recorder ---------------------------------------------------------------------

OWNERS: dict[str, str] = {}
ANY_TABLE: set[str] = set()
WRITE = re.compile(r"^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?"
                   r"|DELETE\s+FROM)\s+[\"\[]?(\w+)", re.IGNORECASE)
READS = re.compile(r"\b(?:FROM|JOIN)\s+[\"\[]?(\w+)", re.IGNORECASE)


class Recorder:
    """Every call between two paperdesk modules and every SQL statement, while on."""

    def __init__(self) -> None:
        self.pairs: Counter[tuple[str, str]] = Counter()
        self.up: Counter[tuple[str, str, str]] = Counter()
        self.reentered: Counter[str] = Counter()
        self.outside_owner: Counter[str] = Counter()
        # (SELECT, the writes so far to each table it reads): one value, derived n times
        self.selects: Counter[tuple[str, tuple[int, ...]]] = Counter()
        self.written: Counter[str] = Counter()  # writes to each table so far
        self.compiled: Counter[str] = Counter()
        self.modules: set[str] = set()
        self.handed: dict[int, bool] = {}  # id(frame): entered as a callable handed down
        self.emitting: dict[int, list] = defaultdict(list)  # thread: frames inside a C call
        self.lock = threading.Lock()

    def handed_down(self, frame, caller) -> bool:
        code = frame.f_code
        back = frame.f_back
        resumed = code.co_flags & 0x2A0  # a generator or coroutine: next() is no handing
        if not resumed and back is not None and \
                self.emitting[threading.get_ident()][-1:] == [back]:
            return True  # run by C (a slot run by a signal, Qt's or ours; a key; a
            # generator drained): handed to Qt or to the builtin by whoever made it
        for holder in {id(f): f for f in (back, caller)
                       if f is not None and module_of(f) is not None}.values():
            values = list(holder.f_locals.values())
            owner = holder.f_locals.get("self")
            if owner is not None and hasattr(owner, "__dict__"):
                values += list(vars(owner).values())
            for v in values:
                if getattr(v, "gi_code", None) is code:
                    return True  # a generator handed down, resumed
                for c in (v, getattr(v, "__func__", None), getattr(v, "func", None)):
                    if getattr(c, "__code__", None) is code:
                        return True
                if isinstance(v, list | tuple | set | dict):
                    items = v.values() if isinstance(v, dict) else v
                    for item in list(items)[:64]:
                        for c in (item, getattr(item, "__func__", None)):
                            if getattr(c, "__code__", None) is code:
                                return True
        return False

    def segment(self, frame) -> list[str]:
        """The modules on the stack from ``frame`` down to the nearest frame entered as
        a handed-down callable (consecutive repeats collapsed)."""
        out: list[str] = []
        while frame is not None:
            m = module_of(frame)
            if m is not None:
                if not out or out[-1] != m:
                    out.append(m)
                if self.handed.get(id(frame)):
                    break
            frame = frame.f_back
        return out

    def event(self, frame, event, arg) -> None:
        if event == "c_call":
            self.emitting[threading.get_ident()].append(frame)
            return
        if event in ("c_return", "c_exception"):
            stack = self.emitting[threading.get_ident()]
            if stack:
                stack.pop()
            return
        if event == "return":
            self.handed.pop(id(frame), None)
            return
        if event != "call":
            return
        callee = module_of(frame)
        if callee is None:
            return
        caller_frame = frame.f_back
        while caller_frame is not None and module_of(caller_frame) is None:
            caller_frame = caller_frame.f_back
        with self.lock:
            self.modules.add(callee)
            if callee == "core/search/query_parse.py" and frame.f_code.co_name == "parse":
                text = next(iter(frame.f_locals.values()), None)
                for v in frame.f_locals.values():
                    if isinstance(v, str):
                        text = v
                        break
                self.compiled[f"{callee}::{frame.f_code.co_name}({text!r})"] += 1
            if caller_frame is None:
                return
            caller = module_of(caller_frame)
            if caller == callee:
                return
            handed = self.handed_down(frame, caller_frame)
            self.handed[id(frame)] = handed
            self.pairs[(caller, callee)] += 1
            if handed:
                return
            if is_up(caller, callee):
                self.up[(caller, callee, frame.f_code.co_name)] += 1
            below = self.segment(caller_frame)
            if callee in below[1:]:
                chain = [*below[:below.index(callee) + 1][::-1], callee]
                self.reentered[" -> ".join(chain)] += 1

    def statement(self, sql: str) -> None:
        frame = sys._getframe(1)
        while frame is not None and module_of(frame) is None:
            frame = frame.f_back
        where = module_of(frame) if frame is not None else "?"
        text = " ".join(sql.split())
        with self.lock:
            if (m := WRITE.match(text)) is not None:
                self.written[m.group(1).lower()] += 1
            if (m and (table := m.group(1)) in OWNERS
                    and where != OWNERS[table] and where not in ANY_TABLE):
                self.outside_owner[f"{table} written in {where}"] += 1
            if text.upper().startswith(("SELECT", "WITH")):
                tables = sorted({t.lower() for t in READS.findall(text)})
                self.selects[(text, tuple(self.written[t] for t in tables))] += 1

    def measures(self) -> dict[str, int]:
        return {"calls up a floor": sum(self.up.values()),
                "modules re-entered": len(self.reentered),
                "decisions outside their owner": sum(self.outside_owner.values()),
                "values derived twice": sum(1 for n in self.selects.values() if n > 1)
                + sum(1 for n in self.compiled.values() if n > 1)}

    def report(self) -> None:
        for name, n in self.measures().items():
            print(f"  {name:32} {n}")
        for title, counter in (("up a floor", self.up), ("re-entered", self.reentered),
                               ("outside the owner", self.outside_owner)):
            for what, n in counter.most_common(8):
                print(f"    {title}: {what} ({n})")
        selects = [(text, n) for (text, _writes), n in self.selects.most_common()]
        for what, n in [*selects, *self.compiled.most_common()]:
            if n > 1:
                print(f"    derived {n} times: {what if VERBOSE else what[:160]}")
        print(f"  caller -> callee module pairs: {len(self.pairs)}")


recorder = Recorder()


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


START = "dropEvent"  # the function whose call starts the path on the GUI thread


def hook(frame, event, arg):
    if not tracing:
        return
    recorder.event(frame, event, arg)
    on_gui = threading.current_thread() is threading.main_thread()
    if not on_gui and event == "call" and not CHAIN:  # the worker runs the path's job only
        name = frame.f_code.co_filename
        if name.startswith(SRC):
            seen.add(name[len(SRC) + 1:])
        return
    if not is_sink(frame, event, arg):
        return
    modules, functions = stack_modules(frame)
    if on_gui and START not in functions and "gui/table/table_feed.py" not in modules:
        return  # other views, or a timer's work (the outside feed): not this path
    seen.update(modules)


def traced_run(run):
    def wrapper(self, *args, **kwargs):
        sys.setprofile(hook)
        return run(self, *args, **kwargs)
    return wrapper


def traced_connect(connect):
    def wrapper(*args, **kwargs):
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(lambda sql: tracing and recorder.statement(sql))
        return conn
    return wrapper


def pump(app, until, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not until() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    return until()


def drop_digest(app, window, lib, seeds, tmp) -> str:
    from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
    from PySide6.QtGui import QDragEnterEvent, QDropEvent
    from PySide6.QtWidgets import QApplication

    global tracing
    before = window.feed.model.rowCount()
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
    done = pump(app, lambda: window.feed.model.rowCount() != before, 60)
    tracing = False
    return f"from the drop to the table rows ({before} -> {window.feed.model.rowCount()} rows)" \
        if done else ""


def search_keystroke(app, window, lib, seeds, tmp) -> str:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    global tracing, START
    START = "keyPressEvent"
    edit = window.search_bar.edit
    edit.setFocus()
    QTest.keyClicks(edit, "languag")
    pump(app, lambda: window.feed.query == "languag", 30)
    pump(app, lambda: False, 1.0)
    before = window.feed.model.rowCount()
    tracing = True
    QTest.keyClick(edit, Qt.Key.Key_E)
    done = pump(app, lambda: window.feed.query == "language" and not window.context.reader.busy, 30)
    pump(app, lambda: False, 1.0)  # the rows read after the query's answer
    tracing = False
    return f"from the key to the rows ({before} -> {window.feed.model.rowCount()} rows)" \
        if done else ""


def tag_to_bib(app, window, lib, seeds, tmp) -> str:
    global tracing, START
    START = "add_tags"
    out = Path(tmp) / "refs.bib"
    lib.syncs.add(out)
    window.context.features["sync"].writer.write_all()
    pump(app, lambda: out.exists() and out.stat().st_size > 0, 30)
    pump(app, lambda: False, 1.5)
    from paperdesk.gui import paper_edits

    pid = window.feed.model.paper_id(0)
    window.feed.select_ids([pid], pid)
    tracing = True
    paper_edits.add_tags(window.context, [pid], ["kept-in-sync"])
    done = pump(app, lambda: "kept-in-sync" in out.read_text(encoding="utf-8"), 30)
    tracing = False
    return "from the tag edit to the .bib" if done else ""


PATHS = {"drop": drop_digest, "keystroke": search_keystroke, "tag": tag_to_bib}


def main() -> int:
    from PySide6.QtCore import QThread
    from PySide6.QtWidgets import QApplication
    from tests import test_table_owners

    from paperdesk.core.api import Library
    from paperdesk.gui.main_window import MainWindow

    OWNERS.update(test_table_owners.OWNERS)
    ANY_TABLE.update(test_table_owners.ANY_TABLE)
    path = sys.argv[sys.argv.index("--path") + 1] if "--path" in sys.argv else "drop"

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)
    for cls in list(subclasses(QThread)):
        if cls.__module__.startswith("paperdesk") and "run" in vars(cls):
            cls.run = traced_run(cls.run)
    sqlite3.connect = traced_connect(sqlite3.connect)
    threading.setprofile(hook)
    sys.setprofile(hook)

    seeds = sorted((ROOT / "seeds").glob("*.txt"))
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library.open(Path(tmp) / "lib.sqlite")
        lib.import_paths(seeds[:4])
        window = MainWindow(lib)
        window.show()
        pump(app, lambda: False, 2)
        what = PATHS[path](app, window, lib, seeds, tmp)
        window.close()
        window.worker.stop()
        lib.close()
    if not what:
        print(f"the {path} path never finished", file=sys.stderr)
        return 1
    modules = sorted(m for m in seen if not m.endswith("__init__.py"))
    if "--count" in sys.argv:
        print(len(modules))
        return 0
    print(f"{path}: {len(modules)} modules {what}")
    if "--measures" in sys.argv:
        recorder.report()
        return 0
    folders: dict[str, list[str]] = defaultdict(list)
    for m in modules:
        folder, _, name = m.rpartition("/")
        folders[folder or "."].append(name)
    for folder, names in sorted(folders.items()):
        print(f"  {folder + '/':18} {len(names):3}  {', '.join(names)}")
    recorder.report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
