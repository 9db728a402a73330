"""Personal names as the Hub gives them ("Jan van der Berg") split for BibTeX.

BibTeX reads "First von Last" by case: lowercase words before the last are the
"von" part. Names from the Hub are plain strings, so PaperDesk writes them as
"von Last, First" whenever the family name is more than one word, which BibTeX
and biber both read the same way: "van der Berg, Jan", "Ó Briain, Niamh".
Gaelic prefixes (Ó, Ní, Mac, Mc...) belong to the family name; lowercase
particles (van, der, de, von...) are the "von" part, left out of citation keys.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from paperdesk.core.bibtex.latex import escape

_PARTICLES = frozenset("van der den de del della di da dos das du la le von zu ten ter "
                       "bin al el y".split())
_GAELIC = frozenset("ó o' ní nic uí mac mc mhic ua".split())
_SUFFIXES = frozenset("jr jr. sr sr. ii iii iv".split())


class Name(NamedTuple):
    first: str
    von: str
    last: str
    jr: str


def split_name(full: str) -> Name:
    """Split "First von Last Jr." (or "Last, First") into its parts."""
    full = " ".join(full.split())
    if "," in full:
        last, _, first = full.partition(",")
        words = last.split()
        von = [w for w in words[:-1] if w.lower() in _PARTICLES]
        rest = words[len(von):]
        return Name(first.strip(), " ".join(von), " ".join(rest), "")
    words = full.split()
    jr = ""
    while len(words) > 1 and words[-1].lower().rstrip(",") in _SUFFIXES:
        jr = words.pop() + (" " + jr if jr else "")
    if len(words) <= 1:
        return Name("", "", words[0] if words else "", jr)
    last_start = len(words) - 1
    while last_start > 1 and words[last_start - 1].lower() in _GAELIC:
        last_start -= 1
    von_start = last_start
    while von_start > 1 and words[von_start - 1].lower() in _PARTICLES:
        von_start -= 1
    return Name(" ".join(words[:von_start]), " ".join(words[von_start:last_start]),
                " ".join(words[last_start:]), jr)


def bibtex_name(full: str) -> str:
    """The name as BibTeX should read it: "First Last", or "von Last, Jr, First"."""
    name = split_name(full)
    if not name.first:
        return full.strip()
    if not name.von and " " not in name.last and not name.jr:
        return f"{name.first} {name.last}"
    head = f"{name.von} {name.last}".strip()
    return f"{head}, {name.jr}, {name.first}" if name.jr else f"{head}, {name.first}"


def hub_name(name: str, organization: str | None, ascii: bool) -> str:
    """A name from a digest or the Hub as BibTeX reads it, escaped: "van der Berg, Jan";
    an organisation braced whole, so it is not split into first and last names."""
    if looks_like_organisation(name, (organization,)):
        return "{" + escape(name, ascii=ascii) + "}"
    return escape(bibtex_name(name), ascii=ascii)


def family_name(full: str) -> str:
    """The family name without the "von" part: "Berg", "Ó Briain", "García"."""
    return split_name(full).last


_ORG_WORDS = frozenset("ai team lab labs inc inc. ltd research group institute university "
                       "corporation corp foundation project consortium collaboration "
                       "community academy".split())


def _squash(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def looks_like_organisation(name: str, hints: tuple[str | None, ...] = ()) -> bool:
    """A name that is an organisation ("DeepSeek-AI", "Qwen Team"), not a person:
    it is the paper's organisation, or it ends in a word such as AI, Team or Lab."""
    squashed = _squash(name)
    if squashed and any(h and (_squash(h) == squashed or (_squash(h) in squashed and
                               len(_squash(h)) >= 4)) for h in hints):
        return True
    last = name.replace("-", " ").split()[-1:] or [""]
    return last[0].casefold() in _ORG_WORDS


# A control sequence as ``latex.escape`` writes them: a word or a symbol, and the empty
# braces after it (\textbraceleft{}, \^{}).
_COMMAND = re.compile(r"\\(?:[A-Za-z]+|[\s\S])(?:\{\})?")


def label_safe(latex: str) -> str:
    r"""Escaped text (``latex.escape``) as styles may take a label from it: alpha.bst
    takes the first three letters of a name, plainnat puts a name or the ``key`` field
    in ``\bibitem[...]``. Each escape at brace depth 0 is braced into one BibTeX
    "special character", which a style takes whole or not at all (``\{`` as
    ``{\textbraceleft}``: BibTeX counts the brace of ``\{``, and alpha's label ``\{Br}``
    closed a group never opened); so is math (``{\ensuremath{x}}``), and ``]`` is
    ``{]}`` (it ended plainnat's label). What is inside braces already is kept."""
    if "\\" not in latex and "]" not in latex and "$" not in latex:
        return latex
    out: list[str] = []
    depth, i = 0, 0
    while i < len(latex):
        ch = latex[i]
        if ch == "\\":
            m = _COMMAND.match(latex, i)
            token = m.group() if m else "\\textbackslash{}"  # a lone one, at the end
            i += len(token) if m else 1
            if depth:
                depth += {"\\{": 1, "\\}": -1}.get(token, 0)  # as BibTeX counts them
                out.append(token)
            elif token in ("\\{", "\\}"):
                out.append("{\\textbrace" + ("left}" if token == "\\{" else "right}"))
            elif token[1].isalpha() and token.endswith("{}"):
                out.append("{" + token[:-2] + "}")
            else:
                out.append("{" + token + "}")
            continue
        end = latex.find("$", i + 1) if ch == "$" and not depth else -1
        if end > 0:  # math, as escape keeps it
            out.append("{\\ensuremath{" + latex[i + 1:end] + "}}")
            i = end + 1
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        out.append("{]}" if ch == "]" and not depth else ch)
        i += 1
    return "".join(out)
