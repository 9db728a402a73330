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
