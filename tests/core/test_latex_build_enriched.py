"""The export of a seed library completed from the Hub still builds with zero warnings."""

from __future__ import annotations

import re

import pytest

from paperdesk.core.hub.hub import Hub, Limits
from tests import latex_build as tex
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
    lib = tex.with_extra(seed_lib, tmp_path)
    assert lib.db.execute("SELECT count(*) FROM papers WHERE arxiv_id IS NOT NULL "
                          "AND authors != '[]'").fetchone()[0] >= 150
    return lib


def test_bibtex_plain_accepts_the_enriched_export(enriched, tmp_path):
    tex.require_tools()
    folder = tmp_path / "plain"
    folder.mkdir()
    count = enriched.bibtex.export_to(folder / "refs.bib", style="bibtex", notes=True)
    text = (folder / "refs.bib").read_text(encoding="utf-8")
    assert "van der Berg, Jan" in text and "Ó Briain, Niamh" in text
    assert re.search(r"eprint = \{24\d\d\.\d{5}\}", text) and "archivePrefix = {arXiv}" in text
    done = tex.build(folder, "bibtex", fontenc=True)
    # The .bib entries are written as written: BibTeX says of them only what it says
    # of their original file.
    assert set(tex.complaints(done.backend)) <= tex.plain_complaints_of_original(tmp_path), (
        tex.complaints(done.backend))
    assert "LaTeX Warning" not in done.log and not tex.complaints(done.final), done.final[-2000:]
    assert done.bbl.count("\\bibitem") == count


def test_biber_biblatex_accepts_the_enriched_export(enriched, tmp_path):
    tex.require_tools()
    folder = tmp_path / "biblatex"
    folder.mkdir()
    count = enriched.bibtex.export_to(folder / "refs.bib", style="biblatex", notes=True)
    done = tex.build(folder, "biber", fontenc=True)
    assert not tex.complaints(done.backend), tex.complaints(done.backend)
    assert not re.search(r"(LaTeX|biblatex) Warning", done.log) and not tex.complaints(
        done.final), done.final[-2000:]
    assert done.bbl.count("\\entry{") == count
