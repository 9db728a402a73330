"""Attaching PDFs when things go wrong: two programs attach the same file at once, the
file changes while it is copied, the disk fills up during the copy. Each time the
library is exactly as one attach (or none) leaves it, and the files folder holds
exactly the copies its rows name."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from paperdesk.core.model.errors import PdfError
from paperdesk.core.pdf import store
from tests.command_line import cli_command, cli_env, paperdesk
from tests.pdf_files import pdf_bytes, write_pdf
from tests.reliability.test_disks import in_namespace
from tests.reliability.test_disks import paperdesk as shell_paperdesk
from tests.reliability.test_disks import pytestmark as needs_namespace

OFFLINE = {"PAPERDESK_ARXIV_API": "http://127.0.0.1:9/api/query",
           "PAPERDESK_CROSSREF_API": "http://127.0.0.1:9", "HF_HUB_OFFLINE": "1"}


def _rows(path: Path) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT paper_id, kind, path, sha256 FROM attachments").fetchall()
    finally:
        conn.close()


def _stored(library: Path) -> list[str]:
    top = store.files_folder(library)
    return sorted(p.relative_to(top).as_posix() for p in top.rglob("*") if p.is_file())


def test_two_programs_attaching_one_file_at_once_make_one_attachment(tmp_path):
    library = tmp_path / "refs.sqlite"
    pdf = write_pdf(tmp_path / "same.pdf", [["A Paper Attached Twice At Once"]])
    made = json.loads(paperdesk("--library", library, "--create", "pdf", "attach", pdf,
                                "--json", env=OFFLINE, check_rc=0).stdout)
    other = write_pdf(tmp_path / "other.pdf", [["Another file for the same paper"]])
    runs = [subprocess.Popen(cli_command("--library", library, "pdf", "attach",
                                         made["paper_id"], other),
                             env={**cli_env(), **OFFLINE}, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(3)]
    results = [(p.wait(120), p.stderr.read()) for p in runs]
    assert [code for code, _ in results] == [0, 0, 0], results
    assert sum("already" in err for _, err in results) == 2  # one of them attached it
    rows = _rows(library)
    assert len(rows) == 2 and _stored(library) == sorted(r[2] for r in rows)


def test_a_file_changed_while_it_is_copied_is_refused_and_no_copy_stays(lib, tmp_path):
    """The copy's SHA-256 is checked against the one taken when the file was read."""
    pdf = write_pdf(tmp_path / "moving.pdf", [["Before"]])
    sha, _ = store.digest(pdf)
    pdf.write_bytes(pdf_bytes([["After: another text of its own"]]))
    with pytest.raises(PdfError, match="changed while it was being copied"):
        store.store_copy(lib.path, "some-uid", pdf, "moving.pdf", sha)
    assert _stored(lib.path) == []


@needs_namespace
def test_a_full_disk_during_the_copy_gets_one_line_and_changes_nothing(curated, tmp_path):
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    library = mnt / "library.sqlite"
    big = tmp_path / "big.pdf"
    # A real PDF of 2 MB (a page of filler text), larger than what the disk has left.
    big.write_bytes(pdf_bytes([["x" * 90] * 40] * 600))
    size = curated.stat().st_size
    (mount, copy, _fill, before, attached, after, listed) = in_namespace(f"""
        mount -t tmpfs -o size={size // 1024 + 1024}k tmpfs {mnt}
        cp {curated} {library}
        dd if=/dev/zero of={mnt}/filler bs=1024 count={max(1, 1024 - 600)}
        sha256sum {library}
        {shell_paperdesk("--library", library, "pdf", "attach", 1, big)}
        sha256sum {library}
        ls -A {mnt}/library.files/
    """, timeout=300)
    assert mount[0] == copy[0] == 0, (mount, copy)
    code, _, err = attached
    assert code == 1 and err.count("\n") == 1 and "nothing was attached" in err, err
    assert "No space left" in err or "disk is full" in err, err
    assert before[1].split()[0] == after[1].split()[0]  # the library unchanged
    assert all(not name.startswith(".") for name in listed[1].split())  # no partial copy
