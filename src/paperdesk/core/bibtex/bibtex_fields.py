"""Reading the fields of one BibTeX entry into PaperDesk's terms (pure, no database).

Values are resolved (``@string`` macros, ``#`` concatenation, month macros)
and decoded from LaTeX to plain text. Fields PaperDesk has no column for
(journal, pages, ...) are kept as written, with their delimiters, so that an
export writes them back unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from paperdesk.core.bibtex.bib_names import display_name, split_names, split_top, wrapped
from paperdesk.core.bibtex.bib_repair import NOTES, REPAIRS, bare_in_notes, bare_percent
from paperdesk.core.bibtex.latex_read import decode
from paperdesk.core.bibtex.tex_safe import DANGEROUS, danger_text, dangerous
from paperdesk.core.model import identifiers

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
ARXIV_ID = re.compile(r"(?:arxiv(?:\.org)?[:./\s]*(?:abs/|pdf/)?\s*)(\d{4}\.\d{4,5}(?:v\d+)?|"
                      r"[a-z\-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)", re.I)
BARE_ARXIV = re.compile(r"^(\d{4}\.\d{4,5}(?:v\d+)?|[a-z\-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)$")
_ARXIV_PREFIX = re.compile(r"^arxiv:", re.I)
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)
_DATE = re.compile(r"^(\d{4})(?!\d)(?:-(\d{1,2}))?(?:-(\d{1,2}))?")
_YEAR = re.compile(r"(?<!\d)\d{4}(?!\d)")  # four digits, not part of a longer number
# Where ``dangerous`` may find a command: one search skips values without any.
_DANGER_HINT = re.compile(r"\\(?:" + "|".join(map(re.escape, DANGEROUS)) + "|begin|[a-z]+_)")
# Fields read into columns (or derived again on export): not kept as extras.
KNOWN = frozenset("title author year month date abstract keywords note url doi eprint "
                  "archiveprefix eprinttype key".split())
# The most characters a value may expand to through @string macros and ``#``: far above
# any real field, and checked as the value is built (40 macros that each double the one
# before expand to 2^40 characters).
MAX_EXPANDED = 2**20


# The most characters macros may add to the values of one reader (a file, or a chunk of
# it) in all: a small file of entries each using a macro just under MAX_EXPANDED would
# otherwise put gigabytes into the library.
MAX_GROWTH = 64 * 2**20


class TooLong(str):
    """A @string macro whose value would be longer than ``MAX_EXPANDED``, standing for it:
    the name of the first such macro it uses (or is)."""


class ExpansionError(ValueError):
    """A value that would expand to more than ``MAX_EXPANDED`` characters; ``macro``:
    the first macro too long on its own it uses, if any."""

    def __init__(self, macro: str | None = None) -> None:
        super().__init__(macro)
        self.macro = macro

    def why(self, what: str) -> str:
        through = f" (through @string {self.macro!r})" if self.macro else ""
        return f"{what} would expand to more than {MAX_EXPANDED:,} characters{through}"


class GrowthError(ExpansionError):
    """The values read so far have grown by ``MAX_GROWTH`` characters through macros."""

    def why(self, what: str) -> str:
        return (f"{what}: the file's @string macros would add more than {MAX_GROWTH:,} "
                "characters to its values in all")


@dataclass
class BibPaper:
    key: str
    line: int
    title: str = ""
    abstract: str = ""
    authors: list[str] = field(default_factory=list)
    organization: str | None = None
    year: int | None = None
    published: str | None = None
    arxiv_id: str | None = None
    doi: str | None = None
    url: str | None = None
    tags: list[str] = field(default_factory=list)
    note: str | None = None
    bib_type: str | None = None
    raw_type: str = "misc"  # the entry type as written (@Article)
    fields: list[tuple[str, str]] = field(default_factory=list)  # (name, raw) as written
    names: dict[str, str] = field(default_factory=dict)  # display name -> name as written
    extra: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def resolve(raw: str, strings: dict[str, str]) -> tuple[str, bool]:
    """The LaTeX text of a raw value, and whether it was a single bare word or number;
    an ``ExpansionError`` once it would be longer than ``MAX_EXPANDED``."""
    whole = raw.strip()
    if "#" not in whole:  # one part: the common case, without splitting
        if len(whole) >= 2 and (whole[0], whole[-1]) in (("{", "}"), ('"', '"')):
            return whole[1:-1], False
        macro = strings.get(whole.lower())
        if macro is not None:
            if type(macro) is TooLong:
                raise ExpansionError(str(macro))
            return macro, False
        bare = bool(whole) and whole[0] not in '{"'
        return ("" if bare and _undefined(whole) else whole), bare
    parts = [p.strip() for p in split_top(raw, "#")]
    out = []
    size = 0
    for part in parts:
        if len(part) >= 2 and (part[0], part[-1]) in (("{", "}"), ('"', '"')):
            piece = part[1:-1]
        else:
            piece = strings.get(part.lower(), part)
            if type(piece) is TooLong:
                raise ExpansionError(str(piece))
            if piece is part and _undefined(part):
                piece = ""
        size += len(piece)
        if size > MAX_EXPANDED:
            raise ExpansionError()
        out.append(piece)
    bare = len(parts) == 1 and bool(whole) and whole[0] not in '{"' and (
        whole.lower() not in strings)
    return "".join(out), bare




def _undefined(word: str) -> bool:
    """Whether a bare word not among the file's macros is read as empty, as BibTeX and
    biber read it (with a warning of theirs): not a number, not a month (the styles'
    macros ``jan``... ``dec``)."""
    return bool(word) and not word[0].isdigit() and word.lower() not in MONTHS


def undefined_macros(raw: str, strings: dict[str, str]) -> list[str]:
    """The names a raw value (or an ``@string`` definition) uses that ``strings`` does not
    define (``_undefined``): read as empty."""
    whole = raw.strip()
    if "#" not in whole:  # most values: one part, looked at without a generator
        return [whole] if (whole and whole[0] not in '{"' and whole.lower() not in strings
                           and _undefined(whole)) else []
    parts = [p.strip() for p in split_top(raw, "#")]
    return list(dict.fromkeys(p for p in parts if p and p[0] not in '{"' and (
        p.lower() not in strings) and _undefined(p)))


def undefined_text(names: list[str]) -> str:
    """What the import report says of them."""
    return (f"uses @string {', '.join(map(repr, names))}, which the file does not define: "
            "read as empty, as BibTeX and biber read it")


def _month(text: str) -> int | None:
    word = text.strip().lower()
    if word.isdigit() and 1 <= int(word) <= 12:
        return int(word)
    return MONTHS.index(word[:3]) + 1 if word[:3] in MONTHS else None


def value_reader(strings: dict[str, str]) -> Callable[[str], tuple[str, str]]:
    """raw value -> (its LaTeX text, the value as kept among the extras), for values
    that need ``resolve`` (a macro, a ``#`` concatenation, a bare number). Cached:
    such values repeat across a file (``journal = j-TUGboat``, ``month = mar``); at
    most 4,096 of them, none longer than 4,096 characters, so the cache stays small
    whatever the macros expand to. ``strings`` must not change afterwards."""
    cache: dict[str, tuple[str, str]] = {}
    grown = [0]  # characters the macros added so far (``MAX_GROWTH``)

    def read(raw: str) -> tuple[str, str]:
        found = cache.get(raw)
        if found is None:
            text, bare = resolve(raw, strings)
            found = text, raw.strip() if bare else "{" + text + "}"
            if len(text) <= 4096:
                if len(cache) >= 4096:
                    cache.clear()
                cache[raw] = found
        growth = len(found[0]) - len(raw)
        if growth > 0:
            grown[0] += growth
            if grown[0] > MAX_GROWTH:
                grown[0] -= growth  # not added: later values without macros still read
                raise GrowthError()
        return found

    return read


def read_entry(entry_type: str, key: str, line: int, fields: list[tuple[str, str]],
               strings: dict[str, str], raw_type: str | None = None,
               read_value: Callable[[str], tuple[str, str]] | None = None) -> BibPaper:
    """A BibPaper from an entry's raw fields (name, raw value with delimiters);
    ``read_value``: ``value_reader(strings)``, when the caller keeps one for a file."""
    paper = BibPaper(key=key, line=line, raw_type=raw_type or entry_type, fields=list(fields))
    if entry_type.lower() not in ("misc", "online", "electronic", "www"):
        paper.bib_type = entry_type.lower()
    read = read_value or value_reader(strings)
    values: dict[str, str] = {}
    written: dict[str, str] = {}
    extra = paper.extra
    percent: list[str] = []
    for name, raw in fields:
        if ("\\" in raw and _DANGER_HINT.search(raw)) or "^^" in raw:
            _warn_dangerous(paper, name, raw)
        if "%" in raw and bare_percent(name, raw):
            percent.append(name)
        shown_name, name = name, name.lower()
        if name in NOTES and (bare := bare_in_notes(name, raw)):
            paper.warnings.append(
                f"entry {paper.key!r} field {shown_name}: bare {' '.join(bare)} kept as "
                "written (no standard style prints the field; where one does, each is a "
                f"LaTeX error): write {' '.join(REPAIRS[c] for c in bare)} for the "
                "character" + ("s" if len(bare) > 1 else ""))
        last = raw[-1:]
        if "#" in raw or not ((last == "}" and raw[:1] == "{")
                              or (last == '"' and raw[:1] == '"' and len(raw) > 1)):
            text, shown = read(raw)
            if undefined := undefined_macros(raw, strings):
                paper.warnings.append(f"entry {paper.key!r} field {shown_name}: "
                                      + undefined_text(undefined))
        elif last == "}":  # most values: resolve's answer, without a call
            text, shown = raw[1:-1], raw
        else:
            text = raw[1:-1]
            shown = "{" + text + "}"
        if name in values:  # BibTeX prints the first (biber the last): the first is read
            _warn_twice(paper, shown_name, values[name], text)
            continue
        values[name] = text
        if name not in KNOWN:
            extra[name] = shown
        elif name in ("year", "date"):
            written[name] = shown
    if percent:
        paper.warnings.append(
            f"entry {paper.key!r} field {', '.join(dict.fromkeys(percent))}: a bare % is "
            "TeX's comment: where the field is printed, or in biber's .bbl (which holds "
            "every field), it takes the rest of that line, the closing brace too; kept "
            "as written (BibTeX, biber and JabRef keep it): write \\% for a percent sign")
    paper.title = " ".join(decode(values.get("title", "")).split())
    paper.abstract = decode(values.get("abstract", "")).strip()
    _read_people(paper, values.get("author", ""))
    _read_date(paper, values)
    for name in ("year", "date"):  # not a date PaperDesk can use: kept as written
        if paper.year is None and values.get(name, "").strip():
            paper.extra[name] = written[name]
    _read_ids(paper, values)
    keywords = values.get("keywords", "")
    for word in keywords.split(";" if ";" in keywords else ",") if keywords else ():
        tag = " ".join(decode(word).split())
        if tag and tag not in paper.tags:
            paper.tags.append(tag)
    return paper


def _warn_twice(paper: BibPaper, name: str, first: str, again: str) -> None:
    paper.warnings.append(
        f"entry {paper.key!r} field {name}: given more than once; BibTeX prints the first "
        f"({' '.join(first.split())[:40]!r}), and so does PaperDesk; biber the last "
        f"({' '.join(again.split())[:40]!r}); each kept as written")


def _warn_dangerous(paper: BibPaper, name: str, raw: str) -> None:
    found = dangerous(raw)
    if found:
        paper.warnings.append(f"entry {paper.key!r} field {name}: "
                              f"{danger_text(found, 'wherever a style prints the field')}")


def _read_people(paper: BibPaper, text: str) -> None:
    names = split_names(text)
    if len(names) == 1 and wrapped(names[0]):
        paper.organization = " ".join(decode(names[0]).split()) or None
        return
    for name in names:
        shown = display_name(name)
        if shown:
            paper.authors.append(shown)
            paper.names.setdefault(shown, name)




def _read_date(paper: BibPaper, values: dict[str, Any]) -> None:
    year = month = day = None
    date = values.get("date", "").strip()
    m = _DATE.match(date) if date else None
    if m:
        year, month, day = (int(g) if g else None for g in m.groups())
        if month is not None and not 1 <= month <= 12:  # 2004-22: a season, not a month
            month = day = None
    elif date:
        paper.warnings.append(f"date {values['date'][:40]!r} is not a date that starts with "
                              "a four-digit year; kept as written")
    if year is None and values.get("year"):
        found = _YEAR.search(values["year"])
        if found:
            year = int(found.group())
        else:
            paper.warnings.append(f"year {values['year'][:40]!r} is not a four-digit year; "
                                  "kept as written, the paper has no year")
    if month is None and values.get("month"):
        month = _month(decode(values["month"]))
    paper.year = year
    if year and month and day:
        try:
            import datetime

            paper.published = datetime.date(year, month, day).isoformat()
        except ValueError:
            paper.warnings.append(f"date {values.get('date')!r} is not a date; year kept")
    elif year and month:
        paper.extra["month"] = MONTHS[month - 1]


def _read_ids(paper: BibPaper, values: dict[str, str]) -> None:
    """arXiv id, DOI and URL into PaperDesk's columns, each only when it matches its
    grammar (``identifiers``): one that does not stays in the entry as written and is
    reported."""
    eprint = values.get("eprint", "").strip()
    prefix = (values.get("archiveprefix") or values.get("eprinttype") or "").strip().lower()
    if eprint and (prefix == "arxiv" or (not prefix and BARE_ARXIV.match(eprint))):
        arxiv = _ARXIV_PREFIX.sub("", eprint)
        if _checked(paper, "eprint", "arxiv_id", arxiv):
            paper.arxiv_id = arxiv
        else:  # kept as an eprint PaperDesk does not read
            paper.extra["eprint"] = "{" + eprint + "}"
            paper.extra["archiveprefix"] = "{" + (prefix or "arXiv") + "}"
    elif eprint:
        paper.extra["eprint"] = "{" + eprint + "}"
        if prefix:
            paper.extra["archiveprefix"] = "{" + prefix + "}"
    doi = identifiers.from_latex(_DOI_PREFIX.sub("", values.get("doi", "").strip()))
    paper.doi = doi if doi and _checked(paper, "doi", "doi", doi) else None
    url = identifiers.from_latex(values.get("url", ""))
    paper.url = url if url and _checked(paper, "url", "url", url) else None
    if paper.arxiv_id is None:
        for source in (values.get("url", ""), paper.doi or "", values.get("journal", ""),
                       values.get("note", ""), values.get("howpublished", "")):
            m = ("x" in source or "X" in source) and ARXIV_ID.search(source)  # "arxiv"
            if m and identifiers.valid("arxiv_id", m.group(1)):
                paper.arxiv_id = m.group(1)
                break
    if paper.arxiv_id and paper.url == f"https://arxiv.org/abs/{paper.arxiv_id}":
        paper.url = None


_COLUMN_NAMES = {"arxiv_id": "arXiv id", "doi": "DOI", "url": "URL"}


def _checked(paper: BibPaper, field_name: str, kind: str, value: str) -> bool:
    why = identifiers.problem(kind, value)
    if why is not None:
        paper.warnings.append(f"entry {paper.key!r} field {field_name}: {why}; kept as written "
                              f"in the entry, not used as the paper's {_COLUMN_NAMES[kind]}")
    return why is None
