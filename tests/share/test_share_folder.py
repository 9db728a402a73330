"""Two or three real libraries sharing one real folder: they converge, and what the
folder may hold (torn files, conflict copies, newer formats) never breaks them."""

from __future__ import annotations

import os
import shutil

import pytest

from paperdesk.core.db import papers_table
from paperdesk.core.db.changes import SHARED
from paperdesk.core.library import Library
from paperdesk.core.model.errors import CitekeyError, LibraryError, ShareError
from paperdesk.core.share import files
from tests.share.sharing import digest, exchange, library, pair, uid_ids, view


@pytest.fixture
def two(tmp_path):
    with pair(tmp_path) as libraries:
        yield libraries


def test_the_same_digest_on_both_is_one_paper_and_edits_meet(two, tmp_path):
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d1")])
    b.import_paths([digest(tmp_path / "d2")])  # the same entries, imported on its own
    a.share.start(folder)
    b.share.start(folder)
    ids_a, ids_b = uid_ids(a), uid_ids(b)
    assert ids_a.keys() == ids_b.keys() and len(ids_a) == 8
    uids = sorted(ids_a)
    a.curation.set_rating([ids_a[uids[0]]], 5)
    b.curation.add_tags([ids_b[uids[0]]], "ml")
    b.curation.set_status([ids_b[uids[1]], ids_b[uids[2]]], "to-read")
    a.curation.add_note(ids_a[uids[3]], "read the appendix")
    exchange(a, b)
    assert view(a) == view(b)
    got = a.paper(ids_a[uids[0]])
    assert got["rating"] == 5 and got["tags"] == ["ml"]
    assert view(a)["queue"] == [uids[1], uids[2]]
    assert [n["text"] for n in b.curation.notes(ids_b[uids[3]])] == ["read the appendix"]


def test_an_empty_library_joins_and_what_arrives_is_a_shared_undoable_write(two, tmp_path):
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    heard = []
    b.add_listener(heard.append)
    changes = b.share.start(folder)
    assert changes.how == SHARED and changes.undo is not None
    assert b.stats()["papers"] == 8
    assert any(c.how == SHARED for c in heard)
    b.undo(changes.undo)
    assert b.stats()["papers"] == 0


def test_concurrent_edits_of_one_field_end_alike_and_tags_merge_as_a_set(two, tmp_path):
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    b.share.start(folder)
    uid = sorted(uid_ids(a))[0]
    a.curation.set_rating([uid_ids(a)[uid]], 2)
    b.curation.set_rating([uid_ids(b)[uid]], 4)
    a.curation.add_tags([uid_ids(a)[uid]], "x")
    b.curation.add_tags([uid_ids(b)[uid]], "y")
    exchange(a, b)
    assert view(a) == view(b)
    assert a.paper(uid_ids(a)[uid])["rating"] in (2, 4)
    assert a.paper(uid_ids(a)[uid])["tags"] == ["x", "y"]


def test_the_queue_order_travels_and_moves_merge(two, tmp_path):
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    ids = sorted(uid_ids(a).values())
    a.curation.set_status(ids[:4], "to-read")
    a.share.start(folder)
    b.share.start(folder)
    queue = view(a)["queue"]
    b.queue.to_top([uid_ids(b)[queue[3]]])
    exchange(b, a)
    assert view(a)["queue"] == [queue[3], *queue[:3]] == view(b)["queue"]


def test_an_edit_racing_the_trash_lands_on_the_trashed_paper(two, tmp_path):
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    b.share.start(folder)
    uid = sorted(uid_ids(a))[0]
    a.trash.delete([uid_ids(a)[uid]])
    b.curation.set_rating([uid_ids(b)[uid]], 3)
    a.share.now()
    result = b.share.now().result
    a.share.now()
    paper = a.paper(uid_ids(a)[uid])
    assert paper["deleted"] and paper["rating"] == 3
    assert view(a) == view(b)
    assert result.in_trash == 0 and a.share.status().in_trash == 1


def test_a_torn_file_is_skipped_with_one_line_and_read_when_whole(two, tmp_path):
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    (name,) = [n for n in os.listdir(folder) if n.endswith(files.UPDATE_SUFFIX)]
    whole = (folder / name).read_bytes()
    (folder / name).write_bytes(whole[: len(whole) // 2])  # still arriving
    result = b.share.start(folder).result
    assert b.stats()["papers"] == 0
    assert len(result.skipped) == 1 and name in result.skipped[0]
    assert "read again when whole" in result.skipped[0]
    (folder / name).write_bytes(whole)
    b.share.now()
    assert b.stats()["papers"] == 8


def test_garbage_and_newer_formats_are_refused_with_one_line(two, tmp_path):
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    (folder / "junk.pdshare").write_bytes(b"PDSHARE {\"format\": 1, \"size\": 3, "
                                          b"\"sha256\": \"x\"}\nabc")
    (folder / "future.pdshare").write_bytes(files.pack(b"\x00" * 10).replace(
        b'"format": 1', b'"format": 9'))
    result = b.share.start(folder).result
    assert b.stats()["papers"] == 8
    lines = sorted(result.skipped)
    assert len(lines) == 2
    assert "newer PaperDesk" in lines[0] and "future.pdshare" in lines[0]
    assert "junk.pdshare" in lines[1]
    assert len(b.share.status().waiting) == 2


def test_a_syncthing_conflict_copy_is_read_as_one_more_update(two, tmp_path):
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    ids = uid_ids(a)
    a.curation.set_rating([ids[sorted(ids)[0]]], 4)
    a.share.now()
    newest = sorted(n for n in os.listdir(folder) if n.endswith(files.UPDATE_SUFFIX))[-1]
    stem = newest[: -len(files.UPDATE_SUFFIX)]
    conflict = f"{stem}.sync-conflict-20260101-101010-ABCDEFG{files.UPDATE_SUFFIX}"
    os.replace(folder / newest, folder / conflict)  # the tool kept it under another name
    b.share.start(folder)
    assert b.paper(uid_ids(b)[sorted(ids)[0]])["rating"] == 4


def test_a_library_inside_the_shared_folder_is_refused(tmp_path):
    folder = tmp_path / "Dropbox"
    lib = library(folder / "lib" / "library.sqlite")
    with pytest.raises(ShareError, match="inside the shared folder"):
        lib.share.start(folder)
    assert lib.share.where is None
    lib.close()


def test_a_key_that_left_for_two_papers_is_kept_by_both_alike_and_told(two, tmp_path):
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    b.share.start(folder)
    one, other = sorted(uid_ids(a))[:2]
    _set_key(a, uid_ids(a)[one], "smith2025")  # written into a document on each computer
    _set_key(b, uid_ids(b)[other], "smith2025")
    exchange(a, b)
    keys_a = {u: a.paper(i)["citekey"] for u, i in uid_ids(a).items()}
    keys_b = {u: b.paper(i)["citekey"] for u, i in uid_ids(b).items()}
    assert keys_a == keys_b
    assert keys_a[one] == keys_a[other] == "smith2025"  # a document may cite either
    assert a.paper(uid_ids(a)[other])["citekey_frozen"]
    told = a.share.status().conflicted
    assert len(told) == 1 and "smith2025" in told[0] and other in told[0]
    # Both marked; no other paper may take that key, and the others' keys stay unique.
    for lib in (a, b):
        assert papers_table.key_shared(lib.db) == {uid_ids(lib)[one], uid_ids(lib)[other]}
        third, fourth = [i for u, i in sorted(uid_ids(lib).items())
                         if u not in (one, other)][:2]
        with pytest.raises(CitekeyError, match="already used"):
            lib.bibtex.set_citekey(third, "smith2025")
        _set_key(lib, third, "jones2024")
        with pytest.raises(LibraryError, match=r"UNIQUE constraint failed: papers\.citekey"):
            _set_key(lib, fourth, "jones2024")
    # A third computer joining holds both alike.
    c = library(tmp_path / "c" / "library.sqlite")
    c.share.start(folder)
    assert {u: c.paper(i)["citekey"] for u, i in uid_ids(c).items()} == keys_a
    c.close()


def _set_key(lib: Library, pid: int, key: str) -> None:
    from paperdesk.core.db import papers_table

    with lib.edit("Set key", ["papers"], [pid]):
        papers_table.set_citekey(lib.db, pid, key, "{}", "2026-01-01T00:00:00+00:00")
        papers_table.freeze_key(lib.db, pid)


def test_stop_keeps_the_library_and_the_folder(two, tmp_path):
    a, _, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    listed = sorted(os.listdir(folder))
    assert a.share.stop()
    assert a.share.where is None and a.stats()["papers"] == 8
    assert sorted(os.listdir(folder)) == listed
    with pytest.raises(ShareError, match="not shared"):
        a.share.now()


def test_a_new_computer_joins_from_a_snapshot(two, tmp_path, monkeypatch):
    from paperdesk.core.share import folder as share_folder

    monkeypatch.setattr(share_folder, "SNAPSHOT_EVERY", 3)
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    ids = uid_ids(a)
    for n, uid in enumerate(sorted(ids)[:4]):
        a.curation.set_rating([ids[uid]], 1 + n)
        a.share.now()
    snaps = [n for n in os.listdir(folder) if n.endswith(files.SNAPSHOT_SUFFIX)]
    assert snaps
    read = []
    real = files.unpack

    def counted(raw):
        if b'"kind": "update"' in raw[:raw.find(b"\n")]:
            read.append(1)
        return real(raw)

    monkeypatch.setattr(files, "unpack", counted)
    updates = [n for n in os.listdir(folder) if n.endswith(files.UPDATE_SUFFIX)]
    assert len(updates) < 5  # a alone: the files its snapshot holds are gone
    b.share.start(folder)
    assert view(a) == view(b)
    assert len(read) <= len(updates)  # the snapshot's files were not read one by one


def test_three_computers_a_month_apart_converge(tmp_path):
    folder = tmp_path / "Sync"
    folder.mkdir()
    libs = [library(tmp_path / f"l{n}" / "lib.sqlite") for n in range(3)]
    libs[0].import_paths([digest(tmp_path / "d", papers=range(1, 6))])
    libs[1].import_paths([digest(tmp_path / "e", "other.txt", papers=range(4, 10))])
    for lib in libs:
        lib.share.start(folder)
    for n, lib in enumerate(libs):
        ids = sorted(uid_ids(lib).values())
        lib.curation.add_tags(ids[: n + 1], f"t{n}")
    shutil.copytree(folder, tmp_path / "away")  # the third computer goes away a month
    exchange(*libs)
    assert view(libs[0]) == view(libs[1]) == view(libs[2])
    assert len(view(libs[0])["papers"]) == 9
    for lib in libs:
        lib.close()


def test_undoing_the_exchange_that_shared_a_key_and_redoing_it(two, tmp_path):
    """The exchange that gave a second paper the key is undone and redone. The key
    froze here with it (it left PaperDesk on the other computer) and a frozen key never
    changes, by an undo either: both papers keep it, marked, as they go."""
    a, b, one, other = _one_key_on_each(two, tmp_path)
    b.share.now()
    heard = []
    a.add_listener(heard.append)
    a.share.now()
    (shared,) = [c for c in heard if c.how == SHARED]
    keys = {u: a.paper(i)["citekey"] for u, i in uid_ids(a).items()}
    assert keys[one] == keys[other] == "smith2025"
    marked = {uid_ids(a)[one], uid_ids(a)[other]}
    a.undo(shared.undo)
    assert {u: a.paper(i)["citekey"] for u, i in uid_ids(a).items()} == keys
    assert papers_table.key_shared(a.db) == marked
    a.redo(shared.undo)
    assert {u: a.paper(i)["citekey"] for u, i in uid_ids(a).items()} == keys
    assert papers_table.key_shared(a.db) == marked


def _one_key_on_each(two, tmp_path) -> tuple[Library, Library, str, str]:
    """Two sharing computers, each giving one of two papers ``smith2025`` (it leaves
    there), not exchanged since."""
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    b.share.start(folder)
    one, other = sorted(uid_ids(a))[:2]
    _set_key(a, uid_ids(a)[one], "smith2025")
    _set_key(b, uid_ids(b)[other], "smith2025")
    return a, b, one, other


@pytest.fixture
def keyed(two, tmp_path):
    """Two computers whose two papers both keep ``smith2025`` (it left for each)."""
    a, b, one, other = _one_key_on_each(two, tmp_path)
    exchange(a, b)
    for lib in (a, b):
        assert papers_table.key_shared(lib.db) == {uid_ids(lib)[one], uid_ids(lib)[other]}
    return a, b, one, other


def _keys(lib: Library) -> dict[str, str]:
    return {u: lib.paper(i)["citekey"] for u, i in uid_ids(lib).items()}


def test_a_holder_back_from_the_emptied_trash_keeps_the_shared_key(keyed):
    a, b, one, other = keyed
    a.trash.delete([uid_ids(a)[other]])
    a.undo(a.trash.empty().undo)
    assert _keys(a)[other] == _keys(a)[one] == "smith2025"
    assert papers_table.key_shared(a.db) == {uid_ids(a)[one], uid_ids(a)[other]}
    exchange(a, b)
    assert _keys(b)[other] == _keys(b)[one] == "smith2025"


def test_a_holder_merged_into_a_paper_emptied_elsewhere_leaves_sharing_unstuck(keyed):
    """One computer merges a holder into a third paper (which takes the frozen key)
    while the other empties that third paper from the trash: the exchange that removes
    it lets the remaining holder's mark go only once it is gone."""
    a, b, one, other = keyed
    third = sorted(u for u in uid_ids(a) if u not in (one, other))[0]
    b.trash.delete([uid_ids(b)[third]])
    b.trash.empty()
    b.share.now()
    a.duplicates.merge(uid_ids(a)[third], [uid_ids(a)[one]])
    kept = uid_ids(a)[third]
    assert a.paper(kept)["citekey"] == "smith2025"
    assert kept in papers_table.key_shared(a.db)  # it keeps a key another keeps too
    exchange(a, b)
    exchange(a, b)
    assert _keys(a) == _keys(b)
    assert _keys(a)[other] == "smith2025"


def test_export_files_never_gives_one_holder_the_others_pdfs(keyed, tmp_path):
    from tests.made_pdfs import pdf_bytes

    a, _, one, other = keyed
    pdf = tmp_path / "only-other.pdf"
    pdf.write_bytes(pdf_bytes("other"))
    a.pdf.attach(uid_ids(a)[other], pdf)
    out = tmp_path / "one.bib"
    a.bibtex.export_to(out, [uid_ids(a)[one]], with_files=True)
    assert "only-other" not in out.read_text() and "file =" not in out.read_text()
