"""A library on a read-only filesystem opens for reading; restore on a read-only or a
full disk says so in one line and changes nothing. The filesystems are real: a tmpfs
mounted in a mount namespace of the test's own (skipped where that is not allowed)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys

import pytest

from paperdesk.core.db import backup
from tests.command_line import ROOT

pytestmark = pytest.mark.skipif(
    not shutil.which("unshare") or subprocess.run(
        ["unshare", "-m", "true"], capture_output=True).returncode != 0,
    reason="needs a mount namespace (unshare -m) to mount a small or read-only filesystem")


def paperdesk(*args) -> str:
    return " ".join([shlex.quote(sys.executable), "-m", "paperdesk",
                     *(shlex.quote(str(a)) for a in args)])


def in_namespace(script: str, timeout: float = 120) -> list[tuple[int, str, str]]:
    """Run ``script`` (lines of shell) in a mount namespace; each line's exit code, stdout
    and stderr, through files (the namespace's mounts vanish with it)."""
    steps = [line for line in script.strip().splitlines() if line.strip()]
    out = []
    body = "\n".join(f"{line} >/tmp/ns-out.$$.{i} 2>/tmp/ns-err.$$.{i}; "
                     f"echo \"@@{i} $?\"; echo '@@out'; cat /tmp/ns-out.$$.{i}; "
                     f"echo '@@err'; cat /tmp/ns-err.$$.{i}; echo '@@end'"
                     for i, line in enumerate(steps))
    env_src = f"export PYTHONPATH={shlex.quote(str(ROOT / 'src'))}\n"
    result = subprocess.run(["unshare", "-m", "sh", "-c", env_src + body], capture_output=True,
                            text=True, timeout=timeout)
    text = result.stdout
    for i in range(len(steps)):
        block = text.split(f"@@{i} ", 1)[1]
        code = int(block.split("\n", 1)[0])
        o = block.split("@@out\n", 1)[1].split("@@err\n", 1)[0]
        e = block.split("@@err\n", 1)[1].split("@@end", 1)[0]
        out.append((code, o, e))
    return out


def test_a_library_on_a_read_only_filesystem_opens_for_reading(curated, tmp_path):
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    lib = mnt / "library.sqlite"
    (mount, copy, remount, listed, shown, stats, rated) = in_namespace(f"""
        mount -t tmpfs -o size=50m tmpfs {mnt}
        cp {curated} {lib}
        mount -o remount,ro {mnt}
        {paperdesk("--library", lib, "list", "tag:Systems")}
        {paperdesk("--library", lib, "show", 1)}
        {paperdesk("--library", lib, "stats", "--json")}
        {paperdesk("--library", lib, "rate", 1, 3)}
    """)
    assert mount[0] == copy[0] == remount[0] == 0, (mount, copy, remount)
    for code, out, err in (listed, shown, stats):
        assert code == 0 and out and "Traceback" not in err, err
    assert len(listed[1].strip().splitlines()) == 6
    code, _, err = rated
    assert code == 1 and err.count("\n") == 1 and "read-only" in err, err


def test_a_backup_on_a_read_only_filesystem_opens_for_reading(curated, tmp_path):
    """A backup is not in WAL mode: on a read-only disk it is read as it is (it used to
    be refused: switching it to WAL needs a write)."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    backup = mnt / "backup.sqlite"
    (mount, made, remount, listed, stats, exported, rated) = in_namespace(f"""
        mount -t tmpfs -o size=50m tmpfs {mnt}
        {paperdesk("--library", curated, "backup", backup)}
        mount -o remount,ro {mnt}
        {paperdesk("--library", backup, "list", "tag:Systems")}
        {paperdesk("--library", backup, "stats", "--json")}
        {paperdesk("--library", backup, "export", "-o", tmp_path / "out.bib")}
        {paperdesk("--library", backup, "rate", 1, 3)}
    """)
    assert mount[0] == made[0] == remount[0] == 0, (mount, made, remount)
    for code, out, err in (listed, stats):
        assert code == 0 and out and "Traceback" not in err, err
    assert len(listed[1].strip().splitlines()) == 6
    assert exported[0] == 0 and (tmp_path / "out.bib").read_text().count("@") > 6
    code, _, err = rated
    assert code == 1 and err.count("\n") == 1 and "read-only" in err, err


@pytest.mark.parametrize("disk", ["read-only", "full"])
def test_restore_on_a_read_only_or_full_disk_says_so_in_one_line(curated, tmp_path, disk):
    good = backup.backup_library(curated, tmp_path / "good.sqlite")
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    lib = mnt / "library.sqlite"
    size = curated.stat().st_size
    # full: room for the library, not for the copy restore keeps of it first
    tmpfs = f"{size * 3 // 2 // 1024 + 64}k" if disk == "full" else "50m"
    damaged = disk == "read-only"
    steps = in_namespace(f"""
        mount -t tmpfs -o size={tmpfs} tmpfs {mnt}
        cp {curated} {lib}
        {"dd if=/dev/urandom of=" + str(lib) + " bs=4096 seek=3 count=4 conv=notrunc"
         if damaged else "true"}
        {"mount -o remount,ro " + str(mnt) if disk == "read-only" else "true"}
        md5sum {lib}
        {paperdesk("--library", lib, "restore", good, "--yes")}
        md5sum {lib}
        ls -a {mnt}
    """)
    before, (code, _, err), after, listing = steps[4], steps[5], steps[6], steps[7]
    assert all(s[0] == 0 for s in steps[:5]), steps[:5]
    assert code == 1, (code, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert ("read-only" if disk == "read-only" else "full") in err, err
    assert "nothing was changed" in err
    assert before[1].split()[0] == after[1].split()[0]
    assert ".partial" not in listing[1], listing[1]
