"""A sync's state is what is on disk: conflicts only when the bytes differ from the
ones PaperDesk last wrote (whoever wrote them), a person's version kept beside the
file when it is replaced (even one saved at the last moment), the file's lock shared
by every writer, and "changed" shown when the file is no longer what was written."""

from __future__ import annotations

import errno
import os

import filelock
import pytest

from paperdesk.core.db import files
from paperdesk.core.sync import sync_disk
from paperdesk.core.sync.syncs import CHANGED, CONFLICT, FAILED, OK


def test_a_stale_copy_of_the_sync_is_no_conflict(seed_lib, tmp_path):
    """Another program wrote the file and recorded its hash: this one, holding the sync
    as it was before, still sees the file as PaperDesk's."""
    sync = seed_lib.syncs.add(tmp_path / "refs.bib")
    seed_lib.syncs.write(sync)
    stale = seed_lib.syncs.get(sync.path)
    seed_lib.curation.add_tags([1], ["x"])
    assert seed_lib.syncs.write(seed_lib.syncs.get(sync.path)).written
    seed_lib.curation.add_tags([2], ["y"])
    out = seed_lib.syncs.write(stale)
    assert (out.state, out.written) == (OK, True), out.message
    assert (tmp_path / "refs.bib").read_text(encoding="utf-8") == seed_lib.bibtex.export()


def test_an_overwrite_keeps_the_persons_version_beside_it(seed_lib, tmp_path):
    path = tmp_path / "refs.bib"
    seed_lib.syncs.write(seed_lib.syncs.add(path))
    mine = b"% my own edit\n" + path.read_bytes()
    path.write_bytes(mine)
    seed_lib.curation.add_tags([1], ["x"])
    stopped = seed_lib.syncs.write(seed_lib.syncs.get(path))
    assert stopped.state == CONFLICT and path.read_bytes() == mine
    out = seed_lib.syncs.write(seed_lib.syncs.get(path), overwrite=True)
    assert out.state == OK and out.kept and "kept as" in out.text()
    [kept] = tmp_path.glob("refs.conflict-*.bib")
    assert str(kept) == out.kept and kept.read_bytes() == mine
    assert path.read_text(encoding="utf-8") == seed_lib.bibtex.export()


def refuse_hard_links(monkeypatch) -> None:
    """A filesystem without hard links (some network and FAT drives)."""
    def link(src, dst, **kwargs):
        raise PermissionError(errno.EPERM, "Operation not permitted", str(src))
    monkeypatch.setattr(os, "link", link)


@pytest.mark.parametrize("links", [True, False], ids=["hard links", "no hard links"])
def test_a_version_saved_at_the_last_moment_is_kept(seed_lib, tmp_path, monkeypatch, links):
    """A person saves between PaperDesk's check of the file and its rename: the file
    replaced is held (a hard link, else a copy) and checked again, and their version
    is kept as a conflict file."""
    if not links:
        refuse_hard_links(monkeypatch)
    path = tmp_path / "refs.bib"
    seed_lib.syncs.write(seed_lib.syncs.add(path))
    theirs = b"% saved at the last moment\n"
    real_fsync = files.fsync_path

    def save_then_fsync(where):
        if not list(tmp_path.glob("person.tmp")) and where != tmp_path:
            (tmp_path / "person.tmp").write_bytes(theirs)
            (tmp_path / "person.tmp").replace(path)
        real_fsync(where)

    monkeypatch.setattr(files, "fsync_path", save_then_fsync)  # the moment before the rename
    seed_lib.curation.add_tags([1], ["x"])
    out = seed_lib.syncs.write(seed_lib.syncs.get(path))
    assert out.state == OK and out.written and out.kept, out
    [kept] = tmp_path.glob("refs.conflict-*.bib")
    assert kept.read_bytes() == theirs
    assert path.read_text(encoding="utf-8") == seed_lib.bibtex.export()


def test_a_write_into_the_old_file_after_the_rename_is_kept(seed_lib, tmp_path, monkeypatch):
    """A program still holding the old file open writes into it just after PaperDesk
    renamed the new one over it: the old file, held by a hard link, is checked after
    the rename, so that write is kept as a conflict file, not lost with the file."""
    path = tmp_path / "refs.bib"
    seed_lib.syncs.write(seed_lib.syncs.add(path))
    late = b"% written through a descriptor opened before\n"
    real_replace = os.replace
    with open(path, "ab") as editor:
        def replace_then_write(src, dst, **kwargs):
            real_replace(src, dst, **kwargs)
            if dst == path:
                editor.write(late)
                editor.flush()

        monkeypatch.setattr(os, "replace", replace_then_write)
        seed_lib.curation.add_tags([1], ["x"])
        out = seed_lib.syncs.write(seed_lib.syncs.get(path))
    assert out.state == OK and out.written and out.kept, out
    [kept] = tmp_path.glob("refs.conflict-*.bib")
    assert kept.read_bytes().endswith(late)
    assert path.read_text(encoding="utf-8") == seed_lib.bibtex.export()


def test_a_version_renamed_in_while_the_old_one_is_held_is_kept(seed_lib, tmp_path,
                                                               monkeypatch):
    """A person's save lands between PaperDesk's hard link to the file and its rename:
    the link no longer names the file there, so the newer file is held instead."""
    path = tmp_path / "refs.bib"
    seed_lib.syncs.write(seed_lib.syncs.add(path))
    theirs = b"% saved while the old file was being held\n"
    real_link = os.link

    def link_then_save(src, dst, **kwargs):
        real_link(src, dst, **kwargs)
        if src == path and not (tmp_path / "person.tmp").exists():
            (tmp_path / "person.tmp").write_bytes(theirs)
            os.link(tmp_path / "person.tmp", tmp_path / "person.saved")
            (tmp_path / "person.saved").replace(path)

    monkeypatch.setattr(os, "link", link_then_save)
    seed_lib.curation.add_tags([1], ["x"])
    out = seed_lib.syncs.write(seed_lib.syncs.get(path))
    assert out.state == OK and out.written and out.kept, out
    [kept] = tmp_path.glob("refs.conflict-*.bib")
    assert kept.read_bytes() == theirs
    assert path.read_text(encoding="utf-8") == seed_lib.bibtex.export()


def test_the_state_shown_is_the_one_on_disk(seed_lib, tmp_path):
    path = tmp_path / "refs.bib"
    seed_lib.syncs.write(seed_lib.syncs.add(path))
    assert seed_lib.syncs.on_disk(seed_lib.syncs.get(path)).state_text() == OK
    path.write_bytes(path.read_bytes() + b"% mine\n")
    shown = seed_lib.syncs.on_disk(seed_lib.syncs.get(path))
    assert shown.state == CHANGED and "someone else" in shown.state_text()
    path.unlink()
    assert "missing" in seed_lib.syncs.on_disk(seed_lib.syncs.get(path)).state_text()


def test_a_writer_waits_for_the_files_lock_and_gives_up_saying_why(seed_lib, tmp_path,
                                                                  monkeypatch):
    path = tmp_path / "refs.bib"
    seed_lib.syncs.write(seed_lib.syncs.add(path))
    before = path.read_bytes()
    monkeypatch.setattr(sync_disk, "LOCK_WAIT", 0.3)
    seed_lib.curation.add_tags([1], ["x"])
    other = filelock.FileLock(str(tmp_path / ".refs.bib.lock"), thread_local=False)
    with other:  # another program checking and writing the file
        out = seed_lib.syncs.write(seed_lib.syncs.get(path))
    assert out.state == FAILED and "another program" in out.message
    assert path.read_bytes() == before
    assert seed_lib.syncs.stopped()[0].state == FAILED
    assert seed_lib.syncs.write(seed_lib.syncs.get(path)).state == OK


@pytest.mark.parametrize("size", [sync_disk.MAX_READ + 1])
def test_a_file_larger_than_the_cap_is_not_read(seed_lib, tmp_path, size):
    path = tmp_path / "refs.bib"
    seed_lib.syncs.write(seed_lib.syncs.add(path))
    with open(path, "r+b") as handle:  # sparse: no disk used
        handle.truncate(size)
    found = sync_disk.read(path)
    assert found.data is None and found.size == size
    out = seed_lib.syncs.write(seed_lib.syncs.get(path))
    assert out.state == CONFLICT and path.stat().st_size == size


def test_a_file_shrunk_while_read_gives_the_bytes_it_still_has(tmp_path):
    """Another program truncated the file after its size was taken: the read ends
    where the file now ends, and says so by its length."""
    path = tmp_path / "refs.bib"
    path.write_bytes(b"@misc{a,}\n")
    fd = os.open(path, os.O_RDONLY)
    try:
        data = sync_disk.read_at_most(fd, 3 * sync_disk._CHUNK)
    finally:
        os.close(fd)
    assert data == b"@misc{a,}\n"
