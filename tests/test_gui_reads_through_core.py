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


# -- the GUI writes no query text: it hands the core a source and the user's own text --

def _field_term(valued: bool) -> re.Pattern[str]:
    """A term of the search language that names a field (``tag:x``, ``rating>=4``),
    standing where a query has one: at the start, after a space or a parenthesis;
    ``valued``: with its value (else it may end the text, a value to be added to it)."""
    from paperdesk.core.search.query_parse import VALUE_FIELDS, WORD_COLUMNS

    fields = "|".join(sorted({*VALUE_FIELDS, *WORD_COLUMNS}, key=len, reverse=True))
    end = "" if valued else "|$"
    return re.compile(rf"(?:^|(?<=[\s(]))-?(?:{fields})(?:>=|<=|:|>|<)(?=[\"\w{{(*-]{end})")


def _text(node: ast.AST) -> str | None:
    """The text of a string constant or an f-string (each value in it as ``{}``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def query_texts(source: str) -> list[str]:
    """Where ``source`` writes text of the search language: an f-string, a ``.format``,
    a ``+`` or ``%`` that puts a field term together, or a string that is a query (one
    that begins with a field term; the examples in help text begin with words)."""
    term, whole, found, parts = _field_term(False), _field_term(True), [], set()
    nodes = list(ast.walk(ast.parse(source)))
    for node in nodes:  # the pieces of an f-string, .format or + are judged as a whole
        if isinstance(node, ast.JoinedStr):
            parts |= {id(v) for v in node.values}
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            parts.add(id(node.func.value))
        elif isinstance(node, ast.BinOp):
            parts |= {id(node.left), id(node.right)}
    for node in nodes:
        where = getattr(node, "lineno", 0)
        if isinstance(node, ast.JoinedStr):
            if term.search(text := _text(node) or ""):
                found.append(f"{where}: builds {text[:40]!r}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "format" and term.search(_text(node.func.value) or ""):
            found.append(f"{where}: formats {_text(node.func.value)[:40]!r}")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
            for side in (node.left, node.right):
                if term.search(text := _text(side) or ""):
                    found.append(f"{where}: joins {text[:40]!r}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in parts and whole.match(node.value.lstrip(" (")):
            found.append(f"{where}: holds {node.value[:40]!r}")
    return sorted(set(found))


def test_no_gui_module_writes_query_text():
    """A source of the sidebar and the search text go to ``lib.browse.search`` as they
    are; the query around them is the core's to write."""
    found = [f"{path.relative_to(GUI)}:{offence}"
             for path in sorted(GUI.rglob("*.py")) for offence in query_texts(path.read_text())]
    assert found == []


def test_the_check_finds_each_way_of_writing_a_query():
    assert query_texts("q = f'tag:\"{name}\"'\n") == ["1: builds 'tag:\"{}\"'"]
    assert query_texts("q = f'status:{value}'\n") == ["1: builds 'status:{}'"]
    assert query_texts("q = 'digest:\"{}\"'.format(n)\n") == ["1: formats 'digest:\"{}\"'"]
    assert query_texts("q = 'rating>=' + str(n)\n") == ["1: joins 'rating>='"]
    assert query_texts("q = 'status:to-read'\n") == ["1: holds 'status:to-read'"]
    assert query_texts("q = f'({a}) (year>2020)'\n") == ["1: builds '({}) (year>2020)'"]
    # Help text that shows the language, links and markup are no queries.
    assert query_texts("t = 'Search: words, tag:x, rating>=4'\n"
                       "t = 'a search, e.g. tag:to-cite'\n"
                       "h = f'<a href=\"year:{i}\">Correct</a>'\n"
                       "h = '\" title=\"Remove\">x</a>'\n"
                       "if href.startswith('year:'):\n    pass\n"
                       "t = f'Tag: {name}'\n") == []
