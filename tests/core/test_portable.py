"""The core is portable by construction: it imports and works where the POSIX-only
calls it once used do not exist (``fcntl``, ``os.statvfs``, signal 0 through
``os.kill``, ``/proc``), as on Windows, and its sources call none of them; no source
under src/ uses ``ctypes``, ``fcntl``, ``os.kill`` or another package's private names."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import SEED_PAPERS, SEEDS

SRC = Path(__file__).resolve().parents[2] / "src" / "paperdesk"

# Run first in the child: what a system without these calls looks like to PaperDesk
# (the plugin of the CI's no-POSIX step; tests/core/test_no_posix.py checks it).
WITHOUT_POSIX = "import tests.no_posix\n"
ROOT = SRC.parents[1]

WORK = r"""
import importlib, pkgutil, sys
from pathlib import Path
import paperdesk.core
for info in pkgutil.walk_packages(paperdesk.core.__path__, "paperdesk.core."):
    importlib.import_module(info.name)
from paperdesk.core.db import files, known, sessions
from paperdesk.core.library import Library
folder = Path(sys.argv[1])
seeds = [Path(p) for p in sys.argv[2:]]
with Library.open(folder / "library.sqlite") as lib:
    reports = lib.import_paths(seeds)
    lib.curation.add_tags([1, 2], ["portable"])
    lib.bibtex.export_to(folder / "out.bib")
    backup = lib.backup(folder / "copy.sqlite")
print("imported", sum(r.status == "imported" for r in reports))
print("known", known.was_known(folder / "library.sqlite"))
mine = sessions._start_time(__import__("os").getpid())
print("alive", sessions._start_time(1 << 22) is None, mine not in (None, "0"))
(folder / ".out.bib.4194304.tmp").write_text("left by a killed export")
print("cleaned", [p.name for p in files.clean_leftovers(folder, r"\.out\.bib\.(?P<pid>\d+)\.tmp")])
with Library.open(folder / "library.sqlite") as lib:
    print("tagged", len(lib.search("tag:portable").ids))
entries = [ln for ln in (folder / "out.bib").read_text().splitlines() if ln.startswith("@")]
print("exported", len(entries), backup.exists())
"""


def test_the_core_imports_and_works_without_posix_only_calls(tmp_path):
    result = subprocess.run([sys.executable, "-c", WITHOUT_POSIX + WORK, tmp_path, *SEEDS],
                            capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "imported 5" in lines
    assert "known True" in lines
    assert "alive True True" in lines
    assert "cleaned ['.out.bib.4194304.tmp']" in lines
    assert "tagged 2" in lines
    assert f"exported {SEED_PAPERS} True" in lines


POSIX_ONLY = re.compile(r"^\s*(import fcntl|from fcntl)|os\.kill\(|os\.statvfs\(|\bimport termios",
                        re.M)


def test_no_source_calls_a_posix_only_function_directly():
    found = [f"{p.relative_to(SRC)}: {m.group(0).strip()}"
             for p in sorted(SRC.rglob("*.py")) for m in POSIX_ONLY.finditer(p.read_text())]
    assert found == []


# -- what the sources use: nothing POSIX-only, no C-level access, nothing private --------

FORBIDDEN_MODULES = {"ctypes", "_ctypes", "fcntl"}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _ours(module: str | None) -> bool:
    return module is None or module == "paperdesk" or module.startswith("paperdesk.")


def unportable_uses(source: str) -> list[str]:
    """What ``source`` uses that the rule forbids: ``ctypes`` or ``fcntl``, ``os.kill``,
    and another package's private names (``import _mod``, ``from mod import _name``,
    ``mod._name``, ``mod.sub._name``); PaperDesk's own and dunder names are allowed."""
    tree = ast.parse(source)
    found: list[str] = []
    foreign: set[str] = set()  # names bound to another package's modules or objects
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _ours(alias.name):
                    foreign.add(alias.asname or alias.name.split(".")[0])
                    found += _module_problems(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and not _ours(node.module):
            found += _module_problems(node.module, node.lineno)
            for alias in node.names:
                foreign.add(alias.asname or alias.name)
                if _private(alias.name):
                    found.append(f"{node.lineno}: from {node.module} import {alias.name}")
                if node.module == "os" and alias.name == "kill":
                    found.append(f"{node.lineno}: from os import kill")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            root, chain = node.value, [node.attr]
            while isinstance(root, ast.Attribute):
                chain.insert(0, root.attr)
                root = root.value
            if isinstance(root, ast.Name) and root.id in foreign:
                dotted = ".".join([root.id, *chain])
                if _private(node.attr):
                    found.append(f"{node.lineno}: {dotted}")
                elif dotted == "os.kill":
                    found.append(f"{node.lineno}: os.kill")
    return sorted(set(found), key=lambda s: int(s.split(":")[0]))


def _module_problems(module: str, line: int) -> list[str]:
    parts = module.split(".")
    if parts[0] in FORBIDDEN_MODULES:
        return [f"{line}: import {module}"]
    if any(_private(part) for part in parts):
        return [f"{line}: import {module} (private)"]
    return []


def test_no_source_uses_ctypes_fcntl_kill_or_another_packages_private_names():
    found = {str(p.relative_to(SRC)): uses for p in sorted(SRC.rglob("*.py"))
             if (uses := unportable_uses(p.read_text(encoding="utf-8")))}
    assert found == {}


def test_the_scan_finds_each_kind_and_allows_our_own():
    source = (
        "import ctypes\n"                                  # 1
        "import fcntl as f\n"                              # 2
        "from ctypes.util import find_library\n"           # 3
        "import _sqlite3\n"                                # 4
        "import argparse, os\n"                            # 5
        "from json.encoder import _make_iterencode\n"      # 6
        "x = argparse._SubParsersAction\n"                 # 7
        "os.kill(1, 0)\n"                                  # 8
        "os.path._joinrealpath('a', 'b', False, {})\n"    # 9
        "from os import kill\n"                            # 10
        "from paperdesk.core.db import files\n"            # 11
        "files._lock, self._x, os.__file__, __name__\n"    # 12
        "from paperdesk.core.db.files import _open\n"      # 13
        "from . import _near\n"                            # 14
        "from __future__ import annotations\n"             # 15
        "t = (1, 2)._replace\n")                           # 16
    assert unportable_uses(source) == [
        "1: import ctypes", "2: import fcntl", "3: import ctypes.util",
        "4: import _sqlite3 (private)", "6: from json.encoder import _make_iterencode",
        "7: argparse._SubParsersAction", "8: os.kill", "9: os.path._joinrealpath",
        "10: from os import kill"]
