"""Highlights are searched like notes (migration 0031): a plain word finds a paper
through the text or the comment of a highlight on its PDFs, and the index follows every
change of them: added, commented, removed, undone, redone, merged, trashed, restored,
the attachment removed, the trash emptied, an old library upgraded."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from paperdesk.core.db import schema_0014, schema_0031
from paperdesk.core.library import Library
from tests.reader_pdf import PAGE3_PHRASE, attach, reader_pdf

QUAD = [[72.0, 700.0, 300.0, 700.0, 72.0, 688.0, 300.0, 688.0]]


@pytest.fixture(scope="module")
def pdf(tmp_path_factory):
    return reader_pdf(tmp_path_factory.mktemp("pdf"), pages=8, tex=False)


@pytest.fixture
def marked(seed_lib, pdf):
    pid = seed_lib.search("").ids[0]
    return seed_lib, pid, attach(seed_lib, pid, pdf)


def found(lib, query: str) -> list[int]:
    return sorted(lib.search(query).ids)


def rows_match_the_tables(lib) -> None:
    """The annotation rows are what the triggers of 0031 write from the tables now."""
    db = lib.db
    kept = db.execute("SELECT rowid, notes, tags FROM annotations_fts ORDER BY rowid").fetchall()
    ids = "SELECT paper_id FROM notes UNION SELECT paper_id FROM paper_tags UNION " \
          "SELECT a.paper_id FROM attachments a JOIN highlights h ON h.attachment_id = a.id"
    with db.conn:
        db.execute("SAVEPOINT fresh")
        db.execute("DELETE FROM annotations_fts")
        for statement in schema_0031.ANNOTATION_ROWS.format(ids=ids).split(";"):
            db.execute(statement)
        fresh = db.execute("SELECT rowid, notes, tags FROM annotations_fts "
                           "ORDER BY rowid").fetchall()
        db.execute("ROLLBACK TO fresh")
        db.execute("RELEASE fresh")
    assert kept == fresh


def test_a_highlights_text_and_comment_are_found_by_words_and_its_undo_redo(marked):
    lib, pid, aid = marked
    assert found(lib, "quuxly") == [] and found(lib, "Mnemosyne") == []
    added = lib.highlights.add(aid, 2, QUAD, "the quuxly phrase", "green", "Mnemosyne said")
    hid = added.result.highlight_id
    assert found(lib, "quuxly") == [pid] == found(lib, "mnemosyne")
    assert found(lib, "note:quuxly") == [pid] and found(lib, "title:quuxly") == []
    assert found(lib, "quuxly has:highlights") == [pid]
    assert pid not in lib.search("-quuxly").ids
    rows_match_the_tables(lib)
    lib.undo(added.undo)
    assert found(lib, "quuxly") == [] == found(lib, "mnemosyne")
    rows_match_the_tables(lib)
    lib.redo(added.undo)
    assert found(lib, "quuxly") == [pid]
    assert lib.highlights.get(hid)["comment"] == "Mnemosyne said"
    rows_match_the_tables(lib)


def test_an_edited_comment_is_found_by_its_new_words_only(marked):
    lib, pid, aid = marked
    hid = lib.highlights.add(aid, 0, QUAD, "This is page 1", comment="zorblax").result \
        .highlight_id
    edited = lib.highlights.set_comment(hid, "florbing")
    assert found(lib, "florbing") == [pid] and found(lib, "zorblax") == []
    recoloured = lib.highlights.set_colour(hid, "pink")
    assert found(lib, "florbing") == [pid]
    lib.undo(recoloured.undo)
    lib.undo(edited.undo)
    assert found(lib, "zorblax") == [pid] and found(lib, "florbing") == []
    lib.redo(edited.undo)
    assert found(lib, "florbing") == [pid] and found(lib, "zorblax") == []
    rows_match_the_tables(lib)


def test_a_removed_highlight_is_no_longer_found_until_undone(marked):
    lib, pid, aid = marked
    lib.curation.add_note(pid, "plain remark")
    hid = lib.highlights.add(aid, 2, QUAD, PAGE3_PHRASE, comment="wibbleton").result \
        .highlight_id
    removed = lib.highlights.delete(hid)
    assert found(lib, "wibbleton") == [] and found(lib, "remark") == [pid]
    lib.undo(removed.undo)
    assert found(lib, "wibbleton remark") == [pid]
    lib.redo(removed.undo)
    assert found(lib, "wibbleton") == []
    rows_match_the_tables(lib)


def test_notes_and_tags_written_beside_a_highlight_keep_it_found(marked):
    lib, pid, aid = marked
    lib.highlights.add(aid, 2, QUAD, PAGE3_PHRASE, comment="gallimaufry")
    tagged = lib.curation.add_tags([pid], ["Xyzzy"])
    note = lib.curation.add_note(pid, "another word")
    assert found(lib, "gallimaufry xyzzy another") == [pid]
    lib.undo(note.undo)
    lib.undo(tagged.undo)
    assert found(lib, "gallimaufry") == [pid]
    rows_match_the_tables(lib)


def test_many_papers_tagged_at_once_keep_their_highlights_found(marked, monkeypatch):
    """A tag put on many papers rewrites their rows in sets (``annotations.in_bulk``)."""
    from paperdesk.core.db import annotations

    monkeypatch.setattr(annotations, "BULK_PAPERS", 50)
    lib, pid, aid = marked
    lib.highlights.add(aid, 2, QUAD, PAGE3_PHRASE, comment="bandersnatch")
    ids = lib.search("").ids
    tagged = lib.curation.add_tags(ids, ["Everything"])
    assert len(ids) >= 50 and found(lib, "bandersnatch everything") == [pid]
    lib.undo(tagged.undo)
    assert found(lib, "bandersnatch") == [pid]
    rows_match_the_tables(lib)


def test_removing_the_attachment_takes_its_highlights_from_the_search(marked):
    lib, pid, aid = marked
    lib.highlights.add(aid, 2, QUAD, PAGE3_PHRASE, comment="snollygoster")
    removed = lib.pdf.remove(aid)
    assert found(lib, "snollygoster") == []
    lib.undo(removed.undo)
    assert found(lib, "snollygoster") == [pid]
    lib.redo(removed.undo)
    assert found(lib, "snollygoster") == []
    rows_match_the_tables(lib)


def test_trash_restore_and_emptying_the_trash(marked):
    lib, pid, aid = marked
    lib.highlights.add(aid, 2, QUAD, PAGE3_PHRASE, comment="cattywampus")
    lib.trash.delete([pid])
    assert found(lib, "cattywampus") == []  # the trash is not searched
    lib.trash.restore([pid])
    assert found(lib, "cattywampus") == [pid]
    lib.trash.delete([pid])
    emptied = lib.trash.empty()
    assert lib.db.execute("SELECT count(*) FROM annotations_fts WHERE rowid = ?",
                          [pid]).fetchone()[0] == 0
    lib.undo(emptied.undo)
    lib.trash.restore([pid])
    assert found(lib, "cattywampus") == [pid]
    rows_match_the_tables(lib)


def test_a_merge_carries_the_highlights_words_to_the_kept_paper(marked, pdf, tmp_path):
    lib, pid, _aid = marked
    other = lib.search("").ids[1]
    copy = tmp_path / "same.pdf"
    shutil.copyfile(pdf, copy)  # the same file: its row goes, its highlights move
    twin = attach(lib, other, copy)
    distinct = tmp_path / "other.pdf"
    distinct.write_bytes(pdf.read_bytes() + b"\n% another file\n")
    third = attach(lib, other, distinct)
    lib.highlights.add(twin, 2, QUAD, PAGE3_PHRASE, comment="kerfuffle")
    lib.highlights.add(third, 6, QUAD, "skedaddle")
    assert found(lib, "kerfuffle") == [other] == found(lib, "skedaddle")
    merged = lib.duplicates.merge(pid, [other])
    assert found(lib, "kerfuffle") == [pid] == found(lib, "skedaddle")
    rows_match_the_tables(lib)
    lib.undo(merged.undo)
    assert found(lib, "kerfuffle") == [other] == found(lib, "skedaddle")
    rows_match_the_tables(lib)
    lib.redo(merged.undo)
    assert found(lib, "kerfuffle skedaddle") == [pid]
    rows_match_the_tables(lib)


def test_an_upgraded_library_finds_the_highlights_it_had(marked):
    """A library of 0030 (its annotation rows without highlights, 0014's triggers)
    upgraded: the highlights made before are found, and those made after."""
    lib, pid, aid = marked
    lib.highlights.add(aid, 2, QUAD, PAGE3_PHRASE, comment="widdershins")
    path = lib.path
    lib.close()
    with sqlite3.connect(path) as raw:
        for name in schema_0031.TRIGGER_NAMES:
            raw.execute(f"DROP TRIGGER {name}")
        for trigger in schema_0014.TRIGGERS:
            if trigger.split()[2] in schema_0031.TRIGGER_NAMES:
                raw.execute(trigger)
        raw.execute("DELETE FROM annotations_fts")
        for statement in schema_0014.ANNOTATION_ROWS.format(
                ids="SELECT paper_id FROM notes UNION SELECT paper_id FROM paper_tags"
                ).split(";"):
            raw.execute(statement)
        raw.execute("DELETE FROM _sqlite_migrations WHERE name = '0031_highlights_searched'")
        assert raw.execute("SELECT count(*) FROM annotations_fts WHERE annotations_fts "
                           "MATCH 'widdershins'").fetchone()[0] == 0
    raw.close()
    with Library.open(path) as again:
        assert found(again, "widdershins") == [pid]
        hid = again.highlights.of_paper(pid)[0]["id"]
        again.highlights.set_comment(hid, "thereafter")
        assert found(again, "thereafter") == [pid] and found(again, "widdershins") == []
        rows_match_the_tables(again)
