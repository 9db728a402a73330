"""The table writers own their undo: a feature calls writers inside
``lib.edit(label, kinds)`` and never says what the undo must image.

Outside core/db no module names a region to image (``Scope(``), reads or writes
images itself (``snapshot(``, ``Image(``), fills the temporary id table the writers
use (``load_ids``, ``temp.ids``) or hands ``lib.edit`` regions of its own. Inside
core/db every table writer (``*_table.py``) function that writes SQL images what it
writes first (``images.cover``), but for the few listed with their reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.test_table_owners import _WRITE, PACKAGE, _texts

# What only core/db may say: each the mark of an undo declared by hand.
_HAND_MADE = re.compile(
    r"\bScope\(|\bImage\(|\b(?:ch|changes|images)\.snapshot\(|\bload_ids\b|\btemp\.ids\b"
    r"|\bRecording\b|\bdb\.recording\b|\bedit\([^)]*\bscopes\s*="
    r"|^from paperdesk\.core\.db\.(?:changes|images) import .*\b(?:Scope|Image|snapshot)\b")

# Writer functions that write without imaging, each with its reason.
NOT_IMAGED = {
    "core/db/papers_table.py:carry_key": "which key a merge carried: an undo of the merge "
                                         "thaws it (thaw_carried), never from images",
    "core/db/papers_table.py:thaw_carried": "run by an undo writing images back, not by an edit",
}
# Tables no undo covers: their writers' modules, with the reason.
NOT_UNDOABLE = {
    "core/db/syncs_table.py": "a kept-in-sync file's record follows the file on disk, "
                              "which no undo takes back",
    "core/db/share_table.py": "the shared document and its records: undoing what an exchange "
                              "applied writes the library back, which the next exchange shares",
    "core/db/follows_table.py": "following a category or an author is a plain write "
                                "(lib.write), not an undoable edit",
}


def _source_files() -> dict[str, str]:
    return {path.relative_to(PACKAGE).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted(PACKAGE.rglob("*.py"))}


def test_no_module_outside_core_db_declares_what_an_undo_images():
    found = sorted(f"{name}:{n}: {line.strip()}"
                   for name, source in _source_files().items()
                   if not name.startswith("core/db/")
                   for n, line in enumerate(source.splitlines(), 1)
                   if _HAND_MADE.search(line))
    assert found == [], ("call a table writer (core/db/*_table.py), which images what it "
                         "writes, instead: " + "; ".join(found))


def _covers(node: ast.FunctionDef) -> bool:
    """Whether the function calls something that images (``cover``, ``cover_added``,
    a helper of its module whose name says it covers)."""
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            name = getattr(call.func, "id", None) or getattr(call.func, "attr", "")
            if "cover" in name:
                return True
    return False


def test_every_table_writer_images_what_it_writes():
    unimaged = []
    for name, source in _source_files().items():
        if not (name.startswith("core/db/") and name.endswith("_table.py")):
            continue
        if name in NOT_UNDOABLE:
            continue
        for node in ast.parse(source).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            writes = [m for text in _texts(node) for m in _WRITE.finditer(text)
                      if not m.group(1).lower().startswith("temp.")]
            if writes and not _covers(node) and f"{name}:{node.name}" not in NOT_IMAGED:
                unimaged.append(f"{name}:{node.name}")
    assert unimaged == [], ("image the rows before writing them (images.cover), or say in "
                            "NOT_IMAGED why not: " + ", ".join(unimaged))


def test_the_rule_sees_a_hand_made_scope():
    """The patterns find what they are for (a rule that finds nothing proves nothing)."""
    for line in ('with lib.edit("x", [ch.PAPERS], ids, [ch.Scope("papers", "id", ids)]):',
                 "load_ids(db, ids)", "rows = ch.snapshot(db, scope)",
                 "from paperdesk.core.db.changes import Scope, snapshot",
                 'db.execute("SELECT id FROM temp.ids")', "lib.edit(label, kinds, scopes=s)"):
        assert _HAND_MADE.search(line), line
    assert not _HAND_MADE.search("with lib.edit(label, [ch.TAGS], ids) as e:")
    assert not _HAND_MADE.search("with snapshot(lib.db) as view:")  # an export's read view
    tree = ast.parse('def w(db):\n    db.execute("UPDATE papers SET rating = 1")\n')
    assert not _covers(tree.body[0])  # type: ignore[arg-type]
    assert Path(PACKAGE, "core/db/images.py").exists()
