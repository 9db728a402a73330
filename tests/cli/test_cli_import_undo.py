"""paperdesk import --undo: the library's last import taken back, whoever made it, after a
restart; the papers changed since go to the trash; an undo of the undo brings it back."""

from __future__ import annotations

import json

from paperdesk.core.library import Library
from tests.command_line import paperdesk


def _count(path) -> int:
    with Library.open(path) as lib:
        return lib.stats()["papers"]


def test_the_last_import_is_undone_by_another_program_after_a_restart(tmp_path, seeds):
    path = tmp_path / "lib.sqlite"
    paperdesk("--library", path, "import", seeds[0], check_rc=0)
    first = _count(path)
    paperdesk("--library", path, "import", seeds[1], check_rc=0)
    assert _count(path) > first
    with Library.open(path) as lib:  # a paper only the second import brought, rated since
        new = [p for p in lib.papers(lib.search("").ids) if p["digests"] == [seeds[1].name]]
        lib.curation.set_rating([new[0]["id"]], 4)
    out = paperdesk("--library", path, "import", "--undo", "--json", check_rc=0)
    result = json.loads(out.stdout)
    assert result["undone"] == [seeds[1].name] and result["trashed"] == 1
    assert result["deleted"] == len(new) - 1
    assert _count(path) == first  # the rated one is in the trash, not in the library
    with Library.open(path) as lib:
        assert lib.search("", include_deleted=True).ids.count(new[0]["id"]) == 1
        assert new[0]["id"] not in lib.search("").ids
    # the import before it is now the last one
    said = paperdesk("--library", path, "import", "--undo", check_rc=0)
    assert said.stderr.startswith(f"Undo import of {seeds[0].name}: import undone: removed ")
    assert _count(path) == 0
    none = paperdesk("--library", path, "import", "--undo", check_rc=1)
    assert none.stderr.strip() == "paperdesk: no import is left to undo"


def test_undo_of_a_named_file_and_redo_in_the_window_way(tmp_path, seeds):
    path = tmp_path / "lib.sqlite"
    paperdesk("--library", path, "import", seeds[0], check_rc=0)
    paperdesk("--library", path, "import", seeds[1], check_rc=0)
    both = _count(path)
    missing = paperdesk("--library", path, "import", "--undo", "nothing.txt", check_rc=1)
    assert "no import of nothing.txt is left to undo" in missing.stderr
    with Library.open(path) as lib:
        record = lib.imports.last(seeds[0].name)
        changes = lib.imports.undo(record)
        assert lib.imports.last().files == [seeds[1].name]
        lib.undo(changes.undo)  # the undo taken back: that import is recorded again
        assert lib.imports.last(seeds[0].name).row == record.row
        assert lib.stats()["papers"] == both


def test_import_without_paths_says_so(tmp_path):
    out = paperdesk("--library", tmp_path / "lib.sqlite", "import", check_rc=2)
    assert "name the files or folders to import" in out.stderr
