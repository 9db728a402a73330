"""How a file of entries is put together, in one place: ``layout`` (what comes before,
between and after the entries, and the file with none) and ``assemble``, through which
every writer of such a file goes: ``lib.bibtex.export`` (a string: the clipboard, drags,
citations), ``export_to`` (a file: the export dialog, ``export -o``), ``paperdesk export``
to standard output and each kept-in-sync file (bytes, some reused from the file before).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from paperdesk.core.bibtex import formats
from paperdesk.core.db import files
from paperdesk.core.model.errors import BibtexError, LibraryError


def layout(style: str) -> tuple[str, str, str, str]:
    """How a file of ``style`` puts entries together: head, separator, tail, and the
    whole text when there are no entries (``formats``)."""
    return formats.get(style).layout


def assemble(write: Callable[[Any], object], style: str, entries: Iterable[Any],
             header: Sequence[Any] = (), *, binary: bool = False) -> int:
    """Write the file of ``style`` through ``write``, part by part (no text of many
    entries is ever built): the ``header`` blocks (``@preamble``, ``@string``), then the
    ``entries`` as they come; str parts, or bytes with ``binary``. The number of entries."""
    parts: list[Any] = [p.encode() if binary else p for p in layout(style)]  # str or bytes
    head, sep, tail, empty = parts
    count = 0
    if header:
        write(head + sep.join(header))
    for entry in entries:
        write(sep if count or header else head)
        write(entry)
        count += 1
    write(tail if count or header else empty)
    return count


_LOOK = 1 << 16  # bytes of a file looked at


def foreign(path: Path, style: str) -> str | None:
    """Why the file at ``path`` is not one an export of ``style`` replaces unasked: it
    holds something else (past blank lines and ``%`` comments, a file of the format
    begins with its ``formats.Format.starts``: a .bib file with an ``@``, a CSL-JSON
    file with ``[``). None when there is no file there, it is empty,
    or it looks like such a file. Reads at most its first 64 KiB, never waiting."""
    chosen = formats.get(style)
    try:  # a database, a library's own file, a FIFO...: the export refuses it itself
        files.refuse_destination(path)  # (and this never opens a file SQLite has open)
        fd = files.open_regular(path)
    except (OSError, LibraryError):
        return None
    if fd is None:
        return None
    try:
        data = os.read(fd, _LOOK + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    head = data[:_LOOK].decode("utf-8", "replace").lstrip("\ufeff")
    lines = [line.strip() for line in head.splitlines()]
    first = next((line for line in lines if line and not line.startswith("%")), "")
    kind = chosen.kind
    if not first and len(data) > _LOOK:  # a long licence header, a .dtx...
        return f"holds something other than {kind} (only comments in its first 64 KiB)"
    if not first or first.startswith(chosen.starts):
        return None
    shown = first if len(first) <= 40 else first[:39] + "…"
    return f'holds something other than {kind} (it begins "{shown}")'


def refuse_foreign(path: Path, style: str) -> None:
    """BibtexError when the file at ``path`` holds something other than entries of
    ``style`` (``foreign``): an export replaces it only when asked to."""
    why = foreign(path, style)
    if why:
        raise BibtexError(f"{path}: {why}; not replaced: choose another file, or add "
                          "--overwrite to replace it")
