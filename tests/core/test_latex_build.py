"""The export must pass real tools: pdflatex + bibtex (plain) and pdflatex + biber (biblatex).

bibtex and biber exit 0 even with warnings, so their output is read: any
"Warning--", "WARN" or "ERROR" line fails the test, as does any LaTeX error or
warning left after the final run. Without the tools the test is skipped, except
in CI (CI=true), where it fails: CI installs them.
"""

from __future__ import annotations

import re

import pytest

from tests import latex_build as tex

pytestmark = pytest.mark.tex


@pytest.mark.parametrize("ascii", [False, True])
def test_bibtex_plain_accepts_the_export(seed_lib, tmp_path, ascii):
    tex.require_tools()
    lib = tex.with_extra(seed_lib, tmp_path)
    folder = tmp_path / "plain"
    folder.mkdir()
    count = lib.bibtex.export_to(folder / "refs.bib", style="bibtex", ascii=ascii, notes=True)
    assert count == lib.stats()["papers"]
    done = tex.build(folder, "bibtex")
    # Entries from a .bib file are written as written: BibTeX may say of them only
    # what it says of the original file (a biblatex type, an entry with no author).
    assert set(tex.complaints(done.backend)) <= tex.plain_complaints_of_original(tmp_path), (
        tex.complaints(done.backend))
    assert "LaTeX Warning" not in done.log and not tex.complaints(done.final), done.final[-2000:]
    bbl = done.bbl
    assert bbl.count("\\bibitem") == count
    # the title as written; the file's note is always there
    assert "{DeepSeek-R1}: Reasoning" in bbl and "{DeepSeek}" in bbl
    assert "Read \\S 3 first; 50\\% of it." in bbl


def test_biber_biblatex_accepts_the_export(seed_lib, tmp_path):
    tex.require_tools()
    lib = tex.with_extra(seed_lib, tmp_path)
    folder = tmp_path / "biblatex"
    folder.mkdir()
    count = lib.bibtex.export_to(folder / "refs.bib", style="biblatex", notes=True)
    done = tex.build(folder, "biber")
    assert not tex.complaints(done.backend), tex.complaints(done.backend)
    assert not re.search(r"(LaTeX|biblatex) Warning", done.log) and not tex.complaints(
        done.final), done.final[-2000:]
    assert done.bbl.count("\\entry{") == count
