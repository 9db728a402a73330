"""A missing comma between two fields: BibTeX reads the fields before it, says "I was
expecting a `,' or a `}'" and skips the rest of the entry (biber stops reading the
file). The import reads the entry as BibTeX does and names the line and the fields
left unread, where it used to fold the next field into the value without a word."""

from __future__ import annotations

from tests.latex_build import require_tools
from tests.realbib import bbl_both

BIB = """@article{c0, author = {Z. Author}, title = {Before}, journal = {J}, year = 2005}
@article{c1, author = {E. Author}, title = {A Title}
  journal = {J. Irrel.}, year = 2005}
@article{c2, author = {F. Author}, journal = jn
  title = "After", year = 2006}
@string{jn = "K"}
@article{c3, author = {G. Author}, title = {Last}, journal = {J}, year = 2007}
"""


def _import(lib, tmp_path):
    path = tmp_path / "comma.bib"
    path.write_text(BIB, encoding="utf-8")
    return lib.import_paths([path])[0]


def test_the_missing_comma_is_reported_with_its_line(lib, tmp_path):
    report = _import(lib, tmp_path)
    said = [w for w in report.warnings if "comma is missing" in w]
    assert len(said) == 2, report.warnings
    assert said[0].startswith("comma.bib: line 2: entry 'c1'")
    assert "between title and journal on line 3" in said[0]
    assert "does not read journal, year" in said[0]
    assert "between journal and title on line 5" in said[1]
    exported = lib.bibtex.export()
    assert "J. Irrel." not in exported and "=~" not in exported
    assert "title = {A Title}\n}" in exported
    assert len(lib.db.execute("SELECT id FROM papers").fetchall()) == 4


def test_the_export_builds_bibtexs_bibliography(lib, tmp_path):
    require_tools()
    _import(lib, tmp_path)
    same = bbl_both(BIB, lib.bibtex.export(), tmp_path / "tex")
    assert same["bibtex"]  # biber reads no entry of the original at all
