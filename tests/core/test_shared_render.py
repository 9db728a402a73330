"""Rendered pages through shared memory: the same pixels as through the pipe.

A real sandbox child draws into a real block of shared memory; a block too small
is replaced by one as large as the page needs, and the page is drawn again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdesk.core.model.errors import PdfError
from paperdesk.core.pdf.reader_pages import ReaderPages
from paperdesk.core.pdf.sandbox import PdfSandbox
from paperdesk.core.pdf.shared_render import Segment
from tests.pdf_files import write_pdf


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    return write_pdf(tmp_path / "paper.pdf", [["Known phrase alpha."], ["Page two, bravo."]])


def test_a_page_through_shared_memory_is_the_page_through_the_pipe(paper: Path) -> None:
    with PdfSandbox() as sandbox:
        segment = Segment()
        try:
            width, height, stride = sandbox.render_into(paper, 1, 2.0, segment)
            piped = sandbox.render(paper, 1, 2.0)
            assert (width, height, stride) == (piped.width, piped.height, piped.stride)
            assert bytes(segment.view(stride * height)) == piped.data
            assert piped.data.count(b"\xff\xff\xff\xff") < width * height  # ink
        finally:
            segment.close()


def test_a_block_too_small_grows_to_the_page(paper: Path) -> None:
    with PdfSandbox() as sandbox:
        segment = Segment(size=4096)
        first = segment.name
        try:
            _width, height, stride = sandbox.render_into(paper, 0, 1.0, segment)
            assert segment.name != first and segment.size >= stride * height
            assert bytes(segment.view(stride * height)) == sandbox.render(paper, 0, 1.0).data
            with pytest.raises(PdfError, match="too large to render"):
                sandbox.render_into(paper, 0, 100.0, segment)
        finally:
            segment.close()


def test_the_reader_s_pages_come_through_their_block_and_let_it_go(paper: Path) -> None:
    with PdfSandbox() as sandbox:
        pages = ReaderPages(paper, sandbox, first_scale=1.0)
        assert pages.segment is not None
        name = pages.segment.name
        data, *_size = pages.render(1, 1.0)
        assert isinstance(data, memoryview)
        assert bytes(data) == sandbox.render(paper, 1, 1.0).data
        assert pages.first is not None and pages.first[1][0] == sandbox.render(paper, 0, 1.0).data
        del data
        pages.close()
        if Path("/dev/shm").is_dir():  # Linux shows its blocks as files: this one is gone
            assert not (Path("/dev/shm") / name.lstrip("/")).exists()
