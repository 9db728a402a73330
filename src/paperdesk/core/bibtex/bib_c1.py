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

_C1 = re.compile("[\x80-\x9f]")
CP1252 = {chr(b): bytes([b]).decode("cp1252") for b in range(0x80, 0xA0)
          if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)}


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
    shown = list(dict.fromkeys(CP1252[m.group()] for m in found))[:8]
    count = len(found)
    return fixed, [f"{name}: {count} C1 control character{'s' if count > 1 else ''} "
                   f"(U+0080-U+009F, first on line {line}) read as the cp1252 punctuation "
                   f"they stand for ({' '.join(shown)}): the file was decoded wrongly "
                   "once before"]
