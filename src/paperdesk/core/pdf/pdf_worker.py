"""The child process of a PDF sandbox: pypdfium2 (PDFium) on one file at a time.

PDFium is not thread-safe and a hostile file can make it spin, eat memory or crash;
it runs here, in a process of its own that the parent (``sandbox.py``) watches and
kills. Tasks come in over one pipe as ``(name, path, args)`` and each gets one answer:
``("ok", result)`` or ``("error", kind, detail)``, where ``kind`` is one of ``ERRORS``'
keys. The last document opened stays open while the same file (same size and time of
change) is asked for again, so a reader turning pages opens its file once.

Nothing here imports PaperDesk beyond this module, for the indexer's task
("pages": the text normalised as the full-text index keeps it) ``normalise``, and
for the reader's "render_into" (a page drawn into shared memory) ``shared_render``: the
child starts quickly, and the answers are plain tuples, lists, strings and bytes.
Normalising here keeps that Python work off the process that asked (the window's, whose
UI thread would otherwise wait for the interpreter's lock while it runs).
"""

from __future__ import annotations

import os
from multiprocessing.connection import Connection
from typing import Any

# Why a file could not be read, as the parent words it (after the file's name).
ERRORS = {
    "encrypted": "is encrypted (it needs a password)",
    "damaged": "is not a PDF, or is damaged",
    "empty": "is empty",
    "missing": "cannot be read (no such file, or no permission)",
    "page": "has no such page",
    "size": "has a page too large to render",
    "large": "is larger than PaperDesk reads",
    "unloadable": "has a page that cannot be loaded (its page tree is damaged, or nests "
                  "deeper than PDFium follows)",
    "memory": "needs more memory than a PDF is given",
    "other": "cannot be read",
}

# A file larger than this is not opened (``store.MAX_BYTES``, the largest one attached):
# PDFium may scan the whole of a large damaged file for its objects, past any deadline.
MAX_BYTES = 1 << 30

# A rendered page is at most this many pixels (4 bytes each): 64 megapixels, 256 MB.
MAX_PIXELS = 64_000_000


class TaskError(Exception):
    """A task failed in an expected way: ``kind`` (a key of ``ERRORS``) and a detail."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(kind, detail)
        self.kind, self.detail = kind, detail


class _Open:
    """The document open in this process, kept while the same file is asked for."""

    def __init__(self) -> None:
        self.key: tuple | None = None
        self.doc: Any = None

    def get(self, path: str) -> Any:
        import pypdfium2 as pdfium

        try:
            st = os.stat(path)
        except OSError as exc:
            raise TaskError("missing", exc.strerror or "") from None
        key = (path, st.st_size, st.st_mtime_ns)
        if key == self.key:
            return self.doc
        self.close()
        if st.st_size == 0:
            raise TaskError("empty")
        if st.st_size > MAX_BYTES:
            raise TaskError("large", f"{st.st_size / 2**20:,.0f} MB; at most "
                                     f"{MAX_BYTES >> 20:,} MB")
        try:
            doc = pdfium.PdfDocument(path)
        except pdfium.PdfiumError as exc:
            text = str(exc)
            if "password" in text.lower():
                raise TaskError("encrypted") from None
            raise TaskError("damaged", text) from None
        except OSError as exc:
            raise TaskError("missing", exc.strerror or "") from None
        self.key, self.doc = key, doc
        return doc

    def close(self) -> None:
        if self.doc is not None:
            self.doc.close()
        self.key, self.doc = None, None


def _page(doc: Any, index: int) -> Any:
    """Page ``index`` (0-based). A page the file counts but PDFium cannot reach (a page
    tree nested thousands deep, a million pages claimed and one present) is said so."""
    import pypdfium2 as pdfium

    if not 0 <= index < len(doc):
        raise TaskError("page", f"page {index + 1} of {len(doc)}")
    try:
        return doc[index]
    except pdfium.PdfiumError:
        raise TaskError("unloadable", f"page {index + 1} of {len(doc):,}") from None


def info(doc: Any) -> dict[str, Any]:
    """Page count and the document's metadata (Title, Author, Subject, Keywords,
    Creator, Producer, CreationDate, ModDate; empty ones left out)."""
    meta = {k: v for k, v in doc.get_metadata_dict(skip_empty=True).items()}
    return {"pages": len(doc), "metadata": meta}


def page_text(doc: Any, index: int) -> str:
    page = _page(doc, index)
    textpage = page.get_textpage()
    try:
        return textpage.get_text_range()
    finally:
        textpage.close()
        page.close()


def text(doc: Any, pages: list[int] | None) -> list[str]:
    """The text of the given pages (0-based), or of every page."""
    return [page_text(doc, i) for i in (range(len(doc)) if pages is None else pages)]


def boxes(doc: Any, index: int) -> dict[str, Any]:
    """A page's text and, per character of it, its box (left, bottom, right, top) in
    PDF points: what find and highlights need. ``size`` is the page's (width, height)."""
    page = _page(doc, index)
    textpage = page.get_textpage()
    try:
        n = textpage.count_chars()
        chars = textpage.get_text_range(0, n) if n else ""
        rects = [textpage.get_charbox(i) for i in range(n)]
        return {"text": chars, "boxes": rects, "size": page.get_size()}
    finally:
        textpage.close()
        page.close()


def render(doc: Any, index: int, scale: float) -> dict[str, Any]:
    """A page rendered at ``scale`` (1: 72 pixels an inch) as raw BGRA bytes, rows of
    ``stride`` bytes: what a QImage of Format_ARGB32 reads on little-endian machines."""
    import pypdfium2.raw as raw

    page = _page(doc, index)
    try:
        width, height = page.get_size()
        if width * height * scale * scale > MAX_PIXELS or scale <= 0:
            raise TaskError("size", f"{width:.0f} x {height:.0f} points at scale {scale}")
        bitmap = page.render(scale=scale, force_bitmap_format=raw.FPDFBitmap_BGRA)
        try:
            return {"width": bitmap.width, "height": bitmap.height, "stride": bitmap.stride,
                    "data": bytes(bitmap.buffer)}
        finally:
            bitmap.close()
    finally:
        page.close()


def render_into(doc: Any, index: int, scale: float, block: str, size: int) -> dict[str, int]:
    """A page rendered into the shared memory block named ``block`` (``size`` bytes):
    its width, height and bytes a row, or the bytes it needs (``shared_render``)."""
    from paperdesk.core.pdf.shared_render import render_into as draw

    page = _page(doc, index)
    try:
        width, height = page.get_size()
        if width * height * scale * scale > MAX_PIXELS or scale <= 0:
            raise TaskError("size", f"{width:.0f} x {height:.0f} points at scale {scale}")
        return draw(page, scale, block, size)
    finally:
        page.close()


def run(opened: _Open, name: str, path: str, args: tuple) -> Any:
    """One task's result (raises TaskError)."""
    doc = opened.get(path)
    if name == "info":
        return info(doc)
    if name == "text":
        return text(doc, args[0])
    if name == "pages":
        from paperdesk.core.pdf.normalise import normalise

        return [normalise(t) for t in text(doc, args[0])]
    if name == "boxes":
        return boxes(doc, args[0])
    if name == "render":
        return render(doc, args[0], args[1])
    if name == "render_into":
        return render_into(doc, *args)
    raise ValueError(f"unknown task {name!r}")


def serve(conn: Connection) -> None:
    """The child's loop: a task in, its answer out, until the pipe closes or None comes."""
    opened = _Open()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        name, path, args = task
        try:
            answer: tuple = ("ok", run(opened, name, path, args))
        except TaskError as exc:
            answer = ("error", exc.kind, exc.detail)
        except MemoryError:  # the process's memory cap (the parent then stops it)
            opened.close()
            answer = ("error", "memory", "")
        except Exception as exc:  # PDFium's other failures: said, and the child goes on
            opened.close()
            answer = ("error", "other", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return
