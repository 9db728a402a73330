"""One PDF open in the reader: its pages' sizes, images and text, all from a sandbox.

``ReaderPages`` holds a sandbox process of its own (``PdfSandbox``: the reader's,
beside the indexer's) and asks it for everything: the page count when opened
(every page taken to be the size of the first until its own text says), a page
rendered to BGRA bytes at a scale, a page's text with a box per character
(``PageText``). Pages come through shared memory (``shared_render.Segment``, a
block of these pages' own that the sandbox's child draws into), not through its
pipe; where no shared memory can be made, through the pipe. A file the sandbox
cannot read (not a PDF, encrypted, damaged, too slow or too large) is a
``PdfError`` of one line naming the file; the sandbox starts a new child for the
next ask, and the program goes on.

Called from one thread at a time (the reader's rendering thread); the sandbox's
lock makes a second caller wait its turn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paperdesk.core.model.errors import PdfError
from paperdesk.core.pdf.page_text import PageText

OPEN_DEADLINE_S = 10.0   # opening a file: its page count and first page's text
PAGE_DEADLINE_S = 10.0   # one page, rendered or read
NO_FILE = Path("/nonexistent/paperdesk-warm-up.pdf")  # what a warm-up asks about


class ReaderPages:
    """``first_scale``: render the first page at that scale while opening (the reader's
    first image, ``first``: one round trip to the sandbox fewer before it shows)."""

    def __init__(self, path: str | Path, sandbox: Any = None,
                 first_scale: float | None = None) -> None:
        self.path = Path(path)
        self._own = sandbox is None  # a sandbox made here is closed here
        self.sandbox = sandbox if sandbox is not None else new_sandbox()
        self.first: tuple[float, tuple[bytes, int, int, int]] | None = None
        self.first_text: PageText | None = None
        self.segment = _segment(self.sandbox)
        try:
            pages = int(self.sandbox.info(self.path, deadline=OPEN_DEADLINE_S)["pages"])
            if pages < 1:
                raise PdfError(f"{self.path.name} has no pages")
            size = self._first_page(first_scale)
        except BaseException:
            self.close()
            raise
        self.sizes: list[tuple[float, float]] = [size] * pages

    def _first_page(self, scale: float | None) -> tuple[float, float]:
        """The first page's size in points: from its image, rendered at ``scale``, or
        (no scale, or an image too large to make) from its text."""
        if scale is not None:
            try:
                data, width, height, stride = self._render(0, scale, OPEN_DEADLINE_S)
            except PdfError:
                pass  # its text may still be read, and give the size
            else:  # a copy: the block is drawn into again at the next render
                self.first = (scale, (bytes(data), width, height, stride))
                return (width / scale, height / scale)
        self.first_text = _page_text(self.sandbox.boxes(self.path, 0,
                                                        deadline=OPEN_DEADLINE_S))
        return (self.first_text.width, self.first_text.height)

    @property
    def page_count(self) -> int:
        return len(self.sizes)

    def render(self, page: int, scale: float) -> tuple[bytes | memoryview, int, int, int]:
        """Page ``page`` (0-based) at ``scale`` pixels a point: BGRA bytes, width,
        height and the bytes of a row (the bytes are good until the next render)."""
        self._check(page)
        return self._render(page, scale, PAGE_DEADLINE_S)

    def _render(self, page: int, scale: float, deadline: float
                ) -> tuple[bytes | memoryview, int, int, int]:
        if self.segment is not None:
            width, height, stride = self.sandbox.render_into(
                self.path, page, scale, self.segment, deadline=deadline)
            return self.segment.view(stride * height), width, height, stride
        r = self.sandbox.render(self.path, page, scale, deadline=deadline)
        return r.data, r.width, r.height, r.stride

    def page_text(self, page: int) -> PageText:
        self._check(page)
        if page == 0 and self.first_text is not None:
            return self.first_text
        return _page_text(self.sandbox.boxes(self.path, page, deadline=PAGE_DEADLINE_S))

    def _check(self, page: int) -> None:
        if not 0 <= page < self.page_count:
            raise PdfError(f"{self.path.name} has no page {page + 1}")

    def close(self) -> None:
        """Let the file go; the sandbox stops too when it was made for these pages."""
        if self.segment is not None:
            self.segment.close()
        if self._own:
            self.sandbox.close()


def new_sandbox() -> Any:
    """A sandbox process for a reader (it starts at its first task)."""
    from paperdesk.core.pdf.sandbox import PdfSandbox

    return PdfSandbox(name="paperdesk-reader")


def _segment(sandbox: Any) -> Any:
    """A block of shared memory for the pages, or None (the sandbox renders into
    none, or the system gives none): the pipe carries them then."""
    if not hasattr(sandbox, "render_into"):
        return None
    from paperdesk.core.pdf.shared_render import Segment

    try:
        return Segment()
    except OSError:
        return None


def _page_text(boxes: Any) -> PageText:
    return PageText(boxes.text, tuple(tuple(b) for b in boxes.boxes), float(boxes.width),
                    float(boxes.height))
