"""The fast paths of reading .bib files against the plain code they shortcut: every
field value of the real corpus (tests/data/realbib/) and generated LaTeX-like text
must read the same either way.

The references below are the readers as they were before the shortcuts: LaTeX
decoding one character at a time, values resolved one call each."""

from __future__ import annotations

import itertools
import random
import re
import sys
import unicodedata

import pytest

from paperdesk.core.bibtex import bib_scan, latex_read
from paperdesk.core.bibtex.bib_read import BibReader
from paperdesk.core.bibtex.bib_salvage import as_bibtex_reads
from paperdesk.core.bibtex.bib_scan import iter_entries, scan, segments, strip_entry_comments
from paperdesk.core.bibtex.bibtex_fields import resolve, value_reader
from tests import realbib
from tests.core.test_bib_scan import HOSTILE

_SPECIALS = "%&#_$"


def reference_decode(text: str) -> str:
    """``latex_read.decode`` as it was: its two old shortcuts, then a step per character."""
    if not ("\\" in text or "{" in text or "}" in text or "~" in text or "$" in text):
        return text
    if "$" not in text:
        if "\\" not in text:
            return text.replace("{", "").replace("}", "").replace("~", " ")
        if not latex_read._NOT_SPECIAL.search(text) and "\x00" not in text and (
                "\x01" not in text):
            text = text.replace("\\{", "\x00").replace("\\}", "\x01")
            text = text.replace("{", "").replace("}", "").replace("~", " ")
            for ch in _SPECIALS:
                text = text.replace("\\" + ch, ch)
            return text.replace("\x00", "{").replace("\x01", "}")
    return reference_steps(text)


def reference_steps(text: str) -> str:
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            piece, i = latex_read._macro(text, i)
            out.append(piece)
        elif ch in "{}":
            i += 1
        elif ch == "~":
            out.append(" ")
            i += 1
        elif ch == "$":
            end = text.find("$", i + 1)
            while end > 0 and text[end - 1] == "\\":
                end = text.find("$", end + 1)
            if end < 0:
                out.append(ch)
                i += 1
                continue
            out.append(latex_read._math(text[i:end + 1]))
            i = end + 1
        else:
            out.append(ch)
            i += 1
    return unicodedata.normalize("NFC", "".join(out))


def corpus_values() -> list[str]:
    """Every field value of the real corpus as the reader resolves it (and each raw)."""
    values: list[str] = []
    for path in realbib.corpus():
        text = realbib.text_of(path)
        reader = BibReader(text, path.name)
        for item in iter_entries(text, scan(text)):
            for _name, raw in getattr(item, "fields", ()):
                values += [raw, resolve(raw, reader.strings)[0]]
    return list(dict.fromkeys(values))


_PIECES = ["\\", "{", "}", "~", "$", "\\%", "\\{", "\\}", "\\&", "\\_", "\\#", "\\$",
           "\\'e", "\\'{e}", '\\"{o}', "\\emph{", "\\textbf ", "\\ss", "\\relax ", "\\\\",
           "\\c c", "\\o{}", "\\noopsort{a}", "\\ensuremath{^4}", "$x^2$", "a", "Word", " ",
           "e\u0301", "é", "\x00", "\x01", "%", "--", "\\i", "\\v{\\i}", "\\SC", "\n"]


def generated_values(count: int = 4000) -> list[str]:
    rng = random.Random(18)
    return ["".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 12)))
            for _ in range(count)]


@pytest.fixture(scope="module")
def values() -> list[str]:
    return corpus_values() + generated_values()


def test_the_corpus_has_values_of_every_kind(values):
    kinds = {"plain": 0, "braces": 0, "escaped": 0, "macros": 0, "math": 0}
    for text in values:
        if "$" in text:
            kinds["math"] += 1
        elif "\\" in text:
            kinds["macros" if latex_read._NOT_SPECIAL.search(text) else "escaped"] += 1
        elif "{" in text or "}" in text or "~" in text:
            kinds["braces"] += 1
        else:
            kinds["plain"] += 1
    assert min(kinds.values()) >= 20, kinds


def test_decoding_reads_every_value_as_the_plain_steps_do(values, monkeypatch):
    got = [latex_read.decode(v) for v in values]
    # the reference all the way down: macro arguments are decoded by it too
    monkeypatch.setattr(latex_read, "_decode", reference_steps)
    want = [reference_decode(v) for v in values]
    for value, a, b in zip(values, got, want, strict=True):
        assert a == b, value


def test_cached_values_read_as_resolve_reads_them():
    for path in realbib.corpus():
        text = realbib.text_of(path)
        reader = BibReader(text, path.name)
        read = value_reader(reader.strings)
        for item in iter_entries(text, scan(text)):
            for _name, raw in getattr(item, "fields", ()):
                want, bare = resolve(raw, reader.strings)
                assert read(raw) == (want, raw.strip() if bare else "{" + want + "}")
                assert read(raw) == read(raw)  # and again, from the cache


_STRIP_TOKEN = re.compile(r'[\\{}"@%](?:(?<=\\)[\s\S])?')


def reference_strip(text: str) -> str:
    """``bib_scan.strip_entry_comments`` as it was: a step per mark, always."""
    out: list[str] = []
    depth, quoted, last, skip = 0, False, 0, -1
    for m in _STRIP_TOKEN.finditer(text):
        i = m.start()
        if i < skip:
            continue
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch == '"' and depth == 1:
            quoted = not quoted
        elif ch == "%" and depth == 1 and not quoted:
            out.append(text[last:i])
            end = text.find("\n", i)
            last = skip = len(text) if end < 0 else end
        elif ch == "@" and depth == 0:
            quoted = False
    out.append(text[last:])
    return "".join(out)


def comment_texts() -> list[str]:
    """Whole files and each block of the real corpus and the hostile cases, and
    generated text thick with the marks that decide what a comment is."""
    texts = [realbib.text_of(path) for path in realbib.corpus()] + list(HOSTILE.values())
    for text in list(texts):
        bounds = [seg.start for seg in segments(text)] + [len(text)]
        texts += [text[a:b] for a, b in itertools.pairwise(bounds)]
    rng = random.Random(18)
    marks = ["{", "}", '"', "%", "@", "\\", "\n", " ", "x", "=", ",", "\\%", "{\\%}",
             "@misc{k,", "% c\n", "{" * 9, "}" * 9]
    texts += ["".join(rng.choice(marks) for _ in range(rng.randint(1, 30)))
              for _ in range(20000)]
    return texts


def test_comments_are_blanked_as_the_plain_steps_blank_them():
    texts = comment_texts()
    assert sum(reference_strip(t) != t for t in texts) > 1000  # comments were found
    for text in texts:
        assert strip_entry_comments(text) == reference_strip(text), text


# The whole entry in one expression, as the scanner read it before; its fields were
# then found by a second pass over the entry.
_ENTRY = re.compile(r"[^\S\n]*@(\w+)[ \t]*\{(" + bib_scan._NAME + r")(?:,((?:" + bib_scan._NAME
                    + "=" + bib_scan._VALUE + ",)*+(?:" + bib_scan._NAME + "=" + bib_scan._VALUE
                    + r"|\s*)))?\}")
_FIELD = re.compile("(" + bib_scan._NAME + ")=(" + bib_scan._VALUE + ")")


def reference_read(text: str, seg: bib_scan.Segment) -> bib_scan.RawEntry | None:
    part = text[seg.start:seg.end]
    if "%" in part:
        part = strip_entry_comments(part)
    m = _ENTRY.match(part)
    if m is None or "@" in part[m.end():]:
        return None
    fields = []
    if m.group(3) is not None:
        fields = [(n.strip(), v.strip()) for n, v in _FIELD.findall(part, m.start(3), m.end(3))]
    if (("\\{" in part or "\\}" in part) and not bib_scan.counted_alike(fields)) or (
            bib_scan.run_on(fields)):
        # BibTeX counts every brace, and stops at a missing comma: such an entry is read
        # by its grammar (bib_salvage)
        found = as_bibtex_reads(part)
        return None if found is None else bib_scan.RawEntry(
            found[0].lower(), found[1], found[0], found[2], seg.line, found[3] and _Damage())
    return bib_scan.RawEntry(m.group(1).lower(), m.group(2).strip(), m.group(1), fields, seg.line)


class _Damage(str):
    """Equal to any damage said (the words are bib_salvage's, tested there)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and bool(other)

    __hash__ = str.__hash__


def entry_texts() -> list[str]:
    """The real corpus, the hostile cases, and generated entries: fields of every kind
    of name and value, commas and closing braces present or not, text after them."""
    texts = [realbib.text_of(path) for path in realbib.corpus()] + list(HOSTILE.values())
    rng = random.Random(18)
    values = ["{a}", '"b"', "c", "{x {y} z}", '"q {"} r"', "a # b", "{50% off}", "{\\%}",
              "\\{", "{", "}", '"', ",", "", " ", "\n", "{\\}}", "@", "=", "%c\n",
              "{" * 9 + "x" + "}" * 9, "\\", "x\\,y"]
    names = ["title", " author ", "", "a b", "x\\=", "%", "@", "\n  note", "t{", '"']
    for _ in range(20000):
        fields = [rng.choice(names) + rng.choice(["=", " = ", "", "=="])
                  + "".join(rng.choices(values, k=rng.randint(0, 3)))
                  for _ in range(rng.randint(0, 4))]
        texts.append("@" + rng.choice(["misc", "Article"]) + rng.choice(["{", " {"])
                     + rng.choice(["k", "k ", "", "k{", "k%"]) + rng.choice([",", ", ", "", "}"])
                     + rng.choice([",", ",\n", ", ", "\n,"]).join(fields)
                     + rng.choice(["}", ",}", ", }", "", "}}", "} x", "} @", "\n}\n\n"]))
    return texts


def test_entries_are_read_as_the_whole_entry_expression_reads_them():
    read = refused = 0
    for text in entry_texts():
        for seg in segments(text):
            if seg.fast:
                want = reference_read(text, seg)
                assert bib_scan.read_fast(text, seg) == want, text[seg.start:seg.end]
                read += want is not None
                refused += want is None
    assert read > 5000 and refused > 5000, (read, refused)


def test_an_arxiv_id_is_looked_for_only_where_it_can_be():
    """The search for "arxiv:..." in url, journal, note... is skipped for text with no
    x: no other character matches x with the search's case folding."""
    from paperdesk.core.bibtex.bibtex_fields import ARXIV_ID

    assert ARXIV_ID.flags & re.IGNORECASE and ARXIV_ID.pattern.startswith("(?:arxiv")
    x = re.compile("x", re.IGNORECASE)
    assert [c for c in map(chr, range(sys.maxunicode + 1)) if x.fullmatch(c)] == ["X", "x"]
    from paperdesk.core.bibtex.bibtex_fields import read_entry

    for field, value, want in [("url", "{https://arxiv.org/abs/2101.00001v2}", "2101.00001v2"),
                               ("journal", "{ARXIV:hep-th/9901001}", "hep-th/9901001"),
                               ("note", "{Preprint, ArXiv 1706.03762}", "1706.03762"),
                               ("note", "{Preprint 1706.03762}", None)]:
        paper = read_entry("misc", "k", 1, [(field, value)], {})
        assert paper.arxiv_id == want, value


def reference_segments(text: str) -> list[bib_scan.Segment]:
    """``bib_scan.segments`` as it was: each mark's line found, each count checked."""
    heads, inner = [], []
    for m in bib_scan._MARK.finditer(text):
        at = m.start()
        line_start = text.rfind("\n", 0, at) + 1
        if line_start == at or text[line_start:at].isspace():
            heads.append((line_start, m.end(), m.group()))
        else:
            inner.append(at)
    out = []
    first = heads[0][0] if heads else len(text)
    if inner and inner[0] < first:
        out.append(bib_scan.Segment(0, first, 1, False, 0))
    line, prev, k = 1, 0, 0
    for i, (start, head_end, mark) in enumerate(heads):
        end = heads[i + 1][0] if i + 1 < len(heads) else len(text)
        line += bib_scan._lines(text, prev, start)
        prev = start
        while k < len(inner) and inner[k] < start:
            k += 1
        alone = k >= len(inner) or inner[k] >= end
        word = mark[1:].rstrip(" \t{(").lower()
        fast = alone and mark.endswith("{") and bool(word) and not word.startswith(
            ("comment", "preamble", "string"))
        out.append(bib_scan.Segment(start, end, line, fast, head_end))
    return out


def test_blocks_are_found_as_before():
    rng = random.Random(18)
    marks = ["@misc{", "@Book(", "@string{", " @x{", "\t@y{", "\u00a0@z{", "a@b{", "\n",
             "\\\n", "%", "x", " ", "@{", "@comment{", "}"]
    texts = entry_texts() + comment_texts() + [
        "".join(rng.choices(marks, k=rng.randint(1, 30))) for _ in range(20000)]
    for text in texts:
        assert segments(text) == reference_segments(text), text
