"""Undo and redo that put many papers back, or take them away, write the search index in
sets (``store.papers_in_bulk``): the index ends exactly as the per-row triggers leave it.

An import of 250 papers is undone, the undo undone (the papers come back) and redone
(they go again), in a library where the bulk path runs and in one where it cannot (its
threshold out of reach); after each step both libraries' index tables are the same, they
pass FTS5's own integrity check, and the words of the papers find what is there.
"""

from __future__ import annotations

import shutil

from paperdesk.core.db import annotations
from paperdesk.core.library import Library
from tests.digest_files import write_digest

NEW = 250  # papers of the import: over annotations.BULK_PAPERS


def _index(lib) -> tuple[list[tuple], list[tuple]]:
    for table in ("papers_fts", "annotations_fts"):
        lib.db.execute(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")
    return (lib.db.execute("SELECT rowid, title, abstract, notes, tags FROM papers_fts "
                           "ORDER BY rowid").fetchall(),
            lib.db.execute("SELECT rowid, notes, tags FROM annotations_fts "
                           "ORDER BY rowid").fetchall())


def _steps(lib, digest) -> list[tuple]:
    """The import, its undo, the undo's undo and redo; the index after each."""
    report = lib.import_paths([digest])[0]
    created, record = report.created_ids, lib.imports.record([report])
    lib.curation.add_tags(created[:3], ["Okapi"])  # these four go to the trash, kept
    lib.curation.add_note(created[5], "an okapi note")
    undone = lib.imports.undo(record)
    seen = [_index(lib)]
    assert lib.search('"Attention for Task"').ids == []
    lib.undo(undone.undo)  # the papers come back
    seen.append(_index(lib))
    assert sorted(lib.search('"Attention for Task"').ids) == sorted(created)
    assert sorted(lib.search("okapi").ids) == sorted([*created[:3], created[5]])
    lib.redo(undone.undo)  # and go again
    seen.append(_index(lib))
    assert lib.search('"Attention for Task"').ids == []
    return seen


def test_many_papers_put_back_and_taken_away_leave_the_index_the_triggers_would(
        seed_lib, _seed_template, tmp_path, monkeypatch):
    digest = write_digest(tmp_path, "many.txt", 6, 1, {n: n for n in range(NEW)})
    other = tmp_path / "other.sqlite"
    shutil.copyfile(_seed_template, other)
    in_bulk = _steps(seed_lib, digest)
    monkeypatch.setattr(annotations, "BULK_PAPERS", 10**9)  # row by row, by the triggers
    with Library.open(other) as lib:
        by_row = _steps(lib, digest)
    assert in_bulk == by_row
    assert len(in_bulk[1][0]) == len(in_bulk[0][0]) + NEW - 4  # four stayed, in the trash
