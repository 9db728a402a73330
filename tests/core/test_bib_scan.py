"""The fast .bib reader against bibtexparser reading the whole file, as the import
did before: the same entries (key, type, type as written, line, each field's raw
value), the same @string and @preamble definitions and the same blocks skipped, on
every file of the real corpus, on hostile cases and on generated bib-like text.

One difference is on purpose: ``%`` comments between fields are found block by
block, where the whole-file pass carried its brace count over from one block to the
next, so that after an unbalanced brace it took later comments for text (or text
for comments). Where that is the only difference, the reader must match
bibtexparser given the text with comments blanked block by block. The other: BibTeX's
loosest block starts (``@`` apart from its type, a line break before the delimiter),
which bibtexparser does not read, are put in their usual form first (``loosen``)."""

from __future__ import annotations

import itertools
import random
import re

import bibtexparser
import pytest

from paperdesk.core.bibtex import bib_scan
from paperdesk.core.bibtex.bib_read import parse_file
from tests import realbib

_TYPE = re.compile(r"@\s*([^\s{(]+)")
_MACRO_NAME = re.compile(r"[^\d\s\"#%'(),={}][^\s\"#%'(),={}]*\Z")


def per_block(text: str) -> str:
    """The text with comments blanked block by block, as the reader does."""
    text = bib_scan.loosen(text)
    starts = [seg.start for seg in bib_scan.segments(text)]
    bounds = sorted({0, *starts, len(text)})
    return "".join(bib_scan.readable(text[a:b]) for a, b in itertools.pairwise(bounds))


def reference(text: str, prepared: str | None = None) -> dict:
    """What bibtexparser makes of the whole file (the import's reading before)."""
    prepared = bib_scan.readable(bib_scan.loosen(text)) if prepared is None else prepared
    # bibtexparser reads no type with a hyphen (BibTeX does: @FAKE-ENTRY): it is given
    # the type with "_" for "-", and the type is written back as it was
    hyphens = {t.replace("-", "_"): t for t in re.findall(r"(?m)^\s*@([\w-]*-[\w-]*)", prepared)}
    for under, typed in hyphens.items():
        prepared = re.sub(r"(?m)^(\s*@)" + re.escape(typed) + r"\b", r"\g<1>" + under, prepared)
    by_lower = {under.lower(): typed for under, typed in hyphens.items()}

    def typed(word: str) -> str:
        return hyphens.get(word) or by_lower.get(word, word)
    library = bibtexparser.parse_string(prepared, parse_stack=[])
    strings, preambles, failed = [], [], []
    for block in library.blocks:
        if isinstance(block, bibtexparser.model.String):
            if _MACRO_NAME.match(block.key):
                strings.append((block.key, str(block.value), _TYPE.match(block.raw).group(1)))
            else:
                failed.append(block.start_line + 1)
        elif isinstance(block, bibtexparser.model.Preamble):
            preambles.append(str(block.value))
    entries = list(library.entries)
    for block in library.failed_blocks:
        inner = getattr(block, "ignore_error_block", None)
        if isinstance(inner, bibtexparser.model.Entry):
            entries.append(inner)
        else:
            failed.append(block.start_line + 1)
    entries.sort(key=lambda e: e.start_line)
    mask = bib_scan.MASK
    return {
        "entries": [(e.key, typed(e.entry_type).lower().removeprefix(mask),
                     typed(_TYPE.match(e.raw).group(1)).removeprefix(mask), e.start_line + 1,
                     [(f.key, str(f.value)) for f in e.fields]) for e in entries],
        "strings": strings, "preambles": preambles, "failed": sorted(failed)}


@pytest.fixture(autouse=True)
def _as_bibtexparser(monkeypatch):
    """The reader against bibtexparser: an entry bibtexparser cannot read stays unread
    here, not read as BibTeX reads it (that is tests/core/test_bib_damaged.py)."""
    monkeypatch.setattr(bib_scan, "salvage", lambda raw, line=0: None)


def fast(text: str) -> dict:
    parsed = parse_file(text, "t.bib")
    return {
        "entries": [(p.key, p.bib_type or _plain_type(p), p.raw_type, p.line, p.fields)
                    for p in parsed.papers],
        "strings": parsed.strings, "preambles": parsed.preambles,
        "failed": sorted(s["line"] for s in parsed.skipped)}


def _plain_type(paper) -> str:
    return paper.raw_type.lower()


def _same(text: str) -> None:
    got, want = fast(text), reference(text)
    if got != want and per_block(text) != bib_scan.readable(bib_scan.loosen(text)):
        want = reference(text, per_block(text))  # the one difference on purpose
    # The other: an entry bibtexparser reads with a backslash hiding a brace, or with a
    # missing comma folded into a value, is read as BibTeX reads it (test_bib_damaged,
    # test_bib_escaped_braces, test_bib_missing_comma): left out of the comparison here.
    differs = {e[3] for e in want["entries"] if bib_scan.run_on(e[4])
               or not bib_scan.counted_alike(e[4])}
    if differs:
        got = {**got, "entries": [e for e in got["entries"] if e[3] not in differs]}
        want = {**want, "entries": [e for e in want["entries"] if e[3] not in differs]}
    assert got["entries"] == want["entries"]
    assert got["strings"] == want["strings"]
    assert got["preambles"] == want["preambles"]
    assert got["failed"] == want["failed"]


@pytest.mark.parametrize("path", realbib.corpus(), ids=[p.name for p in realbib.corpus()])
def test_every_real_file_reads_as_bibtexparser_reads_it(path):
    _same(realbib.text_of(path))


def test_the_real_corpus_is_read_by_the_fast_path():
    """Most entries of real files never reach bibtexparser."""
    fast_entries = slow_entries = 0
    for path in realbib.corpus():
        text = realbib.text_of(path)
        found = bib_scan.scan(text)
        fast_entries += sum(1 for seg in found.segments
                            if seg.fast and bib_scan.read_fast(text, seg) is not None)
        slow_entries += sum(map(len, found.slow_entries.values()))
    assert fast_entries > 5 * slow_entries > 0


HOSTILE = {
    "unbalanced braces": "@article{a, title = {Open {brace}\n@book{b, title = {B}}\n"
                         "@misc{c, title = {C}}}\n@misc{d, title = {D}}\n",
    "64 KB of junk first": "% junk {with braces\nsee me@example.org {x}\n" * 2000
                           + "@misc{after, title = {After the junk}}\n",
    "junk with a block start inside": "notes: user@host{x} and more\n@misc{k, title = {T}}\n",
    "nested macros": '@string{a = "Alpha"}\n@string{b = a # " and " # {Beta}}\n'
                     "@misc{m, title = b # { Gamma}, journal = a}\n",
    "@comment with braces": "@comment{ {nested {deep}} and @misc{fake, title={F}} }\n"
                            "@comment{unclosed {\n@misc{real, title = {Real}}\n",
    "quotes inside braces": '@misc{q, title = {He said "hi" {"}}, note = "A {"} B",\n'
                            '  howpublished = "x {y} z", extra = "{\\"o}"}\n',
    "a line break after the key": "@article{key\n, title = {T}, year = 2020}\n"
                                  "@article{\n  key2\n  ,\n  title\n  =\n  {U}\n}\n",
    "% comments between fields": "@misc{p,\n  % a comment, with = signs {and braces\n"
                                 "  title = {50% off}, % another\n  year = 1999\n}\n",
    "parenthesised": "@misc(par, title = {P (with) parens}, year = 2001)\n",
    "two entries on a line": "@misc{x1, title={X1}} @misc{x2, title={X2}}\n",
    "deep nesting": "@misc{deep, title = {" + "{" * 12 + "d" + "}" * 12 + "}}\n",
    "escaped braces and quotes": '@misc{e, title = "a \\" b", note = {\\{ x \\}},\n'
                                 "  author = {A\\\\}}\n",
    # (a @string defined again is read, not skipped as bibtexparser skips it:
    # tests/core/test_bib_strings_last.py)
    "duplicate keys": "@misc{dup, title = {1}}\n@misc{dup, title = {2}}\n"
                                  "@misc{f, title = {x}, title = {y}}\n",
    "bad string name and commented type": '@string{1bad = "x"}\n'
                                          "@Commented{jura, title = {J}}\n",
    "trailing comma and empty entry": "@misc{t, title = {T},\n}\n@misc{empty}\n@misc{,}\n",
    "field without value": "@misc{n, title}\n@misc{n2, = {v}}\n@misc{ok, title={ok}}\n",
    "backslash newline": "@misc{bs, title = {a\\\nb},\n note = x}\n@misc{after, year=1}\n",
    "an unclosed file": "@misc{first, title = {F}}\n@misc{last, title = {never closed",
    "crlf": "@misc{w1,\r\n  title = {Windows},\r\n}\r\n\r\n@misc{w2, title={W2}}\r\n",
    "loose block starts": "@FAKE-ENTRY\n  {fake, x = \"y\"}\ntext.@\n\nMaNuAl  (m, title = {M})\n"
                          "@ misc\r\n{sp, note = {in @\nbook {x} it stays}}\n",
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_cases_read_as_bibtexparser_reads_them(name):
    _same(HOSTILE[name])


def test_hostile_cases_keep_what_they_should():
    keys = [e[0] for e in fast(HOSTILE["64 KB of junk first"])["entries"]]
    assert keys == ["after"]
    unbalanced = fast(HOSTILE["unbalanced braces"])
    assert [e[0] for e in unbalanced["entries"]][-2:] == ["c", "d"] or "d" in [
        e[0] for e in unbalanced["entries"]]
    parsed = parse_file(HOSTILE["nested macros"], "t.bib")
    assert parsed.papers[0].title == "Alpha and Beta Gamma"
    commented = fast(HOSTILE["% comments between fields"])["entries"][0]
    assert commented[4] == [("title", "{50% off}"), ("year", "1999")]


def test_bibtex_loosest_block_starts_are_read():
    """As BibTeX reads them (its own btxdoc.bib has both): "@" apart from its type,
    the delimiter on the next line, a type with a hyphen; the lines stay the type's."""
    text = HOSTILE["loose block starts"]
    loose = bib_scan.loosen(text)
    assert len(loose) == len(text) and loose.count("\n") == text.count("\n")
    got = fast(text)["entries"]
    assert [(e[0], e[2], e[3]) for e in got] == [("fake", "FAKE-ENTRY", 1), ("m", "MaNuAl", 5),
                                                 ("sp", "misc", 6)]
    assert got[2][4] == [("note", "{in @\nbook {x} it stays}")]  # inside an entry: text
    assert bib_scan.loosen("a@b.org {x}\n@misc{k, t = {T}}\n") == "a@b.org {x}\n@misc{k, t = {T}}\n"


_PIECES = ["@misc{", "@article{k,", "@string{s = ", "@preamble{", "@comment{", "@book(b,",
           "title = {", "title = \"", "}", "{", "\"", ",", "=", "#", "\n", " ", "%", "\\",
           "\\\"", "{\"}", "x", "Word", "s", "2020", "@", "\n@misc{n,", "note = s # {v}",
           ")", "\r\n", "  author = {A and B},\n"]


def test_generated_bib_like_text_reads_as_bibtexparser_reads_it():
    rng = random.Random(14)
    for _ in range(400):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 40)))
        try:
            reference(text)
        except Exception:  # bibtexparser itself gives up (a state it reports as its bug)
            continue
        _same(text)


def test_name_lists_split_as_bibtexparser_splits_them():
    """Without braces or backslashes the names are split by one regular expression;
    it must agree with bibtexparser's splitter, which reads them by character."""
    from bibtexparser.middlewares.names import split_multiple_persons_names

    from paperdesk.core.bibtex.bib_names import split_names

    rng = random.Random(3)
    alphabet = ["a", "n", "d", "A", "N", "D", " ", "\t", "\n", "\r", "x", "and", " and ",
                "~", ",", "{", "}", "\\"]
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        want = [n.strip() for n in split_multiple_persons_names(text) if n.strip()]
        assert split_names(text) == want, text
