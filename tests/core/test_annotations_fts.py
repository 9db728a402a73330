"""Tags and notes in a full-text table of their own (``annotations_fts``, migration 0014).

Tagging and its undo leave the rows holding titles and abstracts alone; words
still match a paper through its title, abstract, notes or tags read together.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from paperdesk.core.library import Library

DATA = Path(__file__).resolve().parent.parent / "data"


def text_rows(lib) -> list[tuple]:
    return lib.db.execute("SELECT rowid, title, abstract, notes, tags FROM papers_fts "
                          "ORDER BY rowid").fetchall()


def annotation_rows(lib) -> dict[int, tuple[str, str]]:
    return {r[0]: (r[1], r[2]) for r in lib.db.execute(
        "SELECT rowid, notes, tags FROM annotations_fts ORDER BY rowid")}


def test_an_upgraded_library_keeps_its_tags_and_notes_searchable(tmp_path):
    path = tmp_path / "old.sqlite"
    shutil.copy(DATA / "library-0001.sqlite", path)
    with Library.open(path) as lib:
        assert annotation_rows(lib) == {2: ("Read the *containment* section.", "Systems")}
        assert all(r[3] == r[4] == "" for r in text_rows(lib))
        assert lib.search("systems containment").ids == [2]
        assert 2 not in lib.search("-systems").ids
        assert lib.search("title:containment").ids == []


def test_tagging_and_its_undo_leave_the_text_rows_alone(seed_lib):
    ids = seed_lib.search("").ids
    before = text_rows(seed_lib)
    tagged = seed_lib.curation.add_tags(ids[:50], ["Zyxwv", "ml"])
    note = seed_lib.curation.add_note(ids[0], "Quixotic remark")
    assert text_rows(seed_lib) == before
    rows = annotation_rows(seed_lib)
    assert set(rows) == set(ids[:50])
    assert rows[ids[0]] == ("Quixotic remark", "Zyxwv ml")
    assert set(seed_lib.search("zyxwv").ids) == set(ids[:50])
    seed_lib.undo(note.undo)
    seed_lib.undo(tagged.undo)
    assert annotation_rows(seed_lib) == {}
    assert text_rows(seed_lib) == before
    assert seed_lib.search("zyxwv").ids == []


@pytest.fixture(params=[0, 10**6], ids=["in-sets", "one-by-one"])
def few(request, monkeypatch):
    """Annotated papers checked and ranked in sets, or looked up one by one (the
    compiled queries, which name FEW, compiled again)."""
    from paperdesk.core.search import query, query_fts

    monkeypatch.setattr(query_fts, "FEW", request.param)
    query._compiled.cache_clear()
    yield request.param
    query._compiled.cache_clear()


def test_a_word_query_reads_the_text_and_the_tags_together(seed_lib, few):
    ids = seed_lib.search("").ids
    title = seed_lib.paper(ids[3])["title"]
    word = max(title.split(), key=len).strip(",.:;()")
    with_word = set(seed_lib.search(word).ids)
    seed_lib.curation.add_tags([ids[3], ids[7]], ["Quokka"])
    seed_lib.curation.add_note(ids[8], f"about {word}")
    assert seed_lib.search(f"{word} quokka").ids == [ids[3]]
    assert set(seed_lib.search(f"{word} -quokka").ids) == (with_word | {ids[8]}) - {ids[3]}
    assert set(seed_lib.search(f"quokka OR {word}").ids) == with_word | {ids[3], ids[7], ids[8]}
    assert set(seed_lib.search(f"quokka NOT {word}").ids) == {ids[7]}
    assert seed_lib.search(f"title:{word} quokka").ids == [ids[3]]
    assert seed_lib.search("title:quokka").ids == []
    assert seed_lib.search("note:quokka").ids == []
    # With a field, and in the general form (a negated word beside an OR of fields).
    assert seed_lib.search(f"{word} quokka rating<=5").ids == [ids[3]]
    assert set(seed_lib.search(f"quokka (-{word} OR rating>=4)").ids) == {ids[7]}
    everything = set(ids)
    for query in (f"{word} quokka", f"quokka OR -{word}", f"-(quokka {word}) OR rating>=3"):
        inside, outside = set(seed_lib.search(query).ids), set(seed_lib.search(f"-({query})").ids)
        assert inside | outside == everything and not inside & outside, query


def test_a_tag_word_ranks_a_paper_with_the_others(seed_lib, few):
    ids = seed_lib.search("").ids
    ranked = seed_lib.search("language").ids
    last = ranked[-1]
    seed_lib.curation.add_tags([last], ["language"])
    again = seed_lib.search("language").ids
    assert set(again) == set(ranked)
    assert again.index(last) < len(again) - 1  # the tag raised it
    untagged = next(i for i in ids if i not in ranked)
    seed_lib.curation.add_tags([untagged], ["language"])
    assert untagged in seed_lib.search("language", sort="relevance", limit=500).ids
    assert seed_lib.search("language rating<=5", sort="relevance").ids[:3] == \
        seed_lib.search("language", sort="relevance").ids[:3]


def test_a_bulk_import_into_a_tagged_library_indexes_both_tables(lib, seeds, monkeypatch):
    from paperdesk.core.importing import file_report

    monkeypatch.setattr(file_report, "BULK_THRESHOLD", 1)  # every import in bulk
    assert lib.import_paths(seeds[:2])[0].status == "imported"
    ids = lib.search("").ids
    lib.curation.add_tags(ids[:10], ["Okapi"])
    lib.curation.add_note(ids[11], "Okapi again")
    assert {r.status for r in lib.import_paths(seeds[2:])} == {"imported"}
    assert set(lib.search("okapi").ids) == set(ids[:10]) | {ids[11]}
    assert set(annotation_rows(lib)) == set(ids[:10]) | {ids[11]}
    assert lib.db.execute("SELECT rowid, title, abstract FROM papers_fts ORDER BY rowid"
                          ).fetchall() == lib.db.execute(
        "SELECT id, title, abstract FROM papers ORDER BY id").fetchall()
    for table in ("papers_fts", "annotations_fts"):
        lib.db.execute(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")


def _curate(lib) -> list:
    """Tag, untag, merge and delete tags, add notes; undo and redo some of it."""
    ids = lib.search("").ids
    c = lib.curation
    done = [c.add_tags(ids[:120], ["Alpha", "Beta"]), c.add_tags(ids[100:], "Gamma"),
            c.remove_tags(ids[50:150], "alpha"), c.add_note(ids[3], "Delta note")]
    lib.undo(done[1].undo)
    lib.redo(done[1].undo)
    done.append(c.merge_tags("beta", "gamma"))
    lib.undo(done[-1].undo)
    lib.redo(done[-1].undo)
    done.append(c.rename_tag("gamma", "Epsilon"))
    done.append(c.delete_tag("alpha"))
    lib.undo(done[-1].undo)
    return [annotation_rows(lib), set(lib.search("epsilon alpha").ids),
            set(lib.search("delta OR -gamma").ids)]


def test_bulk_and_row_by_row_annotation_rows_agree(seed_lib, monkeypatch, few):
    from paperdesk.core.db import annotations

    path = seed_lib.path
    copy = path.with_name("copy.sqlite")
    seed_lib.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copy(path, copy)
    monkeypatch.setattr(annotations, "BULK_PAPERS", 10**9)
    by_row = _curate(seed_lib)
    monkeypatch.setattr(annotations, "BULK_PAPERS", 1)
    with Library.open(copy) as lib:
        in_bulk = _curate(lib)
        lib.db.execute("INSERT INTO annotations_fts(annotations_fts) VALUES ('integrity-check')")
        assert lib.db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"
                              ).fetchone()[0] == 23  # every trigger back (0018 added two, 0031 six)
    assert in_bulk == by_row
    assert len(by_row[0]) > 150 and by_row[1] and by_row[2]


def test_a_first_page_ranks_the_newest_matches_only_when_there_are_many(seed_lib, monkeypatch):
    from paperdesk.core.search import search

    ranked = seed_lib.search("language").ids
    assert len(ranked) > 30
    whole = seed_lib.search("language", limit=5, first_page=True)
    assert whole.ids == ranked[:5] and not whole.partial  # few matches: all ranked
    monkeypatch.setattr(search, "FIRST_PAGE_RANKS", 20)
    newest = set(sorted(ranked)[-20:])
    page = seed_lib.search("language", limit=5, first_page=True)
    assert page.partial and page.ids == [i for i in ranked if i in newest][:5]
    # Only the window's first page: the CLI's and the full list's order stay whole.
    assert seed_lib.search("language", limit=5).ids == ranked[:5]
    assert seed_lib.search("language", sort="year", limit=5, first_page=True).ids == \
        seed_lib.search("language", sort="year", limit=5).ids
