"""Rendered pages passed through shared memory, not through the sandbox's pipe.

A page at two pixels a point is 8 MB of BGRA (A4). Sent through the pipe it is
copied four times (into bytes, pickled, read back in 64 KB pieces, unpickled), and
each piece read takes the interpreter's lock again, so a window busy painting
slows the transfer and the transfer slows the painting. Here the reader's pages
(``Segment``, one per open PDF) hold a block of shared memory
(``multiprocessing.shared_memory``); the sandbox's child renders the page and
copies it into the block at memory speed (``render_into``; no C-level access of
PaperDesk's own, which the portability rule forbids) and answers with the image's
width, height and bytes a row only. The reader copies the pixels once, into its
image.

A page larger than the block is answered with the bytes it needs; the reader
makes a larger block and asks again. The child keeps the last few blocks it was
given open (``_attached``) and lets older ones go.

The child's side (``render_into``) imports nothing of PaperDesk: the sandbox's
child starts quickly.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from multiprocessing import shared_memory
from typing import Any

FIRST_BYTES = 16 << 20  # a block's first size: an A4 page at 2.4 pixels a point
KEPT = 4                # blocks the child keeps open

_attached: OrderedDict[str, shared_memory.SharedMemory] = OrderedDict()


def _block(name: str) -> shared_memory.SharedMemory:
    """The child's view of block ``name`` (opened at its first use, kept a while)."""
    found = _attached.get(name)
    if found is not None:
        _attached.move_to_end(name)
        return found
    block = shared_memory.SharedMemory(name=name)
    _attached[name] = block
    while len(_attached) > KEPT:
        _name, old = _attached.popitem(last=False)
        with contextlib.suppress(BufferError, OSError):
            old.close()
    return block


def _buf(block: shared_memory.SharedMemory) -> memoryview:
    """The block's bytes (None only once it is closed, which no caller does first)."""
    buf = block.buf
    if buf is None:
        raise ValueError(f"shared memory {block.name} is closed")
    return buf


def render_into(page: Any, scale: float, name: str, size: int) -> dict[str, int]:
    """Render ``page`` (a pypdfium2 page) at ``scale`` into block ``name`` of ``size``
    bytes, as BGRA rows: ``{"width", "height", "stride"}``, or ``{"need": bytes}``
    when the block is too small."""
    import pypdfium2.raw as raw

    width, height = page.get_size()
    w, h = round(width * scale), round(height * scale)
    # PDFium's own rounding may give a pixel more: room for a row and a column.
    need = (w + 1) * 4 * (h + 1)
    if need > size:
        return {"need": need}
    bitmap = page.render(scale=scale, force_bitmap_format=raw.FPDFBitmap_BGRA)
    try:  # copied into the block at memory speed (no C-level access of our own)
        pixels = memoryview(bitmap.buffer).cast("B")
        try:
            _buf(_block(name))[:pixels.nbytes] = pixels
        finally:
            pixels.release()
        return {"width": bitmap.width, "height": bitmap.height, "stride": bitmap.stride}
    finally:
        bitmap.close()


class Segment:
    """The reader's block of shared memory for one PDF's pages (one render at a time:
    what ``view`` gives is good until the next render)."""

    def __init__(self, size: int = FIRST_BYTES) -> None:
        self.block = shared_memory.SharedMemory(create=True, size=size)

    @property
    def name(self) -> str:
        return self.block.name

    @property
    def size(self) -> int:
        return self.block.size

    def grow(self, size: int) -> None:
        """A new block of at least ``size`` bytes in place of this one."""
        self.close()
        self.block = shared_memory.SharedMemory(create=True, size=size)

    def view(self, nbytes: int) -> memoryview:
        return _buf(self.block)[:nbytes]

    def close(self) -> None:
        block = self.block
        with contextlib.suppress(FileNotFoundError, OSError):
            block.unlink()  # gone once the child lets it go too
        with contextlib.suppress(BufferError, OSError):
            block.close()  # a view still held: the memory goes with the view
