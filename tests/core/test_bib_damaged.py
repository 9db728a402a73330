"""A damaged entry (not closed, a brace inside it that does not balance) is read as
BibTeX reads it, its fields up to the damage, and reported with its line; an entry
whose value never closes (BibTeX runs on into the next entries) is skipped, and one
commented out with ``%`` stays a comment."""

from __future__ import annotations

import pytest

from paperdesk.core.bibtex.bib_salvage import salvage
from tests import realbib

DAMAGED = """@article{a,
  author = {Ann Smith},
  title = {Missing close},
  journal = {J},
  year = 2000,

@article{c,
  author = {Cy Doe},
  title = {Unbalanced {brace},
  journal = {J},
  year = 2002
}

%@article{gone,
%  title = {Commented out}
%}

@article{d,
  author = {Di Roe},
  title = {Last},
  journal = {J},
  year = 2003
}
"""


def test_damaged_entries_are_read_and_reported_with_their_lines(lib, tmp_path):
    path = tmp_path / "damaged.bib"
    path.write_text(DAMAGED, encoding="utf-8")
    report = lib.import_paths([path])[0]
    keys = {r[0]: r[1] for r in lib.db.execute("SELECT citekey, title FROM papers")}
    assert set(keys) == {"a", "c", "d"}
    assert keys["a"] == "Missing close"
    assert keys["c"].startswith("Unbalanced")
    damaged = [w for w in report.warnings if "is damaged" in w]
    assert damaged == [
        "damaged.bib: line 1: entry 'a' is damaged (it is not closed); read as BibTeX "
        "reads it: its fields up to the damage",
        "damaged.bib: line 7: entry 'c' is damaged (a brace in title is not closed: it "
        "takes in the fields after it); read as BibTeX reads it: its fields up to the "
        "damage"]


# BibTeX loses the entry after one that is not closed (it takes its "@type" for a
# field name): PaperDesk reads that entry too. Here nothing follows the unclosed one.
AT_THE_END = DAMAGED[DAMAGED.index("@article{c"):DAMAGED.index("%@article")] + \
    DAMAGED[DAMAGED.index("@article{d"):] + DAMAGED[:DAMAGED.index("@article{c")]


@pytest.mark.tex
def test_bibtex_builds_the_same_bbl_from_the_export(lib, tmp_path):
    missing = realbib.tools_missing()
    if missing:
        pytest.skip(f"LaTeX tools missing: {', '.join(missing)}")
    path = tmp_path / "damaged.bib"
    path.write_text(AT_THE_END, encoding="utf-8")
    report = lib.import_paths([path])[0]
    assert report.new_papers == 3
    export = lib.bibtex.export()
    assert realbib.same_bbl(AT_THE_END, export, tmp_path / "tex", "bibtex")


@pytest.mark.parametrize(("raw", "found"), [
    ("@misc{k, title = {T}, year = 2000\n\n", ("misc", "k", [("title", "{T}"),
                                                             ("year", "2000")])),
    ('@misc{k, title = "a \\" b", year = 1}', ("misc", "k", [("title", '"a \\"')])),
    ("@misc{k, title = {never closed,\n", None),
    ("@misc{k,\n  title = {a} # x # \"b\",\n note", ("misc", "k", [("title", '{a} # x # "b"')])),
    ("@comment{k, x = {y}", None),
])
def test_salvage_reads_as_bibtex_reads(raw, found):
    got = salvage(raw)
    assert (got[:3] if got else None) == found
