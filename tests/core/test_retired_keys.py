"""A key that left PaperDesk is never given to another paper (``retired_keys``, 0018).

``\\cite{K}`` in someone's document must never come to print a different paper. When the
paper an exported key named is merged away, deleted for good or given another key, its key
is retired: PaperDesk never makes it for a paper again, and a paper that comes back under
it (an undo) has it frozen again. A key typed by hand stays the user's word.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from paperdesk.core.bibtex.citekey import key_status
from paperdesk.core.library import Library
from paperdesk.core.model.errors import DuplicateError
from tests.digest_files import write_entries


def _new_paper(lib, folder, name, title, year) -> int:
    """A paper of a new digest, titled ``title``, of ``year``."""
    digest = write_entries(folder, name, 3, 1, [(title, f"About {title}.", 4)], year=year)
    return lib.import_paths([digest])[0].created_ids[0]


def _pair(lib, folder) -> tuple[int, int]:
    """Two papers whose keys share a base (``serverless2024``, ``serverless2024a``)."""
    a = _new_paper(lib, folder, "a.txt", "Serverless Cold Starts and Where to Find Them", 2024)
    b = _new_paper(lib, folder, "b.txt", "Serverless Cold Starts, Again", 2024)
    assert lib.paper(b)["citekey"].startswith(lib.paper(a)["citekey"])
    return a, b


def _holder(lib, key) -> int | None:
    row = lib.db.execute("SELECT id FROM papers WHERE citekey = ?", [key]).fetchone()
    return row and row[0]


def test_a_merged_away_papers_exported_key_is_never_made_for_another(lib, tmp_path):
    a, b = _pair(lib, tmp_path)
    key_b = lib.paper(b)["citekey"]
    lib.bibtex.export_to(tmp_path / "ab.bib", [a, b])  # both keys name papers in a document
    lib.duplicates.merge(a, [b])  # the merged paper keeps a's: b's key goes with b
    c = _new_paper(lib, tmp_path, "c.txt", "Serverless Edge Computing for Robots", 2024)
    d = _new_paper(lib, tmp_path, "d.txt", "Serverless Databases at Scale", 2024)
    assert key_b not in (lib.paper(c)["citekey"], lib.paper(d)["citekey"])
    assert _holder(lib, key_b) is None


def test_a_merge_keeps_the_key_that_left_over_one_that_never_did(lib, tmp_path):
    """Only b's key was exported: merging b into a gives a that key, frozen, so the
    document citing it still finds the work; choosing a's own key is refused."""
    a, b = _pair(lib, tmp_path)
    key_b = lib.paper(b)["citekey"]
    lib.bibtex.export_to(tmp_path / "b.bib", [b])
    before = lib.db.execute("SELECT * FROM papers ORDER BY id").fetchall()
    with pytest.raises(DuplicateError, match=f"the key {key_b} has left PaperDesk"):
        lib.duplicates.merge(a, [b], {"citekey": a})
    assert lib.db.execute("SELECT * FROM papers ORDER BY id").fetchall() == before
    lib.duplicates.merge(a, [b])
    assert key_status(lib, a) == {"id": a, "citekey": key_b, "frozen": True, "state": "frozen"}


def test_a_paper_deleted_for_good_keeps_its_exported_key_from_others(lib, tmp_path):
    _a, b = _pair(lib, tmp_path)
    key_b = lib.paper(b)["citekey"]
    lib.bibtex.export_to(tmp_path / "b.bib", [b])
    lib.trash.delete([b])
    lib.trash.empty()
    c = _new_paper(lib, tmp_path, "c.txt", "Serverless Edge Computing for Robots", 2024)
    assert lib.paper(c)["citekey"] != key_b and _holder(lib, key_b) is None


def test_a_paper_redone_away_and_undone_back_has_its_exported_key_frozen(lib, tmp_path):
    """Merge, undo, export the merged-away paper, redo (it goes again), undo: it comes
    back under its exported key, frozen, and a later year edit leaves the key alone."""
    a, b = _pair(lib, tmp_path)
    merged = lib.duplicates.merge(a, [b])
    lib.undo(merged.undo)
    key_b = lib.paper(b)["citekey"]
    lib.bibtex.export_to(tmp_path / "b.bib", [b])
    lib.redo(merged.undo)
    c = _new_paper(lib, tmp_path, "c.txt", "Serverless Edge Computing for Robots", 2024)
    assert lib.paper(c)["citekey"] != key_b  # not given while b was away
    lib.undo(merged.undo)
    assert key_status(lib, b) == {"id": b, "citekey": key_b, "frozen": True, "state": "frozen"}
    lib.curation.set_year(b, 2021)
    assert lib.paper(b)["citekey"] == key_b


def test_a_frozen_key_replaced_in_a_merge_is_never_made_for_another(lib, tmp_path):
    """Both keys were exported; the merge takes the other paper's. The kept paper's own
    exported key leaves with nobody, and PaperDesk never makes it for another paper."""
    a, b = _pair(lib, tmp_path)
    key_a = lib.paper(a)["citekey"]
    lib.bibtex.export_to(tmp_path / "ab.bib", [a, b])
    lib.duplicates.merge(a, [b], {"citekey": b})
    assert lib.paper(a)["citekey"] != key_a
    c = _new_paper(lib, tmp_path, "c.txt", "Serverless Edge Computing for Robots", 2024)
    assert lib.paper(c)["citekey"] != key_a and _holder(lib, key_a) is None


def test_a_key_typed_by_hand_may_be_a_retired_one(lib, tmp_path):
    a, b = _pair(lib, tmp_path)
    key_b = lib.paper(b)["citekey"]
    lib.bibtex.export_to(tmp_path / "ab.bib", [a, b])
    lib.duplicates.merge(a, [b])
    c = _new_paper(lib, tmp_path, "c.txt", "Serverless Edge Computing for Robots", 2024)
    lib.bibtex.set_citekey(c, key_b)
    assert lib.paper(c)["citekey"] == key_b


def test_a_bib_file_never_brings_a_retired_key_for_another_paper(lib, tmp_path):
    """An entry whose key is retired (or is one in another case) is renamed, as when
    another paper has it: ``\\cite{K}`` still prints the work it left for (biblatex's
    ``ids``), never the entry's paper."""
    a, b = _pair(lib, tmp_path)
    key_a, key_b = lib.paper(a)["citekey"], lib.paper(b)["citekey"]
    lib.bibtex.export_to(tmp_path / "ab.bib", [a, b])
    lib.duplicates.merge(a, [b])
    other = tmp_path / "other.bib"
    other.write_text(f"@misc{{{key_b}, title = {{Some other paper}}, year = 2020}}\n"
                     f"@misc{{{key_b.upper()}, title = {{Yet another}}, year = 2020}}\n",
                     encoding="utf-8")
    report = lib.import_paths([other])[0]
    assert _holder(lib, key_b) is None and _holder(lib, key_b.upper()) is None
    why = "it left PaperDesk for another paper, which documents cite it for"
    assert [(r["old"], r["why"]) for r in report.renamed] == [(key_b, why),
                                                             (key_b.upper(), why)]
    assert f"line 1: key {key_b!r} is retired; the paper gets " in "\n".join(report.warnings)
    assert f"\tids = {{{key_b}}}" in lib.bibtex.export([a], style="biblatex")
    assert lib.paper(a)["citekey"] == key_a


def test_an_export_freezes_the_keys_it_wrote_where_they_are_when_it_ends(seed_lib, tmp_path):
    """An edit lands between the export's read and its end (here an undo of the merge
    that gave a the other paper's key): the key written is frozen on the paper that
    holds it now, and the key a has now, which never left, is not."""
    a, b = _pair(seed_lib, tmp_path)
    key_a, key_b = seed_lib.paper(a)["citekey"], seed_lib.paper(b)["citekey"]
    merged = seed_lib.duplicates.merge(a, [b], {"citekey": b})
    _header, entries = seed_lib.bibtex.stream([a], freeze=True)
    assert next(entries).startswith(f"@misc{{{key_b},")  # a, under b's key
    seed_lib.undo(merged.undo)  # b has its key back, a has its own
    list(entries)  # the export ends: its keys are frozen
    assert seed_lib.paper(a)["citekey"] == key_a and not key_status(seed_lib, a)["frozen"]
    assert key_status(seed_lib, b) == {"id": b, "citekey": key_b, "frozen": True,
                                       "state": "frozen"}


def test_an_upgraded_library_retires_keys_from_then_on(tmp_path):
    """A library of 0017 gets the table and its triggers; nothing was retired before."""
    path = tmp_path / "lib.sqlite"
    with Library.open(path) as lib:
        assert lib.db.execute("SELECT count(*) FROM retired_keys").fetchone() == (0,)
        triggers = {r[0] for r in lib.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%retire%'")}
    assert triggers == {"papers_retire_deleted_key", "papers_retire_changed_key"}


def test_a_paper_brought_back_again_takes_the_key_it_last_left_under(lib, tmp_path):
    """b's key goes to a in a merge and is exported as a's; undone, b comes back under a
    fresh key, which is exported too; the merge redone and undone again, b comes back
    under that key (its documents cite it by it), frozen, not under yet another one."""
    a, b = _pair(lib, tmp_path)
    key_b = lib.paper(b)["citekey"]
    merged = lib.duplicates.merge(a, [b], {"citekey": b})
    lib.bibtex.export_to(tmp_path / "a.bib", [a])  # key_b now names a in a document
    lib.undo(merged.undo)
    fresh = lib.paper(b)["citekey"]
    assert fresh != key_b and lib.paper(a)["citekey"] == key_b
    lib.bibtex.export_to(tmp_path / "b.bib", [b])  # and fresh names b
    lib.redo(merged.undo)
    undone = lib.undo(merged.undo)
    assert key_status(lib, b) == {"id": b, "citekey": fresh, "frozen": True, "state": "frozen"}
    assert undone.result["rekeyed"] == {b: fresh}


def _as_before_0018(lib) -> Path:
    """The library as PaperDesk before 0018 left it: no ``retired_keys`` nor its
    triggers (merges made until then retired nothing); closed, for an upgrade to open."""
    path = lib.path
    lib.close()
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("DROP TRIGGER papers_retire_deleted_key")
        conn.execute("DROP TRIGGER papers_retire_changed_key")
        conn.execute("DROP TABLE retired_keys")
        conn.execute("DROP TABLE retired_owners")
        conn.execute("DELETE FROM _sqlite_migrations WHERE name IN ('0018_retired_keys', "
                     "'0020_retired_keys_of_merges', '0021_retired_key_owners')")
    conn.close()
    return path


def test_an_upgrade_retires_the_keys_merges_took_before_0018(lib, tmp_path):
    """Merges made before 0018 left their images in ``merges.undo``: the upgrade retires
    the merged-away paper's exported key and the kept paper's one a merge replaced; an
    undone merge's and a never-exported key are not retired."""
    a, b = _pair(lib, tmp_path)
    c = _new_paper(lib, tmp_path, "c.txt", "Serverless Edge Computing for Robots", 2024)
    d = _new_paper(lib, tmp_path, "d.txt", "Serverless Edge Computing for Robots, Again", 2024)
    e = _new_paper(lib, tmp_path, "e.txt", "Serverless Databases at Scale", 2024)
    f = _new_paper(lib, tmp_path, "f.txt", "Serverless Databases at Scale, Again", 2024)
    keys = {p: lib.paper(p)["citekey"] for p in (a, b, c, d, e, f)}
    lib.bibtex.export_to(tmp_path / "all.bib", [a, b, c, d, e])  # f's key never left
    lib.duplicates.merge(a, [b])                                 # b's key goes with b
    lib.duplicates.merge(c, [d], {"citekey": d})                 # c's own key replaced
    lib.duplicates.unmerge(lib.duplicates.merge(e, [f]).result["merge_id"])  # undone
    lib.duplicates.merge(e, [f])                                 # f's key never left
    want = lib.db.execute("SELECT key, paper_id FROM retired_keys ORDER BY key").fetchall()
    # What 0018's triggers retired (d's key with d, though c holds it now):
    assert want == sorted([(keys[b], b), (keys[c], c), (keys[d], d)])

    path = _as_before_0018(lib)
    conn = sqlite3.connect(path)  # merges whose kept images are damaged: passed over
    with conn:
        for undo in ('{"images": [', '{"images": "x"}', '{"images": ["x", 3, null]}',
                     '{"images": [{"table": "papers", "before": "x"}]}',
                     '{"images": [{"table": "papers", "before": {"id": 5}}]}',
                     '{"images": [{"table": "papers", "before": [{"id": "p9", '
                     '"citekey": "zz", "citekey_frozen": 1}, "s", 7]}]}'):
            conn.execute("INSERT INTO merges (kept_id, merged_ids, created, undo) "
                         "VALUES (?, '[999]', '2025-01-01', ?)", [a, undo])
    conn.close()
    with Library.open(path) as upgraded:
        got = upgraded.db.execute("SELECT key, paper_id FROM retired_keys ORDER BY key")
        assert got.fetchall() == want
        owners = upgraded.db.execute("SELECT key, paper_id FROM retired_owners ORDER BY key")
        assert owners.fetchall() == want
        g = _new_paper(upgraded, tmp_path, "g.txt", "Serverless Cold Starts Revisited", 2024)
        assert upgraded.paper(g)["citekey"] not in (keys[b], keys[c])
