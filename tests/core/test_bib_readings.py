"""Readings of a .bib file where PaperDesk once read what BibTeX does not print: a field
given twice (BibTeX prints the first, with a warning; biber the last) and a macro the
file never defines (BibTeX and biber read it as empty, with a warning). PaperDesk shows
what BibTeX prints and says so, and keeps the file's text as written. Held against what
bibtex really prints: a small style writes each entry's fields into the .bbl."""

from __future__ import annotations

import re

import pytest

from tests import latex_build as tex

BIB = r"""@string{a = b}
@string{c = "x" # b # "y"}
@string{e = "E"}
@misc{d1, author = {Ann Lee}, title = {First}, title = {Second}, year = 2020}
@misc{d2, author = {Bo Chen}, title = a, year = 2021}
@misc{d3, author = {Cy Dee}, title = c, year = 2022}
@misc{d4, author = {Dee Eve}, TITLE = {Up}, title = {Low}, year = 2023}
@misc{d5, author = {Eve Fay}, title = undefinedword # " tail " # e, year = 2024, month = mar}
@misc{d6, author = {Fay Gus}, title = {Fine}, author = {Other Person}, year = 2025}
"""

# A style that prints each entry's title and author as BibTeX reads them, one a line.
BST = r"""ENTRY { title author } {} {}
FUNCTION {misc}
{ "\bibitem{" cite$ * "}" * write$ newline$
  "TITLE=" title * "=" * write$ newline$
  "AUTHOR=" author * "=" * write$ newline$ }
FUNCTION {default.type} { misc }
READ
ITERATE {call.type$}
"""


def _import(lib, tmp_path):
    path = tmp_path / "r.bib"
    path.write_text(BIB, encoding="utf-8")
    report = lib.import_paths([path])[0]
    papers = {row[0]: lib.paper(row[1]) for row in
              lib.db.execute("SELECT citekey, id FROM papers")}
    return report, papers


def test_the_first_of_a_field_given_twice_is_read_and_each_is_reported(lib, tmp_path):
    report, papers = _import(lib, tmp_path)
    assert papers["d1"]["title"] == "First"
    assert papers["d4"]["title"] == "Up"
    assert papers["d6"]["authors"] == ["Fay Gus"]
    twice = [w for w in report.warnings if "given more than once" in w]
    assert [w.split(": ", 2)[1:] for w in twice] == [
        ["line 4", "entry 'd1' field title: given more than once; BibTeX prints the first "
         "('First'), and so does PaperDesk; biber the last ('Second'); each kept as written"],
        ["line 7", "entry 'd4' field title: given more than once; BibTeX prints the first "
         "('Up'), and so does PaperDesk; biber the last ('Low'); each kept as written"],
        ["line 9", "entry 'd6' field author: given more than once; BibTeX prints the first "
         "('Fay Gus'), and so does PaperDesk; biber the last ('Other Person'); each kept "
         "as written"]]
    # the file's text as written, both fields, in the export
    written = lib.bibtex.export(as_written=True)
    assert "title = {First},\n\ttitle = {Second}" in written
    assert "TITLE = {Up},\n\ttitle = {Low}" in written


def test_a_macro_the_file_does_not_define_is_empty_and_reported(lib, tmp_path):
    report, papers = _import(lib, tmp_path)
    assert papers["d2"]["title"] == ""
    assert papers["d3"]["title"] == "xy"
    assert papers["d5"]["title"] == "tail E"
    assert papers["d5"]["published"] is None and papers["d5"]["year"] == 2024
    undefined = [w for w in report.warnings if "does not define" in w]
    assert undefined == [
        "r.bib: @string 'a' uses @string 'b', which the file does not define: read as "
        "empty, as BibTeX and biber read it",
        "r.bib: @string 'c' uses @string 'b', which the file does not define: read as "
        "empty, as BibTeX and biber read it",
        "r.bib: line 8: entry 'd5' field title: uses @string 'undefinedword', which the "
        "file does not define: read as empty, as BibTeX and biber read it"]
    assert not any("mar" in w for w in report.warnings)  # a month is the styles' macro
    written = lib.bibtex.export(as_written=True)
    assert "@string{a = b}" in written and "title = a," in written


def _bibtex_prints(folder) -> dict[str, dict[str, str]]:
    (folder / "fields.bst").write_text(BST, encoding="utf-8")
    (folder / "doc.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\nocite{*}\n"
        "\\bibliographystyle{fields}\n\\bibliography{refs}\n\\end{document}\n",
        encoding="utf-8")
    tex.latex(folder, "doc.tex")
    output = tex.run(["bibtex", "doc"], folder)
    assert "I'm ignoring d1's extra \"title\" field" in output
    assert 'string name "b" is undefined' in output
    bbl = (folder / "doc.bbl").read_text(encoding="utf-8")
    return {key: dict(re.findall(r"^(TITLE|AUTHOR)=(.*)=$", body, re.M))
            for key, body in re.findall(r"\\bibitem\{(\w+)\}\n((?:[A-Z]+=.*\n)+)", bbl)}


@pytest.mark.tex
def test_what_paperdesk_shows_is_what_bibtex_prints(lib, tmp_path):
    tex.require_tools()
    _report, papers = _import(lib, tmp_path)
    for source in ("file", "export"):
        folder = tmp_path / source
        folder.mkdir()
        (folder / "refs.bib").write_text(BIB if source == "file" else
                                         lib.bibtex.export(as_written=True), encoding="utf-8")
        printed = _bibtex_prints(folder)
        assert sorted(printed) == sorted(papers)
        for key, paper in papers.items():
            assert printed[key]["TITLE"] == paper["title"], (source, key)
            assert printed[key]["AUTHOR"] == " and ".join(paper["authors"]), (source, key)


@pytest.mark.tex
def test_biber_prints_the_last_of_a_field_given_twice_as_the_warning_says(tmp_path):
    tex.require_tools()
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    done = tex.build(tmp_path, "biber")
    assert "\\field{title}{Second}" in done.bbl and "\\field{title}{First}" not in done.bbl
    assert "undefined macro \"b\"" in done.backend
