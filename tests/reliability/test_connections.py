"""One way to open the library in a process: a second connection opened and closed
never costs the first its locks, so another program never takes the write-ahead log
away from under it (SQLite, "How To Corrupt An SQLite Database File", 2.2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from paperdesk.core.library import Library
from tests.command_line import cli_env
from tests.reliability.helpers import cli, integrity, kill_when

WINDOW = """
import sys
from paperdesk.core.library import Library
lib = Library.open(sys.argv[1])
other = Library.open(sys.argv[1])   # as the window's reader and worker do
other.close()
print("open", flush=True)
sys.stdin.readline()                 # meanwhile, another program lists the papers
lib.curation.set_rating([1], 5)
lib.curation.add_note(1, "written by the first connection")
print("written", flush=True)
sys.stdin.readline()
"""


def test_a_write_after_another_connection_closed_survives_a_kill(one_digest):
    proc = subprocess.Popen([sys.executable, "-c", WINDOW, str(one_digest)], env=cli_env(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "open"
    listed = cli("--library", one_digest, "list", "--limit", "1")
    assert listed.returncode == 0, listed.stderr
    assert Path(f"{one_digest}-wal").exists(), "the other program took the WAL away"
    proc.stdin.write("\n")
    proc.stdin.flush()
    assert proc.stdout.readline().strip() == "written"
    assert kill_when(proc, lambda: True)
    assert integrity(one_digest) == "ok"
    with Library.open(one_digest, create=False) as lib:
        paper = lib.paper(1)
        assert paper["rating"] == 5
        assert [n["text"] for n in paper["notes"]] == ["written by the first connection"]
        assert lib.db.execute(
            "INSERT INTO papers_fts(papers_fts) VALUES ('integrity-check')").fetchall() == []


def test_one_copy_of_sqlite_in_the_process():
    """A second SQLite library (Qt's QtSql driver, apsw, pysqlite3) in the same process
    would keep locks of its own that ours cannot see ("How To Corrupt", 2.2.1)."""
    import ast

    other = {"PySide6.QtSql", "apsw", "pysqlite3", "sqlcipher3", "sqlean"}
    src = Path(__file__).resolve().parents[2] / "src" / "paperdesk"
    found = []
    for path in src.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            names += [f"{n}.{a.name}" for n in names for a in getattr(node, "names", [])
                      if isinstance(node, ast.ImportFrom)]
            found += [(path.name, n) for n in names if n.split(".")[0] in other or n in other]
    assert not found


def test_the_header_is_read_through_sqlite_while_the_library_is_open(one_digest, monkeypatch):
    """With a connection open, opening the library again never opens the file in Python."""
    import builtins
    import io
    import os

    opened: list[str] = []
    real_open, real_os_open = io.open, os.open

    def spy_os_open(name, *args, **kwargs):
        opened.append(str(name))
        return real_os_open(name, *args, **kwargs)

    def spy_open(name, *args, **kwargs):
        opened.append(str(name))
        return real_open(name, *args, **kwargs)

    with Library.open(one_digest) as first:
        monkeypatch.setattr(os, "open", spy_os_open)
        monkeypatch.setattr(io, "open", spy_open)
        monkeypatch.setattr(builtins, "open", spy_open)
        with Library.open(one_digest) as second:  # (reads PaperDesk's list of libraries)
            assert second.stats() == first.stats()
        monkeypatch.undo()
    assert opened, "the spies saw nothing at all"
    assert not [name for name in opened if name.startswith(str(one_digest))]
