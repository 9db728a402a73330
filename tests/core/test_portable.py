"""The core is portable by construction: it imports and works where the POSIX-only
calls it once used do not exist (``fcntl``, ``os.statvfs``, signal 0 through
``os.kill``, ``/proc``), as on Windows, and its sources call none of them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import SEED_PAPERS, SEEDS

SRC = Path(__file__).resolve().parents[2] / "src" / "paperdesk"

# Run first in the child: what a system without these calls looks like to Python.
WITHOUT_POSIX = r"""
import builtins, os, sys
sys.modules["fcntl"] = None  # `import fcntl` raises ImportError, as on Windows
del os.statvfs
_kill = os.kill
def _no_probe(pid, sig):
    if sig == 0 and sys._getframe(1).f_globals.get("__name__", "").startswith("paperdesk"):
        raise AssertionError(f"os.kill({pid}, 0) called: it ends the process on Windows")
    return _kill(pid, sig)
os.kill = _no_probe
# No /proc for PaperDesk's own code (psutil, which knows each system, still reads it).
_open, _isdir = builtins.open, os.path.isdir
def _ours(path):
    return (str(path).startswith("/proc")
            and sys._getframe(2).f_globals.get("__name__", "").startswith("paperdesk"))
def _no_proc_open(file, *args, **kwargs):
    if _ours(file):
        raise FileNotFoundError(2, "No such file or directory", str(file))
    return _open(file, *args, **kwargs)
builtins.open = _no_proc_open
os.path.isdir = lambda p: False if _ours(p) else _isdir(p)
"""

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
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "imported 5" in lines
    assert "known True" in lines
    assert "alive True True" in lines
    assert "cleaned ['.out.bib.4194304.tmp']" in lines
    assert "tagged 2" in lines
    assert f"exported {SEED_PAPERS} True" in lines


def test_the_simulated_system_really_lacks_those_calls(tmp_path):
    """The prelude above is what makes the first test mean something."""
    probe = WITHOUT_POSIX + (
        "import os\n"
        "try:\n    import fcntl\nexcept ImportError:\n    print('no fcntl')\n"
        "print('no statvfs', not hasattr(os, 'statvfs'))\n"
        "__name__ = 'paperdesk.probe'\n"
        "try:\n    os.kill(os.getpid(), 0)\nexcept AssertionError:\n    print('no kill 0')\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=60)
    assert result.stdout.split("\n")[:3] == ["no fcntl", "no statvfs True", "no kill 0"]


POSIX_ONLY = re.compile(r"^\s*(import fcntl|from fcntl)|os\.kill\(|os\.statvfs\(|\bimport termios",
                        re.M)


def test_no_source_calls_a_posix_only_function_directly():
    found = [f"{p.relative_to(SRC)}: {m.group(0).strip()}"
             for p in sorted(SRC.rglob("*.py")) for m in POSIX_ONLY.finditer(p.read_text())]
    assert found == []
