"""One PDF open in the reader: its pages' sizes, images and text, all from a sandbox.

``ReaderPages`` holds a sandbox process of its own (``PdfSandbox``: the reader's,
beside the indexer's) and asks it for everything: the page count when opened
(every page taken to be the size of the first until its own text says), a page
rendered to BGRA bytes at a scale, a page's text with a box per character
(``PageText``). A file the sandbox cannot read (not a PDF, encrypted, damaged,
too slow or too large) is a ``PdfError`` of one line naming the file; the sandbox
starts a new child for the next ask, and the program goes on.

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
    def __init__(self, path: str | Path, sandbox: Any = None) -> None:
        self.path = Path(path)
        self._own = sandbox is None  # a sandbox made here is closed here
        self.sandbox = sandbox if sandbox is not None else new_sandbox()
        try:
            pages = int(self.sandbox.info(self.path, deadline=OPEN_DEADLINE_S)["pages"])
            if pages < 1:
                raise PdfError(f"{self.path.name} has no pages")
            first = self.sandbox.boxes(self.path, 0, deadline=OPEN_DEADLINE_S)
        except BaseException:
            self.close()
            raise
        self.first_text = _page_text(first)
        self.sizes: list[tuple[float, float]] = [(first.width, first.height)] * pages

    @property
    def page_count(self) -> int:
        return len(self.sizes)

    def render(self, page: int, scale: float) -> tuple[bytes, int, int, int]:
        """Page ``page`` (0-based) at ``scale`` pixels a point: BGRA bytes, width,
        height and the bytes of a row."""
        self._check(page)
        r = self.sandbox.render(self.path, page, scale, deadline=PAGE_DEADLINE_S)
        return r.data, r.width, r.height, r.stride

    def page_text(self, page: int) -> PageText:
        self._check(page)
        if page == 0:
            return self.first_text
        return _page_text(self.sandbox.boxes(self.path, page, deadline=PAGE_DEADLINE_S))

    def _check(self, page: int) -> None:
        if not 0 <= page < self.page_count:
            raise PdfError(f"{self.path.name} has no page {page + 1}")

    def close(self) -> None:
        """Let the file go; the sandbox stops too when it was made for these pages."""
        if self._own:
            self.sandbox.close()


def new_sandbox() -> Any:
    """A sandbox process for a reader (it starts at its first task)."""
    from paperdesk.core.pdf.sandbox import PdfSandbox

    return PdfSandbox(name="paperdesk-reader")


def _page_text(boxes: Any) -> PageText:
    return PageText(boxes.text, tuple(tuple(b) for b in boxes.boxes), float(boxes.width),
                    float(boxes.height))
