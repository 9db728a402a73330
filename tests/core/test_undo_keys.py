"""Undo and redo never break a key that left PaperDesk, nor meet rows under reused ids.

A frozen key was exported: ``\\cite{K}`` in someone's document must keep printing the
same paper. A merge that keeps a frozen paper's key keeps it frozen; an undo of a merge
whose kept key was exported since leaves that key with the kept paper and brings the
other paper back under a fresh key; the redo of an import's undo moves a paper exported
in between to the trash, as the import's undo does. And ids are never given twice, so
an undo of the emptied trash after an import puts every paper back."""

from __future__ import annotations

import sqlite3

from paperdesk.core.bibtex.citekey import key_status
from paperdesk.core.library import Library
from tests.core.test_duplicates import add_copy, by_title


def _frozen(lib, pid) -> bool:
    return key_status(lib, pid)["frozen"]


def _holders(lib, key) -> list[int]:
    return [r[0] for r in lib.db.execute("SELECT id FROM papers WHERE citekey = ?", [key])]


def _pair(lib):
    a = by_title(lib, "Serverless Cold Starts")[0]
    b = add_copy(lib, a, title=lib.paper(a)["title"] + " (again)")
    return a, b, lib.paper(a)["citekey"], lib.paper(b)["citekey"]


def test_ids_are_not_given_again_after_an_import_is_undone(lib, seeds):
    lib.import_paths(seeds[:4])
    record = lib.imports.record(lib.import_paths(seeds[4:]))
    digest = lib.digests()[0]["id"]
    lib.imports.undo(record)
    again = lib.import_paths([seeds[4]])[0]
    assert min(again.created_ids) > max(record.created) and again.digest_id > digest


def test_an_upgraded_library_counts_the_ids_merges_took_away(seed_lib):
    a, b, _key_a, _key_b = _pair(seed_lib)  # b has the highest id
    merge_id = seed_lib.duplicates.merge(a, [b]).result["merge_id"]
    path = seed_lib.path
    seed_lib.close()
    conn = sqlite3.connect(path)
    with conn:  # as before migration 0017
        conn.execute("DROP TABLE id_tops")
        conn.execute("DELETE FROM _sqlite_migrations WHERE name = '0017_id_tops'")
    conn.close()
    with Library.open(path) as lib:
        assert lib.db.execute("SELECT top FROM id_tops WHERE name = 'papers'").fetchone() == (b,)
        c = lib.import_paths([_digest(lib, path.parent)])[0].created_ids
        assert c and min(c) > b
        lib.duplicates.unmerge(merge_id)
        assert lib.paper(b)["id"] == b


def _digest(lib, folder):
    """A digest of one new paper."""
    path = folder / "one.txt"
    path.write_text("new\n\nGet trending papers in your email inbox!\n\nSubscribe\n\n"
                    "byAK and the research community\n\nNov 9\n\n"
                    "An Entirely New Paper About Undo\n\nIt is about undo and ids.\n\n",
                    encoding="utf-8")
    return path


def test_a_key_kept_from_a_frozen_paper_stays_frozen_on_the_kept_paper(seed_lib, tmp_path):
    a, b, _key_a, key_b = _pair(seed_lib)
    seed_lib.bibtex.export_to(tmp_path / "b.bib", [b])  # b's key leaves PaperDesk
    seed_lib.duplicates.merge(a, [b], {"citekey": b})
    assert key_status(seed_lib, a) == {"id": a, "citekey": key_b, "frozen": True,
                                       "state": "frozen"}
    seed_lib.curation.set_year(a, 1999)  # a provisional key would follow the year
    assert seed_lib.paper(a)["citekey"] == key_b and _holders(seed_lib, key_b) == [a]
