"""A digest full of control and invisible characters, in a library that also holds
them from before (and notes with CRs and a form feed), exported and built with the
real tools: pdflatex + bibtex, pdflatex + biber, and the CSL-JSON through
``pandoc --citeproc`` into pdflatex. pdflatex stopped on each such character
("Unicode character ... not set up", "Text line contains an invalid character")."""

from __future__ import annotations

import subprocess

import pytest

from tests import latex_build as tex
from tests.core.test_csl_json import _pandoc
from tests.core.test_digest_controls import BAD, _import
from tests.core.test_export_controls import dirty

pytestmark = pytest.mark.tex


def _library(lib, tmp_path):
    tex.require_tools()
    _import(lib, tmp_path)
    dirty(lib)
    return lib


def _clean_build(done: tex.Build) -> None:
    for text in (done.log, done.final, done.bbl):
        assert "Unicode character" not in text and "invalid character" not in text, text[-2000:]
    assert not [line for line in done.log.splitlines() if line.startswith("!")]
    assert not BAD.search(done.bbl)


@pytest.mark.parametrize("ascii", [False, True])
@pytest.mark.parametrize(("style", "backend"), [("bibtex", "bibtex"), ("biblatex", "biber")])
def test_the_export_builds_with_bibtex_and_biber(lib, tmp_path, style, backend, ascii):
    lib = _library(lib, tmp_path)
    folder = tmp_path / backend
    folder.mkdir()
    count = lib.bibtex.export_to(folder / "refs.bib", style=style, ascii=ascii, notes=True)
    assert count == lib.stats()["papers"]
    done = tex.build(folder, backend, fontenc=True)
    _clean_build(done)
    assert not [c for c in tex.complaints(done.backend) if "ERROR" in c], done.backend
    assert done.bbl.count("\\bibitem" if backend == "bibtex" else "\\entry{") == count
    assert "Zerowidth and bidi isolated title" in done.bbl


def test_the_csl_json_export_builds_through_pandoc(lib, tmp_path):
    pandoc = _pandoc()
    lib = _library(lib, tmp_path)
    assert lib.bibtex.export_to(tmp_path / "refs.json", style="csl-json", notes=True)
    (tmp_path / "doc.md").write_text("---\nnocite: '@*'\n---\nText.\n", encoding="utf-8")
    done = subprocess.run([pandoc, "--citeproc", "--bibliography", "refs.json", "-t", "latex",
                           "doc.md", "-o", "refs.tex"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and "WARNING" not in done.stderr, done.stderr
    refs = (tmp_path / "refs.tex").read_text(encoding="utf-8")
    assert "zerowidth and bidi isolated title" in refs.lower() and not BAD.search(refs)
    (tmp_path / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage{hyperref}\n"
        "\\newenvironment{CSLReferences}[2]{}{}\n\\begin{document}\n\\input{refs}\n"
        "\\end{document}\n", encoding="utf-8")
    output = tex.latex(tmp_path, "doc.tex")
    assert "Unicode character" not in output and "invalid character" not in output
