"""The export of a seed library completed from the Hub still builds with zero warnings."""

from __future__ import annotations

import re

import pytest

from paperdesk.core.formats.hub import Hub, Limits
from tests.core.test_latex_build import (
    _complaints,
    _latex,
    _library,
    _plain_complaints_of_original,
    _require_tools,
    _run,
)
from tests.fake_hub import FakeHub, populate_from

pytestmark = pytest.mark.tex


@pytest.fixture
def enriched(seed_lib, tmp_path, monkeypatch):
    with FakeHub() as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        known = populate_from(seed_lib, hub, skip_every=10)
        result = seed_lib.enrich(hub=Hub(Limits(rate=1000, workers=4))).result
        assert set(result.completed) <= set(known)
        assert len(result.completed) >= 0.85 * len(known)
    lib = _library(seed_lib, tmp_path)
    assert lib.db.execute("SELECT count(*) FROM papers WHERE arxiv_id IS NOT NULL "
                          "AND authors != '[]'").fetchone()[0] >= 150
    return lib


def test_bibtex_plain_accepts_the_enriched_export(enriched, tmp_path):
    _require_tools()
    build = tmp_path / "plain"
    build.mkdir()
    count = enriched.bibtex.export_to(build / "refs.bib", style="bibtex", notes=True)
    text = (build / "refs.bib").read_text(encoding="utf-8")
    assert "van der Berg, Jan" in text and "Ó Briain, Niamh" in text
    assert re.search(r"eprint = \{24\d\d\.\d{5}\}", text) and "archivePrefix = {arXiv}" in text
    (build / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n"
        "\\begin{document}\n\\nocite{*}\n\\bibliographystyle{plain}\n\\bibliography{refs}\n"
        "\\end{document}\n", encoding="utf-8")
    _latex(build, "doc.tex")
    output = _run(["bibtex", "doc"], build)
    blg = (build / "doc.blg").read_text(errors="replace")
    # The .bib entries are written as written: BibTeX says of them only what it says
    # of their original file.
    assert set(_complaints(output + blg)) <= _plain_complaints_of_original(tmp_path), (
        _complaints(output + blg))
    _latex(build, "doc.tex")
    final = _latex(build, "doc.tex")
    log = (build / "doc.log").read_text(errors="replace")
    assert "LaTeX Warning" not in log and not _complaints(final), final[-2000:]
    assert (build / "doc.bbl").read_text(errors="replace").count("\\bibitem") == count


def test_biber_biblatex_accepts_the_enriched_export(enriched, tmp_path):
    _require_tools()
    build = tmp_path / "biblatex"
    build.mkdir()
    count = enriched.bibtex.export_to(build / "refs.bib", style="biblatex", notes=True)
    (build / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n"
        "\\usepackage[backend=biber]{biblatex}\n\\addbibresource{refs.bib}\n"
        "\\begin{document}\n\\nocite{*}\n\\printbibliography\n\\end{document}\n",
        encoding="utf-8")
    _latex(build, "doc.tex")
    output = _run(["biber", "doc"], build)
    assert not _complaints(output), _complaints(output)
    _latex(build, "doc.tex")
    final = _latex(build, "doc.tex")
    log = (build / "doc.log").read_text(errors="replace")
    assert not re.search(r"(LaTeX|biblatex) Warning", log) and not _complaints(final), (
        final[-2000:])
    assert (build / "doc.bbl").read_text(errors="replace").count("\\entry{") == count
