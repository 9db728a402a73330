"""paperdesk pdf attach/list/remove/open/locate, backup --with-files and restore,
export --files: the commands as a person runs them, in processes of their own where the
process is the subject (a hostile file, the viewer)."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from tests.command_line import paperdesk, paperdesk_process
from tests.pdf_files import claims_pages, encrypted_pdf, nested_tree_pdf, write_pdf

OFFLINE = {"PAPERDESK_ARXIV_API": "http://127.0.0.1:9/api/query",
           "PAPERDESK_CROSSREF_API": "http://127.0.0.1:9", "HF_HUB_OFFLINE": "1"}


def _rows(path: Path, table: str) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
    finally:
        conn.close()


@pytest.fixture
def library(tmp_path: Path) -> Path:
    path = tmp_path / "refs.sqlite"
    paperdesk("--library", path, "--create", "stats", check_rc=0)
    return path


def _pdf(tmp_path: Path, name: str = "paper.pdf", first: str = "A Readable Title") -> Path:
    return write_pdf(tmp_path / name, [[first, "doi:10.5555/pdf.test.1"], ["Page two."]])


def test_attach_list_open_and_remove(library, tmp_path):
    pdf = _pdf(tmp_path)
    out = paperdesk("--library", library, "pdf", "attach", pdf, "--json", env=OFFLINE,
                    check_rc=0)
    got = json.loads(out.stdout)
    assert got["new_paper"] and got["pages"] == 2 and got["kind"] == "stored"
    again = paperdesk("--library", library, "pdf", "attach", got["paper_id"], pdf, check_rc=0)
    assert "already" in again.stderr
    listed = json.loads(paperdesk("--library", library, "pdf", "list", "--json",
                                  check_rc=0).stdout)
    assert [(r["id"], r["state"], r["citekey"]) for r in listed] == [
        (got["attachment_id"], "ok", listed[0]["citekey"])]
    assert listed[0]["file"].startswith(str(tmp_path / "refs.files"))
    said = tmp_path / "opened.txt"
    viewer = tmp_path / "viewer.py"
    viewer.write_text(f"import sys, pathlib\npathlib.Path({str(said)!r}).write_text(sys.argv[1])\n")
    opened = paperdesk_process("--library", library, "pdf", "open", got["attachment_id"],
                               env={"PAPERDESK_PDF_OPENER": f"{sys.executable} {viewer}"},
                               check_rc=0)
    assert opened.stderr == ""
    for _ in range(600):  # the viewer runs on its own; wait for what it wrote
        if said.exists() and said.read_text():
            break
        import time
        time.sleep(0.05)
    assert said.read_text() == listed[0]["file"]
    paperdesk("--library", library, "pdf", "remove", got["attachment_id"], check_rc=0)
    assert paperdesk("--library", library, "pdf", "list", "--json", check_rc=0).stdout.strip() \
        == "[]"


def test_hostile_files_one_line_each_in_a_process(library, tmp_path):
    files = {"encrypted.pdf": encrypted_pdf(), "empty.pdf": b"",
             "notapdf.pdf": b"<html>not a pdf</html>\n" * 30,
             "million.pdf": claims_pages(1_000_000), "tree.pdf": nested_tree_pdf(5000),
             "cut.pdf": _pdf(tmp_path).read_bytes()[:180], "huge.pdf": b""}
    before = {t: _rows(library, t) for t in ("papers", "attachments")}
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        if name == "huge.pdf":
            with open(path, "wb") as f:  # sparse: past the size PaperDesk stores
                f.truncate((1 << 30) + 1)
        done = paperdesk_process("--library", library, "pdf", "attach", path, env=OFFLINE)
        assert done.returncode == 1, (name, done.stderr)
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and name in lines[0] and "nothing was attached" in lines[0]
    assert {t: _rows(library, t) for t in ("papers", "attachments")} == before
    folder = tmp_path / "refs.files"
    assert not folder.exists() or not any(folder.rglob("*.pdf"))


def test_a_linked_file_gone_reads_missing_and_locate_points_it_anew(library, tmp_path):
    pdf = _pdf(tmp_path, "linked.pdf")
    got = json.loads(paperdesk("--library", library, "pdf", "attach", pdf, "--link", "--json",
                               env=OFFLINE, check_rc=0).stdout)
    moved = pdf.rename(tmp_path / "moved.pdf")
    listed = paperdesk("--library", library, "pdf", "list", check_rc=0)
    assert "[missing]" in listed.stdout and "1 missing" in listed.stderr
    gone = paperdesk("--library", library, "pdf", "open", got["attachment_id"], check_rc=1)
    assert "is missing" in gone.stderr and "pdf locate" in gone.stderr
    paperdesk("--library", library, "pdf", "locate", got["attachment_id"], moved, check_rc=0)
    assert "[missing]" not in paperdesk("--library", library, "pdf", "list", check_rc=0).stdout


def test_backup_with_files_and_restore_put_the_pdfs_back(library, tmp_path):
    pdf = _pdf(tmp_path)
    got = json.loads(paperdesk("--library", library, "pdf", "attach", pdf, "--json",
                               env=OFFLINE, check_rc=0).stdout)
    stored = tmp_path / "refs.files" / got["path"]
    without = paperdesk("--library", library, "backup", tmp_path / "plain.sqlite", check_rc=0)
    assert "without its PDF files" in without.stderr
    assert not (tmp_path / "plain.files").exists()
    made = paperdesk("--library", library, "backup", tmp_path / "b.sqlite", "--with-files",
                     check_rc=0)
    assert "1 PDF file" in made.stderr
    assert (tmp_path / "b.files" / got["path"]).read_bytes() == pdf.read_bytes()
    stored.unlink()
    assert "[missing]" in paperdesk("--library", library, "pdf", "list", check_rc=0).stdout
    back = paperdesk("--library", library, "restore", tmp_path / "b.sqlite", "--yes", check_rc=0)
    assert "1 PDF file" in back.stderr and "put back" in back.stderr
    assert stored.read_bytes() == pdf.read_bytes()
    assert "[missing]" not in paperdesk("--library", library, "pdf", "list", check_rc=0).stdout
    kept = list((tmp_path / "backups").glob("refs.before-restore-*.files"))
    assert len(kept) == 1  # the folder as it was, set aside


def test_export_files_writes_jabrefs_file_field(library, tmp_path):
    pdf = _pdf(tmp_path, "with: colon; semi.pdf")
    got = json.loads(paperdesk("--library", library, "pdf", "attach", pdf, "--link", "--json",
                               env=OFFLINE, check_rc=0).stdout)
    plain = paperdesk("--library", library, "export", check_rc=0).stdout
    assert "file =" not in plain
    out = paperdesk("--library", library, "export", "--files", check_rc=0).stdout
    escaped = str(pdf).replace("\\", "\\\\").replace(":", "\\:").replace(";", "\\;")
    assert f"\tfile = {{:{escaped}:PDF}}\n}}" in out
    assert got["paper_id"]
    refused = paperdesk("--library", library, "export", "--format", "csl-json", "--files",
                        check_rc=1)
    assert "file field" in refused.stderr


def test_list_finds_a_paper_by_its_highlights_words(library, tmp_path):
    from paperdesk.core.library import Library

    got = json.loads(paperdesk("--library", library, "pdf", "attach", _pdf(tmp_path),
                               "--json", env=OFFLINE, check_rc=0).stdout)
    quad = [[72.0, 700.0, 300.0, 700.0, 72.0, 688.0, 300.0, 688.0]]
    with Library.open(library) as lib:
        lib.highlights.add(got["attachment_id"], 0, quad, "A Readable Title",
                           comment="flibbertigibbet")

    def listed(query: str) -> list[int]:
        out = paperdesk("--library", library, "list", "--json", "--", query, check_rc=0)
        return [p["id"] for p in json.loads(out.stdout)]

    assert listed("flibbertigibbet") == [got["paper_id"]] == listed("readable has:highlights")
    assert listed("note:flibbertigibbet") == [got["paper_id"]]
    assert listed("-flibbertigibbet") == []
