"""The demo library exported builds under the six styles a reviewer meets: plain, alpha,
plainnat and unsrtnat (natbib, the NeurIPS/ICML/ICLR setup), IEEEtran, and biblatex
(numeric, its standard, and authoryear). Papers without authors are the hard case: their ``key`` (or
biblatex ``label``) is the citation key, never the title, so no reference prints its
title twice and no citation shows a title; their arXiv id is printed by every style
(``howpublished`` beside ``eprint``, which plain, alpha and IEEEtran ignore).

The citations are typeset on the first page and the bibliography on the next ones; the
PDF's text (pypdfium2) is read back, page by page.
"""

from __future__ import annotations

import os
import re
import subprocess
import unicodedata

import pytest

from paperdesk.core.hub.hub import Hub, Limits
from tests import latex_build as tex
from tests.fake_hub import FakeHub, populate_from

pytestmark = pytest.mark.tex

STYLES = [("bibtex", "plain", ""), ("bibtex", "alpha", ""), ("bibtex", "plainnat", "natbib"),
          ("bibtex", "unsrtnat", "natbib"), ("bibtex", "IEEEtran", ""),
          ("biber", "numeric", ""), ("biber", "authoryear", "")]


@pytest.fixture
def demo(seed_lib, monkeypatch):
    """The seed library completed from a stand-in Hub that knows nine papers in ten,
    a third of them with an arXiv id and no authors (as the Hub has some)."""
    with FakeHub() as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        populate_from(seed_lib, hub, skip_every=10)
        for n, paper in enumerate(hub.papers.values()):
            if n % 3 == 0 and not paper.get("organization"):
                paper["authors"] = []
        seed_lib.enrich(hub=Hub(Limits(rate=1000, workers=4)))
    return seed_lib


def _letters(text: str) -> str:
    """Only the letters (ligatures as their letters): line breaks and hyphens apart."""
    return re.sub(r"[^a-z]", "", unicodedata.normalize("NFKC", text.translate(T1)).lower())


# The T1 fonts' ligatures, as the PDF's text gives them (the fonts have no Unicode map).
T1 = {0x1b: "ff", 0x1c: "fi", 0x1d: "fl", 0x1e: "ffi", 0x1f: "ffl"}


def _document(backend: str, style: str, packages: str, keys: list[str]) -> str:
    cites = "; ".join(f"\\cite{{{k}}}" for k in keys)
    head = "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n"
    if backend == "biber":
        # pagetracker off: under authoryear the entry that ends page 11 moved to page 12
        # and back at each run, and LaTeX asked for a rerun for ever
        head += (f"\\usepackage[backend=biber,style={style},pagetracker=false]{{biblatex}}\n"
                 "\\addbibresource{refs.bib}\n")
        tail = "\\printbibliography\n"
    else:
        head += f"\\usepackage{{{packages}}}\n" if packages else ""
        tail = f"\\bibliographystyle{{{style}}}\n\\bibliography{{refs}}\n"
    return (head + "\\begin{document}\n\\raggedright\n" + cites + "\n\\nocite{*}\n\\newpage\n"
            + tail + "\\end{document}\n")


def _build(folder, backend: str) -> tuple[str, str]:
    tex.latex(folder, "doc.tex")
    output = tex.run([backend, "doc"], folder)
    if backend == "bibtex":
        output += (folder / "doc.blg").read_text(errors="replace")
    for _ in range(3):  # until the labels settle (authoryear's take a third run)
        tex.latex(folder, "doc.tex")
        log = (folder / "doc.log").read_text(errors="replace")
        if not re.search(r"[Rr]erun", log):
            break
    return output, log


def _pages(pdf) -> list[str]:
    import pypdfium2

    document = pypdfium2.PdfDocument(str(pdf))
    try:
        return [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()


def _require_style(backend: str, style: str) -> None:
    """The tools, and the style's file (IEEEtran comes with texlive-publishers)."""
    tex.require_tools()
    name = f"{style}.bst" if backend == "bibtex" else f"{style}.bbx"
    found = subprocess.run(["kpsewhich", name], capture_output=True, text=True).stdout
    if not found.strip():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{name} is missing (CI installs it; see .ci/dev.py)")
        pytest.skip(f"{name} is not installed")


@pytest.mark.parametrize(("backend", "style", "packages"), STYLES)
def test_papers_without_authors_cite_well_in_every_style(demo, tmp_path, backend, style,
                                                           packages):
    _require_style(backend, style)
    lib = demo
    bare = lib.db.execute(
        "SELECT citekey, title, arxiv_id FROM papers WHERE authors = '[]' AND organization "
        "IS NULL AND bib_source IS NULL AND deleted_at IS NULL ORDER BY id").fetchall()
    with_id = [row for row in bare if row[2]]
    assert len(bare) >= 40 and len(with_id) >= 15, (len(bare), len(with_id))
    titles = [_letters(t) for (t,) in lib.db.execute("SELECT title FROM papers")]
    # the titles whose first 30 letters are in no other title
    unique = [row for row in bare if sum(_letters(row[1])[:30] in t for t in titles) == 1]
    assert len(unique) >= 0.9 * len(bare)
    arxiv_ids = [a for (a,) in lib.db.execute(
        "SELECT arxiv_id FROM papers WHERE arxiv_id IS NOT NULL AND deleted_at IS NULL")]

    folder = tmp_path / style
    folder.mkdir()
    # alpha cuts its labels from the names in bytes, halving a UTF-8 "Ñ": ASCII for it
    count = lib.bibtex.export_to(folder / "refs.bib", ascii=style == "alpha",
                                 style="biblatex" if backend == "biber" else "bibtex")
    (folder / "doc.tex").write_text(
        _document(backend, style, packages, [row[0] for row in bare]), encoding="utf-8")
    output, log = _build(folder, backend)
    # A paper with no year is said to have none (the export never invents one); that
    # is all BibTeX may say.
    undated = {k for (k,) in lib.db.execute("SELECT citekey FROM papers WHERE year IS NULL "
                                            "AND published IS NULL")}
    said = [line for line in tex.complaints(output)
            if not (m := re.fullmatch(r"Warning--empty year in (\S+)", line.strip()))
            or m[1] not in undated]
    assert not said, said[:10]
    assert not re.search(r"(LaTeX|Package \w+|biblatex) Warning", log), re.findall(
        r".*Warning.*", log)[:10]
    bbl = (folder / "doc.bbl").read_text(errors="replace")
    assert bbl.count("\\bibitem" if backend == "bibtex" else "\\entry{") == count

    pages = _pages(folder / "doc.pdf")
    cited, listed = _letters(pages[0]), _letters("".join(pages[1:]))
    for key, title, _arxiv in unique:
        chunk = _letters(title)[:30]
        assert chunk not in cited, f"{key}: its title is its citation label"
        assert listed.count(chunk) == 1, f"{key}: its title printed {listed.count(chunk)} times"
    if backend == "bibtex":  # no label made of a title either (natbib's \bibitem[...])
        labels = re.findall(r"\\bibitem\[(.*?)\]\{", bbl)
        assert not any(_letters(t)[:30] in _letters(label) for label in labels
                       for _k, t, _a in unique)
    flat = re.sub(r"\s+", "", "".join(pages[1:]))
    missing = [a for a in arxiv_ids if a not in flat]
    assert not missing, f"{len(missing)} of {len(arxiv_ids)} arXiv ids not printed: {missing[:5]}"
