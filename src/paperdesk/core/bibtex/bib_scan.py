"""Reading the block structure of a .bib file quickly, one entry at a time (pure).

The text is cut into *segments*: each starts where a block starts at the start of a
line (``@type{`` or ``@type(`` after nothing but white space), which is where
bibtexparser's splitter always starts a block, whatever came before (an unclosed
entry is cut there). A segment is one block followed by what lies between blocks.

A segment holding one ``{``-delimited entry of an ordinary type and no other block
start is read here, with a few regular expressions and no loop per character; it
gives the same type, key and raw field values (delimiters, ``#`` and macro names
kept) as the splitter. Any other segment (``@string``, ``@preamble``, ``@comment``,
``@type(...)``, an entry these expressions cannot read: unbalanced, braces nested
more than 8 deep, a field name with a ``%`` or ``@``...) is handed to
bibtexparser alone, so the rare block is read as before, its failures included.

``%`` comments between fields are blanked first (``strip_entry_comments``) and
``@commented{key,`` (jurabib's type) is masked for bibtexparser, both per segment.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from paperdesk.core.bibtex.bib_salvage import (
    as_bibtex_reads,
    counted_alike,
    first_entry,
    run_on,
    salvage,
)
from paperdesk.core.bibtex.bib_text import MASK as MASK
from paperdesk.core.bibtex.bib_text import loosen as loosen
from paperdesk.core.bibtex.bib_text import readable as readable
from paperdesk.core.bibtex.bib_text import strip_entry_comments as strip_entry_comments

# bibtexparser logs each broken block on several lines; the import reports
# them itself, one line each with its line number, so its log stays quiet.
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())
logging.getLogger("bibtexparser").propagate = False

# A block start as bibtexparser's splitter sees one (its `_BLOCK_START`, with the delimiter),
# and a type with a hyphen (BibTeX's ``@FAKE-ENTRY{``).
_MARK = re.compile(r"@[\w-]*[ \t]*[{(]")
_TYPE = re.compile(r"@\s*([^\s{(]+)")
_SPECIAL = ("comment", "preamble", "string")


def _braced(depth: int) -> str:
    inner = r"[^{}\\]++|\\[{}]?"
    if depth > 1:
        inner += "|" + _braced(depth - 1)
    return r"\{(?:" + inner + r")*+\}"


# Marks (unescaped { } " , =) decide the structure; a character after a backslash is no mark.
# Inside a quoted value a brace group is read whole, a quote in it included, as BibTeX
# reads it: "{zeitgem{"a}{\ss} Schaffende}" is one value (bibtexparser ends it at the
# inner quote and loses the fields after it); a brace that never closes stays a character.
_QUOTED = r'"(?:[^"\\{]++|\\"?|' + _braced(8) + r'|\{)*+"'
_VALUE = r'(?:[^{}",\\%]++|\\[{}",]?|' + _braced(8) + "|" + _QUOTED + r")*+"
_NAME = r'(?:[^{}",=\\@%]++|\\[{}",=]?)*+'
# An entry is its head (``@type{key``), then "}" or "," and its fields: name=value
# with a comma between (and maybe one after the last), white space, "}". _FIELDS
# finds the fields in order and hands over what follows them whole, as its last
# group: the entry is read when that starts with its closing brace.
_HEAD = re.compile(r"[^\S\n]*@([\w-]+)[ \t]*\{(" + _NAME + ")")
_FIELDS = re.compile("(" + _NAME + ")=(" + _VALUE + r")(,?)|([\s\S]+)")


@dataclass
class RawEntry:
    """One entry as written: type (lower case, as bibtexparser gives it), key, the
    type as written, each field's (name, raw value), and its line (1-based)."""
    entry_type: str
    key: str
    raw_type: str
    fields: list[tuple[str, str]]
    line: int
    damage: str = ""  # a damaged entry read as BibTeX reads it: what was wrong
    note: str = ""  # an entry BibTeX reads otherwise, read as written: how BibTeX reads it


@dataclass
class Failure:
    """A block that could not be read; ``what`` it is called in the warning."""
    line: int
    key: str | None
    reason: str
    what: str = "an entry"


class Segment(NamedTuple):
    start: int
    end: int
    line: int  # of its start, 1-based, as the splitter counts
    fast: bool  # one entry of an ordinary type, delimited by braces, and no other block
    head_end: int  # the index after its block start's delimiter


@dataclass
class Scan:
    """A file's segments, and what its slow segments held, read up front: ``@string``
    and ``@preamble`` definitions, blocks that could not be read, their entries."""
    segments: list[Segment]
    strings: list[tuple[str, str, str]] = field(default_factory=list)  # name, value, @word
    preambles: list[str] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    slow_entries: dict[int, list[RawEntry]] = field(default_factory=dict)
    string_keys: set[str] = field(default_factory=set)  # macro names, lower case
    string_at: list[int] = field(default_factory=list)  # the segment of each of ``strings``
    # (line, name) of each @string that defines a name again (in any case): BibTeX and
    # biber expand a macro with the definition in force where the entry stands.
    redefined: list[tuple[int, str]] = field(default_factory=list)
    # where the macros are defined, for the entries above a definition (a
    # ``bib_macros.MacroOrder``, set once the definitions are resolved)
    order: Any = None
    comments: list[tuple[int, str]] = field(default_factory=list)  # (line, @comment as written)

    @property
    def candidates(self) -> int:
        """Segments that hold, or may hold, an entry."""
        return sum(s.fast for s in self.segments) + sum(map(len, self.slow_entries.values()))


def _lines(text: str, start: int, end: int) -> int:
    """Newlines the splitter counts in text[start:end] once comments are blanked (one
    after a backslash is no mark, unless the backslash ended a comment)."""
    n = text.count("\n", start, end)
    if not n or text.find("\\\n", start, end) < 0:
        return n
    part = text[start:end]
    if "%" in part:
        part = readable(part)
    return n - part.count("\\\n")


def segments(text: str) -> list[Segment]:
    """The segments of the text, in order; junk before the first block is left out
    unless a block starts inside it."""
    heads: list[tuple[int, int, str]] = []  # segment start, end of its mark, the mark
    inner: list[int] = []  # block starts that are not at the start of a line
    for m in _MARK.finditer(text):
        at = line_start = m.start()
        if at and text[at - 1] != "\n":  # not the line's first character
            line_start = text.rfind("\n", 0, at) + 1
            if not text[line_start:at].isspace():
                inner.append(at)
                continue
        heads.append((line_start, m.end(), m.group()))
    out: list[Segment] = []
    first = heads[0][0] if heads else len(text)
    if inner and inner[0] < first:
        out.append(Segment(0, first, 1, False, 0))
    line, prev, k = 1, 0, 0
    escaped_breaks = "\\\n" in text  # else the lines are the newlines
    ordinary: dict[str, bool] = {}  # mark -> it starts an entry of an ordinary type in braces
    for i, (start, head_end, mark) in enumerate(heads):
        end = heads[i + 1][0] if i + 1 < len(heads) else len(text)
        line += _lines(text, prev, start) if escaped_breaks else text.count("\n", prev, start)
        prev = start
        while k < len(inner) and inner[k] < start:
            k += 1
        alone = k >= len(inner) or inner[k] >= end
        if mark not in ordinary:
            word = mark[1:].rstrip(" \t{(").lower()
            ordinary[mark] = mark.endswith("{") and bool(word) and not word.startswith(_SPECIAL)
        out.append(Segment(start, end, line, alone and ordinary[mark], head_end))
    return out


def read_fast(text: str, seg: Segment, at: int = 0) -> RawEntry | None:
    """The entry of a segment, or None when only bibtexparser can tell (``at``: where
    ``text`` starts in the text the segment's offsets are of)."""
    part = text[seg.start - at:seg.end - at]
    if "%" in part:
        part = strip_entry_comments(part)
    head = _HEAD.match(part)
    if head is None:
        return None
    at = head.end()
    fields: list[tuple[str, str]] = []
    if part[at:at + 1] == "}":
        rest = part[at + 1:]
    elif part[at:at + 1] == ",":
        found = _FIELDS.findall(part, at + 1)
        after = found.pop()[3] if found else ""  # the text after the fields
        if not (found and not found[-1][2]):  # after a comma, or no field: white space
            after = after.lstrip()
        if after[:1] != "}":
            return None
        rest = after[1:]
        fields = [(name.strip(), value.strip()) for name, value, _comma, _after in found]
    else:
        return None
    if "@" in rest:
        return None
    raw_type = head.group(1)
    if (("\\{" in part or "\\}" in part) and not counted_alike(fields)) or (
            "=" in part and run_on(fields)):
        return _as_bibtex(part, seg.line)
    return RawEntry(raw_type.lower(), head.group(2).strip(), raw_type, fields, seg.line)


def _as_bibtex(part: str, line: int) -> RawEntry | None:
    """An entry with a ``\\{`` or ``\\}``, its braces counted as BibTeX and biber count
    them (the expressions above, like bibtexparser, take a backslash to hide a brace):
    ``{\\{x}`` leaves a group open, which takes in what follows, as in BibTeX."""
    found = as_bibtex_reads(part, line)
    if found is None:
        return None
    raw_type, key, fields, why = found
    if why and fields and ("\\{" in fields[-1][1] or "\\}" in fields[-1][1]):
        why = (f"BibTeX counts the brace after a backslash in {fields[-1][0]} as a brace, so "
               f"{fields[-1][0]} takes in what follows it; {why}")
    return RawEntry(raw_type.lower(), key, raw_type, fields, line, why)


def scan(text: str) -> Scan:
    """Cut the text into segments and read the slow ones (definitions, comments,
    anything the fast reader does not take) with bibtexparser, in file order."""
    out = Scan(segments(text))
    for index, seg in enumerate(out.segments):
        if not seg.fast:
            read_slow(text, out, index)
    return out


def entry_keys(text: str, found: Scan) -> Iterator[str]:
    """The keys of the file's entries as written, in order, before any entry is read
    (a fast segment's key is its head's): what an import sets aside before it makes
    a key for an entry whose key cannot be used."""
    for index, seg in enumerate(found.segments):
        if seg.fast:
            head = _HEAD.match(text, seg.start)
            if head is not None:
                yield head.group(2).strip()
        else:
            yield from (entry.key for entry in found.slow_entries.get(index, ()))


def iter_entries(text: str, found: Scan) -> Iterator[tuple[int, RawEntry | Failure]]:
    """Every entry in file order with its segment, read here or taken from the slow
    segments; a segment the fast reader turns down is read by bibtexparser after all."""
    for index, seg in enumerate(found.segments):
        if not seg.fast:
            for item in found.slow_entries.pop(index, ()):
                yield index, item
            continue
        entry = read_fast(text, seg)
        if entry is not None:
            yield index, entry
            continue
        alone = Scan(found.segments, string_keys=found.string_keys)
        read_slow(text, alone, index)
        for failure in alone.failures:
            yield index, failure
        for item in alone.slow_entries.get(index, ()):
            yield index, item


# A name BibTeX accepts for a @string macro: no leading digit, no space or special.
_MACRO_NAME = re.compile(r"[^\d\s\"#%'(),={}][^\s\"#%'(),={}]*\Z")


def _first_line(error: object) -> str:
    text = (getattr(error, "abort_reason", None) or str(error)).strip().splitlines()
    return text[0].rstrip(": ").replace("`", "") if text else "not valid BibTeX"


def read_slow(text: str, out: Scan, index: int) -> None:
    """Read one segment with bibtexparser, as it read the whole file before: the
    next segment's block start follows it, so that an unclosed block ends the same
    way; blocks from there on are not this segment's."""
    import bibtexparser  # only for the rare segment

    seg = out.segments[index]
    part = readable(text[seg.start:seg.end])
    after = out.segments[index + 1] if index + 1 < len(out.segments) else None
    tail = text[after.start:after.head_end] if after else ""
    blocks = bibtexparser.parse_string(part + tail, parse_stack=[]).blocks
    for block in blocks[:-1] if after else blocks:  # the last: the next segment's start
        _take(block, seg.line + (block.start_line or 0), out, index, part)


def _take(block: Any, line: int, out: Scan, index: int, part: str = "") -> None:
    from bibtexparser import model

    inner = getattr(block, "ignore_error_block", None)
    if isinstance(block, model.ParsingFailedBlock) and isinstance(inner, (model.Entry,
                                                                             model.String)):
        block = inner
    if isinstance(block, model.String):
        if not _MACRO_NAME.match(block.key):  # BibTeX rejects it; it would go out again
            out.failures.append(Failure(line, None, "defines a @string with an unusable name "
                                                    f"{block.key[:40]!r}", "a block"))
        else:
            written = _TYPE.match(block.raw or "")
            if block.key.lower() in out.string_keys:
                out.redefined.append((line, block.key))
            out.strings.append((block.key, str(block.value),
                                written.group(1) if written else "string"))
            out.string_at.append(index)
        out.string_keys.add(block.key.lower())
    elif isinstance(block, model.ExplicitComment):
        out.comments.append((line, (block.raw or "").strip()))
    elif isinstance(block, model.Preamble):
        out.preambles.append(str(block.value))
    elif isinstance(block, model.Entry) and _differs(block) and (
            entry := _as_bibtex(block.raw or "", line)) is not None:
        out.slow_entries.setdefault(index, []).append(entry)
    elif isinstance(block, model.Entry) and (found := _cut_at_a_quote(block, part)):
        raw_type, key, fields = found
        out.slow_entries.setdefault(index, []).append(RawEntry(
            raw_type.lower().removeprefix(MASK), key, raw_type.removeprefix(MASK), fields, line))
    elif isinstance(block, model.Entry):
        written = _TYPE.match(block.raw or "")
        raw_type = written.group(1) if written else block.entry_type
        fields = [(f.key, str(f.value)) for f in block.fields]
        odd = [n for n, v in fields if not counted_alike([(n, v)])] if _differs(block) else []
        note = "" if not odd else (  # (else _as_bibtex would have read it above)
            f"BibTeX counts the brace after a backslash in {odd[0]} as a brace, which "
            "nothing closes: BibTeX reads the rest of the file into that value and loses "
            "every entry after it; read as written, the backslash taking the brace")
        out.slow_entries.setdefault(index, []).append(RawEntry(
            block.entry_type.removeprefix(MASK), block.key, raw_type.removeprefix(MASK),
            fields, line, note=note))
    elif isinstance(block, model.ParsingFailedBlock) and _salvaged(block, line, out, index,
                                                                   part):
        pass
    elif isinstance(block, model.ParsingFailedBlock):
        match = re.match(r"\s*@\s*\w+\s*[{(]\s*([^,\s]*)", block.raw or "")
        out.failures.append(Failure(line, match.group(1) if match else None,
                                    f"cannot be read ({_first_line(getattr(block, 'error', ''))})"))


def _cut_at_a_quote(block: Any, part: str) -> tuple[str, str, list[tuple[str, str]]] | None:
    """The entry as BibTeX reads it, from its segment's text, when bibtexparser ended a
    quoted value at a quote inside its braces and the entry as it read it (its ``raw``)
    ends there too (another entry after it on the line)."""
    raw = block.raw or ""
    if '{"' not in raw or not any(str(f.value)[:1] == '"' and str(f.value).count("{")
                                  != str(f.value).count("}") for f in block.fields):
        return None
    at = part.find(raw) if raw else -1
    return first_entry(part[at:]) if at >= 0 else None


def _differs(block: Any) -> bool:
    """Whether BibTeX reads the entry bibtexparser read otherwise (``_as_bibtex``): a
    backslash before a brace, a missing comma, or a quoted value bibtexparser ended at
    a quote inside its braces (``"a {"b} c"``: it keeps ``"a {"b`` and drops the fields
    after it; BibTeX reads a quote inside braces as a character)."""
    raw = block.raw or ""
    if not ("\\{" in raw or "\\}" in raw or "=" in raw or '{"' in raw):
        return False
    fields = [(f.key, str(f.value)) for f in block.fields]
    if '{"' in raw and any(v[:1] == '"' and v.count("{") != v.count("}") for _n, v in fields):
        return True
    return (("\\{" in raw or "\\}" in raw) and not counted_alike(fields)) or run_on(fields)


def _salvaged(block: Any, line: int, out: Scan, index: int, part: str) -> bool:
    """A damaged entry (not closed, braces that do not balance) read as BibTeX reads
    it, its fields up to the damage; False when BibTeX would not read it either, or
    when a ``%`` before it on its line comments it out (as biber reads it)."""
    raw = block.raw or ""
    at = part.find(raw) if raw else -1
    if at > 0 and "%" in part[part.rfind("\n", 0, at) + 1:at]:
        return False
    found = salvage(raw, line)
    if found is None:
        return False
    raw_type, key, fields, why = found
    out.slow_entries.setdefault(index, []).append(RawEntry(
        raw_type.lower().removeprefix(MASK), key, raw_type.removeprefix(MASK), fields, line,
        why))
    return True
