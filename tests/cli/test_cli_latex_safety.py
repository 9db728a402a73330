"""What a .bib file brings that LaTeX would run is reported on import (text and JSON);
identifiers that are not identifiers stay out of PaperDesk's columns and out of what it
writes; export --as-written and the export report. Real processes, real files."""

from __future__ import annotations

import json
import sqlite3

from tests.command_line import paperdesk

HOSTILE = r"""@preamble{"\immediate\write18{touch MADE}"}
@string{evil = "\input{/etc/hostname}"}
@misc{k1, title = {A \csname foo\endcsname title}, note = evil,
  howpublished = {\def\x{y}^^5cinput{z}}}
@misc{k2, title = {Fine}, doi = {10.1000/{a}b}, url = {https://x.org/a b}}
@misc{k3, title = {Fine too}, doi = {10.1000/a\_b}, eprint = {2401.00001}, archivePrefix = {arXiv}}
"""


def test_import_report_warns_per_key_and_field_and_keeps_the_values(tmp_path):
    bib = tmp_path / "h.bib"
    bib.write_text(HOSTILE, encoding="utf-8")
    library = tmp_path / "lib.sqlite"
    out = paperdesk("--library", library, "import", bib, check_rc=0)
    lines = out.stderr.splitlines()
    assert any(line.startswith("  warning: h.bib: @preamble holds \\immediate \\write18")
               for line in lines), out.stderr
    assert "warning: h.bib: @string 'evil' holds \\input" in out.stderr
    assert "line 3: entry 'k1' field title: holds \\csname" in out.stderr
    assert "entry 'k1' field howpublished: holds \\def ^^" in out.stderr
    assert "entry 'k2' field doi: '10.1000/{a}b' is not a DOI" in out.stderr
    assert "entry 'k2' field url: 'https://x.org/a b' is not a URL" in out.stderr
    assert "k3" not in out.stderr  # an escaped underscore is a DOI's underscore
    again = paperdesk("--library", tmp_path / "other.sqlite", "import", bib, "--json",
                      check_rc=0)
    warnings = json.loads(again.stdout)[0]["warnings"]
    assert sum("\\csname" in w or "\\write18" in w or "\\input" in w or "\\def" in w
               for w in warnings) == 4
    with sqlite3.connect(library) as db:
        rows = dict(db.execute("SELECT citekey, coalesce(doi, '') || '|' || "
                               "coalesce(url, '') FROM papers"))
    assert rows == {"k1": "|", "k2": "|", "k3": "10.1000/a_b|"}
    written = paperdesk("--library", library, "export", check_rc=0).stdout
    # the file's own values, as written
    assert '@preamble{"\\immediate\\write18{touch MADE}"}' in written
    assert "doi = {10.1000/{a}b}" in written and "title = {A \\csname foo\\endcsname title}" \
        in written


def test_identifiers_the_library_holds_are_checked_again_on_export(tmp_path):
    bib = tmp_path / "a.bib"
    bib.write_text("@misc{a, title = {A}}\n@misc{b, title = {B}}\n", encoding="utf-8")
    library = tmp_path / "lib.sqlite"
    paperdesk("--library", library, "import", bib, check_rc=0)
    with sqlite3.connect(library) as db:  # as a library written before the check holds them
        db.execute("UPDATE papers SET arxiv_id = '2401.1}{x', doi = '10.1/ok', "
                   "url = 'https://a.org/}' WHERE citekey = 'a'")
    bibtex = paperdesk("--library", library, "export", check_rc=0)
    assert "2401.1}" not in bibtex.stdout and "a.org/}" not in bibtex.stdout
    assert "doi = {10.1/ok}" in bibtex.stdout
    assert "left out: a: '2401.1}{x' is not an arXiv id" in bibtex.stderr
    assert "left out: a: 'https://a.org/}' is not a URL" in bibtex.stderr
    csl = paperdesk("--library", library, "export", "--format", "csl-json", check_rc=0)
    item = {i["id"]: i for i in json.loads(csl.stdout)}["a"]
    assert item["DOI"] == "10.1/ok" and "number" not in item and "URL" not in item
    assert "left out: a: '2401.1}{x' is not an arXiv id" in csl.stderr


def test_export_reports_repaired_fields_and_as_written_keeps_them(tmp_path):
    bib = tmp_path / "r.bib"
    bib.write_text("@article{r, title = {Bounds for \\(n_k^2\\) and a_b},\n"
                   "  journal = {R & D}, note = {see \\path=a_b=}}\n", encoding="utf-8")
    library = tmp_path / "lib.sqlite"
    paperdesk("--library", library, "import", bib, check_rc=0)
    out = paperdesk("--library", library, "export", "-o", tmp_path / "out.bib", check_rc=0)
    text = (tmp_path / "out.bib").read_text(encoding="utf-8")
    assert "title = {Bounds for \\(n_k^2\\) and a\\_b}" in text
    assert "journal = {R \\& D}" in text and "note = {see \\path=a_b=}" in text
    assert "2 fields of .bib entries written with bare # & _ ^ escaped" in out.stderr
    assert "r.title, r.journal" in out.stderr
    kept = paperdesk("--library", library, "export", "--as-written", check_rc=0)
    assert "title = {Bounds for \\(n_k^2\\) and a_b}" in kept.stdout
    assert "journal = {R & D}" in kept.stdout and "escaped" not in kept.stderr


def test_sync_add_reports_repaired_fields_and_as_written_keeps_them(tmp_path):
    bib = tmp_path / "r.bib"
    bib.write_text("@article{r, title = {a_b and \\(x_1\\)}, journal = {R & D}}\n",
                   encoding="utf-8")
    library = tmp_path / "lib.sqlite"
    paperdesk("--library", library, "import", bib, check_rc=0)
    fixed, kept = tmp_path / "fixed.bib", tmp_path / "kept.bib"
    out = paperdesk("--library", library, "sync", "add", fixed, check_rc=0)
    assert "(1 entries; 2 fields of .bib entries with bare # & _ ^ escaped" in out.stderr
    assert "title = {a\\_b and \\(x_1\\)}" in fixed.read_text(encoding="utf-8")
    out = paperdesk("--library", library, "sync", "add", kept, "--as-written", check_rc=0)
    assert "(bibtex, as written)" in out.stderr and "escaped" not in out.stderr
    assert "title = {a_b and \\(x_1\\)},\n\tjournal = {R & D}" in kept.read_text(
        encoding="utf-8")
    listed = json.loads(paperdesk("--library", library, "sync", "list", "--json",
                                  check_rc=0).stdout)
    assert [(s["as_written"], s["ascii"]) for s in listed] == [(False, False), (True, False)]
    # a later change rewrites both files, each in its own way
    paperdesk("--library", library, "tag", "1", "+new", check_rc=0)
    assert "journal = {R \\& D}" in fixed.read_text(encoding="utf-8")
    assert "journal = {R & D}" in kept.read_text(encoding="utf-8")


def test_hub_records_with_identifiers_that_are_not_refused_and_never_asked(tmp_path):
    from tests.fake_hub import FakeHub, record

    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{one, title = {Paper One}, abstract = {Alpha beta gamma delta.}}\n"
                   "@misc{two, title = {Paper Two}, abstract = {Epsilon zeta eta theta.}}\n"
                   "@misc{six, title = {Paper Six}, abstract = {Iota kappa lambda mu.}}\n",
                   encoding="utf-8")
    library = tmp_path / "lib.sqlite"
    paperdesk("--library", library, "import", bib, check_rc=0)
    with FakeHub() as hub:
        hub.add(record("2401.00001}, note = {x", "Paper One", "Alpha beta gamma delta.",
                       ["A B"], "2024-01-01"))
        hub.add(record("2401.00002", "Paper Two", "Epsilon zeta eta theta.", ["C D"],
                       "2024-01-02", github="https://github.com/a/b}{x"))
        hub.add(record("2401.00006", "Paper Six", "Iota kappa lambda mu.", ["E F"],
                       "2024-01-06", github="https://github.com/good/repo",
                       project="https://example.org/six"))
        out = paperdesk("--library", library, "enrich", "--json",
                        env={"HF_ENDPOINT": hub.url}, check_rc=0)
        asked = [r for r in hub.requests if r.startswith("/api/papers/2")]
    result = json.loads(out.stdout)
    assert len(result["completed"]) == 1
    why = {title: reason for _pid, title, reason in result["failed"]}
    assert why["Paper One"] == ("the Hub's '2401.00001}, note = {x' is not an arXiv id "
                                "(2401.12345, 2401.12345v2 or hep-th/9901001); refused")
    assert "'https://github.com/a/b}{x' is not a GitHub repository" in why["Paper Two"]
    assert sorted(asked) == ["/api/papers/2401.00002", "/api/papers/2401.00006"]
    with sqlite3.connect(library) as db:
        rows = db.execute("SELECT citekey, arxiv_id, github, authors FROM papers "
                          "ORDER BY id").fetchall()
    assert rows == [("one", None, None, "[]"), ("two", None, None, "[]"),
                    ("six", "2401.00006", "https://github.com/good/repo", '["E F"]')]
