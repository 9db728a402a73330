"""`paperdesk share` from the command line: what arrives reaches the kept-in-sync .bib
files like any other write, a bad folder is one line and exit 1, the status as JSON."""

from __future__ import annotations

import json

from paperdesk.core.library import Library
from tests.command_line import paperdesk
from tests.share.sharing import digest, uid_ids


def test_what_arrives_is_written_into_the_kept_in_sync_bib_file(tmp_path):
    folder = tmp_path / "Sync"
    folder.mkdir()
    here, there = tmp_path / "here.sqlite", tmp_path / "there.sqlite"
    paperdesk("--library", here, "import", digest(tmp_path / "d"), check_rc=0)
    paperdesk("--library", here, "share", folder, check_rc=0)
    bib = tmp_path / "refs.bib"
    paperdesk("--library", here, "sync", "add", bib, check_rc=0)
    assert "keywords" not in bib.read_text()
    done = paperdesk("--library", there, "--create", "share", folder, check_rc=0)
    assert "8 added" in done.stderr
    with Library.open(there) as lib:
        lib.curation.add_tags([sorted(uid_ids(lib).values())[0]], "arrived")
    paperdesk("--library", there, "share", "--now", check_rc=0)
    said = paperdesk("--library", here, "share", "--now", check_rc=0)
    assert "1 changed" in said.stderr
    assert "keywords = {arrived}" in bib.read_text()
    status = json.loads(paperdesk("--library", here, "share", "--status", "--json",
                                  check_rc=0).stdout)
    assert status["where"] == str(folder) and len(status["devices"]) == 2


def test_a_missing_folder_or_a_library_inside_it_is_one_line(tmp_path):
    lib = tmp_path / "box" / "lib.sqlite"
    lib.parent.mkdir()
    paperdesk("--library", lib, "import", digest(tmp_path / "d"), check_rc=0)
    before = lib.read_bytes()
    missing = paperdesk("--library", lib, "share", tmp_path / "nowhere", check_rc=1)
    inside = paperdesk("--library", lib, "share", tmp_path / "box", check_rc=1)
    for result in (missing, inside):
        assert len(result.stderr.strip().splitlines()) == 1
    assert "no such folder" in missing.stderr
    assert "inside the shared folder" in inside.stderr
    assert paperdesk("--library", lib, "share", "--now", check_rc=1).stderr.count("\n") == 1
    assert lib.read_bytes() == before
