"""delete and trash from the command line."""

from __future__ import annotations

import json

from tests.command_line import paperdesk


def test_delete_restore_and_empty(tmp_path, seeds):
    lib = tmp_path / "trash.sqlite"
    paperdesk("--library", lib, "import", *seeds, check_rc=0)
    paperdesk("--library", lib, "delete", "1", "2", "3", check_rc=0)
    trashed = json.loads(paperdesk("--library", lib, "trash", "--json", check_rc=0).stdout)
    assert sorted(p["id"] for p in trashed) == [1, 2, 3]
    stats = json.loads(paperdesk("--library", lib, "stats", "--json", check_rc=0).stdout)
    assert (stats["papers"], stats["trash"]) == (190, 3)

    paperdesk("--library", lib, "trash", "restore", "2", check_rc=0)
    assert paperdesk("--library", lib, "trash", "restore", check_rc=2).stderr.count("\n") == 1

    refused = paperdesk("--library", lib, "trash", "empty", check_rc=1)
    assert "--yes" in refused.stderr
    paperdesk("--library", lib, "trash", "empty", "--yes", check_rc=0)
    stats = json.loads(paperdesk("--library", lib, "stats", "--json", check_rc=0).stdout)
    assert (stats["papers"], stats["trash"]) == (191, 0)
    assert paperdesk("--library", lib, "show", "1", check_rc=1).stderr.strip() == \
        "paperdesk: no paper with id 1"


def test_deleting_a_missing_paper_exits_1(tmp_path, seeds):
    lib = tmp_path / "trash.sqlite"
    paperdesk("--library", lib, "import", seeds[0], check_rc=0)
    out = paperdesk("--library", lib, "delete", "999", check_rc=1)
    assert out.stderr.strip() == "paperdesk: no paper with id 999"
