"""``latex.escape`` writes exactly what the escaping it replaced wrote.

The escaping was made faster (``str.replace`` per special, math verdicts cached,
braces counted with ``str.find``); ``_old_escape`` below is the earlier code, kept
word for word as the reference, and random text rich in LaTeX specials, escaped
specials, math spans and braces must come out the same byte for byte, as text
(and with ``ascii``), once its controls are gone (``text.printable``).
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from paperdesk.core.bibtex import latex
from paperdesk.core.bibtex.tex_safe import math_ok
from paperdesk.core.model.text import printable

# -- the escaping as it was (the reference) -------------------------------------

_ESCAPED = re.compile(r"\\[%&#_${}]|[\\%&#_${}~^]")
_BRACES = re.compile("[{}]")
_CHARS = "{}%&#_$~^\\"
_ESCAPABLE = frozenset("{}%&#_$")
_PLAIN_ESCAPES = {ch: "\\" + ch for ch in "{}%&#_$"} | {"~": r"\textasciitilde{}",
                                                        "^": r"\^{}"}
_MATH = re.compile(r"\$(?<![\\$]\$)(?=[^\s$])(?:[^$\\\n]|\\.)*?(?<=[^\s\\])\$(?![$\d])")
_TEXT_BRACES = {"{": r"\textbraceleft{}", "}": r"\textbraceright{}"}
_ONE = {"~": r"\textasciitilde{}", "^": r"\^{}", "\\": r"\textbackslash{}"}


def _old_balanced(text: str) -> bool:
    if text.count("{") != text.count("}"):
        return False
    depth = 0
    for ch in _BRACES.findall(text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _old_escape(text: str, *, ascii: bool = False) -> str:
    if "$" not in text:
        return _old_escape_text(text, ascii)
    out, start = [], 0
    for m in _MATH.finditer(text):
        if _old_balanced(m.group()) and math_ok(m.group()[1:-1]):
            out += [_old_escape_text(text[start:m.start()], ascii),
                    latex.fix_chars(m.group(), ascii)]
            start = m.end()
    return "".join(out) + _old_escape_text(text[start:], ascii)


def _old_escape_text(text: str, ascii: bool) -> str:
    found = [ch for ch in _CHARS if ch in text]
    if found:
        text_braces = ("{" in found or "}" in found) and not _old_balanced(text)
        if text_braces:
            text = _ESCAPED.sub(lambda m: _OLD_BRACED[m.group()], text)
        elif found[-1] != "\\":
            for ch in found:
                text = text.replace(ch, _PLAIN_ESCAPES[ch])
        else:
            text = _old_escape_around(text, found[:-1])
    return latex.fix_chars(text, ascii)


def _old_escape_around(text: str, found: list[str]) -> str:
    done = {ch: text.count("\\" + ch) for ch in found if ch in _ESCAPABLE}
    if text.count("\\") != sum(done.values()):
        return _ESCAPED.sub(lambda m: _OLD_UNBRACED[m.group()], text)
    for ch in found:
        escaped = done.get(ch, 0)
        if escaped and escaped == text.count(ch):
            continue
        if escaped:
            text = text.replace("\\" + ch, ch)
        text = text.replace(ch, _PLAIN_ESCAPES[ch])
    return text


def _old_one(token: str, text_braces: bool) -> str:
    if len(token) == 2:
        return _TEXT_BRACES[token[1]] if text_braces and token[1] in "{}" else token
    if token in "{}":
        return _TEXT_BRACES[token] if text_braces else "\\" + token
    return _ONE.get(token) or "\\" + token


_TOKENS = ["\\" + ch for ch in "%&#_${}"] + list("\\%&#_${}~^")
_OLD_BRACED = {t: _old_one(t, True) for t in _TOKENS}
_OLD_UNBRACED = {t: _old_one(t, False) for t in _TOKENS}

# -- random text ------------------------------------------------------------------

_PIECES = [*"\\$${}{}%#&_^~ab xZ\n\x00é\u0301α",
           r"\%", r"\{", r"\}", r"\$", r"\\", r"\alpha", r"\log", r"\write18", r"\input{x}",
           r"\em", "$x$", "$O(n^2)$", r"$\sqrt{d}$", r"$\mathcal{O}(N^2)$", "$5", "^^5c",
           "{\\em as}", r"$\input{x}$", "$a$b$", "50\\%", "\\", "{{", "}}"]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=40).map("".join)


@settings(max_examples=3000, deadline=None)
@given(_TEXT, st.booleans())
@example(r"{\em as} cost $O(n \log n)$ for 51\% of \\ the $k \le 9$ ~ ^ }{", False)
@example("\\\\%", False)
@example("a\x00\\b {", False)
def test_escape_writes_what_the_old_escaping_wrote(text: str, ascii: bool) -> None:
    # of the text without its controls (the \x00 a space): no control is written
    assert latex.escape(text, ascii=ascii) == _old_escape(printable(text), ascii=ascii)


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet="\\$%#&_^~{}ab \n", max_size=60))
def test_escape_of_any_text_over_the_specials_is_the_old_one(text: str) -> None:
    assert latex.escape(text) == _old_escape(text)


@given(st.text(alphabet="{}a\\", max_size=30))
def test_braces_balance_as_they_did(text: str) -> None:
    assert latex._balanced(text) == _old_balanced(text)


_TITLE = st.lists(st.sampled_from([*_PIECES, "GPT", "iPhone", "A ", " ", "LLMs", "C#", "X-Ray",
                                   "a/B", "\x02", "\x03", "Über"]), max_size=20).map("".join)


@settings(max_examples=2000, deadline=None)
@given(_TITLE, st.booleans())
@example("A GPT\\ \\{x} 50\\% C# {Un}balanced} ~^ \\emph{X} _a_ \\", False)
def test_title_texts_are_the_protected_title_and_the_escaped_one(title: str,
                                                                  ascii: bool) -> None:
    assert latex.title_texts(title, ascii=ascii) == (latex.protect_title(title, ascii=ascii),
                                                     latex.escape(title, ascii=ascii))
