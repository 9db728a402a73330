"""The layer rules, checked by import-linter inside the test run so they cannot be skipped."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 14 kept, 0 broken" in result.stdout


def test_core_never_mentions_qt_even_lazily():
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in (ROOT / "src" / "paperdesk" / "core").rglob("*.py")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if any(word in line for word in ("PySide6", "shiboken6", "paperdesk.gui", "paperdesk.cli"))
    ]
    assert offenders == []


def _runtime_imports(path: Path, name: str, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``path`` imports when it runs: every import,
    in functions too, but not those under ``if TYPE_CHECKING:``."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                found.update(a.name for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module:
                found.update(f"{child.module}.{a.name}" for a in child.names)
                found.add(child.module)
            visit(child)

    visit(ast.parse(path.read_text()))
    out = set()
    for target in found:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            out.add(target)
    return out


def import_circles(src: Path) -> list[list[str]]:
    """Groups of modules that import each other at run time (Tarjan's algorithm)."""
    paths = {".".join(p.relative_to(src).with_suffix("").parts).removesuffix(".__init__"): p
             for p in src.rglob("*.py")}
    graph = {m: _runtime_imports(p, m, set(paths)) for m, p in paths.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while (w := stack.pop()) != v:
                group.append(w)
            if group:
                circles.append(sorted([v, *group]))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return circles


def test_no_import_circle_at_run_time():
    assert import_circles(ROOT / "src") == []


def test_the_circle_finder_finds_circles(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("def f():\n    from pkg.c import x\n")
    (pkg / "c.py").write_text("from pkg.a import y\n")
    (pkg / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from pkg import a\n")
    (pkg / "e.py").write_text("from pkg import d\n")
    assert import_circles(tmp_path) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_every_package_is_in_the_wheel_list():
    """pyproject.toml names the packages the wheel holds; a new folder must be on it."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    src = ROOT / "src"
    found = {init.parent.relative_to(src).as_posix().replace("/", ".")
             for init in (src / "paperdesk").rglob("__init__.py")}
    assert sorted(found - listed) == []


GUI = ROOT / "src" / "paperdesk" / "gui"
# The window's own parts live beside features in these packages; the rest are features'.
_SHARED = {"paperdesk.gui.common", "paperdesk.gui.panes", "paperdesk.gui.table"}


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT / "src").with_suffix("").parts)


def feature_modules() -> set[str]:
    """The modules of the window's features: each that defines a ``Feature``, and every
    module of a package one of ``gui/features.py``'s FEATURES comes from (but the
    packages shared with the window's own parts), but ``gui/jobs/reads``, the read
    functions the window fills its sidebar and detail pane from. (A package's
    ``__init__``, which holds nothing, is none.)"""
    all_gui = {_module(p) for p in GUI.rglob("*.py") if p.name != "__init__.py"}
    tree = ast.parse((GUI / "features.py").read_text())
    listed = {node.module for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module
              and node.module.startswith("paperdesk.gui.")} - {"paperdesk.gui.context"}
    packages = {m.rpartition(".")[0] for m in listed} - {"paperdesk.gui"} - _SHARED
    found = listed | {m for m in all_gui for pkg in packages if m.startswith(pkg + ".")}
    for path in GUI.rglob("*.py"):
        if any(isinstance(n, ast.ClassDef) and "Feature" in map(ast.unparse, n.bases)
               for n in ast.walk(ast.parse(path.read_text()))):
            found.add(_module(path))
    return found - {"paperdesk.gui.jobs.reads"}


def test_the_window_imports_no_feature():
    """Features reach the window through the context; the window knows none by name."""
    modules = {_module(p).removesuffix(".__init__") for p in (ROOT / "src").rglob("*.py")}
    window = GUI / "main_window.py"
    imported = _runtime_imports(window, _module(window), modules)
    assert {"paperdesk.gui.importing.importing", "paperdesk.gui.jobs.reader",
            "paperdesk.gui.hub.today", "paperdesk.gui.sharing"} <= feature_modules()
    assert sorted(imported & feature_modules()) == []
    typed = ast.parse(window.read_text())  # nor under TYPE_CHECKING
    named = {n.module for n in ast.walk(typed) if isinstance(n, ast.ImportFrom) and n.module}
    assert sorted(named & feature_modules()) == []


def table_forwards(source: str) -> list[str]:
    """The window's members that hand back a member of its table (``feed``): an
    attribute set to one (``self.model = feed.model``), or a method or property whose
    one statement returns one (or its call's result)."""
    def of_table(node: ast.AST, called: bool = False) -> bool:
        if called and isinstance(node, ast.Call):
            node = node.func
        return isinstance(node, ast.Attribute) and ast.unparse(node.value) in ("feed",
                                                                               "self.feed")

    cls = next(n for n in ast.parse(source).body
               if isinstance(n, ast.ClassDef) and n.name == "MainWindow")
    found = []
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                pairs = (zip(target.elts, node.value.elts, strict=False)
                         if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                         else [(target, node.value)])
                found += [ast.unparse(t) for t, v in pairs
                          if ast.unparse(t).startswith("self.") and of_table(v)]
        elif isinstance(node, ast.FunctionDef) and len(node.body) == 1:
            body = node.body[0]
            value = body.value if isinstance(body, (ast.Return, ast.Expr)) else None
            if value is not None and of_table(value, called=True):
                found.append(node.name)
    return found


def test_the_window_forwards_no_member_of_its_table():
    """Views and tests reach the table through ``context.selection``/``context.table``
    or ``window.feed``, never through names the window hands on."""
    assert table_forwards((GUI / "main_window.py").read_text()) == []
    old = ("class MainWindow:\n    def make(self):\n        self.model, self.n = feed.model, 1\n"
           "        self.step = self.feed.step\n"
           "    @property\n    def query(self):\n        return self.feed.query\n")
    assert sorted(table_forwards(old)) == ["query", "self.model", "self.step"]
