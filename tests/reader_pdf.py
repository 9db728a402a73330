"""A PDF made with pdflatex for the reader's tests and bench: known phrases on known pages.

Page n (1-based) says "This is page n of the reader test." Page 3 also holds
PAGE3_PHRASE twice; ZEBRA is on pages 3 and 7 (three times in all). Built once
per folder and kept there (``reader_pdf(folder)``: the same bytes every time the
same TeX makes them, so a cached one is as good).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.latex_build import latex, require_tools

PAGES = 30
PAGE3_PHRASE = "striped horses graze quietly"
ZEBRA = "zebra"
ZEBRA_HITS = {2: 2, 6: 1}  # 0-based page -> hits of ZEBRA


def _page(n: int) -> str:
    body = [f"This is page {n} of the reader test."]
    if n == 3:
        body += [f"Here the {ZEBRA} herd: {PAGE3_PHRASE}.",
                 "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod.",
                 f"Again, {PAGE3_PHRASE}; and one more {ZEBRA} at the end."]
    if n == 7:
        body.append(f"A lone {ZEBRA} on page seven.")
    body.append("Filler text so that the page holds a paragraph of ordinary words. " * 6)
    return "\n\n".join(body)


def tex_source(pages: int = PAGES) -> str:
    parts = [_page(n) for n in range(1, pages + 1)]
    return ("\\documentclass{article}\n\\usepackage[a4paper]{geometry}\n"
            "\\pagestyle{empty}\n\\begin{document}\n"
            + "\n\\clearpage\n".join(parts) + "\n\\end{document}\n")


def reader_pdf(folder: Path, pages: int = PAGES) -> Path:
    """The test PDF of ``pages`` pages in ``folder`` (made there the first time)."""
    folder.mkdir(parents=True, exist_ok=True)
    pdf = folder / f"reader-{pages}.pdf"
    if pdf.exists():
        return pdf
    require_tools() if shutil.which("pdflatex") is None else None
    build = folder / f"build-{pages}"
    build.mkdir(exist_ok=True)
    (build / "reader.tex").write_text(tex_source(pages), encoding="utf-8")
    latex(build, "reader.tex")
    (build / "reader.pdf").replace(pdf)
    return pdf


def attach(lib, paper_id: int, pdf: Path) -> int:
    """Attach ``pdf`` to a paper as the user would (``lib.pdf.attach``), linked."""
    return lib.pdf.attach(paper_id, pdf, link=True).result.attachment_id
