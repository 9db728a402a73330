"""An author field's names, split and shown as BibTeX reads them (pure).

``split_names`` cuts a name list at its top-level " and " by BibTeX's rules
(bibtexparser's splitter, or one regular expression where that is shown to split
alike); ``display_name`` gives each name as PaperDesk shows it.
"""

from __future__ import annotations

import functools
import itertools
import re

from bibtexparser.middlewares.names import (
    parse_single_name_into_parts,
    split_multiple_persons_names,
)

from paperdesk.core.bibtex.latex_read import decode

# " and " as bibtexparser's splitter finds it in a list without braces or backslashes.
_AND = re.compile(r"[ \r\n\t]+[aA][nN][dD][ \r\n\t]+(?=[^ \r\n\t])")


def split_names(text: str) -> list[str]:
    """The names of a name list, by BibTeX's rules (bibtexparser's splitter; without
    braces or backslashes, the same split by one regular expression; with them, the
    same expression over the text with its brace groups and escapes masked, where
    that is shown to split alike: ``_masked``, or the split that comes to the same
    without building the masked text: ``_vouched_split``)."""
    if not ("{" in text or "}" in text or "\\" in text):
        return [n.strip() for n in _AND.split(text.strip(" \r\n\t")) if n.strip()]
    stripped = text.strip(" \r\n\t")
    names = _vouched_split(stripped)
    if names is None:
        masked = _masked(stripped)
        if masked is not None:
            names, start = [], 0
            for m in _AND.finditer(masked):
                names.append(stripped[start:m.start()])
                start = m.end()
            names.append(stripped[start:])
    if names is not None:
        return [n.strip() for n in names if n.strip()]
    try:
        return [n.strip() for n in split_multiple_persons_names(text) if n.strip()]
    except Exception:  # an unbalanced name list: split at " and " outside braces
        return _split_names(text)


# A brace group two deep at most ({\"o}, {\AA{}}) in one piece, else a brace or an escape;
# every alternative starts with a fixed character, so the search skips to them in C.
_NAME_MARKS = re.compile(r"\{(?:[^{}\\]|\\[\s\S]|\{(?:[^{}\\]|\\[\s\S])*\})*\}|\{|\}|\\[\s\S]?")
_BEFORE_ESCAPE = frozenset(" \r\n\taAnNdD")  # where the splitter may be mid " and "


def _masked(text: str) -> str | None:
    """``text`` with each top-level brace group and each escape (``\\'``) replaced by
    NULs of the same length, or None where bibtexparser's splitter could read it
    otherwise than ``_AND`` reads the masked text: unbalanced braces, or an escape at
    the top level that follows whitespace or a letter of "and", escapes whitespace, or
    ends the text (the splitter steps over an escape without leaving the state it was in;
    a brace group, like any other character, ends a possible " and ")."""
    pieces: list[str] = []
    depth, done, opened = 0, 0, 0
    for m in _NAME_MARKS.finditer(text):
        mark, at = m.group(), m.start()
        if len(mark) > 2 or mark == "{}":  # a whole group
            if depth == 0:
                pieces += (text[done:at], "\x00" * len(mark))
                done = m.end()
        elif mark == "{":
            if depth == 0:
                opened = at
            depth += 1
        elif mark == "}":
            depth -= 1
            if depth < 0:
                return None
            if depth == 0:
                pieces += (text[done:opened], "\x00" * (m.end() - opened))
                done = m.end()
        elif depth == 0:
            if (len(mark) < 2 or mark[1] in " \r\n\t"
                    or (at and text[at - 1] in _BEFORE_ESCAPE)):
                return None
            pieces += (text[done:at], "\x00\x00")
            done = m.end()
    if depth:
        return None
    pieces.append(text[done:])
    return "".join(pieces)


def _group(depth: int) -> str:
    """A brace group nested ``depth`` deep at most; an escape takes the next character."""
    inner = r"[^{}\\]++|\\[\s\S]"
    if depth > 1:
        inner += "|" + _group(depth - 1)
    return r"\{(?:" + inner + r")*+\}"


# A list ``_masked`` vouches for, in one pass in C: text, brace groups (8 deep at most)
# and escapes of a character other than a blank that follow no blank nor letter of "and".
_VOUCHED = re.compile(r"(?:[^{}\\]++|" + _group(8) + r"|(?<![ \r\n\taAnNdD])\\[^ \r\n\t])*+")


_OPENING, _CLOSING = itertools.repeat("{"), itertools.repeat("}")


def _vouched_split(text: str) -> list[str] | None:
    """``text`` cut where ``_AND`` finds " and " in ``_masked(text)``, without masking:
    for a list ``_VOUCHED`` matches whole and with no escaped brace, the ``_AND`` matches
    of the text outside brace groups (counted, every brace being one) are those of the
    masked text (a match holds no brace, backslash or character an escape takes);
    None for any other list."""
    if "\\{" in text or "\\}" in text or not _VOUCHED.fullmatch(text):
        return None
    parts = _AND.split(text)
    if list(map(str.count, parts, _OPENING)) == list(map(str.count, parts, _CLOSING)):
        return parts  # (most lists) no " and " inside a brace group
    names, start, depth, counted = [], 0, 0, 0
    for m in _AND.finditer(text):
        at = m.start()
        depth += text.count("{", counted, at) - text.count("}", counted, at)
        counted = at
        if depth == 0:
            names.append(text[start:at])
            start = m.end()
    names.append(text[start:])
    return names


def _split_names(text: str) -> list[str]:
    return [n.strip() for n in re.split(r"\s+and\s+", text) if n.strip()] if "{" not in text \
        else [n.strip() for n in split_top(re.sub(r"\s+", " ", text), " and ") if n.strip()]


def split_top(text: str, sep: str) -> list[str]:
    """Split at ``sep`` outside braces and quotes (a backslash escapes the character
    after it), stepping from mark to mark rather than by character."""
    parts, depth, quoted, start = [], 0, False, 0
    for m in _marks(sep).finditer(text):
        mark = m.group()
        if mark == "{":
            depth += 1
        elif mark == "}":
            depth -= 1
        elif mark == '"':
            if depth == 0:
                quoted = not quoted
        elif mark == sep and depth == 0 and not quoted:
            parts.append(text[start:m.start()])
            start = m.end()
    parts.append(text[start:])
    return parts


@functools.lru_cache(maxsize=8)
def _marks(sep: str) -> re.Pattern[str]:
    """A backslash with the character it escapes, a brace, a quote, or ``sep``."""
    return re.compile(r'\\[\s\S]?|[{}"]|' + re.escape(sep))


@functools.lru_cache(maxsize=8192)  # the same people recur through a bibliography
def display_name(name: str) -> str:
    """A name as written, decoded; "von Last, Jr, First" when the written "First Last"
    form would not split back the same way once its braces are gone
    (``Giuseppe {De Giacomo}`` -> "De Giacomo, Giuseppe")."""
    plain = " ".join(decode(name).split())
    if "," in name or "{" not in name or wrapped(name):
        return plain
    try:
        parts = parse_single_name_into_parts(name)
    except Exception:
        return plain
    last = " ".join(parts.von + parts.last)
    if not any(" " in decode(p) for p in parts.last):
        return plain
    text = ", ".join(x for x in (last, " ".join(parts.jr), " ".join(parts.first)) if x)
    return " ".join(decode(text).split())


def wrapped(name: str) -> bool:
    """True for "{DeepSeek}": one brace group around the whole name."""
    if not (name.startswith("{") and name.endswith("}")):
        return False
    depth = 0
    for i, ch in enumerate(name):
        depth += (ch == "{") - (ch == "}")
        if depth == 0:
            return i == len(name) - 1
    return False
