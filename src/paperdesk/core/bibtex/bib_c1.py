"""C1 control characters in a .bib file read as the cp1252 punctuation they stand for
(pure).

A UTF-8 file holding U+0080-U+009F almost always went through a wrong decoding on
its way: cp1252 curly quotes, dashes, ellipses and the euro sign (bytes 0x80-0x9F)
read as Latin-1 and written out again as UTF-8. No one types a C1 control into a
title, and LaTeX cannot print one, so the import reads each as the cp1252 character
of its byte (U+0093 -> U+201C, U+0096 -> U+2013...) and says so with the first line;
the five bytes cp1252 leaves undefined stay controls, as before.
"""

from __future__ import annotations

import re

from paperdesk.core.model.decode import line_ends

_C1 = re.compile("[\x80-\x9f]")
_C1_UTF8 = re.compile(b"\xc2([\x80-\x9f])")
CP1252 = {chr(b): bytes([b]).decode("cp1252") for b in range(0x80, 0xA0)
          if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)}


def cp1252_bytes(data: bytes, name: str) -> tuple[bytes, list[str]]:
    """UTF-8 bytes with their C1 controls (``\\xc2\\x80``-``\\xc2\\x9f``: in UTF-8 that lead
    byte is never inside another character) replaced by the UTF-8 of the cp1252
    character, and the warning; ``data`` itself when it has none. Decoded, it is the
    text ``cp1252_punctuation`` gives, found at the cost of one byte search (a text
    search of a large file walks every character: 0.5 s for 90 MB, against 4 ms)."""
    found = [m for m in _C1_UTF8.finditer(data) if chr(m[1][0]) in CP1252]
    if not found:
        return data, []
    for sequence in {m.group() for m in found}:
        data = data.replace(sequence, CP1252[chr(sequence[1])].encode("utf-8"))
    start = found[0].start()
    line = data.count(b"\n", 0, start) + 1 if b"\r" not in data[:start] else \
        _line_of(data[:start].decode("utf-8", "replace"))
    return data, [_said(name, [chr(m[1][0]) for m in found], line)]


def _line_of(before: str) -> int:
    """The line on which text that follows ``before`` starts (CR, LF and CRLF end lines)."""
    return line_ends(before).count("\n") + 1


def _said(name: str, controls: list[str], line: int) -> str:
    shown = list(dict.fromkeys(CP1252[c] for c in controls))[:8]
    count = len(controls)
    return (f"{name}: {count} C1 control character{'s' if count > 1 else ''} "
            f"(U+0080-U+009F, first on line {line}) read as the cp1252 punctuation "
            f"they stand for ({' '.join(shown)}): the file was decoded wrongly "
            "once before")


def cp1252_punctuation(text: str, name: str) -> tuple[str, list[str]]:
    """The text with its C1 controls read as cp1252 (same length, same lines), and the
    warning saying how many and where the first stands; the text itself when it has
    none. One search of the text, and a step per control found (a large file may
    hold a few: each is replaced where it stands, never the whole text walked in
    Python)."""
    found = [m for m in _C1.finditer(text) if m.group() in CP1252]
    if not found:
        return text, []
    fixed = _C1.sub(lambda m: CP1252.get(m.group(), m.group()), text)
    line = text.count("\n", 0, found[0].start()) + 1
    return fixed, [_said(name, [m.group() for m in found], line)]
