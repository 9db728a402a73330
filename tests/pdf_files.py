"""PDF files for the tests and the benchmarks, written byte by byte (fast: no TeX).

``pdf_bytes(pages)`` makes a PDF whose page i shows the lines ``pages[i]`` in
Helvetica. In a line, ``\\x01`` is the glyph of the ligature "fi" and ``\\x02`` that
of "fl" (a font encoding maps the codes to the glyphs, so PDFium reads them as U+FB01
and U+FB02, as it does in papers typeset by TeX). ``encrypted_pdf()`` is a PDF locked
with a user password; ``nested_pdf(depth)`` one whose page tree nests ``depth``
arrays deep; ``nested_tree_pdf(depth)`` one whose page tree is ``depth`` nodes deep;
``claims_pages(n)`` one whose page tree claims ``n`` pages.
"""

from __future__ import annotations

from pathlib import Path

LIGATURES = {"ﬁ": "\x01", "ﬂ": "\x02"}  # what to write for U+FB01 and U+FB02


def _escape(line: str) -> bytes:
    for lig, code in LIGATURES.items():
        line = line.replace(lig, code)
    out = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return out.encode("latin-1")


def _content(lines: list[str]) -> bytes:
    parts = [b"BT /F1 11 Tf 14 TL 72 740 Td"]
    for line in lines:
        parts.append(b"(" + _escape(line) + b") Tj T*")
    parts.append(b"ET")
    return b"\n".join(parts)


def _document(objects: list[bytes], trailer_extra: bytes = b"") -> bytes:
    """Objects 1..n (object 1 the catalog) joined into a file with its xref table."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += (b"trailer\n<< /Size %d /Root 1 0 R " % (len(objects) + 1) + trailer_extra
            + b">>\nstartxref\n%d\n%%%%EOF\n" % xref)
    return bytes(out)


FONT = (b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Type /Encoding "
        b"/BaseEncoding /WinAnsiEncoding /Differences [1 /fi /fl] >> /ToUnicode 5 0 R >>")
# Codes 1 and 2 read as the ligature characters, the rest as WinAnsi (Latin-1 here).
CMAP = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /L def "
        b"1 begincodespacerange <00> <FF> endcodespacerange 2 beginbfchar <01> <FB01> "
        b"<02> <FB02> endbfchar 1 beginbfrange <20> <FF> <0020> endbfrange endcmap "
        b"CMapName currentdict /CMap defineresource pop end end")


def pdf_bytes(pages: list[list[str]], *, title: str = "", trailer_extra: bytes = b"",
              extra_objects: list[bytes] | None = None, page_extra: bytes = b"",
              count: int | None = None) -> bytes:
    """A PDF of ``pages`` (each a list of lines), its Info title ``title``."""
    n = len(pages)
    # 1 catalog, 2 pages, 3 font, 4 info, 5 its map, then a page and its content per page.
    kids = b" ".join(b"%d 0 R" % (6 + 2 * i) for i in range(n))
    claimed = n if count is None else count
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % claimed,
               FONT,
               b"<< /Title (" + _escape(title) + b") /Producer (PaperDesk tests) >>",
               b"<< /Length %d >>\nstream\n" % len(CMAP) + CMAP + b"\nendstream"]
    for i, lines in enumerate(pages):
        content = _content(lines)
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] " + page_extra +
                       b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (7 + 2 * i))
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    objects.extend(extra_objects or [])
    return _document(objects, b"/Info 4 0 R " + trailer_extra)


def write_pdf(path: Path, pages: list[list[str]], **kwargs: object) -> Path:
    path.write_bytes(pdf_bytes(pages, **kwargs))  # type: ignore[arg-type]
    return path


def encrypted_pdf() -> bytes:
    """A PDF under the standard security handler whose user password is not empty:
    no reader opens it without the password."""
    number = 6 + 2  # after the catalog, pages, font, info, map and one page with its content
    encrypt = (b"<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 "
               b"/O <" + b"ab" * 32 + b"> /U <" + b"cd" * 32 + b"> >>")
    return pdf_bytes([["secret words"]], trailer_extra=b"/Encrypt %d 0 R /ID [<%s> <%s>] "
                     % (number, b"01" * 16, b"01" * 16), extra_objects=[encrypt])


def nested_pdf(depth: int) -> bytes:
    """A one-page PDF whose page's /Resources holds arrays nested ``depth`` deep."""
    return pdf_bytes([["nested"]], page_extra=b"/Nest " + b"[" * depth + b"]" * depth + b" ")


def nested_tree_pdf(depth: int) -> bytes:
    """A one-page PDF whose page tree is ``depth`` /Pages nodes, each the only kid of
    the one above it (objects nested by reference), the page under the last."""
    content = _content(["deep tree"])
    first = 6  # 1 catalog, 2 font, 3 its map, 4 the page, 5 its content, then the nodes
    objects = [b"<< /Type /Catalog /Pages %d 0 R >>" % first, FONT.replace(b"5 0 R", b"3 0 R"),
               b"<< /Length %d >>\nstream\n" % len(CMAP) + CMAP + b"\nendstream",
               b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font "
               b"<< /F1 2 0 R >> >> /Contents 5 0 R >>" % (first + depth - 1),
               b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"]
    for i in range(depth):
        kid = b"4 0 R" if i == depth - 1 else b"%d 0 R" % (first + i + 1)
        parent = b"" if i == 0 else b"/Parent %d 0 R " % (first + i - 1)
        objects.append(b"<< /Type /Pages " + parent + b"/Kids [" + kid + b"] /Count 1 >>")
    return _document(objects)


def claims_pages(count: int) -> bytes:
    """A one-page PDF whose page tree says it holds ``count`` pages."""
    return pdf_bytes([["one page"]], count=count)
