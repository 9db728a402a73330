"""A PDF for the reader's tests and bench: known phrases on known pages.

Page n (1-based) says "This is page n of the reader test." Page 3 also holds
PAGE3_PHRASE twice; ZEBRA is on pages 3 and 7 (three times in all). Made by pdflatex
(``tex=True``: the tex tier and the bench; built once per folder and kept there) or
written byte by byte with the same lines (``tests/pdf_files.py``: the fast tier,
which runs no TeX).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.latex_build import latex, require_tools
from tests.pdf_files import write_pdf

PAGES = 30
PAGE3_PHRASE = "striped horses graze quietly"
ZEBRA = "zebra"
ZEBRA_HITS = {2: 2, 6: 1}  # 0-based page -> hits of ZEBRA


FILLER = "Filler text so that the page holds a paragraph of ordinary words."


def page_lines(n: int) -> list[str]:
    """Page ``n``'s text, a paragraph a line (its filler in lines of one sentence)."""
    lines = [f"This is page {n} of the reader test."]
    if n == 3:
        lines += [f"Here the {ZEBRA} herd: {PAGE3_PHRASE}.",
                  "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod.",
                  f"Again, {PAGE3_PHRASE}; and one more {ZEBRA} at the end."]
    if n == 7:
        lines.append(f"A lone {ZEBRA} on page seven.")
    return lines + [FILLER] * 6


def _page(n: int) -> str:
    body = [f"This is page {n} of the reader test."]
    if n == 3:
        body += [f"Here the {ZEBRA} herd: {PAGE3_PHRASE}.",
                 "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod.",
                 f"Again, {PAGE3_PHRASE}; and one more {ZEBRA} at the end."]
    if n == 7:
        body.append(f"A lone {ZEBRA} on page seven.")
    body.append(" ".join([FILLER] * 6))
    return "\n\n".join(body)


def tex_source(pages: int = PAGES) -> str:
    parts = [_page(n) for n in range(1, pages + 1)]
    return ("\\documentclass{article}\n\\usepackage[a4paper]{geometry}\n"
            "\\pagestyle{empty}\n\\begin{document}\n"
            + "\n\\clearpage\n".join(parts) + "\n\\end{document}\n")


def reader_pdf(folder: Path, pages: int = PAGES, *, tex: bool = True) -> Path:
    """The test PDF of ``pages`` pages in ``folder`` (made there the first time): by
    pdflatex, or (``tex=False``) byte by byte."""
    folder.mkdir(parents=True, exist_ok=True)
    if not tex:
        return write_pdf(folder / f"reader-{pages}-bytes.pdf",
                         [page_lines(n) for n in range(1, pages + 1)])
    pdf = folder / f"reader-{pages}.pdf"
    if pdf.exists():
        return pdf
    if shutil.which("pdflatex") is None:
        require_tools()
    build = folder / f"build-{pages}"
    build.mkdir(exist_ok=True)
    (build / "reader.tex").write_text(tex_source(pages), encoding="utf-8")
    latex(build, "reader.tex")
    (build / "reader.pdf").replace(pdf)
    return pdf


def attach(lib, paper_id: int, pdf: Path) -> int:
    """Attach ``pdf`` to a paper as the user would (``lib.pdf.attach``), linked."""
    return lib.pdf.attach(paper_id, pdf, link=True).result.attachment_id
