"""Plain text to BibTeX field text (reading it back is ``latex_read``).

Writing: the LaTeX specials ``% & # _ $ { } ~ ^ \\`` are escaped (an existing
``\\%`` is kept, not escaped twice); words with capitals in titles are
protected with braces so that styles which lower-case titles keep them;
``ascii=True`` turns non-ASCII characters into LaTeX accents and symbols
(``ä`` -> ``{\\"a}``), falling back to a transliteration for characters LaTeX
has no name for. Braces are escaped as ``\\{ \\}`` when they balance (BibTeX
counts them even when escaped) and written as ``\\textbraceleft{}`` otherwise.
No control character but tab and newline, and no invisible format character (a
zero-width space, a bidirectional override), is written: pdflatex stops on them
(``text.printable``: a control is a space, a CR a newline, the others dropped).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from paperdesk.core.bibtex.latex_chars import (
    ACCENTS,
    LETTERS,
    char_tables,
    greek_latex,
    is_greek,
    pylatexenc_encode,
)
from paperdesk.core.bibtex.tex_safe import math_ok

__all__ = ["ACCENTS", "char_tables"]  # read from here by latex_read and the tests
from paperdesk.core.model.text import printable

SPECIALS = "%&#_$"
_ESCAPED = re.compile(r"\\[%&#_${}]|[\\%&#_${}~^]")
_TEXT_BRACES = {"{": r"\textbraceleft{}", "}": r"\textbraceright{}"}
_ONE = {"~": r"\textasciitilde{}", "^": r"\^{}", "\\": r"\textbackslash{}"}
# Braces first: the escapes of ~ and ^ bring braces of their own.
_CHARS = "{}" + SPECIALS + "~^\\"
_PLAIN_ESCAPES = {ch: "\\" + ch for ch in "{}" + SPECIALS} | {"~": r"\textasciitilde{}",
                                                             "^": r"\^{}"}


def _balanced(text: str) -> bool:
    """Whether the braces of ``text`` balance. Each brace is found with ``str.find``:
    the cost is a scan of the text and a step per brace."""
    depth, opening, closing = 0, text.find("{"), text.find("}")
    while closing >= 0:
        if 0 <= opening < closing:
            depth += 1
            opening = text.find("{", opening + 1)
        else:
            depth -= 1
            if depth < 0:
                return False
            closing = text.find("}", closing + 1)
    return depth == 0 and opening < 0


braces_pair = _balanced  # for the export's check of .bib values (``export_report``)


def escape(text: str, *, ascii: bool = False) -> str:
    """Field text for a text field (title, abstract, note...): ``printable`` (no control,
    no invisible character), then escaped (``_escape``)."""
    return _escape(printable(text), ascii)


def _escape(text: str, ascii: bool) -> str:
    """``escape`` of text that is ``printable`` already.

    Math stays math: a ``$...$`` span (opening ``$`` before a non-space, closing
    ``$`` after one) whose braces balance and whose every control sequence is on
    the allowlist of ``tex_safe`` is written as it is, so ``$O(n^2)$`` is not
    turned into ``\\$O(n\\^{}2)\\$``; a lone ``$`` (``$5``) is escaped, and so is
    any other span (``$\\input{x}$`` is text: ``\\$\\textbackslash{}input\\{x\\}\\$``).
    """
    if "$" not in text:
        return _escape_text(text, ascii)
    pieces = _MATH_PIECES.split(text)  # text, a span, text, a span... text
    if len(pieces) == 1:
        return _escape_text(text, ascii)
    if not all(map(_kept_math, pieces[1::2])):
        pieces = _text_around(pieces)
    gaps = pieces[0::2]
    if len(gaps) > 1 and text.isascii() and "\x01" not in text and all(map(_balanced, gaps)):
        # The text around the math escaped at once: each piece goes token by token,
        # and the \x01 between them is no part of any token.
        pieces[0::2] = _escape_balanced("\x01".join(gaps)).split("\x01")
    else:
        pieces[0::2] = [_escape_text(gap, ascii) for gap in gaps]
        pieces[1::2] = [_chars(span, ascii) for span in pieces[1::2]]
    return "".join(pieces)


def _text_around(pieces: list[str]) -> list[str]:
    """``pieces`` with each span that is not kept as math joined to the text around it."""
    out = [pieces[0]]
    for span, text in zip(pieces[1::2], pieces[2::2], strict=True):
        if _kept_math(span):
            out += (span, text)
        else:
            out[-1] += span + text
    return out


@functools.lru_cache(maxsize=1 << 12)
def _kept_math(span: str) -> bool:
    """Whether a ``$...$`` span is written as it is. Cached: the same formulas
    (``$O(n \\log n)$``) come back in abstract after abstract."""
    return _balanced(span) and math_ok(span[1:-1])


# $...$ with no space just inside either dollar, no lone dollar inside. The pattern
# starts with the dollar itself (the test of the character before it comes after), so
# the search skips to each dollar instead of trying every position of an abstract.
# Possessive: what may be inside is read one way only, up to the first dollar that is
# not escaped, so there is nothing to go back over.
_MATH = re.compile(r"\$(?<![\\$]\$)(?=[^\s$])(?:[^$\\\n]++|\\.)*+(?<=[^\s\\])\$(?![$\d])")
_MATH_PIECES = re.compile(f"({_MATH.pattern})")  # split keeps the spans


def _escape_text(text: str, ascii: bool) -> str:
    if ("{" in text or "}" in text) and not _balanced(text):
        text = _ESCAPED.sub(lambda m: _BRACED[m.group()], text)
    else:
        text = _escape_balanced(text)
    return _chars(text, ascii)


def _escape_balanced(text: str) -> str:
    """Text whose braces balance (or that has none), escaped: ``_ESCAPED`` with
    ``_UNBRACED``, token by token, done by ``_escape_plain``."""
    found = [ch for ch in _CHARS if ch in text]
    if not found:
        return text
    if found[-1] == "\\" and "\x00" in text:  # holds _MARK: token by token
        return _ESCAPED.sub(lambda m: _UNBRACED[m.group()], text)
    return _escape_plain(text, found)


_MARK = b"\x00"  # a backslash, while the specials around it are escaped


def _escape_plain(text: str, found: list[str]) -> str:
    r"""Text whose braces balance, one ``replace`` per special it holds: what
    ``_ESCAPED`` with ``_UNBRACED`` writes, token by token. A special escaped already
    (``50\%``) stays as it is, a bare one is escaped, any other backslash is
    ``\textbackslash{}``. Braces go first (the escapes of ``~`` and ``^`` bring braces
    of their own), backslashes last (their escape too).

    The replacing is done on the UTF-8 bytes: an ASCII character is the same byte
    there (never part of another character's bytes), and ``bytes.replace`` is several
    times faster than ``str.replace``, whose every pass counts character by character.
    """
    data = text.encode("utf-8", "surrogatepass")
    backslash = found[-1] == "\\"
    if backslash:
        found = found[:-1]
        # A backslash before a special that can be escaped is dropped (the special is
        # escaped below, as a bare one is); any other is marked, to be written last.
        # Two passes in C (a regex finds each backslash by its literal byte).
        data = _LONE_BACKSLASH.sub(_MARK, data).replace(b"\\", b"")
    for ch in found:
        data = data.replace(ch.encode(), _PLAIN_BYTES[ch])
    if backslash:
        data = data.replace(_MARK, rb"\textbackslash{}")
    return data.decode("utf-8", "surrogatepass")


_PLAIN_BYTES = {ch: escaped.encode() for ch, escaped in _PLAIN_ESCAPES.items()}
# A backslash not before a special that can be escaped (a brace or one of SPECIALS).
_LONE_BACKSLASH = re.compile(rb"\\(?![{}%&#_$])")


def fix_chars(text: str, ascii: bool) -> str:
    """``_chars`` of ``printable(text)``."""
    return _chars(printable(text), ascii)


def _chars(text: str, ascii: bool) -> str:
    """Characters pdflatex reads: with ``ascii`` all as macros; else only Greek and
    math symbols (``$\\alpha$``, which ``inputenc`` does not define) and combining
    accents (a precomposed character or an accent macro instead); other scripts
    stay as they are."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFC", text)

    def kept(ch: str) -> bool:
        if ch < "\x80":
            return True
        if ascii or is_greek(ch) or "\u02b0" <= ch < "\u02c6":
            # Greek: every letter as LaTeX (inputenc has none); so are the modifier
            # letters (U+0374, the Greek numeral sign, is U+02B9 once normalised)
            return False
        return ch < "\u0300" or ch in _INPUTENC or not (
            unicodedata.combining(ch) or "ensuremath" in (char_tables()[0].get(ord(ch)) or ""))

    if all(kept(ch) for ch in text):
        return text
    out: list[str] = []
    for ch in text:
        if kept(ch):
            out.append(ch)
        elif ch in ACCENTS and _accent_base(out):
            out[-1] = _accent_macro(out[-1], ACCENTS[ch])  # a base with a combining accent
        else:
            out.append(_ascii_char(ch))
    return "".join(out)


# Beyond Latin-1 and Latin Extended-A, what LaTeX's utf8 input encoding defines by default.
_INPUTENC = frozenset("\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e\u2020\u2021"
                      "\u2022\u2026\u2030\u2039\u203a\u20ac\u2122\u02c6\u02dc\u0218\u0219"
                      "\u021a\u021b")


def _accent_base(out: list[str]) -> bool:
    """Whether the last character written is a letter a combining accent may go on:
    not a special (``\\%``) nor a letter of a control word (``\\alpha``)."""
    if not (out and len(out[-1]) == 1 and out[-1].isalpha()):
        return False
    i = len(out) - 1
    while i > 0 and len(out[i - 1]) == 1 and out[i - 1].isalpha():
        i -= 1
    return not (i > 0 and out[i - 1] == "\\")


def _accent_macro(base: str, accent: str) -> str:
    if base in "ij" and accent not in "ckdb":
        base = "\\" + base
    return "{\\" + accent + ("{" + base + "}" if accent.isalpha() or len(base) > 1
                              else base) + "}"


def _one(token: str, text_braces: bool) -> str:
    if len(token) == 2:  # already escaped: \% \{ ...
        return _TEXT_BRACES[token[1]] if text_braces and token[1] in "{}" else token
    if token in "{}":
        return _TEXT_BRACES[token] if text_braces else "\\" + token
    return _ONE.get(token) or "\\" + token


# What _one gives every token _ESCAPED can match, looked up instead of worked out.
_TOKENS = ["\\" + ch for ch in "%&#_${}"] + list("\\%&#_${}~^")
_BRACED = {t: _one(t, True) for t in _TOKENS}
_UNBRACED = {t: _one(t, False) for t in _TOKENS}


# -- titles -------------------------------------------------------------------


_WORD = re.compile(r"\S+")  # a word as str.split finds them
# In an ASCII title, a word to protect (``_protected``), found by search to the end of
# the word: a capital not followed by a small letter, or a capital after a small letter
# of its part (with no letter between). The search stops only at capitals and
# non-letters, where such a capital or the non-letters before it start.
_CAPITALS = re.compile(r"[^a-z\s/-](?:(?<=[A-Z])(?![a-z])|(?<=[a-z][A-Z])"
                       r"|(?<=[a-z][^A-Za-z\s/-])[^A-Za-z\s/-]*[A-Z])\S*")


def protect_title(title: str, *, ascii: bool = False) -> str:
    """The escaped title, with braces only where a style must not change case.

    A word is protected when one of its parts (split at ``-`` and ``/``) has a
    capital that is not just an initial capital: a capital after the first
    letter (``iPhone``, ``ZeRO``, ``LLMs``) or one not followed by a small
    letter (``GPT``, ``C#``, ``Part I``). Capitalised words (``Scaling Laws
    for Neural ...``) are left to the style, so sentence-case styles work.
    Neighbouring protected words share braces; math spans are left alone.
    The title is ``printable`` first: \x02 and \x03 mark the words to brace.
    """
    title = printable(title)
    if title.isascii():
        first = _CAPITALS.search(title)
        if first is None:
            return _escape(title, ascii)  # most titles: no word to protect
        if "$" not in title and title.isprintable():  # its only white space is " "
            return _braced(_protect_plain(title, first, ascii))
    elif not any(map(_protected, title.split())):
        return _escape(title, ascii)
    return _protect_words(title, ascii)


def _protect_words(title: str, ascii: bool) -> str:
    """``protect_title`` word by word: any title."""
    spans = [m.span() for m in _MATH.finditer(title)] if "$" in title else []
    marked: list[str] = []
    pos = 0
    for m in _WORD.finditer(title):
        start, end = m.span()
        if not _protected(m.group()) or any(a < end and start < b for a, b in spans) or (
                start == 0 and m.group() == "A"):  # the article, first: styles keep it
            continue
        marked.append(title[pos:start])
        marked.append("\x02" + m.group() + "\x03")
        pos = end
    if not marked:
        return _escape(title, ascii)
    text = _escape("".join(marked) + title[pos:], ascii)
    text = re.sub(r"\x03(\s+)\x02", r"\1", text)
    return text.replace("\x02", "{").replace("\x03", "}")


def title_texts(title: str, *, ascii: bool = False) -> tuple[str, str]:
    """``protect_title(title)`` and ``escape(title)``, escaped once where the one is the
    other with braces (a printable ASCII title with no math or marks: the marks of the
    words to brace stand next to spaces or the ends, where no escape can see them)."""
    if title.isascii() and "$" not in title and title.isprintable():
        first = _CAPITALS.search(title)
        if first is None:
            text = _escape(title, ascii)  # printable: no control
            return text, text
        marked = _protect_plain(title, first, ascii)
        return _braced(marked), marked.replace("\x02", "").replace("\x03", "")
    return protect_title(title, ascii=ascii), escape(title, ascii=ascii)


def _braced(marked: str) -> str:
    return marked.replace("\x02", "{").replace("\x03", "}")


def _protect_plain(title: str, first: re.Match[str], ascii: bool) -> str:
    """``protect_title`` of a printable ASCII title with no math, the words to brace
    still marked ``\x02...\x03``: the words to protect are those ``_CAPITALS``
    matches in, found by search, not word by word."""
    spans: list[tuple[int, int]] = []
    for m in _CAPITALS.finditer(title, first.start()):
        start, end = title.rfind(" ", 0, m.start()) + 1, m.end()
        if end == 1 and title[0] == "A":
            continue  # the article, first: styles keep it
        if spans and title[spans[-1][1]:start].isspace():
            spans[-1] = (spans[-1][0], end)  # neighbouring words share braces
        else:
            spans.append((start, end))
    pieces: list[str] = []
    pos = 0
    for start, end in spans:
        pieces += (title[pos:start], "\x02", title[start:end], "\x03")
        pos = end
    pieces.append(title[pos:])
    return _escape("".join(pieces), ascii)


@functools.lru_cache(maxsize=1 << 16)
def _protected(word: str) -> bool:
    # Cached: titles share most of their words, and an export asks for each word of
    # every title (a tenth of a 100,000-paper export went here).
    for part in re.split(r"[-/]", word):
        letters = [(i, ch) for i, ch in enumerate(part) if ch.isalpha()]
        for n, (i, ch) in enumerate(letters):
            if not ch.isupper():
                continue
            following = part[i + 1:i + 2]
            if n > 0 or not (following.isalpha() and following.islower()):
                return True
    return False


# -- non-ASCII to LaTeX -------------------------------------------------------

@functools.lru_cache(maxsize=4096)
def _ascii_char(ch: str) -> str:
    if ch in LETTERS:
        return "{\\" + LETTERS[ch] + "}"
    greek = greek_latex(ch)
    if greek is not None:
        return greek
    decomposed = unicodedata.normalize("NFD", ch)
    if len(decomposed) == 2 and decomposed[0].isascii() and decomposed[1] in ACCENTS:
        accent, base = ACCENTS[decomposed[1]], decomposed[0]
        if base in "ij" and accent not in "ckdb":
            base = "\\" + base
        return "{\\" + accent + ("{" + base + "}" if accent.isalpha() or len(base) > 1
                                 else base) + "}"
    latex = pylatexenc_encode(ch)
    if latex is not None:
        return latex
    from anyascii import anyascii  # loaded only for a character LaTeX has no name for

    return escape(anyascii(ch))
