"""How a file of entries is put together, in one place: ``layout`` (what comes before,
between and after the entries, and the file with none) and ``assemble``, through which
every writer of such a file goes: ``lib.bibtex.export`` (a string: the clipboard, drags,
citations), ``export_to`` (a file: the export dialog, ``export -o``), ``paperdesk export``
to standard output and each kept-in-sync file (bytes, some reused from the file before).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

SEPARATOR = "\n\n"  # between entries, as bibtexparser writes them


def layout(style: str) -> tuple[str, str, str, str]:
    """How a file of ``style`` puts entries together: head, separator, tail, and the
    whole text when there are no entries."""
    if style == "csl-json":
        return "[\n", ",\n", "\n]\n", "[]\n"
    return "", SEPARATOR, "", ""


def assemble(write: Callable[[Any], object], style: str, entries: Iterable[Any],
             header: Sequence[Any] = (), *, binary: bool = False) -> int:
    """Write the file of ``style`` through ``write``, part by part (no text of many
    entries is ever built): the ``header`` blocks (``@preamble``, ``@string``), then the
    ``entries`` as they come; str parts, or bytes with ``binary``. The number of entries."""
    head, sep, tail, empty = (p.encode() if binary else p for p in layout(style))
    count = 0
    if header:
        write(head + sep.join(header))
    for entry in entries:
        write(sep if count or header else head)
        write(entry)
        count += 1
    write(tail if count or header else empty)
    return count
