"""``\\{`` inside a value: BibTeX (and biber) count every brace, a backslash before it or
not, so a value with an unpaired ``\\{`` takes in what follows it up to the brace that
balances it. The import reads it the same way, says so, and its export reads back to
the same fields; paired ``\\{...\\}`` (a Better BibTeX export) reads as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdesk.core.library import Library
from tests.latex_build import require_tools
from tests.realbib import bbl_both, compile_errors

BIB = r"""@article{paired, author = {C. Author}, title = {Set \{x\} and more},
  journal = {J}, year = 2003, note = {n1}}
@article{counted, author = {D. Author}, title = {Open \{ closed by a brace}},
  journal = {J}, year = 2004, volume = 3, pages = {1--2}, note = {n2}}
@article{after, author = {E. Author}, title = {After}, journal = {K}, year = 2005}
"""
# BibTeX reads "title" to the entry's last brace, and biber stops reading the file.
RUN_ON = r"""@article{open, author = {D. Author},
  title = {Open \{ only}, journal = {J}, year = 2004, note = {n2}}
@article{after, author = {E. Author}, title = {After}, journal = {K}, year = 2005}
"""
# Better BibTeX's export of a Zotero abstract with a lone "{": it adds \vphantom\} so
# that BibTeX's count balances (bench/corpus/thesis-lyttle-references.bib, line 443).
LYTTLE = Path(__file__).parents[2] / "bench" / "corpus" / "thesis-lyttle-references.bib"


def _round_trip(text: str, tmp_path: Path) -> tuple[object, str, str]:
    first_path = tmp_path / "in.bib"
    first_path.write_text(text, encoding="utf-8")
    with Library.open(tmp_path / "a.sqlite") as lib:
        report = lib.import_paths([first_path])[0]
        first = lib.bibtex.export()
    (tmp_path / "first.bib").write_text(first, encoding="utf-8")
    with Library.open(tmp_path / "b.sqlite") as lib:
        lib.import_paths([tmp_path / "first.bib"])
        second = lib.bibtex.export()
    return report, first, second


def test_a_brace_after_a_backslash_counts_as_in_bibtex(tmp_path):
    report, first, second = _round_trip(BIB, tmp_path)
    assert first == second
    assert "title = {Open \\{ closed by a brace}}," in first
    assert "pages = {1--2}," in first and "note = {n2}" in first
    assert "title = {Set \\{x\\} and more}," in first and "note = {n1}" in first
    assert not [w for w in report.warnings if "damaged" in w]


def test_an_unpaired_escaped_brace_takes_in_what_follows_and_is_reported(tmp_path):
    report, first, second = _round_trip(RUN_ON, tmp_path)
    assert first == second
    assert "title = {Open \\{ only}, journal = {J}, year = 2004, note = {n2}}" in first
    damaged = [w for w in report.warnings if "'open'" in w]
    assert len(damaged) == 1 and "line 1" in damaged[0]
    assert "counts the brace after a backslash in title" in damaged[0]


def test_better_bibtex_escaped_braces_come_back_with_every_field(tmp_path):
    report, first, second = _round_trip(LYTTLE.read_text(encoding="utf-8"), tmp_path)
    assert first == second
    assert not [w for w in report.warnings if "damaged" in w]
    assert r"\vphantom\}}" in first


def test_the_export_builds_the_original_bibliography(tmp_path):
    require_tools()
    _report, first, _second = _round_trip(BIB, tmp_path)
    assert bbl_both(BIB, first, tmp_path / "tex") == {"bibtex": True, "biber": True}


THIEBAUX = Path(__file__).parents[1] / "data" / "bibshapes" / "bbt-873-thiebaux-escaped-brace.bib"


def test_a_real_entry_whose_escaped_brace_nothing_closes_keeps_its_fields(tmp_path):
    """``AUTHOR = {Sylvie Thi\\{'ebaux and ...}``: BibTeX reads the rest of the file
    into the value; the import reads it as written and says so, and its export (whose
    brace closes) reads back with all six fields, where it used to lose five."""
    report, first, second = _round_trip(THIEBAUX.read_text(encoding="utf-8"), tmp_path)
    assert first == second
    said = [w for w in report.warnings if "'Thiebaux:93'" in w]
    assert said == ["in.bib: line 1: entry 'Thiebaux:93': BibTeX counts the brace after a "
                    "backslash in AUTHOR as a brace, which nothing closes: BibTeX reads the "
                    "rest of the file into that value and loses every entry after it; read "
                    "as written, the backslash taking the brace"]
    entry = first[first.index("@TECHREPORT{Thiebaux:93"):first.index("@ARTICLE{Wellman")]
    for name in ("AUTHOR", "TITLE", "INSTITUTION", "YEAR", "NUMBER", "MONTH"):
        assert f"\t{name} = " in entry


@pytest.mark.tex
def test_a_brace_nothing_closes_is_closed_where_tex_sees_no_brace(tmp_path):
    """The export closes Thiebaux's ``\\{`` for BibTeX with ``\\vphantom\\}``, which TeX
    prints as nothing, so pdflatex builds the bibliography with no error, with bibtex
    and with biber. A bare ``}`` balanced BibTeX's count but left TeX an extra brace:
    "Extra }" with bibtex, a name biblatex could not read with biber."""
    require_tools()
    _report, first, second = _round_trip(THIEBAUX.read_text(encoding="utf-8"), tmp_path)
    assert first == second
    for backend in ("bibtex", "biber"):
        assert compile_errors(first, tmp_path / backend, backend) == 0, backend
