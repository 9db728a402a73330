"""Attachments' records and highlights travel; the PDF files themselves only with
``share --with-files``, written once into the folder under their SHA-256 and fetched
whole, checked, into the other library's files folder."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from paperdesk.core.library import Library
from tests.command_line import paperdesk
from tests.pdf_files import pdf_bytes
from tests.share.sharing import exchange, pair, uid_ids


@pytest.fixture
def two(tmp_path):
    with pair(tmp_path, papers=True) as libraries:
        yield libraries


def _attach(lib: Library, tmp_path, pid: int, text: str = "one") -> tuple[int, bytes]:
    data = pdf_bytes([["page one", text]])
    source = tmp_path / f"{text}.pdf"
    source.write_bytes(data)
    return lib.pdf.attach(pid, source).result.attachment_id, data


def listed(lib: Library) -> list[dict]:
    rows = json.loads(paperdesk("--library", lib.path, "pdf", "list", "--json",
                                check_rc=0).stdout)
    ids = {i: u for u, i in uid_ids(lib).items()}
    return sorted(({"paper": ids[r["paper_id"]], "name": r["name"], "state": r["state"],
                    "sha256": r["sha256"]} for r in rows), key=lambda r: r["paper"])


def test_an_attachment_and_its_highlights_travel_without_the_file(two, tmp_path):
    a, b, folder = two
    a.share.start(folder)
    b.share.start(folder)
    uid = sorted(uid_ids(a))[0]
    att, data = _attach(a, tmp_path, uid_ids(a)[uid])
    hl = a.highlights.add(att, 0, [[10, 10, 90, 10, 10, 20, 90, 20]], "page one",
                          comment="key claim").result.highlight_id
    exchange(a, b)
    assert [(r["paper"], r["sha256"]) for r in listed(b)] == [
        (uid, hashlib.sha256(data).hexdigest())]
    assert listed(b)[0]["state"] != "ok"  # the file stays: the share has no --with-files
    assert not (folder / "files").exists()
    (b_att,) = b.pdf.of_paper(uid_ids(b)[uid])
    (got,) = b.highlights.of_attachment(b_att["id"])
    mine = a.highlights.of_attachment(att)[0]
    local = ("id", "attachment_id", "paper_id")
    assert {k: v for k, v in got.items() if k not in local} == {
        k: v for k, v in mine.items() if k not in local}
    assert got["comment"] == "key claim" and mine["id"] == hl
    b.highlights.set_comment(got["id"], "the key claim")
    b.share.now()
    a.share.now()
    assert a.highlights.get(hl)["comment"] == "the key claim"
    b.highlights.delete(got["id"])
    exchange(b, a)
    assert a.highlights.of_attachment(att) == []
    a.pdf.remove(att)
    exchange(a, b)
    assert listed(b) == []


def test_with_files_the_pdf_is_written_once_and_fetched_whole(two, tmp_path):
    a, b, folder = two
    a.share.start(folder, with_files=True)
    uid = sorted(uid_ids(a))[0]
    _, data = _attach(a, tmp_path, uid_ids(a)[uid])
    sha = hashlib.sha256(data).hexdigest()
    a.share.now()
    assert [p.name for p in (folder / "files").iterdir()] == [f"{sha}.pdf"]
    out = paperdesk("--library", b.path, "share", str(folder), "--with-files", check_rc=0)
    assert "fetched 1 PDF" in out.stderr
    assert [r["state"] for r in listed(b)] == ["ok"]
    (row,) = b.pdf.of_paper(uid_ids(b)[uid])
    assert b.pdf.file(row["id"]).read_bytes() == data
    assert json.loads(paperdesk("--library", b.path, "share", "--status", "--json",
                                check_rc=0).stdout)["with_files"] is True
    a.share.now()
    assert [p.name for p in (folder / "files").iterdir()] == [f"{sha}.pdf"]  # once


def test_a_file_still_arriving_is_left_and_fetched_when_whole(two, tmp_path):
    a, b, folder = two
    a.share.start(folder, with_files=True)
    uid = sorted(uid_ids(a))[0]
    _, data = _attach(a, tmp_path, uid_ids(a)[uid])
    a.share.now()
    (there,) = (folder / "files").iterdir()
    there.write_bytes(data[: len(data) // 2])  # the sync tool is still copying it
    b.share.start(folder, with_files=True)
    assert [r["state"] for r in listed(b)] != ["ok"]
    told = b.share.status().waiting
    assert len(told) == 1 and there.name in told[0] and "fetched again" in told[0]
    assert not list(b.path.parent.glob("b.files/**/*.pdf"))  # nothing half written
    there.write_bytes(data)
    b.share.now()
    assert [r["state"] for r in listed(b)] == ["ok"] and b.share.status().waiting == []


def test_a_linked_pdf_keeps_each_computers_own_path(two, tmp_path):
    a, b, folder = two
    a.share.start(folder)
    b.share.start(folder)
    uid = sorted(uid_ids(a))[0]
    data = pdf_bytes([["linked"]])
    mine, theirs = tmp_path / "mine.pdf", tmp_path / "elsewhere" / "theirs.pdf"
    mine.write_bytes(data)
    theirs.parent.mkdir()
    theirs.write_bytes(data)
    att = a.pdf.attach(uid_ids(a)[uid], mine, link=True).result.attachment_id
    exchange(a, b)
    (row,) = b.pdf.of_paper(uid_ids(b)[uid])
    assert row["kind"] == "linked" and [r["state"] for r in listed(b)] == ["missing"]
    b.pdf.locate(row["id"], theirs)
    exchange(b, a)
    assert a.pdf.file(att) == mine and b.pdf.file(row["id"]) == theirs
    assert [r["state"] for r in listed(a)] == ["ok"] == [r["state"] for r in listed(b)]


def test_with_files_a_linked_pdf_travels_and_lands_beside_the_other_library(two, tmp_path):
    """A linked file goes into the folder like a stored copy; on a computer that never
    had it, it lands in the files folder and the attachment (still linked, its path this
    computer's own) points there, kept through a sweep; a path located by hand there is
    never replaced, and the first computer's path never changes."""
    a, b, folder = two
    a.share.start(folder, with_files=True)
    uid, other = sorted(uid_ids(a))[:2]
    data, changed = pdf_bytes([["linked", "one"]]), pdf_bytes([["linked", "two"]])
    mine, edited = tmp_path / "mine.pdf", tmp_path / "edited.pdf"
    mine.write_bytes(data)
    edited.write_bytes(changed)
    att = a.pdf.attach(uid_ids(a)[uid], mine, link=True).result.attachment_id
    late = a.pdf.attach(uid_ids(a)[other], edited, link=True).result.attachment_id
    edited.write_bytes(changed + b"% annotated elsewhere\n")  # no longer the file attached
    a.share.now()
    sha = hashlib.sha256(data).hexdigest()
    assert [p.name for p in (folder / "files").iterdir()] == [f"{sha}.pdf"]
    b.path.chmod(0o600)  # a private library: what it fetches is private too
    out = paperdesk("--library", b.path, "share", str(folder), "--with-files", check_rc=0)
    assert "fetched 1 PDF" in out.stderr
    (row,) = b.pdf.of_paper(uid_ids(b)[uid])
    assert row["kind"] == "linked"
    here = b.pdf.file(row["id"])
    assert here.read_bytes() == data
    if os.name == "posix":
        assert here.stat().st_mode & 0o077 == 0 and here.parent.stat().st_mode & 0o077 == 0
    assert here.is_relative_to(b.path.parent / "b.files" / uid)
    states = {r["paper"]: r["state"] for r in listed(b)}
    assert states == {uid: "ok", other: "missing"}
    b.pdf.sweep()
    assert here.read_bytes() == data  # the trash's sweep keeps it
    exchange(b, a)
    assert a.pdf.file(att) == mine  # the other computer's own path stays its own
    assert b.pdf.file(row["id"]) == here
    (b_late,) = b.pdf.of_paper(uid_ids(b)[other])
    elsewhere = tmp_path / "b-own.pdf"
    elsewhere.write_bytes(changed)
    b.pdf.locate(b_late["id"], elsewhere)
    edited.write_bytes(changed)  # now whole again on the first computer: it is sent
    a.share.now()
    b.share.now()
    assert b.pdf.file(b_late["id"]) == elsewhere  # located here: never replaced
    assert a.pdf.file(late) == edited
    assert len(list((folder / "files").iterdir())) == 2


def test_a_highlight_whose_pdf_moves_back_to_its_paper_is_kept_everywhere(two, tmp_path):
    """A merge moves a PDF and its highlight to the kept paper; the merge undone moves
    them back. The other computer moves its attachment back too, and the highlight
    with it: taken with the attachment it left, it would leave every computer."""
    a, b, folder = two
    a.share.start(folder)
    b.share.start(folder)
    gone, keep = sorted(uid_ids(a))[:2]
    att, _ = _attach(a, tmp_path, uid_ids(a)[gone])
    a.highlights.add(att, 0, [[10, 10, 90, 10, 10, 20, 90, 20]], "page one", comment="kept")
    exchange(a, b)
    merged = a.duplicates.merge(uid_ids(a)[keep], [uid_ids(a)[gone]])
    exchange(a, b)
    assert [r["paper"] for r in listed(b)] == [keep]
    a.undo(merged.undo)
    exchange(a, b, a)
    for lib in (a, b):
        (row,) = lib.pdf.of_paper(uid_ids(lib)[gone])
        assert [h["comment"] for h in lib.highlights.of_attachment(row["id"])] == ["kept"]


def test_a_highlight_made_on_a_paper_merged_elsewhere_moves_with_its_pdf(two, tmp_path):
    """A merges Q, which holds a PDF, into P; B, before it hears of the merge,
    highlights Q's PDF and changes its reading place. Both go with the PDF to P,
    everywhere, as a tag given to Q goes to P."""
    a, b, folder = two
    a.share.start(folder)
    b.share.start(folder)
    q, p = sorted(uid_ids(a))[:2]
    att, _ = _attach(a, tmp_path, uid_ids(a)[q])
    a.highlights.add(att, 0, [[10, 10, 90, 10, 10, 20, 90, 20]], "page one", comment="a's")
    exchange(a, b)
    a.duplicates.merge(uid_ids(a)[p], [uid_ids(a)[q]])
    (b_att,) = b.pdf.of_paper(uid_ids(b)[q])
    b.highlights.add(b_att["id"], 0, [[10, 30, 90, 30, 10, 40, 90, 40]], "page one",
                     comment="b's")
    exchange(a, b)
    for lib in (a, b):
        assert [r["paper"] for r in listed(lib)] == [p]
        (row,) = lib.pdf.of_paper(uid_ids(lib)[p])
        assert sorted(h["comment"] for h in lib.highlights.of_attachment(row["id"])) == [
            "a's", "b's"], lib.path
