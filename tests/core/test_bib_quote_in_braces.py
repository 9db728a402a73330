"""A quote inside the braces of a quoted value (``"{zeitgem{"a}{\\ss} Schaffende}"``,
TeX Live's texbook1.bib): BibTeX reads it as a character, and the value runs to the
quote outside every brace. bibtexparser ends the value at the inner quote and drops the
entry's later fields; the import reads the value as BibTeX does, on the fast path and
on bibtexparser's (an entry in parentheses, two entries on one line), with no warning,
and its export builds the original's bibliography."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdesk.core.library import Library
from tests.latex_build import require_tools
from tests.realbib import bbl_both

FIELDS = ('  subtitle = "{Ein Handbuch f{\\"u}r zeitgem{"a}{\\ss} Schaffende}",\n'
          '  publisher = "Birkh{\\"a}user",\n  year = "1991",\n  pages = "240"')
SHAPES = {
    "braces": "@Book{Tschichold:NT91,\n  author = \"Jan Tschichold\",\n" + FIELDS + "\n}\n",
    "parentheses": "@Book(Tschichold:NT91,\n  author = \"Jan Tschichold\",\n" + FIELDS + "\n)\n",
    "two on a line": ("@Book{Tschichold:NT91, author = \"Jan Tschichold\", "
                      + FIELDS.replace("\n", " ") + "} @misc{next, title = {Next}}\n"),
}


def _import(text: str, tmp_path: Path) -> tuple[object, str, list[tuple[str, str]]]:
    bib = tmp_path / "in.bib"
    bib.write_text(text, encoding="utf-8")
    with Library.open(tmp_path / "lib.sqlite") as lib:
        report = lib.import_paths([bib])[0]
        export = lib.bibtex.export()
        row = lib.db.execute("SELECT year, bib_source FROM papers WHERE citekey = ?",
                             ["Tschichold:NT91"]).fetchone()
    return report, export, row


@pytest.mark.parametrize("shape", SHAPES)
def test_the_value_runs_to_the_quote_outside_the_braces(shape, tmp_path):
    report, export, (year, _source) = _import(SHAPES[shape], tmp_path)
    assert year == 1991  # the field after the value is read
    assert 'subtitle = "{Ein Handbuch f{\\"u}r zeitgem{"a}{\\ss} Schaffende}",' in export
    assert 'publisher = "Birkh{\\"a}user",' in export and 'pages = "240"' in export
    assert not report.warnings, report.warnings
    if shape == "two on a line":
        assert "title = {Next}" in export


def test_a_brace_that_never_closes_in_quotes_still_ends_at_the_quote(tmp_path):
    # "x {y": a brace nothing closes. The value ends at the quote, as before this
    # reading of groups inside quotes, and the fields after it stay the entry's; the
    # export closes the brace rather than let it run on into the next entry.
    _report, export, _row = _import('@misc{k1, title = "x {y", year = "2001"}\n'
                                    '@misc{k2, title = {Second}, year = 2002}\n', tmp_path)
    assert 'title = {"x {y"}},\n\tyear = "2001"' in export
    assert "title = {Second}" in export


def test_the_export_builds_the_original_bibliography(tmp_path):
    require_tools()
    text = SHAPES["braces"] + "@misc{next, title = {Next}, year = 2020}\n"
    _report, export, _row = _import(text, tmp_path)
    assert bbl_both(text, export, tmp_path / "tex") == {"bibtex": True, "biber": True}
