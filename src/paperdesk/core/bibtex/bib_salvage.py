"""A damaged entry read as BibTeX reads it (pure).

bibtexparser gives up on an entry that is not closed, or whose braces do not
balance; BibTeX reads its fields one by one and stops at the first that does not
follow its grammar ("I was expecting a `,' or a `}'"), keeping those before. This
does the same on the block's text: the entry's head, then ``name = value`` (a brace
group, a quoted string or a bare word, ``#`` between parts) with a comma between,
until the closing brace or the first thing that is not one.
"""

from __future__ import annotations

import re

_HEAD = re.compile(r"\s*@\s*([A-Za-z][^\s{(]*)\s*[{(]\s*([^\s,{}()\"#%'=]+)\s*,")
_NAME = re.compile(r"\s*([^\s\"#%'(),={}]+)\s*=\s*")
_WORD = re.compile(r"[^\s\"#%'(),={}]+")
_SPACE = re.compile(r"\s*")


def _after_space(text: str, at: int) -> int:
    """The index after the white space at ``at``."""
    space = _SPACE.match(text, at)
    assert space is not None  # (it matches everywhere, if only the empty string)
    return space.end()
_RUN_ON = re.compile(r"\n\s*[A-Za-z][\w-]*\s*=")  # a field's line inside a value


def _group_end(text: str, at: int) -> int:
    """The index after the brace group opening at ``at``, or -1 when it is not closed."""
    depth = 0
    for i in range(at, len(text)):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def _quoted_end(text: str, at: int) -> int:
    """The index after the quoted string opening at ``at`` (a quote inside braces is
    no end), or -1."""
    depth = 0
    for i in range(at + 1, len(text)):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == '"' and depth == 0:
            return i + 1
    return -1


def _value_end(text: str, at: int) -> int:
    """The index after a value (parts joined by ``#``) starting at ``at``, or -1."""
    while True:
        at = _after_space(text, at)
        if text.startswith("{", at):
            at = _group_end(text, at)
        elif text.startswith('"', at):
            at = _quoted_end(text, at)
        else:
            word = _WORD.match(text, at)
            at = word.end() if word else -1
        if at < 0:
            return -1
        after = _after_space(text, at)
        if not text.startswith("#", after):
            return at
        at = after + 1


def counted_alike(fields: list[tuple[str, str]]) -> bool:
    """Whether every value read with a backslash hiding the brace after it (as
    ``bib_scan``'s expressions and bibtexparser read) pairs its braces as BibTeX counts them too,
    every brace counted: then BibTeX reads the same fields."""
    for _name, value in fields:
        if "\\{" in value or "\\}" in value:
            inner = value[1:-1]
            depth = 0
            for m in _BRACE.finditer(inner):
                depth += 1 if m.group() == "{" else -1
                if depth < 0:
                    return False
            if depth:
                return False
    return True


_BRACE = re.compile("[{}]")
# A brace group (three deep) or a quoted string: taken out of a value, what is left is
# at its top level (a group nested deeper leaves an "=" seen: then the value is only
# read again, by BibTeX's grammar, to the same fields). ``equals_outside`` answers by
# it without running it (the tests hold the two to one answer).
_DELIMITED = re.compile(r'\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}|"[^"]*"')
_MARK = re.compile(r'[{}"]')


def run_on(fields: list[tuple[str, str]]) -> bool:
    """Whether a value holds an ``=`` outside its braces and quotes: the next field's,
    after a missing comma (``title = {A}  journal = {B}``), where BibTeX stops reading
    the entry; ``bib_scan``'s expressions read the two as one value."""
    return any("=" in value and equals_outside(value) for _name, value in fields)


def equals_outside(value: str) -> bool:
    """Whether an ``=`` is left once ``_DELIMITED``'s groups and strings are taken out
    (``"=" in _DELIMITED.sub("", value)``), found from the braces and quotes alone: the
    expression walked every character of each abstract with an ``=`` in its math."""
    marks = [(m.start(), m.group()) for m in _MARK.finditer(value)]
    pos, i = 0, 0
    while i < len(marks):
        at, mark = marks[i]
        if value.find("=", pos, at) >= 0:
            return True
        end = (_closing_mark(marks, i) if mark == "{" else
               _quote_mark(marks, i) if mark == '"' else None)
        if end is None:  # not taken out: the expression goes on after the mark
            pos, i = at + 1, i + 1
        else:
            pos, i = marks[end][0] + 1, end + 1
    return value.find("=", pos) >= 0


def _closing_mark(marks: list[tuple[int, str]], i: int) -> int | None:
    """The mark closing the brace group opened at ``marks[i]``, or None when it never
    closes or nests more than three deep (``_DELIMITED`` does not take it)."""
    depth = 0
    for j in range(i, len(marks)):
        mark = marks[j][1]
        if mark == "{":
            depth += 1
            if depth > 3:
                return None
        elif mark == "}":
            depth -= 1
            if depth == 0:
                return j
    return None


def _quote_mark(marks: list[tuple[int, str]], i: int) -> int | None:
    """The quote closing the string opened at ``marks[i]``, or None."""
    return next((j for j in range(i + 1, len(marks)) if marks[j][1] == '"'), None)


def salvage(raw: str, line: int = 0) -> tuple[str, str, list[tuple[str, str]], str] | None:
    """(type as written, key, the fields read before the damage, what the damage is)
    of a block BibTeX reads as an entry, or None when its head is not an entry's or a
    value never closes (BibTeX would take the next entries into it). ``line``: the
    block's, for the line of a missing comma."""
    found = _read(raw)
    if found is None:
        return None
    head, fields, rest = found
    if rest.startswith(")") and not rest[1:].strip() and _opens_with(raw, head) == "(":
        return head.group(1), head.group(2), fields, ""  # @type(key, ...): whole
    missing = _NAME.match(rest) if fields else None
    if missing is not None:  # "title = {A}  journal = {B}": no comma between
        names = list(dict.fromkeys(m.group(1) for m in _NAMES.finditer(rest)))
        at = len(raw) - len(raw.lstrip()) + raw.strip().rfind(rest) if line else 0
        where = f" on line {line + raw.count(chr(10), 0, at)}" if line else ""
        return head.group(1), head.group(2), fields, (
            f"a comma is missing between {fields[-1][0]} and {missing.group(1)}{where}: "
            f"BibTeX stops reading the entry there and does not read {', '.join(names)}")
    if not fields and rest.startswith("%"):  # its lines are commented out: not an entry
        return None
    why = "it is not closed"
    if fields and _RUN_ON.search(fields[-1][1]):
        why = f"a brace in {fields[-1][0]} is not closed: it takes in the fields after it"
    elif rest:
        why = f"BibTeX stops reading it at {rest.splitlines()[0][:30]!r}"
    return head.group(1), head.group(2), fields, why


# The names of the fields in the text BibTeX does not read (after a missing comma).
_NAMES = re.compile(r"(?:\A|,)\s*([^\s\"#%'(),={}]+)\s*=")


def as_bibtex_reads(raw: str, line: int = 0) -> tuple[str, str, list[tuple[str, str]], str] | None:
    """An entry read by BibTeX's grammar, every brace counted (a backslash does not hide
    one from BibTeX: ``\\{`` opens a group as ``{`` does), as ``salvage`` gives it, with
    no damage ("") when it closes where it should and nothing but white space follows."""
    found = _read(raw)
    if found is None:
        return None
    head, fields, rest = found
    close = ")" if _opens_with(raw, head) == "(" else "}"  # @type(key, ...)
    if rest.startswith(close) and not rest[1:].strip():
        return head.group(1), head.group(2), fields, ""
    return salvage(raw, line)


def _opens_with(raw: str, head: re.Match[str]) -> str:
    """The entry's opening delimiter, ``{`` or ``(``."""
    return raw[head.end(1):head.start(2)].strip()


def first_entry(text: str) -> tuple[str, str, list[tuple[str, str]]] | None:
    """(type as written, key, fields) of the entry ``text`` starts with, read by BibTeX's
    grammar, when it closes where it should (other blocks may follow); else None."""
    found = _read(text)
    if found is None:
        return None
    head, fields, rest = found
    close = ")" if _opens_with(text, head) == "(" else "}"
    return (head.group(1), head.group(2), fields) if rest.startswith(close) else None


def _read(raw: str) -> tuple[re.Match[str], list[tuple[str, str]], str] | None:
    """The head, the fields read in order up to the first thing that is not one, and
    the stripped text after them; None when it is no entry or a value never closes."""
    head = _HEAD.match(raw)
    if head is None or head.group(1).lower() in ("comment", "string", "preamble"):
        return None
    fields: list[tuple[str, str]] = []
    at = head.end()
    while True:
        name = _NAME.match(raw, at)
        if name is None:
            break
        end = _value_end(raw, name.end())
        if end < 0:  # BibTeX runs on into the entries after it: not read here
            return None
        fields.append((name.group(1), raw[name.end():end].strip()))
        at = _after_space(raw, end)
        if not raw.startswith(",", at):
            break
        at += 1
    return head, fields, raw[at:].strip()
