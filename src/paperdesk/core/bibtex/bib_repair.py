"""The one change PaperDesk makes to a .bib file's own field when it writes it back:
bare specials escaped (pure).

A bare ``#``, ``&``, ``_`` or ``^`` in a field a style prints as text is an error
wherever it is printed (the original file fails there too), so the export escapes
it; ``paperdesk export --as-written`` does not. In ``abstract``, ``annotation`` and
``annote`` (``NOTES``), which no standard style prints, a bare ``&``, ``_`` or ``^`` is
kept as written (biber writes those fields into the .bbl, which would otherwise differ
from the file's), and the import says where (``bare_in_notes``); a bare ``#`` there is
escaped, since biblatex cannot read it back from the .bbl. A bare ``%`` is kept as written
(BibTeX and JabRef keep it, and the .bbl is the file's own): ``bare_percent`` finds
it for the import, which says where, since TeX reads it as a comment that takes the
rest of its .bbl line with it, the field's closing brace too (biber writes every
field of its data model there, ``annotation`` and ``abstract`` included).

What is math and what is verbatim is decided by TeX's rules: math is ``$...$``,
``$$...$$``, ``\\(...\\)``, ``\\[...\\]``, ``\\ensuremath{...}`` and the math
environments (``equation``, ``align``... with or without ``*``); verbatim is
``\\url{...}``, ``\\href{...}``, ``\\path{...}``, ``\\nolinkurl{...}``, ``\\doi{...}``
and the delimiter forms ``\\path=...=``, ``\\url|...|`` and ``\\verb|...|``. Nothing
inside them is touched.
"""

from __future__ import annotations

import re

# Fields styles print as text (BibTeX's standard styles, biblatex's data model):
# the only ones repaired. Others (comment, file, url...) are never touched.
PRINTED = frozenset(
    "abstract addendum annotation annote booksubtitle booktitle booktitleaddon chapter "
    "edition eventtitle eventtitleaddon howpublished indextitle issuesubtitle issuetitle "
    "journal journaltitle journalsubtitle mainsubtitle maintitle maintitleaddon nameaddon "
    "note origtitle part reprinttitle series shorttitle subtitle title titleaddon venue "
    "address location institution school publisher organization type pages volume number "
    "issue".split())
MATH_ENVIRONMENTS = frozenset(
    f"{name}{star}" for name in ("equation", "align", "gather", "multline", "eqnarray",
                                 "displaymath", "math", "flalign", "alignat")
    for star in ("", "*"))
_VERBATIM_BRACED = frozenset({"url", "href", "path", "nolinkurl", "doi"})
_VERBATIM_DELIMITED = frozenset({"verb", "verb*", "path", "url"})
# How each special is written escaped (the export's repair, and what the import advises).
REPAIRS = {"#": "\\#", "&": "\\&", "_": "\\_", "^": "\\^{}", "%": "\\%"}
_SPECIALS = "#&_^"  # what the export escapes
# A control word (with a star), a control symbol, or a character that changes state;
# a set first, which the regular expression engine skips to fast.
_MARKS = re.compile(r'[\\{}"$#&_^%](?:(?<=\\)(?:[A-Za-z]+\*?|[\s\S]))?')
_ENVIRONMENT = re.compile(r"\s*\{([A-Za-z]+\*?)\}")
_OPEN_GROUP = re.compile(r"\s*\{")


# Printed fields that no standard style prints (annotated bibliographies, biblatex's
# abstracts on request): a bare & _ ^ there, repaired, would change what biber writes
# into every .bbl (which holds them) for no reference a reader sees, so it is kept as
# written and reported. A bare # is still repaired: biblatex cannot even read it from
# the .bbl ("Illegal parameter number"), in every document citing the entry.
NOTES = frozenset({"abstract", "annotation", "annote"})
_KEPT_IN_NOTES = "&_^"


def repair(name: str, raw: str) -> str:
    """The raw value, with bare ``#``, ``&``, ``_`` and ``^`` in text (inside the
    value's braces or quotes, outside math and verbatim) escaped (in ``NOTES``, ``#``
    alone); everything else exactly as written. Fields styles do not print as text are
    returned as they are."""
    if not ("#" in raw or "&" in raw or "_" in raw or "^" in raw) or (
            name.lower() not in PRINTED):
        return raw
    if name.lower() in NOTES:
        return _Repair(raw, "#").run() if "#" in raw else raw
    return _Repair(raw).run()


def bare_percent(name: str, raw: str) -> bool:
    """Whether a field styles print holds a bare ``%`` (outside verbatim; in math too,
    where it is a comment as well)."""
    return "%" in raw and name.lower() in PRINTED and _Repair(raw, "%").run() != raw


def bare_in_notes(name: str, raw: str) -> str:
    """The bare ``&``, ``_`` and ``^`` a ``NOTES`` field holds (that the export keeps as
    written), in that order; empty for any other field."""
    if name.lower() not in NOTES or not ("&" in raw or "_" in raw or "^" in raw):
        return ""
    escaped = _Repair(raw, _KEPT_IN_NOTES).run()
    if escaped == raw:  # (most: in math only) nothing bare
        return ""
    return "".join(c for c in _KEPT_IN_NOTES
                   if escaped.count("\\" + c) > raw.count("\\" + c))


class _Repair:
    def __init__(self, raw: str, specials: str = _SPECIALS) -> None:
        self.raw = raw
        self.specials = specials
        self.depth = 0
        self.quoted = False
        self.math: str | tuple[str, object] | None = None  # what closes the math
        self.skip: int | None = None  # in a braced verbatim group opened at this depth

    def run(self, end: int | None = None) -> str:
        """The value repaired, its marks read up to ``end``: by default the last special,
        since nothing after it can change what is written (no mark starting before it
        reaches past it: a control word is letters, and the special is none)."""
        out: list[str] = []
        raw, last, pos = self.raw, 0, 0
        if end is None:
            end = max(map(raw.rfind, self.specials)) + 1
        while (m := _MARKS.search(raw, pos, end)) is not None:
            i, token = m.start(), m.group()
            pos = m.end()
            if token[0] == "\\":
                pos = self._command(token[1:], pos)
            elif token == "{":
                self.depth += 1
            elif token == "}":
                self._close(i)
            elif token == '"':
                self.quoted = not self.quoted if self.depth == 0 else self.quoted
            elif token == "$":
                pos = self._dollar(i)
            elif token not in self.specials:
                pass  # a mark of another repair
            elif (self.depth or self.quoted) and self.skip is None and (
                    self.math is None or token == "%"):
                out += (raw[last:i], REPAIRS[token])
                last = i + 1
        out.append(raw[last:])
        return "".join(out)

    def _command(self, name: str, pos: int) -> int:
        """Where to go on after ``\\name`` (ending at ``pos``)."""
        raw = self.raw
        if self.skip is not None:
            return pos
        if self.math is None and name in _VERBATIM_DELIMITED and pos < len(raw) and (
                raw[pos] not in "{ \t\r\n" and not raw[pos].isalpha()):
            end = raw.find(raw[pos], pos + 1)  # \verb|...|, \path=...=
            return len(raw) if end < 0 else end + 1
        if self.math is None and name in _VERBATIM_BRACED and _OPEN_GROUP.match(raw, pos):
            self.skip = self.depth
        elif name in ("(", "["):
            self.math = self.math or ("\\)" if name == "(" else "\\]")
        elif name in (")", "]") and self.math == "\\" + name:
            self.math = None
        elif name == "ensuremath" and self.math is None and _OPEN_GROUP.match(raw, pos):
            self.math = ("group", self.depth)
        elif name in ("begin", "end") and (env := _ENVIRONMENT.match(raw, pos)) and (
                env.group(1) in MATH_ENVIRONMENTS):
            if name == "begin" and self.math is None:
                self.math = ("env", env.group(1))
            elif name == "end" and self.math == ("env", env.group(1)):
                self.math = None
            return env.end()
        return pos

    def _close(self, i: int) -> None:
        self.depth -= 1
        if self.skip == self.depth and not self.raw.startswith("{", i + 1):
            self.skip = None  # \href{url}{text}: both groups as written
        if self.math == ("group", self.depth):
            self.math = None

    def _dollar(self, i: int) -> int:
        if self.skip is not None or not (self.depth or self.quoted):
            return i + 1
        double = self.raw.startswith("$$", i)
        mark = "$$" if double else "$"
        if self.math is None:
            self.math = mark
        elif self.math == mark:
            self.math = None
        return i + len(mark)
