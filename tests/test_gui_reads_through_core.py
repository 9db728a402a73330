"""The GUI reads and writes only through the core's ``Library`` facade: no module under
``paperdesk/gui`` runs SQL, holds SQL text or reaches for the library's connection."""

from __future__ import annotations

import ast
import re
from pathlib import Path

GUI = Path(__file__).resolve().parent.parent / "src" / "paperdesk" / "gui"
SQL = re.compile(r"\b(SELECT|INSERT INTO|INSERT OR|UPDATE \w+ SET|DELETE FROM|CREATE "
                 r"(TABLE|INDEX|TRIGGER|TEMP)|PRAGMA|WHERE|JOIN)\s")
RUNS_SQL = {"execute", "executemany", "executescript"}
DB_HANDLES = {"db", "conn"}  # Library.db, Database.conn


def offences(source: str) -> list[str]:
    """What in ``source`` talks to SQLite directly, one line each."""
    found = []
    for node in ast.walk(ast.parse(source)):
        where = getattr(node, "lineno", 0)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in RUNS_SQL:
            found.append(f"{where}: calls .{node.func.attr}(")
        elif isinstance(node, ast.Attribute) and node.attr in DB_HANDLES:
            found.append(f"{where}: reads .{node.attr}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and SQL.search(node.value):
            found.append(f"{where}: SQL text {node.value[:40]!r}")
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
            if any(n == "sqlite3" or n.endswith(("idlists", "database")) for n in names):
                found.append(f"{where}: imports {', '.join(filter(None, names))}")
    return found


def test_no_gui_module_runs_or_holds_sql():
    modules = sorted(GUI.rglob("*.py"))
    assert len(modules) > 30
    found = [f"{path.relative_to(GUI)}:{offence}"
             for path in modules for offence in offences(path.read_text())]
    assert found == []


def test_the_check_finds_each_way_of_talking_to_sqlite():
    assert offences("x = lib.db\n") == ["1: reads .db"]
    assert offences("lib.store.execute('x')\n") == ["1: calls .execute("]
    assert offences("cur.executemany(q, rows)\n") == ["1: calls .executemany("]
    assert offences("q = 'SELECT id FROM papers'\n") == ["1: SQL text 'SELECT id FROM papers'"]
    assert offences("q = f'DELETE FROM {t}'\n") == ["1: SQL text 'DELETE FROM '"]
    assert offences("import sqlite3\n") == ["1: imports sqlite3"]
    assert offences("from paperdesk.core.db.database import chunks\n") == [
        "1: imports chunks, paperdesk.core.db.database"]
    assert offences("label = 'Select all'\nSELECTED = 'selected'\nwhere = 'Where to?'\n") == []
