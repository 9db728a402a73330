"""The fast paths of reading .bib fields against the plain code they shortcut: every
field value of the real corpus (tests/data/realbib/) and generated LaTeX-like text
must read the same either way.

The references below are the readers as they were before the shortcuts: LaTeX
decoding one character at a time, values resolved one call each."""

from __future__ import annotations

import random
import unicodedata

import pytest

from paperdesk.core.model import latex_read
from paperdesk.core.model.bib_read import BibReader
from paperdesk.core.model.bib_scan import iter_entries, scan
from paperdesk.core.model.bibtex_fields import resolve, value_reader
from tests import realbib

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
