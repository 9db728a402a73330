"""Reading digest files: text saves of the Hugging Face "Daily Papers" page.

Pure functions, no database. ``parse_digest(data, name, mtime_year)`` turns the
bytes of one file into a ``Digest`` or raises ``DigestError`` with a one-line
reason. Recoverable oddities become warnings that carry a line number.

The layout (blocks separated by blank lines)::

    new / Get trending papers in your email inbox! / Subscribe / [Daily Papers]
    byAK and the research community
    Oct 30                                   <- the digest's date, no year
    Title
    Abstract
      • 7 authors | deepseek-ai DeepSeek     <- optional metadata block
    ·
    Aug 24, 2023 | Oct 1, 2024 8 | Jun 21 | Feb 24 2

A date without a year is in the digest's own year, which the file never states:
the site prints the year only for earlier years, so the digest's year is one
more than the latest explicit year; with none, the file's modification year,
flagged as a guess.

Lines end at LF, CRLF, or CR in a file whose lines end in CR; a stray CR, a form
feed, a vertical tab or any other control inside a line is a space there (never a
line break: it would split an entry), and invisible format characters (zero-width,
bidirectional controls) are dropped (``text.printable``), as the Hub's text is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from paperdesk.core.model.decode import decode_text, sniff_text
from paperdesk.core.model.errors import DigestError
from paperdesk.core.model.jobs import CancelFlag, check_cancel
from paperdesk.core.model.text import printable

MARKER = "byAK and the research community"
HEADER_LINES = {"new", "Get trending papers in your email inbox!", "Subscribe", "Daily Papers",
                MARKER}
MONTHS = {m: i for i, m in enumerate(
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], start=1)}
_DATE = re.compile(r"^(?P<mon>[A-Z][a-z]{2})\s+(?P<day>\d{1,2})(?:,\s*(?P<year>\d{4}))?"
                   r"(?:\s+(?P<upvotes>\d+))?$")
_AUTHORS = re.compile(r"^•?\s*(?P<n>\d+)\s+authors?$")
_MIDDOT = "·"

# The longest value kept of each field (characters); a longer one is cut, with a warning.
# Real titles stay under 300 characters and abstracts under 5,000; the caps keep one
# hostile value from making an import (and every title comparison after it) slow.
CAPS = {"title": 2_000, "abstract": 100_000, "organization": 200, "metadata": 1_000,
        "date": 100}
MAX_UPVOTES = 10**9  # more is no count a page has shown (and sums of such overflow SQLite)

# Where the digest's year came from.
YEAR_EXPLICIT = "explicit"        # the digest's date line carried a year
YEAR_FROM_ENTRIES = "entries"     # one more than the latest explicit year in the file
YEAR_FROM_FILE = "file date"      # the file's modification year: a guess


@dataclass
class Entry:
    title: str
    abstract: str
    line: int                        # line number of the title, 1-based
    position: int                    # 0-based order in the digest
    author_count: int | None = None
    organization: str | None = None  # display name, e.g. "DeepSeek"
    organization_handle: str | None = None  # e.g. "deepseek-ai"
    meta_raw: str | None = None      # the metadata block as printed
    published: date | None = None
    published_raw: str | None = None
    year_inferred: bool = False      # published's year was not printed
    upvotes: int | None = None
    _month_day: tuple[int, int] | None = field(default=None, repr=False)


@dataclass
class Digest:
    name: str
    date: date | None
    year: int
    year_source: str
    daily_papers: bool
    entries: list[Entry]
    warnings: list[str]
    encoding: str

    @property
    def year_inferred(self) -> bool:
        return self.year_source != YEAR_EXPLICIT


@dataclass
class _Block:
    line: int
    lines: list[str]

    @property
    def text(self) -> str:
        return " ".join(self.lines)

    @property
    def is_metadata(self) -> bool:
        return len(self.lines) == 3 and self.lines[1] == _MIDDOT


CANCEL_EVERY = 4096  # lines or blocks between looks at the cancel flag


def _blocks(text: str, cancel: CancelFlag | None = None) -> list[_Block]:
    blocks: list[_Block] = []
    current: _Block | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        if number % CANCEL_EVERY == 0:
            check_cancel(cancel)
        line = raw.strip()
        if "  " in line or "\t" in line:  # rare: collapse inner runs of blanks
            line = " ".join(line.split())
        if not line:
            current = None
            continue
        if current is None:
            current = _Block(number, [])
            blocks.append(current)
        current.lines.append(line)
    return blocks


def _parse_date(text: str) -> tuple[int, int, int | None, str | None] | None:
    m = _DATE.match(text)
    if not m or m["mon"] not in MONTHS:
        return None
    year = int(m["year"]) if m["year"] else None
    return MONTHS[m["mon"]], int(m["day"]), year, m["upvotes"]


def _split_header(blocks: list[_Block], name: str) -> tuple[int, bool]:
    """Index of the digest-date block and whether it is a "Daily Papers" digest."""
    for i, block in enumerate(blocks[:8]):
        if block.lines == [MARKER]:
            header = [b.text for b in blocks[:i]]
            unknown = [h for h in header if h not in HEADER_LINES]
            if unknown:
                raise DigestError(f"{name}: not a digest: unexpected header line "
                                  f"{unknown[0][:60]!r}")
            if i + 1 >= len(blocks):
                raise DigestError(f"{name}: digest has a header but no date and no papers")
            return i + 1, "Daily Papers" in header
    raise DigestError(f"{name}: not a Hugging Face Daily Papers digest "
                      f"(no {MARKER!r} line near the top)")


def cut(value: str, what: str, line: int, warnings: list[str]) -> str:
    """``value`` cut to the cap of ``what`` (a key of CAPS), with a warning when cut."""
    cap = CAPS[what]
    if len(value) <= cap:
        return value
    warnings.append(f"line {line}: {what} of {len(value):,} characters cut to {cap:,}")
    return value[:cap]


def _apply_metadata(entry: Entry, block: _Block, warnings: list[str]) -> None:
    line = block.line
    who = cut(block.lines[0], "metadata", line, warnings)
    when = cut(block.lines[2], "date", line + 2, warnings)
    entry.meta_raw = "\n".join((who, block.lines[1], when))
    m = _AUTHORS.match(who)
    if m:
        entry.author_count = _count(m["n"], "authors", block.line, warnings)
    else:
        handle, _, display = who.lstrip("• ").partition(" ")
        entry.organization_handle = cut(handle, "organization", line, warnings)
        entry.organization = cut(display.strip() or handle, "organization", line, warnings)
    parsed = _parse_date(when)
    entry.published_raw = when
    if parsed is None:
        warnings.append(f"line {block.line + 2}: cannot read the date {when!r}; kept as text")
        return
    month, day, year, upvotes = parsed
    if upvotes is not None:
        entry.upvotes = _count(upvotes, "upvotes", block.line + 2, warnings)
    entry._month_day = (month, day)
    if year is not None:
        entry.published = _make_date(year, month, day, block.line + 2, warnings)


def _count(digits: str, what: str, line: int, warnings: list[str]) -> int | None:
    """A count read from a digest, or None (with a warning) past ``MAX_UPVOTES``."""
    if len(digits) > len(str(MAX_UPVOTES)) or int(digits) > MAX_UPVOTES:
        shown = f"{int(digits):,}" if len(digits) <= 30 else f"a {len(digits):,}-digit number of"
        warnings.append(f"line {line}: {shown} {what} is out of range (at most "
                        f"{MAX_UPVOTES:,}); left empty")
        return None
    return int(digits)


def _make_date(year: int, month: int, day: int, line: int, warnings: list[str]) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        warnings.append(f"line {line}: {year}-{month:02d}-{day:02d} is not a date; left empty")
        return None


def _entries(blocks: list[_Block], warnings: list[str],
             cancel: CancelFlag | None = None) -> list[Entry]:
    entries: list[Entry] = []
    i = 0
    while i < len(blocks):
        if len(entries) % CANCEL_EVERY == 0:
            check_cancel(cancel)
        block = blocks[i]
        if block.is_metadata:
            warnings.append(f"line {block.line}: metadata without a paper before it; skipped")
            i += 1
            continue
        if len(block.lines) > 1:
            warnings.append(f"line {block.line}: title spans {len(block.lines)} lines; joined")
        nxt = blocks[i + 1] if i + 1 < len(blocks) else None
        if nxt is None:
            warnings.append(f"line {block.line}: {block.text[:60]!r} has no abstract "
                            "(file truncated?); skipped")
            break
        entry = Entry(title=cut(block.text, "title", block.line, warnings), abstract="",
                      line=block.line, position=len(entries))
        if nxt.is_metadata:
            warnings.append(f"line {block.line}: {block.text[:60]!r} has no abstract")
            i += 1
        else:
            entry.abstract = cut(nxt.text, "abstract", nxt.line, warnings)
            i += 2
        if i < len(blocks) and blocks[i].is_metadata:
            _apply_metadata(entry, blocks[i], warnings)
            i += 1
        entries.append(entry)
    return entries


def parse_digest(data: bytes, name: str, mtime_year: int,
                 cancel: CancelFlag | None = None) -> Digest:
    """Parse one digest file. Raises DigestError when it is not a digest (and
    Cancelled when ``cancel`` is set meanwhile)."""
    # Lines end at LF, CRLF or (in a file of CR line ends) CR, nowhere else; no stored
    # text keeps a control or an invisible character (each control a space).
    text, encoding, warnings = decode_text(data, name, stray_cr=" ")
    blocks = _blocks(printable(text), cancel)
    if not blocks:
        raise DigestError(f"{name}: the file is empty")
    date_index, daily = _split_header(blocks, name)
    date_block = blocks[date_index]
    parsed = _parse_date(date_block.text)
    if parsed is None or parsed[3] is not None:
        raise DigestError(f"{name}: line {date_block.line}: expected the digest's date "
                          f"(like 'Oct 30'), found {date_block.text[:40]!r}")
    d_month, d_day, d_year, _ = parsed
    entries = _entries(blocks[date_index + 1:], warnings, cancel)
    if not entries:
        raise DigestError(f"{name}: a digest header but no papers")

    explicit = [e.published.year for e in entries if e.published is not None]
    if d_year is not None:
        year, source = d_year, YEAR_EXPLICIT
    elif explicit:
        year, source = max(explicit) + 1, YEAR_FROM_ENTRIES
    else:
        year, source = mtime_year, YEAR_FROM_FILE
        warnings.append(f"no year is printed in the file; assumed {year} from the file's date")

    for e in entries:
        if e.published is None and e._month_day is not None:
            month, day = e._month_day
            # A yearless date lies in the digest's year and not after its day.
            e_year = year - 1 if (month, day) > (d_month, d_day) else year
            e.published = _make_date(e_year, month, day, e.line, warnings)
            e.year_inferred = True
    digest_date = _make_date(year, d_month, d_day, date_block.line, warnings)
    return Digest(name=name, date=digest_date, year=year, year_source=source, daily_papers=daily,
                  entries=entries, warnings=warnings, encoding=encoding)


def looks_like_digest(data: bytes) -> bool:
    """A cheap sniff used to route files to the right importer."""
    return MARKER in sniff_text(data, 4096 * 2)
