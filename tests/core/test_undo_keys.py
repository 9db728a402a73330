"""Undo and redo never break a key that left PaperDesk, nor meet rows under reused ids.

A frozen key was exported: ``\\cite{K}`` in someone's document must keep printing the
same paper. A merge that keeps a frozen paper's key keeps it frozen; an undo of a merge
whose kept key was exported since leaves that key with the kept paper and brings the
other paper back under a fresh key; the redo of an import's undo moves a paper exported
in between to the trash, as the import's undo does. And ids are never given twice, so
an undo of the emptied trash after an import puts every paper back."""

from __future__ import annotations

import sqlite3
from collections import Counter

import pytest

from paperdesk.core.bibtex.citekey import KeyAllocator, key_status
from paperdesk.core.library import Library
from tests.core.test_duplicates import add_copy, by_title
from tests.digest_files import write_digest


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
        digest = write_digest(path.parent, "one.txt", 11, 9, {90001: 3})  # one new paper
        c = lib.import_paths([digest])[0].created_ids
        assert c and min(c) > b
        lib.duplicates.unmerge(merge_id)
        assert lib.paper(b)["id"] == b


def test_a_key_kept_from_a_frozen_paper_stays_frozen_on_the_kept_paper(seed_lib, tmp_path):
    a, b, _key_a, key_b = _pair(seed_lib)
    seed_lib.bibtex.export_to(tmp_path / "b.bib", [b])  # b's key leaves PaperDesk
    seed_lib.duplicates.merge(a, [b], {"citekey": b})
    assert key_status(seed_lib, a) == {"id": a, "citekey": key_b, "frozen": True,
                                       "state": "frozen"}
    seed_lib.curation.set_year(a, 1999)  # a provisional key would follow the year
    assert seed_lib.paper(a)["citekey"] == key_b and _holders(seed_lib, key_b) == [a]


def test_undoing_a_merge_leaves_an_exported_key_with_the_kept_paper(seed_lib, tmp_path):
    a, b, key_a, key_b = _pair(seed_lib)
    merged = seed_lib.duplicates.merge(a, [b], {"citekey": b})
    seed_lib.bibtex.export_to(tmp_path / "a.bib", [a])  # b's key leaves as a's
    undone = seed_lib.undo(merged.undo)
    assert key_status(seed_lib, a) == {"id": a, "citekey": key_b, "frozen": True,
                                       "state": "frozen"}
    fresh = seed_lib.paper(b)["citekey"]
    assert fresh not in (key_a, key_b) and not _frozen(seed_lib, b)
    assert undone.result["rekeyed"] == {b: fresh} and undone.result["trashed"] == []
    assert _holders(seed_lib, key_b) == [a] and _holders(seed_lib, fresh) == [b]
    # the redo merges again; undoing it once more changes no exported key either
    seed_lib.redo(merged.undo)
    assert seed_lib.papers([b]) == [] and seed_lib.paper(a)["citekey"] == key_b
    seed_lib.undo(merged.undo)
    assert seed_lib.paper(a)["citekey"] == key_b and _frozen(seed_lib, a)


def test_unmerging_leaves_an_exported_key_with_the_kept_paper(seed_lib, tmp_path):
    a, b, key_a, key_b = _pair(seed_lib)
    merge_id = seed_lib.duplicates.merge(a, [b], {"citekey": b}).result["merge_id"]
    seed_lib.bibtex.export_to(tmp_path / "a.bib", [a])
    changes = seed_lib.duplicates.unmerge(merge_id)
    fresh = seed_lib.paper(b)["citekey"]
    assert changes.result["rekeyed"] == {b: fresh} and fresh not in (key_a, key_b)
    assert seed_lib.paper(a)["citekey"] == key_b and _frozen(seed_lib, a)


def test_unmerging_gives_back_both_keys_when_none_left(seed_lib):
    """Nothing exported: the kept paper goes back to its key, the other gets its own."""
    a, b, key_a, key_b = _pair(seed_lib)
    merge_id = seed_lib.duplicates.merge(a, [b], {"citekey": b}).result["merge_id"]
    changes = seed_lib.duplicates.unmerge(merge_id)
    assert changes.result["rekeyed"] == {}
    assert (seed_lib.paper(a)["citekey"], seed_lib.paper(b)["citekey"]) == (key_a, key_b)


def test_undoing_an_unmerge_lets_the_kept_paper_take_the_key_back(seed_lib):
    a, b, _key_a, key_b = _pair(seed_lib)
    merge_id = seed_lib.duplicates.merge(a, [b], {"citekey": b}).result["merge_id"]
    unmerged = seed_lib.duplicates.unmerge(merge_id)
    seed_lib.undo(unmerged.undo)  # b goes again, its key back to a
    assert seed_lib.papers([b]) == [] and _holders(seed_lib, key_b) == [a]


def test_the_redo_of_an_import_undo_trashes_a_paper_exported_between(lib, seeds, tmp_path):
    lib.import_paths(seeds[:4])
    record = lib.imports.record(lib.import_paths(seeds[4:]))
    undone = lib.imports.undo(record)
    assert undone.undo is not None and undone.result["deleted"] > 1
    lib.undo(undone.undo)  # the import is back
    pid, other = sorted(record.created)[:2]
    key = lib.paper(pid)["citekey"]
    lib.bibtex.export_to(tmp_path / "one.bib", [pid])
    redone = lib.redo(undone.undo)  # and undone again
    paper = lib.paper(pid)
    assert paper["deleted"] and paper["citekey"] == key and _frozen(lib, pid)
    assert redone.result["trashed"] == [pid]
    assert lib.papers([other]) == []  # not exported: deleted, as the import's undo did
    lib.undo(undone.undo)  # the import back once more: out of the trash
    assert not lib.paper(pid)["deleted"] and lib.paper(pid)["citekey"] == key


def test_an_undo_survives_json_with_its_trash_rule(lib, seeds):
    lib.import_paths(seeds[:4])
    undone = lib.imports.undo(lib.imports.record(lib.import_paths(seeds[4:])))
    again = type(undone.undo).from_json(undone.undo.to_json())
    assert again.trash_frozen and again == undone.undo


def _rows(lib, table, column, ids) -> list[tuple]:
    """The rows, but for ``papers.citekey_frozen``, no longer read or kept (migration 0016)."""
    names = [r[1] for r in lib.db.execute(f"PRAGMA table_info({table})")
             if r[1] != "citekey_frozen"]
    marks = ",".join("?" * len(ids))
    return lib.db.execute(f"SELECT {', '.join(names)} FROM {table} WHERE {column} IN ({marks}) "
                          "ORDER BY 1", ids).fetchall()


def test_undoing_the_emptied_trash_after_an_import_brings_every_paper_back(lib, seeds):
    lib.import_paths(seeds[:4])
    top = lib.db.execute("SELECT max(id) FROM papers").fetchone()[0]
    gone = [top - 2, top - 1, top]  # the newest papers: SQLite would give their ids again
    lib.curation.add_note(top, "a note on the newest paper")
    lib.curation.add_tags(gone, ["old"])
    lib.bibtex.freeze([top])
    key = lib.paper(top)["citekey"]
    tables = (("papers", "id"), ("sightings", "paper_id"), ("notes", "paper_id"))
    lib.trash.delete(gone)
    before = {t: _rows(lib, t, c, gone) for t, c in tables}
    emptied = lib.trash.empty()
    new = lib.import_paths(seeds[4:])[0].created_ids
    assert new and min(new) > top  # no paper takes an id a deleted one had
    assert _holders(lib, key) == []  # the key left PaperDesk: no new paper is given it
    note = lib.curation.add_note(new[0], "a note on a new paper").result["note_id"]
    new_rows = {t: _rows(lib, t, c, new) for t, c in tables}
    taken = dict(lib.db.execute("SELECT id, uid FROM papers"))
    undone = lib.undo(emptied.undo)
    # Exactly as they were, but that a paper whose stable id the new import gave to the
    # same paper made again takes the next of its ids: two papers never share one.
    after = {t: _rows(lib, t, c, gone) for t, c in tables}
    uid = [d[1] for d in lib.db.execute("PRAGMA table_info(papers)")
           if d[1] != "citekey_frozen"].index("uid")
    was = {r[0]: r[uid] for r in before["papers"]}
    now_uids = {r[0]: r[uid] for r in after["papers"]}
    moved = {pid for pid in gone if now_uids[pid] != was[pid]}
    assert moved and moved == {pid for pid in gone if was[pid] in set(taken.values())}
    assert len(set(taken.values()) | set(now_uids.values())) == len(taken) + len(gone)
    drop = lambda rows: [r[:uid] + r[uid + 1:] for r in rows]  # noqa: E731
    assert drop(after.pop("papers")) == drop(before["papers"])
    assert after == {t: v for t, v in before.items() if t != "papers"}
    assert [p["deleted"] for p in lib.papers(gone)] == [True] * 3
    assert all(p["tags"] == ["old"] for p in lib.papers(gone))
    # the key that left PaperDesk means the paper it left as again, frozen
    assert _holders(lib, key) == [top] and _frozen(lib, top)
    assert undone.result["rekeyed"] == {}
    now_rows = {t: _rows(lib, t, c, new) for t, c in tables}
    citekey = [d[1] for d in lib.db.execute("PRAGMA table_info(papers)")].index("citekey")
    assert [r[:citekey] + r[citekey + 1:] for r in now_rows.pop("papers")] == \
        [r[:citekey] + r[citekey + 1:] for r in new_rows.pop("papers")]
    assert now_rows == new_rows and [n["id"] for n in lib.paper(new[0])["notes"]] == [note]


def _case_twins(lib) -> list[str]:
    """Keys that two papers hold, differing only in case (BibTeX reads them as one)."""
    return [r[0] for r in lib.db.execute("SELECT lower(citekey) FROM papers WHERE citekey "
                                          "IS NOT NULL GROUP BY 1 HAVING count(*) > 1")]


def _emptied_then_taken_in_other_case(lib, tmp_path, *, exported: bool):
    """Paper ``pid`` trashed (its key exported first if ``exported``), the trash emptied,
    then another paper given ``pid``'s key in upper case; the emptying, its key, the other."""
    pid, other = [r[0] for r in lib.db.execute("SELECT id FROM papers ORDER BY id LIMIT 2")]
    key = lib.paper(pid)["citekey"]
    assert key != key.upper()
    if exported:
        lib.bibtex.export_to(tmp_path / "one.bib", [pid])
    lib.trash.delete([pid])
    emptied = lib.trash.empty()
    lib.bibtex.set_citekey(other, key.upper())  # allowed: no paper holds the key now
    return emptied, pid, key, other


def test_a_paper_back_from_the_trash_yields_its_key_taken_in_other_case(seed_lib, tmp_path):
    emptied, pid, key, other = _emptied_then_taken_in_other_case(seed_lib, tmp_path,
                                                                 exported=False)
    undone = seed_lib.undo(emptied.undo)
    fresh = seed_lib.paper(pid)["citekey"]
    assert undone.result["rekeyed"] == {pid: fresh} and fresh.lower() != key.lower()
    assert seed_lib.paper(other)["citekey"] == key.upper() and _case_twins(seed_lib) == []


def test_a_frozen_key_back_from_the_trash_takes_its_key_from_another_case(seed_lib, tmp_path):
    emptied, pid, key, other = _emptied_then_taken_in_other_case(seed_lib, tmp_path,
                                                                 exported=True)
    undone = seed_lib.undo(emptied.undo)
    fresh = seed_lib.paper(other)["citekey"]
    assert undone.result["rekeyed"] == {other: fresh} and fresh.lower() != key.lower()
    assert seed_lib.paper(pid)["citekey"] == key and _frozen(seed_lib, pid)
    assert _case_twins(seed_lib) == []


def test_an_undo_that_rekeys_many_papers_makes_their_keys_in_linear_work(lib, tmp_path,
                                                                         monkeypatch):
    """One key allocator for the restore, every key set aside once: an undo giving 12,000
    papers a fresh key took 77 s when each key built an allocator and set aside every
    key again."""
    n = 40
    papers = {i: 5 + i for i in range(1, n + 1)}
    lib.import_paths([write_digest(tmp_path, "first.txt", 3, 2, papers)])
    ids = [r[0] for r in lib.db.execute("SELECT id FROM papers")]
    lib.bibtex.export_to(tmp_path / "all.bib", ids)  # every key leaves PaperDesk
    keys = [lib.paper(i)["citekey"] for i in ids]
    lib.trash.delete(ids)
    emptied = lib.trash.empty()
    other = tmp_path / "other.bib"  # another file's papers, given the same keys by hand
    other.write_text("".join(f"@misc{{other{n}, title = {{Other work {n}}}, year = 2020}}\n"
                             for n in range(n)), encoding="utf-8")
    created = lib.import_paths([other])[0].created_ids
    assert len(created) == n
    for pid, key in zip(created, keys, strict=True):
        lib.bibtex.set_citekey(pid, key)
    work: Counter[str] = Counter()
    init, expect = KeyAllocator.__init__, KeyAllocator.expect

    def counted_init(self, *args, **kwargs):
        work["allocators"] += 1
        init(self, *args, **kwargs)

    def counted_expect(self, keys):
        keys = list(keys)
        work["keys set aside"] += len(keys)
        expect(self, keys)

    monkeypatch.setattr(KeyAllocator, "__init__", counted_init)
    monkeypatch.setattr(KeyAllocator, "expect", counted_expect)
    undone = lib.undo(emptied.undo)
    assert len(undone.result["rekeyed"]) == len(ids) == n  # every key is taken back
    assert work["allocators"] == 1 and work["keys set aside"] <= 3 * n
    assert _case_twins(lib) == []


def test_undoing_a_deleted_tag_after_a_new_one_keeps_both(seed_lib):
    """The newest tag deleted, a new tag made (SQLite gave it the freed id), the deletion
    undone: the new tag kept its name and papers, the old one came back to its own."""
    c = seed_lib.curation
    c.add_tags([1, 2], ["alpha"])
    c.add_tags([3, 4], ["xray"])
    deleted = c.delete_tag("xray")
    c.add_tags([10, 11], ["yankee"])
    seed_lib.undo(deleted.undo)
    assert [seed_lib.paper(p)["tags"] for p in (3, 4, 10, 11)] == \
        [["xray"], ["xray"], ["yankee"], ["yankee"]]


def _carried_then(lib, tmp_path, between) -> tuple[int, int, str, str]:
    """b's key left PaperDesk; merging b into a (never exported) carries it onto a;
    ``between(a)`` runs; the merge is undone. (a, b, a's key, b's key)."""
    a, b, key_a, key_b = _pair(lib)
    lib.bibtex.export_to(tmp_path / "b.bib", [b])
    merged = lib.duplicates.merge(a, [b])
    assert lib.paper(a)["citekey"] == key_b and _frozen(lib, a)
    between(a)
    lib.undo(merged.undo)
    return a, b, key_a, key_b


def test_a_merge_undone_at_once_gives_a_carried_key_back(seed_lib, tmp_path):
    """Nothing left PaperDesk as a's since the merge: b's key goes back to b, frozen,
    and a has its own again, as it was (not frozen)."""
    a, b, key_a, key_b = _carried_then(seed_lib, tmp_path, lambda _a: None)
    assert key_status(seed_lib, b) == {"id": b, "citekey": key_b, "frozen": True,
                                       "state": "frozen"}
    assert seed_lib.paper(a)["citekey"] == key_a and not _frozen(seed_lib, a)


def test_an_unmerge_at_once_gives_a_carried_key_back(seed_lib, tmp_path):
    a, b, key_a, key_b = _pair(seed_lib)
    seed_lib.bibtex.export_to(tmp_path / "b.bib", [b])
    merge_id = seed_lib.duplicates.merge(a, [b]).result["merge_id"]
    seed_lib.duplicates.unmerge(merge_id)
    assert (seed_lib.paper(a)["citekey"], seed_lib.paper(b)["citekey"]) == (key_a, key_b)
    assert _frozen(seed_lib, b) and not _frozen(seed_lib, a)


@pytest.mark.parametrize("way", ["export", "copy", "sync"])
def test_a_carried_key_that_left_as_the_kept_papers_stays_with_it(seed_lib, tmp_path, way):
    """Exported, copied or synced as a's after the merge: the key names a in a document
    now, and stays with a when the merge is undone."""
    ways = {"export": lambda a: seed_lib.bibtex.export_to(tmp_path / "a.bib", [a]),
            "copy": lambda a: seed_lib.bibtex.freeze([a]),
            "sync": lambda a: seed_lib.syncs.write(seed_lib.syncs.add(tmp_path / "s.bib"))}
    a, b, _key_a, key_b = _carried_then(seed_lib, tmp_path, ways[way])
    assert seed_lib.paper(a)["citekey"] == key_b and _frozen(seed_lib, a)
    assert seed_lib.paper(b)["citekey"] != key_b
