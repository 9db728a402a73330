"""Highlights as rows of the library: made, commented, undone, redone, merged with their
attachment, kept by the trash, searched with has:highlights, exported with the notes."""

from __future__ import annotations

import shutil

import pytest

from paperdesk.core.api import PaperDeskError
from tests.reader_pdf import PAGE3_PHRASE, attach, reader_pdf

QUAD = [[72.0, 700.0, 300.0, 700.0, 72.0, 688.0, 300.0, 688.0]]


@pytest.fixture(scope="module")
def pdf(tmp_path_factory):
    return reader_pdf(tmp_path_factory.mktemp("pdf"), pages=8, tex=False)


@pytest.fixture
def marked(seed_lib, pdf, tmp_path):
    pid = seed_lib.search("").ids[0]
    aid = attach(seed_lib, pid, pdf)
    return seed_lib, pid, aid


def test_a_highlight_is_a_row_its_undo_and_redo_take_away_and_bring_back(marked):
    lib, pid, aid = marked
    changes = lib.highlights.add(aid, 2, QUAD, PAGE3_PHRASE, "green", "the key claim")
    hid = changes.result.highlight_id
    found = lib.highlights.of_attachment(aid)
    assert [(h["id"], h["page"], h["text"], h["colour"], h["comment"]) for h in found] == [
        (hid, 2, PAGE3_PHRASE, "green", "the key claim")]
    assert found[0]["quads"] == QUAD
    assert "highlights" in changes.kinds and pid in changes.paper_ids
    lib.undo(changes.undo)
    assert lib.highlights.of_attachment(aid) == []
    lib.redo(changes.undo)
    assert [h["id"] for h in lib.highlights.of_attachment(aid)] == [hid]
    assert lib.highlights.of_paper(pid)[0]["name"] == "reader-8-bytes.pdf"


def test_comment_and_colour_are_undoable_edits(marked):
    lib, _pid, aid = marked
    hid = lib.highlights.add(aid, 0, QUAD, "This is page 1").result.highlight_id
    commented = lib.highlights.set_comment(hid, "first words")
    recoloured = lib.highlights.set_colour(hid, "pink")
    assert lib.highlights.get(hid)["comment"] == "first words"
    assert lib.highlights.get(hid)["colour"] == "pink"
    lib.undo(recoloured.undo)
    lib.undo(commented.undo)
    assert (lib.highlights.get(hid)["comment"], lib.highlights.get(hid)["colour"]) == (
        "", "yellow")
    deleted = lib.highlights.delete(hid)
    assert lib.highlights.of_attachment(aid) == []
    lib.undo(deleted.undo)
    assert lib.highlights.get(hid)["text"] == "This is page 1"


def test_bad_highlights_are_refused_and_change_nothing(marked):
    lib, _pid, aid = marked
    for args in [(aid, -1, QUAD, "x"), (aid, 0, [], "x"), (aid, 0, [[1, 2, 3]], "x"),
                 (aid, 0, [[float("nan")] * 8], "x"), (aid, 0, QUAD, "x", "mauve"),
                 (aid + 999, 0, QUAD, "x")]:
        with pytest.raises(PaperDeskError):
            lib.highlights.add(*args)
    assert lib.highlights.of_attachment(aid) == []


def test_has_highlights_finds_the_papers_with_one(marked):
    lib, pid, aid = marked
    assert lib.search("has:highlights").ids == []
    lib.highlights.add(aid, 2, QUAD, PAGE3_PHRASE)
    assert lib.search("has:highlights").ids == [pid]
    assert pid not in lib.search("-has:highlights").ids


def test_highlights_go_out_with_export_notes(marked):
    lib, pid, aid = marked
    lib.highlights.add(aid, 2, QUAD, PAGE3_PHRASE, comment="see fig. 2")
    with_notes = lib.bibtex.export([pid], notes=True)
    assert f'Highlight, page 3: "{PAGE3_PHRASE}" (see fig. 2)' in with_notes
    assert "Highlight, page 3" not in lib.bibtex.export([pid])


def test_the_trash_keeps_highlights_and_a_restore_shows_them(marked):
    lib, pid, aid = marked
    hid = lib.highlights.add(aid, 2, QUAD, PAGE3_PHRASE).result.highlight_id
    lib.trash.delete([pid])
    assert [h["id"] for h in lib.highlights.of_paper(pid)] == [hid]
    lib.trash.restore([pid])
    assert [h["id"] for h in lib.highlights.of_paper(pid)] == [hid]
    assert lib.search("has:highlights").ids == [pid]


def test_a_merge_moves_highlights_with_their_attachment_to_the_kept_paper(marked, pdf,
                                                                        tmp_path):
    lib, pid, aid = marked
    other = lib.search("").ids[1]
    copy = tmp_path / "same.pdf"
    shutil.copyfile(pdf, copy)  # the same file: kept once
    twin = attach(lib, other, copy)
    distinct = tmp_path / "other.pdf"
    distinct.write_bytes(pdf.read_bytes() + b"\n% another file\n")
    third = attach(lib, other, distinct)
    on_twin = lib.highlights.add(twin, 2, QUAD, PAGE3_PHRASE).result.highlight_id
    on_third = lib.highlights.add(third, 6, QUAD, "zebra").result.highlight_id
    merged = lib.duplicates.merge(pid, [other])
    kept = {h["id"]: h for h in lib.highlights.of_paper(pid)}
    assert set(kept) == {on_twin, on_third}
    assert kept[on_twin]["attachment_id"] == aid  # the identical file's row went
    assert lib.search("has:highlights").ids == [pid]
    lib.undo(merged.undo)
    assert [h["id"] for h in lib.highlights.of_paper(other)] == [on_twin, on_third]
    assert lib.highlights.of_paper(pid) == []
