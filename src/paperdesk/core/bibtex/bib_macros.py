"""``@string`` macros in the order BibTeX reads them (pure).

BibTeX and biber read a file from top to bottom and expand a macro in an entry's
field with the definition in force where the entry stands: when a name is defined
twice, the entries between the two definitions get the first text, the entries
after the second get the second; a macro used above its first definition is not
defined there, and reads as empty. The import reads every entry with the file's
last definitions (``BibReader._macros``), which is right after the last one; for
the entries above it, each field using a macro that stood for another text there
(or for none) is kept as the value BibTeX computed there, written out in braces,
so that the export (which writes each macro once, with its last definition)
builds the same bibliography. Entries after the last definition pay nothing.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace

from paperdesk.core.bibtex.bib_names import split_top
from paperdesk.core.bibtex.bib_scan import RawEntry
from paperdesk.core.bibtex.bibtex_fields import MONTHS, TooLong, resolve

# (first segment, segment after the last, {macro (lower case): its value there})
Window = tuple[int, int, dict[str, str]]


@dataclass
class MacroOrder:
    """Where a file's macros are defined, for the entries above a definition: the
    segment of each name's first definition, the runs of segments in which a name
    defined again stands for an earlier text, and the last definition's segment (the
    entries after it are read with the last definitions, as they are)."""
    first: dict[str, int]
    windows: list[Window]
    last: int

    def earlier(self, segment: int) -> dict[str, str] | None:
        """The earlier values in force at ``segment``, or None (the last definitions)."""
        return in_force(self.windows, segment)

    def undefined(self, name: str, segment: int) -> bool:
        """Whether the name (lower case) is not defined yet at ``segment``."""
        return self.first.get(name, -1) > segment and name not in MONTHS


def macro_order(definitions: list[tuple[int, str, str]], final: dict[str, str],
                segment_count: int) -> MacroOrder | None:
    """How the entries above the last definition read their macros, or None when no
    entry stands above a definition that changes what it reads. ``definitions``:
    (segment, name in lower case, value resolved where it stands) in file order;
    ``final``: every name's last value."""
    if not definitions:
        return None
    first: dict[str, int] = {}
    for seg, name, _value in definitions:
        first.setdefault(name, seg)
    return MacroOrder(first, earlier_windows(definitions, final, segment_count),
                      definitions[-1][0])


def earlier_windows(definitions: list[tuple[int, str, str]], final: dict[str, str],
                    segment_count: int) -> list[Window]:
    """The runs of segments in which a macro defined more than once stands for another
    text than its last definition."""
    counts: dict[str, int] = {}
    for _seg, name, _value in definitions:
        counts[name] = counts.get(name, 0) + 1
    twice = {name for name, n in counts.items() if n > 1}
    if not twice:
        return []
    windows: list[Window] = []
    state: dict[str, str] = {}
    marks = [(seg, name, value) for seg, name, value in definitions if name in twice]
    for i, (seg, name, value) in enumerate(marks):
        state[name] = value
        end = marks[i + 1][0] if i + 1 < len(marks) else segment_count
        differ = {n: v for n, v in state.items() if v != final.get(n)
                  and type(v) is not TooLong}
        if differ and end > seg:
            windows.append((seg, end, differ))
    return windows


def in_force(windows: list[Window], segment: int) -> dict[str, str] | None:
    """The earlier values in force at ``segment``, or None (the last definitions)."""
    if not windows:
        return None
    at = bisect.bisect_right(windows, segment, key=lambda w: w[0]) - 1
    if at < 0 or segment >= windows[at][1]:
        return None
    return windows[at][2]


def _parts(raw: str) -> list[str]:
    whole = raw.strip()
    return [p.strip() for p in split_top(whole, "#")] if "#" in whole else [whole]


def as_read_there(entry: RawEntry, segment: int, order: MacroOrder,
                  strings: dict[str, str]) -> tuple[RawEntry, list[str]]:
    """The entry with each field that uses a macro not yet defined at ``segment``, or
    defined there with an earlier text, written as the value BibTeX computes there
    (``{...}``; a macro not yet defined reads as empty); other fields as written. With
    the names used before their definition."""
    if segment >= order.last:
        return entry, []
    earlier = order.earlier(segment) or {}
    fields: list[tuple[str, str]] = []
    early: list[str] = []
    for name, raw in entry.fields:
        bare = [p for p in _parts(raw) if p and p[0] not in '{"'] if raw[:1] not in '{"' or (
            "#" in raw) else []
        missing = [p for p in bare if order.undefined(p.lower(), segment)]
        if missing or any(p.lower() in earlier for p in bare):
            there = {**strings, **earlier}
            for p in missing:
                there.pop(p.lower(), None)
            early += missing
            raw = "{" + resolve(raw, there)[0] + "}"
        fields.append((name, raw))
    if fields == entry.fields:
        return entry, []
    return replace(entry, fields=fields), list(dict.fromkeys(early))


def early_text(file: str, entry: RawEntry, names: list[str]) -> str:
    """What the import report says of an entry using macros above their definition."""
    return (f"{file}: line {entry.line}: entry {entry.key[:40]!r} uses @string "
            f"{', '.join(map(repr, names))} above its definition: read as empty, as BibTeX "
            "and biber read it")
