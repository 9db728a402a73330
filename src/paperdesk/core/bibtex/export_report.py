"""What an export changed on its way out, for its report.

- ``repaired``: fields of .bib entries written with their bare specials escaped
  (``bib_repair.repair``: a bare ``#``, ``&``, ``_`` or ``^`` that LaTeX rejects
  wherever a style prints the field); none with ``as_written``, which writes every
  field exactly as the .bib file did.
- ``balanced``: fields of .bib entries that were not one value whose braces pair up
  (a damaged entry read as BibTeX reads it), written with the unmatched braces
  dropped or closed (and braced whole when a comma was left outside), so that no
  value can end its entry early, with or without ``as_written``.
- ``left_out``: identifiers (arXiv id, DOI, URL) of the library that do not match
  their grammar (``core/model/identifiers.py``: a library written before the check,
  or by hand), left out of the entry rather than written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from paperdesk.core.bibtex.bib_repair import repair
from paperdesk.core.bibtex.latex import braces_pair
from paperdesk.core.model import identifiers
from paperdesk.core.model.text import kept_raw

_IDS = ((8, "arxiv_id"), (9, "doi"), (10, "url"))  # their places in an export row
_SHOWN = 20  # fields named in the report's lines; the rest are counted
_LONG = 100  # characters of a value above which its braces are counted, not matched


@dataclass
class ExportReport:
    repaired: int = 0
    repaired_fields: list[str] = field(default_factory=list)  # "key.field", the first few
    left_out: list[str] = field(default_factory=list)  # "key: why"
    balanced: list[str] = field(default_factory=list)  # "key.field"
    # (key, how many exported papers hold it): a key that left PaperDesk for two papers
    # on two computers, both keeping it (``core/share``)
    repeated: list[tuple[str, int]] = field(default_factory=list)

    def add(self, other: ExportReport | None) -> None:
        """What ``other`` (a later part of the same export) counted, after this one's."""
        if other is None:
            return
        self.repaired += other.repaired
        self.repaired_fields += other.repaired_fields[:_SHOWN - len(self.repaired_fields)]
        self.left_out += other.left_out
        self.balanced += other.balanced
        self.repeated += other.repeated

    def lines(self) -> list[str]:
        out = []
        if self.repaired:
            more = self.repaired - len(self.repaired_fields)
            out.append(f"{self.repaired} field{'s' * (self.repaired != 1)} of .bib entries "
                       "written with bare # & _ ^ escaped (--as-written keeps them as "
                       f"written): {', '.join(self.repaired_fields)}"
                       + (f" and {more} more" if more > 0 else ""))
        out += [f"left out: {line}" for line in self.left_out]
        out += [f"not one value as BibTeX reads it, its braces balanced: {name}"
                for name in self.balanced]
        out += [f"citation key {key!r} is written {'twice' if n == 2 else f'{n} times'}: "
                f"it left PaperDesk for {n} papers on different computers and each keeps "
                "it; BibTeX and biber take the first (and --files writes neither's PDFs)"
                for key, n in self.repeated]
        return out


def checked_row(row: Sequence[Any], report: ExportReport | None) -> Sequence[Any]:
    """The export row with each identifier that does not match its grammar set to None
    (and named in ``report``)."""
    bad = [(i, kind) for i, kind in _IDS if row[i] and not identifiers.valid(kind, row[i])]
    if not bad:
        return row
    out = list(row)
    for i, kind in bad:
        if report is not None:
            report.left_out.append(f"{row[1] or f'paper{row[0]}'}: "
                                   f"{identifiers.problem(kind, row[i])}")
        out[i] = None
    return out


def field_writer(key: str, as_written: bool,
                 report: ExportReport | None) -> Callable[[str, str], str]:
    """How the fields of one .bib entry are written: ``repair``ed (and counted in
    ``report``), or exactly as written; either way with braces that pair up."""

    plain = _PLAIN_VALUE.fullmatch

    def write(name: str, raw: str) -> str:
        raw = kept_raw(raw)  # a form feed, an escape, a bidi override...: LaTeX stops
        # A long value that is one group holding everything (an abstract) is found by
        # finding its braces with str.find; the regular expression, a step per
        # character, reads the others (short ones, numbers, macros, quoted values).
        if not (len(raw) > _LONG and raw[0] == "{" and raw[-1] == "}"
                and paired(raw[1:-1])) and (
                not plain(raw) and (value := balanced(raw)) is not raw):
            raw = value
            if report is not None:
                report.balanced.append(f"{key}.{name}")
        if as_written or not ("#" in raw or "&" in raw or "_" in raw or "^" in raw):
            return raw  # (nothing for repair to do: most fields)
        value = repair(name, raw)
        if report is not None and value != raw:
            report.repaired += 1
            if len(report.repaired_fields) < _SHOWN:
                report.repaired_fields.append(f"{key}.{name}")
        return value

    return write


def paired(raw: str) -> bool:
    """Whether every brace of ``raw`` pairs up, as BibTeX counts them (escaped or not)."""
    opens = raw.count("{")
    if opens != raw.count("}"):
        return False
    if opens <= 1:  # most values: {Title}, or a number or a macro
        return opens == 0 or raw.index("{") < raw.index("}")
    return braces_pair(raw)  # each brace found with str.find, in C


def balanced(raw: str) -> str:
    """``raw`` (a value as written, with its delimiters) when it is one value whose
    braces pair up; else the same with unmatched braces dropped or closed and, if a
    comma, ``=``, ``@`` or an open quote is then left outside braces (where BibTeX would
    end the field or the entry), the whole in braces."""
    if well_formed(raw):
        return raw
    value = raw if paired(raw) else balance(raw)
    return value if well_formed(value) else "{" + value + "}"


# Values well formed at a glance (most of them): a group or a quoted string with groups
# at most two deep inside, or a number or a macro's name; others are read by well_formed.
_GROUP2 = r"\{(?:[^{}]++|\{[^{}]*+\})*+\}"  # a group with groups one deep inside
_PLAIN_VALUE = re.compile(r"\{(?:[^{}]++|" + _GROUP2 + r")*+\}"
                          r'|"(?:[^"{}]++|' + _GROUP2 + r')*+"|[A-Za-z0-9][^\s{}",=@#]*+')
_GROUP = re.compile(r"\{[^{}]*\}")  # an innermost brace group
_BREAKS = re.compile("[,=@]")


def well_formed(raw: str) -> bool:
    """Whether ``raw`` is one value BibTeX reads to its end: braces that pair up, quotes
    that close, and no comma, ``=`` or ``@`` outside braces and quotes; it starts as a
    value does (a brace, a quote, a number or a macro's name)."""
    if raw[:1] == "{" and raw[-1:] == "}" and paired(raw[1:-1]):
        return True  # most values: one group, everything inside it
    if not (raw[:1] in ("{", '"') or raw[:1].isalnum()):
        return False
    top = raw
    for _ in range(8):  # brace groups taken out from the inside, a level a pass
        top, found = _GROUP.subn("", top)
        if not found:
            break
    else:
        return _well_formed_deep(raw)
    if "{" in top or "}" in top:
        return False  # braces that do not pair up
    outside = top.split('"')[::2]  # what is left outside quotes
    return top.count('"') % 2 == 0 and not any(map(_BREAKS.search, outside))


_TOP = re.compile('[{}",=@]')


def _well_formed_deep(raw: str) -> bool:
    """``well_formed`` of a value nested more than eight deep, mark by mark."""
    if not paired(raw):
        return False
    depth, quoted = 0, False
    for m in _TOP.finditer(raw):
        mark = m.group()
        if mark == "{":
            depth += 1
        elif mark == "}":
            depth -= 1
        elif mark == '"':
            quoted = not quoted if depth == 0 else quoted
        elif depth == 0 and not quoted:
            return False
    return not quoted


def balance(raw: str) -> str:
    """``raw`` with each closing brace that closes nothing dropped and the groups left
    open closed at the end.

    A group that only BibTeX sees open (``{Thi\\{'ebaux}``: BibTeX counts the ``\\{``,
    TeX prints it) is closed by ``\\vphantom\\}`` before the value's last brace, as
    Better BibTeX closes one: BibTeX counts its brace and TeX prints nothing for it. A
    bare ``}`` there would balance BibTeX's count but leave TeX an extra ``}``, an
    error wherever a style prints the field."""
    out, depth = [], 0
    for ch in raw:
        if ch == "}":
            if depth == 0:
                continue
            depth -= 1
        elif ch == "{":
            depth += 1
        out.append(ch)
    value = "".join(out)
    if depth and value.endswith("}") and _tex_paired(value):
        return value[:-1] + "\\vphantom\\}" * depth + "}"
    return value + "}" * depth


_ESCAPE = re.compile(r"\\[\s\S]")


def _tex_paired(value: str) -> bool:
    """Whether the braces of ``value`` pair up as TeX counts them (``\\{`` and ``\\}``
    are characters, not braces)."""
    return braces_pair(_ESCAPE.sub("", value))
