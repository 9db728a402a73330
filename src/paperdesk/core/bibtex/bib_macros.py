"""``@string`` macros in the order BibTeX reads them (pure).

BibTeX and biber read a file from top to bottom and expand a macro in an entry's
field with the definition in force where the entry stands: when a name is defined
twice, the entries between the two definitions get the first text, the entries
after the second get the second. The import reads every entry with the file's last
definitions (``BibReader._macros``), which is right after the last one; for the
entries that stood under an earlier definition, each field using such a macro is
kept as the value BibTeX computed there, written out in braces, so that the export
(which writes each macro once, with its last definition) builds the same
bibliography. Files that define no name twice pay nothing.
"""

from __future__ import annotations

import bisect
from dataclasses import replace

from paperdesk.core.bibtex.bib_names import split_top
from paperdesk.core.bibtex.bib_scan import RawEntry
from paperdesk.core.bibtex.bibtex_fields import TooLong, resolve

# (first segment, segment after the last, {macro (lower case): its value there})
Window = tuple[int, int, dict[str, str]]


def earlier_windows(definitions: list[tuple[int, str, str]], final: dict[str, str],
                    segment_count: int) -> list[Window]:
    """The runs of segments in which a macro defined more than once stands for another
    text than its last definition. ``definitions``: (segment, name in lower case, value
    resolved where it stands) in file order; ``final``: every name's last value."""
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


def _uses(raw: str, names: dict[str, str]) -> bool:
    whole = raw.strip()
    parts = [p.strip() for p in split_top(whole, "#")] if "#" in whole else [whole]
    return any(p and p[0] not in '{"' and p.lower() in names for p in parts)


def as_read_there(entry: RawEntry, earlier: dict[str, str],
                  strings: dict[str, str]) -> RawEntry:
    """The entry with each field that uses one of the ``earlier`` macros written as the
    value BibTeX computes where the entry stands (``{...}``); other fields as written."""
    if not any(_uses(raw, earlier) for _name, raw in entry.fields):
        return entry
    there = {**strings, **earlier}
    fields = [(name, "{" + resolve(raw, there)[0] + "}" if _uses(raw, earlier) else raw)
              for name, raw in entry.fields]
    return replace(entry, fields=fields)
