"""Real .bib files nobody here wrote (tests/data/realbib/, sources in its README):
every key comes back, every field as written, the round trip is byte for byte, and
the export compiles with pdflatex+bibtex and pdflatex+biber with no more errors
than the file itself. ``python -m tests.realbib --tex`` prints the totals."""

from __future__ import annotations

import os

import pytest

from tests import realbib

FILES = realbib.corpus()
# Fields the export writes differently on purpose: a bare "#" or "&" in a printed
# text field, which LaTeX rejects wherever a style prints it ("key.field").
REPAIRED = {
    "biber-examples.bib": {"t1.TITLE"},
    # Mendeley's export: bare "_" in library record IDs (notes), "#" in an abstract and a
    # title (69 pdflatex+bibtex errors in the file, 0 in the export); and one entry
    # with an empty key ("@article{,"), which gets a generated key (in the report),
    # so its fields are counted under the key "" as not written back
    "bbt-mendeley-web_page-and-other-mendeley-idiocy.bib": {
        "Callahan2011.abstract", "Callahan2011.journal", "Callahan2011.publisher",
        "Choo2014.note", "Denning1992.note", "Donovan2008.note", "Foley2019.note",
        "Goldstein1990.note", "Highfield2016.note", "Hubler2014.note", "Iversen2013.note",
        "Macrae2015.note", "Mcgregor2019.note", "Naidoo1992.note", "Paul2010.note",
        "Scales2015.note", "Tracy2019.abstract", "Tracy2019.note", "Tracy2019.title",
        "Wagner2019.note", "Williams2015.note", ".abstract", ".author", ".issue",
        ".journal", ".note", ".title", ".volume", ".year"},
}
# Files whose .bbl differs, built from the export, because the file itself is
# broken for that back end (the export reads as the other back end reads the file),
# or because of a change the export makes on purpose: (file, back end) -> why.
REPEATED = ("a key is repeated: BibTeX and biber drop the second entry, PaperDesk keeps "
            "it under a new key (listed in the import report)")
PERCENT = ("'%' comments inside entries are biber's: BibTeX stops reading the entry "
           "there with an error and loses its other fields; the export has them")
MENDELEY = ("bare '_' and '#' in printed fields are LaTeX errors (69 with bibtex, 1 with "
            "biber; 0 in the export, which escapes them, as reported); the entry with an "
            "empty key gets a generated key")
BBL_DIFFERS = {
    ("bbt-Title-of-German-entry-converted-to-lowercase-durin.bib", "bibtex"): REPEATED,
    ("bbt-Title-of-German-entry-converted-to-lowercase-durin.bib", "biber"): REPEATED,
    ("biber-examples.bib", "bibtex"): REPEATED + "; a bare '#' in t1's title is escaped",
    ("biber-examples.bib", "biber"): REPEATED + "; a bare '#' in t1's title is escaped",
    ("biber-xdata.bib", "bibtex"): PERCENT,
    ("biber-names.bib", "bibtex"): "entries commented out with '%' (L27, L28) are entries "
                                   "to BibTeX, comments to biber; the export has no text "
                                   "between entries",
    ("bbt-mendeley-web_page-and-other-mendeley-idiocy.bib", "bibtex"): MENDELEY,
    ("bbt-mendeley-web_page-and-other-mendeley-idiocy.bib", "biber"): MENDELEY,
    ("jabref-bibWithUserComments.bib", "biber"): "biber reads nothing of the file (its "
                                                 "'@Comment this in an unbracketed comment' "
                                                 "line), so its .bbl is empty",
}


def test_the_corpus_is_there_and_modest():
    assert len(FILES) >= 40
    assert sum(p.stat().st_size for p in FILES) < 2 * 1024 * 1024
    readme = (realbib.CORPUS / "README.md").read_text(encoding="utf-8")
    assert all(p.name in readme for p in FILES)  # each file's source and licence


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_keys_fields_and_round_trip(path, tmp_path):
    result, _text, _export = realbib.measure(path, tmp_path)
    assert result.keys_lost == []
    repaired = REPAIRED.get(path.name, set())
    changed = [c for c in result.changed if c.split(":", 1)[0] not in repaired]
    assert changed == []
    assert result.fields_as_written == result.fields - len(result.changed)
    assert result.round_trip_same


@pytest.mark.tex
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_export_compiles_no_worse_than_the_file(path, tmp_path):
    missing = realbib.tools_missing()
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"LaTeX tools missing: {', '.join(missing)} (CI installs them)")
        pytest.skip(f"LaTeX tools missing: {', '.join(missing)}")
    _result, text, export = realbib.measure(path, tmp_path)
    errors = realbib.compile_both(text, export, tmp_path / "tex", full=False)
    for backend, (original, exported) in errors.items():
        assert exported <= original, f"{backend}: {original} errors before, {exported} after"


@pytest.mark.tex
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_export_builds_the_same_bbl_as_the_file(path, tmp_path):
    """BibTeX (plain) and biber (biblatex) build the same .bbl, white space aside,
    from the export as from the file, except where BBL_DIFFERS says why not."""
    missing = realbib.tools_missing()
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"LaTeX tools missing: {', '.join(missing)} (CI installs them)")
        pytest.skip(f"LaTeX tools missing: {', '.join(missing)}")
    _result, text, export = realbib.measure(path, tmp_path)
    same = realbib.bbl_both(text, export, tmp_path / "tex")
    expected = {b: (path.name, b) not in BBL_DIFFERS for b in same}
    assert same == expected
