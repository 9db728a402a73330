"""Characters to LaTeX: the accents and letters LaTeX has names for, pylatexenc's
table of the others, and Greek (pure).

Greek is written as LaTeX in every export, ASCII or not (LaTeX's utf8 input encoding
defines no Greek letter, and a Greek letter written as it is stops pdflatex): a
letter that looks like a Latin one as that letter (``Α`` -> ``{A}``, as ``Γ`` ->
``{\\ensuremath{\\Gamma}}``), the others as math, and its accents on it (``ά`` ->
``{\\ensuremath{\\acute{\\alpha}}}``, ``Ά`` -> ``{\\'{A}}``); breathings and the iota
subscript, which no LaTeX font has without a Greek package, are left out. Only
commands of plain LaTeX are written (``\\varkappa`` and ``\\digamma`` need amssymb).
"""

from __future__ import annotations

import functools
import re
import unicodedata

ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0302": "^", "\u0308": '"', "\u0303": "~",
            "\u0304": "=", "\u0307": ".", "\u0306": "u", "\u030c": "v", "\u030b": "H",
            "\u0327": "c", "\u0328": "k", "\u030a": "r", "\u0323": "d", "\u0331": "b"}
LETTERS = {"ß": "ss", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "æ": "ae", "Æ": "AE",
            "œ": "oe", "Œ": "OE", "å": "aa", "Å": "AA", "ı": "i", "ȷ": "j"}


def pylatexenc_encode(ch: str) -> str | None:
    latex = char_tables()[0].get(ord(ch))
    return "{" + latex.strip() + "}" if latex and latex.isascii() else None


@functools.cache
def char_tables() -> tuple[dict[int, str], dict[str, str]]:
    """pylatexenc's character table, both ways: code -> LaTeX, macro name -> character."""
    from pylatexenc.latexencode import get_builtin_conversion_rules

    forward: dict[int, str] = {}
    names: dict[str, str] = {}
    for rule in get_builtin_conversion_rules("defaults"):
        mapping = getattr(rule, "rule", None)
        if mapping is None or not hasattr(mapping, "items"):
            continue
        for code, latex in mapping.items():
            forward.setdefault(code, latex)
            m = re.fullmatch(r"\\([A-Za-z]+)\s*(?:\{\})?", latex)
            if m:
                names.setdefault(m.group(1), chr(code))
    return forward, names


# The Greek letters, capital and small, with the symbol forms: LaTeX of a letter that
# looks like a Latin one is that letter; the others are math (written in \ensuremath).
_CAPITALS = ("A B Gamma Delta E Z H Theta I K Lambda M N Xi O Pi P - Sigma T Upsilon Phi "
             "X Psi Omega").split()
_SMALL = ("alpha beta gamma delta varepsilon zeta eta theta iota kappa lambda mu nu xi o pi "
          "rho varsigma sigma tau upsilon varphi chi psi omega").split()
_GREEK = {**{chr(0x391 + n): name for n, name in enumerate(_CAPITALS) if name != "-"},
          **{chr(0x3b1 + n): name for n, name in enumerate(_SMALL)},
          "\u03d0": "beta", "\u03d1": "vartheta", "\u03d2": "Upsilon", "\u03d5": "phi",
          "\u03d6": "varpi", "\u03f0": "kappa", "\u03f1": "varrho", "\u03f4": "Theta",
          "\u03f5": "epsilon", "\u1fbe": "iota", "\u03dc": "F", "\u037f": "J",
          "\u03f3": "j", "\u03f2": "c", "\u03f9": "C"}
# Accents on a Greek letter: as a text accent (on a Latin-looking letter) and in math.
_GREEK_ACCENTS = {"\u0301": ("'", "acute"), "\u0300": ("`", "grave"),
                  "\u0308": ('"', "ddot"), "\u0342": ("~", "tilde"),
                  "\u0303": ("~", "tilde"), "\u0304": ("=", "bar"), "\u0306": ("u", "breve")}


def is_greek(ch: str) -> bool:
    """Whether ``ch`` is in the Greek and Coptic or the Greek Extended block."""
    return "\u0370" <= ch <= "\u03ff" or "\u1f00" <= ch <= "\u1fff"


@functools.lru_cache(maxsize=1024)
def greek_latex(ch: str) -> str | None:
    """LaTeX of a Greek letter (with its accents), braced; None for what is no Greek
    letter PaperDesk knows (a Coptic letter, a sign)."""
    if not is_greek(ch):
        return None
    decomposed = unicodedata.normalize("NFD", ch)
    base, marks = decomposed[0], list(decomposed[1:])
    name = _GREEK.get(base)
    if name is None:
        return None
    marks = [mark for mark in marks if mark in _GREEK_ACCENTS]  # no breathing, no iota
    text = len(name) == 1  # a Latin-looking letter: text, not math
    if text and marks and len(unicodedata.normalize("NFC", name + "".join(marks))) > 1:
        # no Latin letter has these accents (H with acute): as math, which biber leaves
        # as it is (it reads \'{H} as H and a combining accent, which pdflatex stops on),
        # in braces of its own, so that no style changes its case
        latex = "\\mathrm{" + name + "}"
        for mark in marks:
            latex = "\\" + _GREEK_ACCENTS[mark][1] + "{" + latex + "}"
        return "{{\\ensuremath{" + latex + "}}}"
    latex = name if text else "\\" + name
    for mark in marks:
        latex = "\\" + _GREEK_ACCENTS[mark][0 if text else 1] + "{" + latex + "}"
    return "{" + (latex if text else "\\ensuremath{" + latex + "}") + "}"
