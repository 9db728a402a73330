"""paperdesk export / citekey / import FILE.bib: real processes, real files, exit codes."""

from __future__ import annotations

import argparse
import json

import bibtexparser

from paperdesk.cli.main import build_parser
from tests.command_line import paperdesk
from tests.conftest import SEED_PAPERS


def _keys(text: str) -> list[str]:
    parsed = bibtexparser.parse_string(text, parse_stack=[])
    assert not parsed.failed_blocks
    return [e.key for e in parsed.entries]


def test_export_to_stdout_and_file(seed_path, tmp_path):
    out = paperdesk("--library", seed_path, "export", check_rc=0)
    assert len(_keys(out.stdout)) == SEED_PAPERS and f"exported {SEED_PAPERS} entries" in out.stderr
    target = tmp_path / "refs.bib"
    done = paperdesk("--library", seed_path, "export", "-o", target, "--style", "biblatex",
                     "--ascii", check_rc=0)
    assert f"exported {SEED_PAPERS} entries to {target}" in done.stderr and done.stdout == ""
    text = target.read_text(encoding="utf-8")
    assert text.isascii() and text.count("@online{") == SEED_PAPERS and "\tdate = {" in text


def test_export_query_and_ids(seed_path):
    papers = json.loads(paperdesk("--library", seed_path, "list", "scaling", "--json",
                                  check_rc=0).stdout)
    out = paperdesk("--library", seed_path, "export", "scaling", check_rc=0)
    assert _keys(out.stdout) == [p["citekey"] for p in papers]
    ids = [papers[2]["id"], papers[0]["id"]]
    out = paperdesk("--library", seed_path, "export", "--ids", ",".join(map(str, ids)),
                    check_rc=0)
    assert _keys(out.stdout) == [papers[2]["citekey"], papers[0]["citekey"]]


def test_bad_arguments_are_one_line_errors(seed_path):
    bad = paperdesk("--library", seed_path, "export", "--ids", "1,x", check_rc=2)
    assert "not a list of paper ids" in bad.stderr
    missing = paperdesk("--library", seed_path, "export", "--ids", "99999", check_rc=1)
    assert missing.stderr.strip() == "paperdesk: no paper with id 99999"
    style = paperdesk("--library", seed_path, "export", "--style", "apa", check_rc=2)
    assert "invalid choice" in style.stderr


def test_citekey_show_set_and_refuse(seed_path):
    shown = paperdesk("--library", seed_path, "citekey", "1", check_rc=0).stdout.strip()
    other = paperdesk("--library", seed_path, "citekey", "2", check_rc=0).stdout.strip()
    assert shown and other and shown != other
    taken = paperdesk("--library", seed_path, "citekey", "1", other, check_rc=1)
    assert "already used by paper 2" in taken.stderr
    bad = paperdesk("--library", seed_path, "citekey", "1", "two words", check_rc=1)
    assert bad.stderr.count("\n") == 1
    paperdesk("--library", seed_path, "citekey", "1", "mykey2024", check_rc=0)
    data = json.loads(paperdesk("--library", seed_path, "citekey", "1", "--json",
                                check_rc=0).stdout)
    assert data == {"id": 1, "citekey": "mykey2024", "frozen": False}
    assert "@misc{mykey2024," in paperdesk("--library", seed_path, "export", "--ids", "1",
                                           check_rc=0).stdout


def test_citekey_json_always_says_whether_the_key_is_frozen(seed_path, tmp_path):
    def shown(*extra: str) -> dict:
        return json.loads(paperdesk("--library", seed_path, "citekey", "3", "--json", *extra,
                                    check_rc=0).stdout)

    before = shown()
    assert before["frozen"] is False and set(before) == {"id", "citekey", "frozen"}
    assert shown("--status") == before | {"state": "provisional"}
    paperdesk("--library", seed_path, "export", "--ids", "3", "-o", str(tmp_path / "out.bib"),
              check_rc=0)
    after = shown()
    assert after == {"id": 3, "citekey": before["citekey"], "frozen": True}
    assert shown("--status") == after | {"state": "frozen"}


def test_import_bib_round_trip_through_the_cli(seed_path, tmp_path):
    target = tmp_path / "all.bib"
    paperdesk("--library", seed_path, "export", "-o", target, check_rc=0)
    fresh = tmp_path / "fresh.sqlite"
    done = paperdesk("--library", fresh, "import", target, "--json", check_rc=0)
    report = json.loads(done.stdout)[0]
    assert (report["kind"], report["status"], report["new_papers"]) == ("bibtex", "imported",
                                                                        SEED_PAPERS)
    again = paperdesk("--library", fresh, "export", check_rc=0).stdout
    assert again == target.read_text(encoding="utf-8")


def test_broken_bib_is_refused_and_changes_nothing(seed_path, tmp_path):
    bad = tmp_path / "bad.bib"
    bad.write_text("@article{a,\n  title = {never closed,\n", encoding="utf-8")
    before = paperdesk("--library", seed_path, "stats", "--json", check_rc=0).stdout
    out = paperdesk("--library", seed_path, "import", bad, check_rc=1)
    assert "bad.bib: no BibTeX entry could be read" in out.stderr
    assert paperdesk("--library", seed_path, "stats", "--json", check_rc=0).stdout == before


def test_bibtex_parsers_have_help_and_description():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name in ("export", "citekey"):
        command = sub.choices[name]
        assert command.description
        for action in command._actions:
            if not isinstance(action, argparse._HelpAction):
                assert action.help, (name, action.dest)


def test_a_broken_entry_is_reported_in_one_line_each(tmp_path):
    bib = tmp_path / "broken.bib"
    bib.write_text("@article{a,\n title = {Broken\n\n@misc{b, title={Fine paper}, year=2020}\n")
    out = paperdesk("--library", tmp_path / "l.sqlite", "import", bib)
    assert out.returncode == 0
    assert "Parsing of" not in out.stderr and "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert lines[0].startswith("imported: broken.bib: 1 entry")
    assert any("line 1:" in line for line in lines[1:])


def test_export_csl_json(seed_path, tmp_path):
    out = paperdesk("--library", seed_path, "export", "--format", "csl-json", check_rc=0)
    items = json.loads(out.stdout)
    assert len(items) == SEED_PAPERS and f"exported {SEED_PAPERS} entries" in out.stderr
    target = tmp_path / "refs.json"
    paperdesk("--library", seed_path, "export", "--format", "csl-json", "--ascii", "-o", target,
              check_rc=0)
    text = target.read_text(encoding="utf-8")
    assert text.isascii() and json.loads(text) == items
    none = paperdesk("--library", seed_path, "export", "--format", "csl-json", "zzzqqq",
                     check_rc=0)
    assert json.loads(none.stdout) == []
    bad = paperdesk("--library", seed_path, "export", "--format", "ris", check_rc=2)
    assert "invalid choice" in bad.stderr


def test_import_report_names_every_merge_and_every_skip(tmp_path):
    lib = tmp_path / "r.sqlite"
    first = tmp_path / "first.bib"
    first.write_text("@article{orig, title = {One}, doi = {10.1/one}, year = 2001}\n")
    paperdesk("--library", lib, "import", first, check_rc=0)
    second = tmp_path / "second.bib"
    second.write_text("@article{again, title = {One, printed}, doi = {10.1/ONE}, year = 2001}\n"
                      "@article{broken,\n title = {never closed\n\n"
                      "@article{alike, title = {One}, year = 1999}\n")
    out = paperdesk("--library", lib, "import", second, check_rc=0)
    assert "  merged: again -> orig (paper 1; same DOI 10.1/ONE)" in out.stderr
    assert "second.bib: line 2: skipped an entry that cannot be read" in out.stderr
    report = json.loads(paperdesk("--library", lib, "import", second, "--json",
                                  check_rc=0).stdout)[0]
    assert report["merges"][0] == {"key": "again", "line": 1, "paper_id": 1, "citekey": "orig",
                                   "reason": "same DOI 10.1/ONE"}
    assert report["skipped"][0]["line"] == 2 and report["skipped"][0]["key"] == "broken"
    assert report["skipped"][0]["reason"].startswith("cannot be read (")


def test_export_replaces_only_a_bibliography_unless_told(seed_path, tmp_path):
    """`export -o` over a file that holds something else (a LaTeX source, the target of
    a link, a .bib where CSL-JSON goes) is refused in one line and the file kept; with
    --overwrite it is replaced. A .bib file (past its % comments) is replaced as ever."""
    thesis = tmp_path / "thesis.tex"
    thesis.write_text("\\documentclass{article}\n\\begin{document}x\\end{document}\n")
    link = tmp_path / "refs.bib"
    link.symlink_to(thesis)
    mine = tmp_path / "mine.bib"
    mine.write_text("% my references\n\n@misc{mine, title = {Mine}}\n")
    before = thesis.read_bytes(), mine.read_bytes()
    for target, extra in ((thesis, []), (link, []), (mine, ["--format", "csl-json"])):
        out = paperdesk("--library", seed_path, "export", "-o", target, *extra, check_rc=1)
        assert out.stderr.count("\n") == 1 and "holds something other than" in out.stderr
        assert "--overwrite" in out.stderr and str(target) in out.stderr
    assert (thesis.read_bytes(), mine.read_bytes()) == before
    done = paperdesk("--library", seed_path, "export", "--ids", "1", "-o", mine, check_rc=0)
    assert "exported 1 entry to" in done.stderr and len(_keys(mine.read_text())) == 1
    dtx = tmp_path / "package.dtx"  # only comments as far as the check reads, then code
    dtx.write_text("%" * 70_000 + "\n\\documentclass{article}\n")
    out = paperdesk("--library", seed_path, "export", "-o", dtx, check_rc=1)
    assert "only comments in its first 64 KiB" in out.stderr and dtx.stat().st_size > 70_000
    paperdesk("--library", seed_path, "export", "-o", thesis, "--overwrite", check_rc=0)
    assert len(_keys(thesis.read_text())) == SEED_PAPERS
