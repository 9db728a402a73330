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
# text field, which LaTeX rejects wherever a style prints it, and a bare "%", TeX's
# comment, which takes the rest of its line (and the field's closing brace) out of a
# .bbl, biber's holding every field ("key.field").
REPAIRED = {
    "biber-examples.bib": {"t1.TITLE", "i1.ABSTRACT"},
    "biber-bibtex-aliases.bib": {"alias5.ABSTRACT"},
    "bbt-Problem-when-importing-BibTeX-entries-with-percent.bib": {"Akhavan_2009.Abstract"},
    "bbt-ads-jabref-groups-97-excerpt.bib": {"Chen_2009.Abstract"},
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
BARE_PERCENT = ("a bare '%' in an abstract is TeX's comment: biber's .bbl loses the rest "
                "of that line, the field's closing brace with it (a runaway argument); the "
                "export writes it as '\\%', as reported")
BBL_DIFFERS = {
    ("bbt-Problem-when-importing-BibTeX-entries-with-percent.bib", "biber"): BARE_PERCENT,
    ("bbt-ads-jabref-groups-97-excerpt.bib", "biber"): BARE_PERCENT,
    ("biber-bibtex-aliases.bib", "biber"): BARE_PERCENT,
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
    if path.name in PREAMBLE_HIDDEN:
        text, export = realbib.without_preambles(text), realbib.without_preambles(export)
    errors = realbib.compile_both(text, export, tmp_path / "tex", full=False)
    for backend, (original, exported) in errors.items():
        assert exported <= original, f"{backend}: {original} errors before, {exported} after"


# Files whose own @preamble fails under biblatex and whose original hides those errors
# behind an earlier fatal one: compared without their preambles (file -> why).
PREAMBLE_HIDDEN = {
    "bbt-Problem-when-importing-BibTeX-entries-with-percent.bib":
        "its @preamble (\\makeatletter \\@ifundefined{url}...) gives biblatex 5 errors; in "
        "the original a bare '%' in an abstract ends the .bbl's reading first, which hides "
        "some of them; with the preambles left out, biber gives 1 error before, 0 after",
}


def test_a_file_compared_without_its_preamble_is_worse_with_it_only_by_it(tmp_path):
    """The exemption above is the preamble's alone: with it, the export has more errors
    than the file, without it fewer (so that the test of each file can fail)."""
    missing = realbib.tools_missing()
    if missing:
        pytest.skip(f"LaTeX tools missing: {', '.join(missing)}")
    name = next(iter(PREAMBLE_HIDDEN))
    _result, text, export = realbib.measure(realbib.CORPUS / name, tmp_path)
    with_it = realbib.compile_both(text, export, tmp_path / "with", full=True)["biber"]
    without = realbib.compile_both(realbib.without_preambles(text),
                                   realbib.without_preambles(export),
                                   tmp_path / "without", full=True)["biber"]
    assert with_it[1] > with_it[0] and without[1] < without[0]


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
