"""A page's text as the full-text index keeps it: what PDFium extracts, normalised.

- NFKC: the ligature characters a typesetter leaves in a PDF (U+FB00-FB06: ff, fi,
  fl, ffi, ffl, st) become their letters, so "ﬁnd" is found by "find"; full-width
  and other compatibility forms become the plain ones;
- a word hyphenated at a line's end is joined: a hyphen (or soft hyphen) between a
  letter ending a line and a lowercase letter starting the next is taken out, and
  the lines joined; before a capital the hyphen stays ("Self-Attention"). PDFium
  marks such a hyphen with U+FFFE and joins the lines itself: it is read the same;
- controls go, and every run of white space (line breaks included) is one space.

``EXTRACTOR`` names this normalisation and the PDFium that extracted the text: a
page indexed by another is extracted again (``core/pdf/indexer.py``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from importlib import metadata

VERSION = 1  # of this module's normalisation: one more whenever its output changes

# A hyphen ending a line: the pattern opens with the hyphen, so the scan is quick; the
# letters around it are looked at in ``_joined``.
_JOIN = re.compile(r"[-\u00ad\u2010][ \t]*\n\s*")
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffe\uffff]")


@functools.cache
def extractor() -> str:
    """This normalisation's version and PDFium's (pypdfium2's release)."""
    try:
        engine = metadata.version("pypdfium2")
    except metadata.PackageNotFoundError:
        engine = "unknown"
    return f"text-{VERSION}/pypdfium2-{engine}"


def _joined(m: re.Match[str]) -> str:
    """Between a letter and a lowercase letter, nothing (the word joined); between a
    letter and another letter, the hyphen alone (the lines joined); else as it was."""
    text, start, end = m.string, m.start(), m.end()
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if not (before.isalpha() and after.isalpha()):
        return m.group(0)
    return "" if after.islower() else m.group(0)[0]


def normalise(raw: str) -> str:
    """The text of a page as it is indexed (see the module's notes)."""
    # PDFium's mark of a hyphen it found at a line's end: a hyphen and a line break,
    # joined or kept below like any other.
    text = raw.replace("\ufffe", "-\n").replace("\r\n", "\n").replace("\r", "\n")
    text = unicodedata.normalize("NFKC", text)
    text = _JOIN.sub(_joined, text)
    text = text.replace("\u00ad", "")
    text = _CONTROLS.sub(" ", text)
    return " ".join(text.split())
