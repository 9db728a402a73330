"""Field text from a .bib file to plain text: the reading half of ``latex``.

``decode`` turns escapes, accents, symbol macros, protecting braces and
``$math$`` into plain text. What it cannot name (``\\proj``) stays as written.
Text without a backslash, brace, ``~`` or ``$`` is returned as it is, which keeps
imports of large files fast.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from paperdesk.core.bibtex.latex import ACCENTS, char_tables

_NOT_SPECIAL = re.compile(r"\\(?![%&#_${}])")
_MACRO = re.compile(r"\\([A-Za-z]+|.)", re.S)
_SYMBOLS = {"ss": "ß", "o": "ø", "O": "Ø", "l": "ł", "L": "Ł", "ae": "æ", "AE": "Æ",
            "oe": "œ", "OE": "Œ", "aa": "å", "AA": "Å", "i": "ı", "j": "ȷ",
            "textbackslash": "\\", "textasciitilde": "~", "textasciicircum": "^",
            "textbraceleft": "{", "textbraceright": "}", "textunderscore": "_",
            "textendash": "–", "textemdash": "—", "ldots": "…", "dots": "…",
            "textellipsis": "…", "textquoteleft": "‘", "textquoteright": "’",
            "textquotedblleft": "“", "textquotedblright": "”", "textless": "<",
            "textgreater": ">", "textbar": "|", "S": "§", "P": "¶", "copyright": "©",
            "textregistered": "®", "texttrademark": "™", "textdegree": "°",
            "LaTeX": "LaTeX", "TeX": "TeX", "BibTeX": "BibTeX"}
_FORMAT = frozenset("emph textbf textit texttt textrm textsf textsc textup textmd textnormal "
                    "textsl mbox text mathrm mathit mathbf mkbibquote enquote mkbibemph "
                    "mkbibitalic mkbibbold textsubscript textsuperscript mkbibacro "
                    "mkbibparens mkbibbrackets url hbox uppercase lowercase "
                    "MakeUppercase MakeLowercase".split())
# Switches and no-ops that print nothing themselves ({\em ...}, {\sc ...}, {\relax Yu}).
_SWITCHES = frozenset("em it bf sc rm sf tt sl up md relax itshape bfseries scshape upshape "
                      "mdseries slshape rmfamily sffamily ttfamily normalfont small large Large "
                      "footnotesize scriptsize tiny normalsize huge Huge protect null "
                      "nobreak".split())
_DROPPED = frozenset("noopsort noop sortnoop SortNoop singleletter".split())
# Abbreviations papers define as macros (\eg with xspace): their words, with the space
# after them kept ("(\eg adapters)" reads "(e.g. adapters)").
_WORDS = {"eg": "e.g.", "ie": "i.e.", "etal": "et al.", "cf": "cf.", "etc": "etc.",
          "vs": "vs.", "wrt": "w.r.t.", "aka": "a.k.a.", "resp": "resp.", "Eg": "E.g.",
          "Ie": "I.e.", "Cf": "Cf."}
_COMBINING = {v: k for k, v in ACCENTS.items()} | {"t": "\u0361"}
_SPACES = {",": " ", ";": " ", " ": " ", "\\": " ", "-": "", "/": "", "@": ""}


def plain_text(text: str | None) -> str:
    """An abstract or a title as a person reads it in the window: its LaTeX (escapes,
    accents, ``$math$``, ``\\emph``, ``\\eg``) turned into text; None is ""."""
    return decode(text) if text else ""


def decode(text: str) -> str:
    """Plain text for a field's value (without its outer delimiters)."""
    if not ("\\" in text or "{" in text or "}" in text or "~" in text or "$" in text):
        return text
    if "$" not in text:
        if "\\" not in text:
            return _plain(text)
        if not _NOT_SPECIAL.search(text) and "\x00" not in text and "\x01" not in text:
            # Only escaped specials (50\%): hold escaped braces, drop the others, unescape
            # (every backslash left stands before one of % & # _).
            held = ("{" in text or "}" in text) and ("\\{" in text or "\\}" in text)
            if held:
                text = text.replace("\\{", "\x00").replace("\\}", "\x01")
            text = _plain(text).replace("\\", "")
            return text.replace("\x00", "{").replace("\x01", "}") if held else text
    return _decode(text)


def _plain(text: str) -> str:
    """The text with its braces dropped and ``~`` a space."""
    if "{" in text:
        text = text.replace("{", "")
    if "}" in text:
        text = text.replace("}", "")
    return text.replace("~", " ") if "~" in text else text


def _group(text: str, i: int) -> tuple[str, int]:
    """The text of the brace group starting at text[i] == '{', and the index after it."""
    depth = 0
    for j in range(i, len(text)):
        ch = text[j]
        if ch == "\\":
            continue
        if ch == "{" and (j == 0 or text[j - 1] != "\\"):
            depth += 1
        elif ch == "}" and text[j - 1] != "\\":
            depth -= 1
            if depth == 0:
                return text[i + 1:j], j + 1
    return text[i + 1:], len(text)


def _argument(text: str, i: int) -> tuple[str | None, int]:
    """A macro's argument: a brace group or one character (spaces skipped)."""
    j = i
    while j < len(text) and text[j] == " ":
        j += 1
    if j >= len(text):
        return None, i
    if text[j] == "{":
        inner, end = _group(text, j)
        return _decode(inner), end
    if text[j] == "\\":
        m = _MACRO.match(text, j)
        if m and m.group(1) in ("i", "j"):
            return m.group(1), m.end()
        return None, i
    return text[j], j + 1


# What _decode acts on (a run of braces at once); it copies the plain text between
# them in one piece. One class first: the search skips to it in C (``[\\~$]|[{}]+``,
# the same marks, tried the alternatives at every position of an abstract).
_ACTIVE = re.compile(r"[\\~${}][{}]*")


def _decode(text: str) -> str:
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        m = _ACTIVE.search(text, i)
        if m is None:
            out.append(text[i:])
            break
        if m.start() > i:
            out.append(text[i:m.start()])
        i = m.start()
        ch = text[i]
        if ch == "\\":
            piece, i = _macro(text, i)
            out.append(piece)
        elif ch == "~":
            out.append(" ")
            i += 1
        elif ch == "$":
            end = text.find("$", i + 1)
            while end > 0 and text[end - 1] == "\\":
                end = text.find("$", end + 1)
            if end < 0:
                out.append(ch)
                i += 1
                continue
            out.append(_math(text[i:end + 1]))
            i = end + 1
        else:  # braces
            i = m.end()
    return unicodedata.normalize("NFC", "".join(out))


def _macro(text: str, i: int) -> tuple[str, int]:
    m = _MACRO.match(text, i)
    if m is None:
        return "\\", i + 1
    name, end = m.group(1), m.end()
    if name in "%&#_${}":
        return name, end
    if name in _SPACES:
        return _SPACES[name], end
    if name in _COMBINING:
        arg, after = _argument(text, end)
        if arg == "" or (arg is None and name in "^~"):
            return {"^": "^", "~": "~"}.get(name, ""), after
        if arg is not None:
            base = {"ı": "i", "ȷ": "j"}.get(arg[:1], arg[:1])
            return base + _COMBINING[name] + arg[1:], after
        return "", end
    if name in _WORDS:
        if text.startswith("{}", end):
            end += 2
        if text.startswith(".", end):  # "\eg." is one full stop, not two
            end += 1
        return _WORDS[name], end
    if name in _SYMBOLS:
        if text.startswith("{}", end):
            end += 2
        elif name.isalpha():
            while end < len(text) and text[end] == " ":
                end += 1
        return _SYMBOLS[name], end
    if name in _FORMAT:
        arg, after = _argument(text, end)
        return (arg or ""), after
    if name in _SWITCHES:
        while end < len(text) and text[end] == " ":
            end += 1
        return "", end
    if name in _DROPPED and text.startswith("{", end):
        return "", _group(text, end)[1]
    if name == "ensuremath":
        arg_end = _group(text, end)[1] if text.startswith("{", end) else end
        script = _scripts().get(text[i:arg_end])
        if script is not None:  # what PaperDesk writes for a superscript or subscript
            return script, arg_end
        return _math("$" + text[end:arg_end].strip("{}") + "$"), arg_end
    symbol = char_tables()[1].get(name)
    if symbol is not None:
        if text.startswith("{}", end):
            end += 2
        return symbol, end
    return m.group(), end


@functools.cache
def _scripts() -> dict[str, str]:
    """``\\ensuremath{^4}`` -> "⁴": the superscripts and subscripts that the
    writer spells this way, back to their characters."""
    table: dict[str, str] = {}
    for code, spelled in char_tables()[0].items():
        if spelled.startswith(("\\ensuremath{^", "\\ensuremath{_")):
            table.setdefault(spelled, chr(code))
    return table


# Math that pylatexenc would give back as written (no macro, group, script, ligature).
_SIMPLE_MATH = re.compile(r"[A-Za-z0-9 =+<>().,;:*/|!?\[\]-]*")


@functools.lru_cache(maxsize=4096)
def _math(source: str) -> str:
    inner = source[1:-1]
    if "--" not in inner and _SIMPLE_MATH.fullmatch(inner):
        return inner.strip()
    try:
        return _math_reader().latex_to_text(source).strip()
    except Exception:  # a malformed formula stays as it was written
        return source


@functools.cache
def _math_reader():
    """One converter for every formula: making one costs more than converting one."""
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="text")
