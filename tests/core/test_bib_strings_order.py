"""``@string`` redefined mid-file: BibTeX and biber read a file from the top and expand
a macro with the definition in force where the entry stands, so the entries between
two definitions of a name print the first text. The import reads them so, says so,
and the export builds the same bibliography (checked with bibtex and biber)."""

from __future__ import annotations

from tests.latex_build import require_tools
from tests.realbib import bbl_both, tools_missing

BIB = """@string{jn = "J. Neurosci."}
@string{vol = "12"}
@article{a1, author = {A. Author}, title = {Faces}, journal = jn, volume = vol, year = 2001}
@article{a2, author = {B. Author}, title = {Scenes}, journal = jn # " (Suppl.)", year = 2001}
@string{JN = "Journal of Neuroscience"}
@article{a3, author = {C. Author}, title = {Houses}, journal = jn, volume = vol, year = 2002}
"""


def _import(lib, tmp_path):
    path = tmp_path / "strings.bib"
    path.write_text(BIB, encoding="utf-8")
    return lib.import_paths([path])[0]


def test_each_entry_gets_the_definition_in_force_where_it_stands(lib, tmp_path):
    report = _import(lib, tmp_path)
    exported = lib.bibtex.export()
    assert "journal = {J. Neurosci.}" in exported  # a1: the first definition, in full
    assert "journal = {J. Neurosci. (Suppl.)}" in exported  # a2
    assert "journal = jn," in exported  # a3: the last definition, its macro as written
    assert exported.count("volume = vol,") == 2  # a macro defined once stays a macro
    redefined = [w for w in report.warnings if "defines a macro name again" in w]
    assert len(redefined) == 1 and redefined[0].startswith("strings.bib: line 5:")
    assert "as BibTeX and biber read them" in redefined[0]
    assert "its last definition is used" not in redefined[0]


def test_the_export_builds_the_original_bibliography(lib, tmp_path):
    require_tools()
    _import(lib, tmp_path)
    exported = lib.bibtex.export()
    assert bbl_both(BIB, exported, tmp_path / "tex") == {"bibtex": True, "biber": True}


ABOVE = """@article{early, author = {A. Author}, title = {Early}, journal = jn, month = jan,
  year = 2001}
@string{jn = "J. Neurosci."}
@article{late, author = {B. Author}, title = {Late}, journal = jn, month = jan, year = 2002}
"""


def test_a_macro_used_above_its_definition_reads_as_empty(lib, tmp_path):
    path = tmp_path / "above.bib"
    path.write_text(ABOVE, encoding="utf-8")
    report = lib.import_paths([path])[0]
    said = [w for w in report.warnings if "above its definition" in w]
    assert said == ["above.bib: line 1: entry 'early' uses @string 'jn' above its definition: "
                    "read as empty, as BibTeX and biber read it"]
    exported = lib.bibtex.export()
    assert "journal = {},\n\tmonth = jan," in exported  # jan: the style's month
    assert "journal = jn,\n\tmonth = jan," in exported
    if not tools_missing():
        assert bbl_both(ABOVE, exported, tmp_path / "tex") == {"bibtex": True, "biber": True}
