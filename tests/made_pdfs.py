"""Small real PDFs for the tests that fetch or drop them, made by pypdfium2 (no TeX)."""

from __future__ import annotations

import io


def pdf_bytes(text: str = "x", pages: int = 1) -> bytes:
    """A PDF of ``pages`` blank pages; ``text`` goes into a comment after its end, so
    that two PDFs of different texts are different files."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument.new()
    for _ in range(pages):
        doc.new_page(200, 200)
    out = io.BytesIO()
    doc.save(out)
    doc.close()
    return out.getvalue() + f"\n% {text}\n".encode()
