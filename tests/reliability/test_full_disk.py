"""A library on a full disk is still read, exported and backed up to another disk (SQLite
cannot grow the -shm a read needs there: every command used to fail with "cannot write the
library (disk I/O error)"); a write says the disk is full, in one line, and changes
nothing. A library on a read-only disk is backed up to a writable folder. The disks are
real: a tmpfs in a mount namespace of the test's own (``test_disks``)."""

from __future__ import annotations

import sqlite3

from tests.reliability.test_disks import in_namespace, paperdesk, pytestmark  # noqa: F401


def papers(path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM papers").fetchone()[0]
    finally:
        conn.close()


def test_a_library_on_a_full_disk_is_read_exported_and_backed_up_elsewhere(curated, tmp_path):
    mnt, other = tmp_path / "mnt", tmp_path / "other"
    mnt.mkdir()
    other.mkdir()
    lib = mnt / "library.sqlite"
    size = curated.stat().st_size
    steps = in_namespace(f"""
        mount -t tmpfs -o size={size // 1024 + 256}k tmpfs {mnt}
        cp {curated} {lib}
        dd if=/dev/zero of={mnt}/filler bs=4096
        md5sum {lib}
        {paperdesk("--library", lib, "stats")}
        {paperdesk("--library", lib, "list", "tag:Systems")}
        {paperdesk("--library", lib, "show", 1)}
        {paperdesk("--library", lib, "export", "-o", other / "x.bib")}
        {paperdesk("--library", lib, "backup", other / "x.sqlite")}
        {paperdesk("--library", lib, "rate", 1, 3)}
        md5sum {lib}
    """)
    (mount, copy, _fill, before, stats, listed, shown, exported, backed, rated, after) = steps
    assert mount[0] == copy[0] == before[0] == 0, (mount, copy, before)
    for code, out, err in (stats, listed, shown, backed):
        assert code == 0 and out and "Traceback" not in err, err
    assert exported[0] == 0 and "exported" in exported[2], exported
    assert len(listed[1].strip().splitlines()) == 6
    assert (other / "x.bib").read_text().count("@") > 6
    assert papers(other / "x.sqlite") == papers(curated)
    code, _, err = rated
    assert code == 1 and err.count("\n") == 1 and "the disk is full" in err, err
    assert "nothing was changed" in err
    assert before[1].split()[0] == after[1].split()[0]


def test_a_library_on_a_read_only_disk_is_backed_up_to_a_writable_folder(curated, tmp_path):
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    lib = mnt / "library.sqlite"
    dest = tmp_path / "copy.sqlite"
    (mount, copy, remount, backed) = in_namespace(f"""
        mount -t tmpfs -o size=50m tmpfs {mnt}
        cp {curated} {lib}
        mount -o remount,ro {mnt}
        {paperdesk("--library", lib, "backup", dest)}
    """)
    assert mount[0] == copy[0] == remount[0] == 0, (mount, copy, remount)
    code, _, err = backed
    assert code == 0 and "Traceback" not in err, err
    assert papers(dest) == papers(curated)
