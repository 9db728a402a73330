"""What `paperdesk share` tells the user: an edit that landed on a paper another
computer moved to the trash, a citation key that left PaperDesk for two papers, and a
share of the files asked of a library that is not shared."""

from __future__ import annotations

import json

from paperdesk.core.library import Library
from tests.command_line import paperdesk
from tests.share.sharing import digest, uid_ids


def _two(tmp_path):
    folder = tmp_path / "Sync"
    folder.mkdir()
    here, there = tmp_path / "here.sqlite", tmp_path / "there.sqlite"
    paperdesk("--library", here, "import", digest(tmp_path / "d"), check_rc=0)
    paperdesk("--library", here, "share", folder, check_rc=0)
    paperdesk("--library", there, "--create", "share", folder, check_rc=0)
    with Library.open(here) as lib:
        ids_here = uid_ids(lib)
    with Library.open(there) as lib:
        ids_there = uid_ids(lib)
    return here, there, ids_here, ids_there


def _status(path) -> dict:
    return json.loads(paperdesk("--library", path, "share", "--status", "--json",
                                check_rc=0).stdout)


def test_an_edit_on_a_paper_trashed_elsewhere_is_told(tmp_path):
    here, there, ids_here, ids_there = _two(tmp_path)
    uid = sorted(ids_here)[0]
    paperdesk("--library", here, "delete", ids_here[uid], check_rc=0)
    paperdesk("--library", there, "rate", ids_there[uid], "4", check_rc=0)
    paperdesk("--library", here, "share", "--now", check_rc=0)
    paperdesk("--library", there, "share", "--now", check_rc=0)
    said = paperdesk("--library", here, "share", "--now", check_rc=0)
    assert "1 edit landed on papers in the trash" in said.stderr
    assert _status(here)["in_trash"] == 1
    shown = paperdesk("--library", here, "share", "--status", check_rc=0).stdout
    assert "1 edit landed on papers in the trash" in shown


def test_a_key_that_left_for_two_papers_is_told(tmp_path):
    here, there, ids_here, ids_there = _two(tmp_path)
    one, other = sorted(ids_here)[:2]
    for path, pid in ((here, ids_here[one]), (there, ids_there[other])):
        paperdesk("--library", path, "citekey", pid, "smith2025", check_rc=0)
        paperdesk("--library", path, "export", "--ids", pid, "-o", tmp_path / "out.bib",
                  check_rc=0)  # the key leaves PaperDesk on each computer
    paperdesk("--library", here, "share", "--now", check_rc=0)
    said = paperdesk("--library", there, "share", "--now", check_rc=0)
    assert "1 citation key conflicted" in said.stderr
    (told,) = _status(there)["conflicted"]
    assert "smith2025" in told and "a document may cite either" in told
    shown = paperdesk("--library", there, "share", "--status", check_rc=0).stdout
    assert "conflicted: citation key 'smith2025'" in shown
    paperdesk("--library", here, "share", "--now", check_rc=0)
    # Both papers keep the key on both computers: a document written on either cites
    # its own paper by it.
    for path, ids in ((here, ids_here), (there, ids_there)):
        listed = json.loads(paperdesk("--library", path, "list", "--json", check_rc=0).stdout)
        keys = {p["id"]: p["citekey"] for p in listed}
        assert keys[ids[one]] == keys[ids[other]] == "smith2025", keys
        assert sum(k == "smith2025" for k in keys.values()) == 2
        # Exported, the key is there twice, and the export says so.
        out = tmp_path / f"both-{path.stem}.bib"
        said = paperdesk("--library", path, "export", "--ids", f"{ids[one]},{ids[other]}",
                         "-o", out, check_rc=0)
        assert out.read_text().count("{smith2025,") == 2
        assert "smith2025" in said.stderr and "twice" in said.stderr


def test_files_asked_of_a_library_not_shared_is_one_line(tmp_path):
    lib = tmp_path / "lib.sqlite"
    paperdesk("--library", lib, "import", digest(tmp_path / "d"), check_rc=0)
    before = lib.read_bytes()
    said = paperdesk("--library", lib, "share", "--with-files", check_rc=1)
    assert said.stderr.count("\n") == 1 and "not shared" in said.stderr
    assert lib.read_bytes() == before
