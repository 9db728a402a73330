"""Property-based tests of the two readers of outside files: digests and .bib files.

Whatever the input, each either reads it or refuses it with a PaperDeskError
(one line); nothing else escapes. What is read survives a round trip: parsed,
written back out, parsed again, titles and abstracts are unchanged.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperdesk.core.bibtex.latex import escape
from paperdesk.core.importing import bibtex_import
from paperdesk.core.library import Library
from paperdesk.core.model.digest import MARKER, MONTHS, Digest, parse_digest
from paperdesk.core.model.errors import PaperDeskError

MONTH_NAMES = sorted(MONTHS, key=MONTHS.__getitem__)
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# -- digests -------------------------------------------------------------------------

_month = st.sampled_from([*MONTHS, "Foo", "jan", "Sept"])
_date_line = st.builds(
    lambda m, d, y, u: f"{m} {d}" + (f", {y}" if y is not None else "") +
                       (f" {u}" if u is not None else ""),
    _month, st.integers(0, 35), st.none() | st.integers(0, 10000),
    st.none() | st.integers(0, 10**6))
_text_line = st.text(st.characters(blacklist_categories=["Cs", "Cc"]), min_size=0, max_size=60)
_meta_who = st.one_of(st.integers(0, 500).map(lambda n: f"  • {n} authors"),
                      st.from_regex(r"[a-z\-]{1,12} [A-Z][a-z]{0,10}", fullmatch=True),
                      _text_line)
_line = st.one_of(
    _text_line, _date_line, _meta_who, st.just("·"), st.just(""), st.just("  "),
    st.sampled_from(["new", "Get trending papers in your email inbox!", "Subscribe",
                     "Daily Papers", MARKER, "\ufeff", "\r", "\t", "\x00", "\x0c"]))


_meta = st.tuples(_meta_who, st.just("·"), _date_line).map(list)
_entry = st.one_of(
    st.tuples(_text_line, _text_line).map(lambda t: [[t[0]], [t[1]]]),
    st.tuples(_text_line, _text_line, _meta).map(lambda t: [[t[0]], [t[1]], t[2]]),
    st.tuples(_text_line, _meta).map(lambda t: [[t[0]], t[1]]),
)
_noise = st.lists(_line, min_size=1, max_size=3).map(lambda b: [b])


@st.composite
def digest_like(draw) -> bytes:
    """Text that is often a digest and often nearly one: a real header (or most of
    one), a date, then entries (title, abstract, metadata) mixed with stray blocks;
    in any of the encodings and line ends real files have, sometimes cut short."""
    header = draw(st.sampled_from([
        ["new", "Get trending papers in your email inbox!", "Subscribe", "Daily Papers",
         MARKER],
        ["new", "Get trending papers in your email inbox!", "Subscribe", MARKER],
        [MARKER], [], ["Daily Papers", MARKER],
    ]))
    blocks = [[line] for line in header]
    blocks.append([draw(st.sampled_from(["Oct 30", "Jan 1", "Feb 29"]) | _date_line
                        | _text_line)])
    for part in draw(st.lists(st.one_of(_entry, _entry, _entry, _noise), min_size=1, max_size=12)):
        blocks.extend(part)
    gap = draw(st.sampled_from(["\n\n", "\n\n\n", "\n \n"]))
    text = gap.join("\n".join(block) for block in blocks)
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    encoding = draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "cp1252"]))
    data = text.replace("\n", newline).encode(encoding, errors="replace")
    cut = draw(st.none() | st.integers(0, len(data)))
    return data if cut is None or draw(st.integers(0, 3)) else data[:cut]


def _parse(data: bytes) -> Digest | None:
    try:
        return parse_digest(data, "digest.txt", 2024)
    except PaperDeskError as exc:
        assert str(exc) and "\n" not in str(exc)
        return None


@SETTINGS
@given(st.binary(max_size=400))
def test_any_bytes_are_read_or_refused_with_a_message(data):
    _parse(data)


@SETTINGS
@given(digest_like())
def test_any_digest_like_text_is_read_or_refused_with_a_message(data):
    digest = _parse(data)
    if digest is not None:
        assert digest.entries and all(e.title for e in digest.entries)
        assert all("\n" not in w for w in digest.warnings)


def write_back(digest: Digest) -> str:
    """A parsed digest as digest text again: header, date, then each entry."""
    header = ["new", "Get trending papers in your email inbox!", "Subscribe"]
    if digest.daily_papers:
        header.append("Daily Papers")
    header.append(MARKER)
    assert digest.date is not None
    blocks = [*header, f"{MONTH_NAMES[digest.date.month - 1]} {digest.date.day}"]
    for entry in digest.entries:
        blocks.append(entry.title)
        if entry.abstract:
            blocks.append(entry.abstract)
        if entry.meta_raw:
            blocks.append(entry.meta_raw)
    return "\n\n".join(blocks) + "\n"


@SETTINGS
@given(digest_like())
def test_parse_write_back_parse_keeps_titles_and_abstracts(data):
    first = _parse(data)
    if first is None or first.date is None:
        return
    second = parse_digest(write_back(first).encode(), "again.txt", 2024)
    assert [e.title for e in second.entries] == [e.title for e in first.entries]
    assert [e.abstract for e in second.entries] == [e.abstract for e in first.entries]
    assert [e.meta_raw for e in second.entries] == [e.meta_raw for e in first.entries]


_words = st.text(st.characters(whitelist_categories=["L", "N"]), min_size=1, max_size=12)
_sentence = st.lists(_words, min_size=1, max_size=12).map(" ".join)


@SETTINGS
@given(st.lists(st.tuples(_sentence, _sentence), min_size=1, max_size=20))
def test_generated_entries_come_back_as_written(entries):
    blocks = ["Daily Papers", MARKER, "Oct 30"]
    for title, abstract in entries:
        blocks += [title, abstract]
    digest = parse_digest("\n\n".join(blocks).encode(), "digest.txt", 2024)
    assert [(e.title, e.abstract) for e in digest.entries] == entries


# -- .bib files ----------------------------------------------------------------------

_bib_piece = st.one_of(
    _text_line,
    st.sampled_from(["@article{", "@misc{key1,", "@string{x = \"y\"}", "@comment{", "}", "{",
                     "title = {", "title = \"", "author = {A and B},", "year = 2024,",
                     "abstract = {", "\\", "\\'e", "$x^2$", "#", "%", "@", "=", ",", "\""]),
)


@st.composite
def bib_like(draw) -> str:
    pieces = draw(st.lists(_bib_piece, max_size=30))
    start = draw(st.sampled_from(["@article{k,\n", "@misc{", "", "@book{b, title={T}}\n"]))
    return start + "\n".join(pieces)


@SETTINGS
@given(bib_like())
def test_any_bib_like_text_is_read_or_refused_with_a_message(text):
    try:
        papers, warnings, _failed = bibtex_import.parse(text, "refs.bib")
    except PaperDeskError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert all(p.title for p in papers)
    assert all("\n" not in w for w in warnings)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bib_like())
def test_any_bib_like_file_imports_whole_or_changes_nothing(text):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "refs.bib"
        path.write_bytes(text.encode("utf-8", errors="replace"))
        with Library.open(Path(folder) / "lib.sqlite") as lib:
            [report] = lib.import_paths([path])
            papers = lib.stats()["papers"]
            if report.status == "imported":
                # A file of @string/@preamble definitions alone imports them, and no papers.
                kept_definitions = any("definitions are kept" in w for w in report.warnings)
                assert (papers == report.new_papers > 0 or report.merged
                        or (papers == 0 and kept_definitions))
            else:
                assert report.status in ("error", "skipped")
                assert report.error and "\n" not in report.error and papers == 0
            assert lib.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


# A value whose every character is a combining mark with no letter to go on (U+0300
# alone) is written as nothing: LaTeX has no base to put the accent on. Such a title is
# no entry at all, so the round trip starts from values that write as something.
_plain = st.text(st.characters(blacklist_categories=["Cs", "Cc"]), min_size=1, max_size=80) \
    .map(lambda s: " ".join(s.split())).filter(lambda s: escape(s).strip())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_plain, _plain), min_size=1, max_size=8))
def test_bib_parse_export_parse_keeps_titles_and_abstracts(papers):
    """Titles and abstracts with every kind of character (LaTeX specials included)
    survive .bib -> library -> export -> .bib."""
    entries = [f"@misc{{k{n},\n  title = {{{escape(t)}}},\n  abstract = {{{escape(a)}}}\n}}"
               for n, (t, a) in enumerate(papers)]
    text = "\n\n".join(entries)
    first, _, failed = bibtex_import.parse(text, "in.bib")
    assert failed == 0 and len(first) == len(papers)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "in.bib"
        path.write_text(text, encoding="utf-8")
        with Library.open(Path(folder) / "lib.sqlite") as lib:
            [report] = lib.import_paths([path])
            assert report.status == "imported", report.error
            exported = lib.bibtex.export()
    second, _, failed = bibtex_import.parse(exported, "out.bib")
    assert failed == 0
    kept = {(p.title, p.abstract) for p in second}
    assert {(p.title, p.abstract) for p in first} <= kept | _merged(first, second)


def _merged(first, second) -> set[tuple[str, str]]:
    """Entries of ``first`` that the import merged into another of the same title."""
    titles = {p.title for p in second}
    return {(p.title, p.abstract) for p in first if p.title in titles}


def test_a_nul_character_is_refused_with_a_byte_order_mark_as_without():
    """Found by the round trip above: after a UTF-8 BOM, a NUL character got past the
    binary-file check, so a file was read that, saved without the BOM, was refused."""
    body = ("Daily Papers\n\nbyAK and the research community\n\nOct 30\n\n·\n\n\x00\n"
            + "An abstract long enough to dilute the one control character. " * 3)
    outcomes = []
    for prefix in (b"", b"\xef\xbb\xbf"):
        try:
            parse_digest(prefix + body.encode(), "digest.txt", 2024)
            outcomes.append("read")
        except PaperDeskError as exc:
            outcomes.append(str(exc))
    assert outcomes == ["digest.txt: a binary file, not a text digest"] * 2
