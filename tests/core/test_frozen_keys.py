"""Frozen citation keys live in a table of their own (``frozen_keys``, migration 0016):
freezing writes a small row, never the paper's; a paper deleted for good takes its row
along, and an undo that puts the paper back puts its frozen key back; no undo thaws a key
that left PaperDesk; a library from before 0016 keeps exactly the keys it had frozen."""

from __future__ import annotations

import sqlite3

from paperdesk.core.bibtex.citekey import key_status
from paperdesk.core.library import Library
from tests.conftest import SEED_PAPERS
from tests.core.test_duplicates import add_copy, by_title


def _papers(lib) -> list[tuple]:
    return lib.db.execute("SELECT * FROM papers ORDER BY id").fetchall()


def _frozen(lib) -> set[int]:
    return {r[0] for r in lib.db.execute("SELECT paper_id FROM frozen_keys")}


def test_an_export_freezes_keys_without_writing_a_paper(seed_lib, tmp_path):
    before = _papers(seed_lib)
    assert _frozen(seed_lib) == set()
    assert seed_lib.bibtex.export_to(tmp_path / "all.bib") == SEED_PAPERS
    assert _papers(seed_lib) == before  # every row as it was, byte for byte
    assert _frozen(seed_lib) == {r[0] for r in before}
    assert {key_status(seed_lib, r[0])["state"] for r in before[:5]} == {"frozen"}


def test_an_unmerged_paper_comes_back_with_its_frozen_key(seed_lib):
    a = by_title(seed_lib, "Serverless Cold Starts")[0]
    b = add_copy(seed_lib, a, title=seed_lib.paper(a)["title"] + " (again)")
    key_b = seed_lib.paper(b)["citekey"]
    seed_lib.bibtex.freeze([a, b])  # both keys left: the merged paper keeps a's
    merge_id = seed_lib.duplicates.merge(a, [b]).result["merge_id"]
    assert b not in _frozen(seed_lib)  # its row went with the paper
    seed_lib.duplicates.unmerge(merge_id)
    assert key_status(seed_lib, b) == {"id": b, "citekey": key_b, "frozen": True,
                                       "state": "frozen"}
    assert key_status(seed_lib, a)["frozen"]  # and the unmerge did not thaw that one


def test_the_emptied_trash_comes_back_frozen_by_its_undo(seed_lib):
    pid, other = 5, 6
    seed_lib.bibtex.freeze([pid])
    seed_lib.trash.delete([pid, other])
    emptied = seed_lib.trash.empty()
    assert _frozen(seed_lib) == set()
    seed_lib.undo(emptied.undo)
    assert _frozen(seed_lib) == {pid}
    assert seed_lib.paper(pid)["citekey_frozen"] and not seed_lib.paper(other)["citekey_frozen"]


def test_a_library_from_before_the_table_keeps_its_frozen_keys(seed_lib, tmp_path):
    """0015 kept the flag in ``papers.citekey_frozen``: the upgrade moves every flag."""
    path = seed_lib.path
    seed_lib.close()
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("DROP TABLE frozen_keys")
        conn.execute("DELETE FROM _sqlite_migrations WHERE name = '0016_frozen_keys'")
        conn.execute("UPDATE papers SET citekey_frozen = (id % 3 = 0)")
    want = {r[0] for r in conn.execute("SELECT id FROM papers WHERE id % 3 = 0")}
    conn.close()
    with Library.open(path) as lib:
        assert _frozen(lib) == want and len(want) == SEED_PAPERS // 3
        assert [p["citekey_frozen"] for p in lib.papers([3, 4])] == [True, False]
