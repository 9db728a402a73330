"""The command line as scripts use it: real files, exit codes, stdout and stderr."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from paperdesk.core.library import Library
from tests.command_line import paperdesk
from tests.conftest import SEED_ENTRIES, SEED_PAPERS
from tests.core.test_import import content
from tests.work import every_statement


@pytest.fixture
def lib_path(tmp_path):
    """Where the test's library is made (by its first command)."""
    return tmp_path / "cli.sqlite"


def test_import_json_report_then_list_and_stats(lib_path, seeds):
    out = paperdesk("--library", lib_path, "import", *seeds, "--json", check_rc=0)
    reports = json.loads(out.stdout)
    assert [r["status"] for r in reports] == ["imported"] * 5
    assert sum(r["entries"] for r in reports) == SEED_ENTRIES
    assert sum(r["new_papers"] for r in reports) == SEED_PAPERS
    stats = json.loads(paperdesk("--library", lib_path, "stats", "--json", check_rc=0).stdout)
    assert (stats["papers"], stats["digests"], stats["sightings"]) == (SEED_PAPERS, 5, SEED_ENTRIES)
    papers = json.loads(paperdesk("--library", lib_path, "list", "--json", check_rc=0).stdout)
    assert len(papers) == SEED_PAPERS
    for name in ("id", "title", "abstract", "authors", "author_count", "organization",
                 "published", "year", "year_inferred", "upvotes", "digests", "rating",
                 "status", "tags", "citekey"):
        assert name in papers[0]
    deepseek = [p for p in papers if p["organization"] == "DeepSeek"]
    assert len(deepseek) == 1 and deepseek[0]["authors"] == []


def test_reimport_says_already_imported(lib_path, seeds):
    paperdesk("--library", lib_path, "import", seeds[0], check_rc=0)
    out = paperdesk("--library", lib_path, "import", seeds[0], check_rc=0)
    assert "already imported" in out.stderr


def test_library_from_environment(lib_path, seeds):
    paperdesk("import", seeds[0], env={"PAPERDESK_LIBRARY": str(lib_path)}, check_rc=0)
    assert lib_path.exists()


def test_show_json_has_sightings(lib_path, seeds):
    paperdesk("--library", lib_path, "import", *seeds, check_rc=0)
    shown = json.loads(paperdesk("--library", lib_path, "show", "2", "--json", check_rc=0).stdout)
    assert shown["id"] == 2 and len(shown["sightings"]) == len(shown["digests"]) >= 1


def test_bad_files_exit_1_with_one_line_each_and_change_nothing(lib_path, seeds, tmp_path):
    paperdesk("--library", lib_path, "import", *seeds, check_rc=0)
    before = content(lib_path)
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "binary.bin").write_bytes(os.urandom(4096))
    (tmp_path / "prose.txt").write_text("Just some words.\n")
    for name in ("empty.txt", "binary.bin", "prose.txt", "missing.txt"):
        out = paperdesk("--library", lib_path, "import", tmp_path / name, check_rc=1)
        assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert content(lib_path) == before


def test_an_empty_folder_is_bad_input_in_one_line(lib_path, seeds, tmp_path):
    paperdesk("--library", lib_path, "import", seeds[0], check_rc=0)
    before = content(lib_path)
    empty = tmp_path / "empty folder"
    (empty / ".hidden").mkdir(parents=True)
    (empty / ".hidden" / "day.txt").write_text(seeds[0].read_text(encoding="utf-8"))
    out = paperdesk("--library", lib_path, "import", empty, check_rc=1)
    assert out.stderr.splitlines() == [f"error: no digest or .bib files in {empty}"]
    assert out.stdout == "" and content(lib_path) == before
    both = paperdesk("--library", lib_path, "import", empty, seeds[1], check_rc=1)
    assert both.stderr.splitlines()[0] == f"error: no digest or .bib files in {empty}"
    assert "imported: " in both.stderr  # the other path is imported all the same


def test_some_files_failing_still_imports_the_rest(lib_path, seeds, tmp_path):
    (tmp_path / "prose.txt").write_text("Just some words.\n")
    out = paperdesk("--library", lib_path, "import", seeds[0], tmp_path / "prose.txt", check_rc=1)
    assert "imported: 000" in out.stderr and "error: prose.txt" in out.stderr


def test_foreign_library_file_exits_1_untouched(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("not a database")
    out = paperdesk("--library", path, "stats", check_rc=1)
    assert "not an SQLite file" in out.stderr and path.read_text() == "not a database"


def test_usage_error_exits_2():
    assert paperdesk("frobnicate").returncode == 2
    assert paperdesk("show", "not-a-number").returncode == 2


def test_missing_paper_exits_1(lib_path):
    paperdesk("--library", lib_path, "--create", "stats", check_rc=0)
    out = paperdesk("--library", lib_path, "show", "999", check_rc=1)
    assert out.stderr.strip() == "paperdesk: no paper with id 999"


def test_demo_library_is_built_from_seeds_on_first_use(tmp_path):
    env = {"PAPERDESK_DATA_DIR": str(tmp_path / "data")}
    stats = json.loads(paperdesk("--demo", "stats", "--json", env=env, check_rc=0).stdout)
    assert (stats["papers"], stats["sightings"]) == (SEED_PAPERS, SEED_ENTRIES)
    assert (tmp_path / "data" / "demo.sqlite").exists()


def test_every_command_has_help_text():
    from paperdesk.cli.main import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    helps = {a.dest: a.help for a in sub._choices_actions}
    assert set(helps) == set(sub.choices)
    assert all(helps.values()), [k for k, v in helps.items() if not v]
    for name, p in sub.choices.items():
        assert p.description, name


def test_list_json_on_seed_library_is_quick(lib_path, tmp_path, seeds):
    """The statements a listing runs do not grow with the papers (bench/ has the time)."""
    one = tmp_path / "one.sqlite"
    paperdesk("--library", one, "import", seeds[0], check_rc=0)
    paperdesk("--library", lib_path, "import", *seeds, check_rc=0)
    ran = {}
    for path in (one, lib_path):
        with every_statement() as ran[path]:
            listed = paperdesk("--library", path, "list", "--json", check_rc=0)
        with Library.open(path) as lib:
            assert len(json.loads(listed.stdout)) == lib.stats()["papers"]
    assert len(ran[lib_path]) == len(ran[one]) < 40, ran[lib_path]


def test_the_default_library_folder_is_made_on_first_use(tmp_path, seeds):
    env = {"PAPERDESK_DATA_DIR": str(tmp_path / "new" / "data")}
    paperdesk("import", seeds[0], env=env, check_rc=0)
    assert (tmp_path / "new" / "data" / "library.sqlite").exists()


def test_an_explicit_library_in_a_missing_folder_is_refused(tmp_path, seeds):
    out = paperdesk("--library", tmp_path / "nope" / "l.sqlite", "import", seeds[0], check_rc=1)
    assert "does not exist" in out.stderr and not (tmp_path / "nope").exists()


def test_a_mistyped_library_path_makes_no_library_and_replaces_no_file(tmp_path, seeds):
    """Only the commands that bring papers in (or --create) make a library a path names:
    any other says there is none, makes nothing, and exports nothing over a file."""
    real = tmp_path / "lib.sqlite"
    paperdesk("--library", real, "import", seeds[0], check_rc=0)
    typo = tmp_path / "lbi.sqlite"
    refs = tmp_path / "refs.bib"
    refs.write_text("@misc{mine, title = {Kept}}\n", encoding="utf-8")
    for command in (["list"], ["stats", "--json"], ["show", "1"], ["tag", "1", "+x"],
                    ["export", "-o", str(refs)], ["sync", "list"], ["duplicates"]):
        out = paperdesk("--library", typo, *command, check_rc=1)
        assert out.stderr.count("\n") == 1, out.stderr
        assert f"{typo}: no library there" in out.stderr and "import FILE" in out.stderr
        assert not typo.exists() and not Path(f"{typo}-wal").exists()
    assert refs.read_text(encoding="utf-8") == "@misc{mine, title = {Kept}}\n"
    made = paperdesk("--library", typo, "--create", "stats", "--json", check_rc=0)
    assert json.loads(made.stdout)["papers"] == 0 and typo.exists()
    other = tmp_path / "other.sqlite"
    paperdesk("--library", other, "import", seeds[1], check_rc=0)
    assert other.exists()
