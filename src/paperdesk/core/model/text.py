"""Text normalisation shared by import, duplicate detection and search.

``title_key`` is the stored key under which re-typed titles meet: Unicode NFKC,
case-folded, dashes and quotes unified, punctuation and spacing collapsed, so
that "Foo – Bar.", "foo - bar" and "FOO: Bar" all give ``foo bar``. Tag names
and their keys, and counts with the right plural (``plural``), are text rules too.
So is ``printable``: text without the controls and invisible characters that no
stored or exported text keeps (digests and the Hub take it in, the exports write it).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from paperdesk.core.model.errors import CurationError

_DASHES = dict.fromkeys(
    map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"), "-")
_QUOTES = dict.fromkeys(map(ord, "\u2018\u2019\u201a\u201b\u2032\u00b4`"), "'")
_QUOTES.update(dict.fromkeys(map(ord, "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb"), '"'))
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)

# Abstracts of one paper seen twice may differ by a truncated tail or a
# corrected typo; different papers share far less than this.
ABSTRACT_MATCH = 90.0
TITLE_FLOOR = 85.0  # titles less alike than this are different works
_NUMBER = re.compile(r"\d+")


def title_numbers(key: str) -> tuple[str, ...]:
    """The numbers of a title key, in order. Titles whose numbers differ are different
    works, however alike the rest ("Llama 2" and "Llama 3", "Part 1" and "Part 2")."""
    return tuple(_NUMBER.findall(key))


def fold(text: str) -> str:
    """NFKC, case-folded, with dashes and quotes unified; spacing kept."""
    if text.isascii():  # for ASCII text all of that is lower case and ` as '
        return text.lower().replace("`", "'")
    return unicodedata.normalize("NFKC", text).translate(_DASHES).translate(_QUOTES).casefold()


# For ASCII text, ``words_key`` in one pass over its bytes: letters lower-cased, digits
# kept, every other character (\W and _) a space; runs of spaces are then collapsed, by a
# pattern that starts with two literal spaces, so the search skips from run to run (with
# " {2,}" it tried every space: twice the time of split and join, this half of it).
_ASCII_WORDS = bytes(ord(chr(c).lower()) if chr(c).isalnum() else 32
                     for c in range(128)) + bytes(range(128, 256))
_SPACES = re.compile("  +")


def words_key(text: str) -> str:
    """The folded words of ``text``, single spaces between them."""
    if text.isascii():  # most text: a fifth of the time of the expression
        return _SPACES.sub(" ", text.encode().translate(_ASCII_WORDS).decode()).strip(" ")
    return _NON_WORD.sub(" ", fold(text)).strip()


def title_key(title: str) -> str:
    """The normalised title: words only, single spaces."""
    return words_key(title)


def abstract_key(abstract: str) -> str:
    """Abstracts compared word for word, ignoring case, punctuation and spacing."""
    return words_key(abstract)


def abstract_similarity(a: str, b: str) -> float:
    """0-100: how much two abstracts agree once normalised (100 when equal)."""
    return key_similarity(abstract_key(a), abstract_key(b))


def _at_a_glance(ka: str, kb: str) -> float | None:
    """The similarity of two keys when it needs no comparison, else None."""
    if ka == kb:
        return 100.0
    if not ka or not kb:
        return 0.0
    # A truncated copy is the same abstract: compare the shorter with the
    # start of the longer as well as the whole.
    short, long_ = (ka, kb) if len(ka) <= len(kb) else (kb, ka)
    if len(short) >= 200 and long_.startswith(short):
        return 100.0
    return None


def key_similarity(ka: str, kb: str, cutoff: float = 0.0) -> float:
    """``abstract_similarity`` of two abstracts' keys (``abstract_key``); a value below
    ``cutoff`` may come back as 0 (it is found faster)."""
    seen = _at_a_glance(ka, kb)
    if seen is not None:
        return seen
    from rapidfuzz import fuzz  # loaded only when abstracts are compared

    return fuzz.ratio(ka, kb, score_cutoff=cutoff)


AT_ONCE = 256  # this many comparisons or more go to rapidfuzz in one call, on every core


def key_similarities(pairs: Sequence[tuple[str, str]], cutoff: float = 0.0) -> list[float]:
    """``key_similarity`` of each pair of keys, the same figures; with many pairs, the
    comparisons run in one rapidfuzz call on every core (a scan of alike titles)."""
    out = [_at_a_glance(ka, kb) for ka, kb in pairs]
    todo = [n for n, s in enumerate(out) if s is None]
    if len(todo) < AT_ONCE:
        return [key_similarity(ka, kb, cutoff) if s is None else s
                for (ka, kb), s in zip(pairs, out, strict=True)]
    import numpy as np
    from rapidfuzz import fuzz, process

    scores = process.cpdist([pairs[n][0] for n in todo], [pairs[n][1] for n in todo],
                            scorer=fuzz.ratio, score_cutoff=cutoff, dtype=np.float64,
                            workers=-1)
    for n, score in zip(todo, scores.tolist(), strict=True):
        out[n] = score
    return out  # type: ignore[return-value]  # every None was filled


def abstracts_match(a: str, b: str) -> bool:
    """True when two abstracts belong to the same paper, or one of them is missing."""
    if not a.strip() or not b.strip():
        return True
    return abstract_similarity(a, b) >= ABSTRACT_MATCH


MAX_TAG_LENGTH = 100


def tag_name(name: str) -> str:
    """The tag as it will be stored: spacing collapsed; refuses empty or long names."""
    clean = " ".join(str(name).split())
    if not clean:
        raise CurationError("a tag needs a name")
    if len(clean) > MAX_TAG_LENGTH:
        raise CurationError(f"tag names are at most {MAX_TAG_LENGTH} characters: {clean[:30]!r}…")
    return clean


def tag_key(name: str) -> str:
    """The case-insensitive key under which "ML", "ml" and " Ml " meet."""
    return " ".join(fold(name).split())


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 paper``, ``2 papers``; ``many`` for plurals that do not add an s."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


# -- characters no text keeps ---------------------------------------------------------

# Controls (C0 but tab and newline, DEL, C1) and the line and paragraph separators: each
# a space. Invisible format characters that only steer layout (and stop pdflatex): the
# zero-width space, word joiner and invisible operators, the left-to-right and
# right-to-left marks, bidirectional embeddings, overrides and isolates, the byte-order
# mark: dropped. The zero-width (non-)joiners join letters of scripts that need them;
# next to ASCII or at either end they join nothing, and are dropped.
_SPACED = [*range(0x09), *range(0x0b, 0x20), *range(0x7f, 0xa0), 0x2028, 0x2029]
_DROPPED = [0x061c, 0x180e, 0x200b, 0x200e, 0x200f, *range(0x202a, 0x202f),
            *range(0x2060, 0x2065), *range(0x2066, 0x2070), 0xfeff, *range(0xfff9, 0xfffc),
            *range(0xe0000, 0xe0080)]  # (and the Arabic letter mark, the tag characters)
_TABLE: dict[int, str | None] = {**dict.fromkeys(_SPACED, " "), **dict.fromkeys(_DROPPED)}


def _char_class(codes: Iterable[int]) -> str:
    """A regular-expression class of ``codes``, runs of them as ranges: the 128 tag
    characters listed one by one made a search of a 200 MB digest take 28 s, not 1 s."""
    runs: list[list[int]] = []
    for code in sorted(set(codes)):
        if runs and code == runs[-1][1] + 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return "[" + "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "")
                         for a, b in runs) + "]"


_UNPRINTABLE = re.compile(_char_class([*_TABLE, 0x200c, 0x200d]))
_LONE_JOINERS = re.compile("(?<![^\x00-\x7f])[\u200c\u200d]+|[\u200c\u200d]+(?![^\x00-\x7f])")
# The ASCII characters kept: deleting them from a text's bytes leaves the others.
_ASCII_KEPT = bytes(c for c in range(128) if c not in _TABLE)


def printable(text: str) -> str:
    """``text`` without controls and invisible characters: a CR or CRLF is a newline,
    every other control (a form feed, escape, DEL, C1, line separator...) a space, and
    the invisible format characters are dropped. Tab and newline stay.

    Text with none of them (nearly all) comes back as it is after one check, in C: a
    short text's characters looked up, a longer ASCII text's bytes gone through (four
    times as fast as the lookup or the expression: an export of 100,000 abstracts), any
    other text searched."""
    if len(text) < 64 and text.isprintable():
        return text
    if text.isascii():
        if not text.encode().translate(None, _ASCII_KEPT):
            return text
    elif _UNPRINTABLE.search(text) is None:
        return text
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.translate(_TABLE)
    if "\u200c" in text or "\u200d" in text:
        text = _LONE_JOINERS.sub("", text)
    return text


# What ``kept_raw`` changes: as ``printable`` but CR, which a file's line ends hold.
_RAW_TABLE = {k: v for k, v in _TABLE.items() if k != 0x0d}
_RAW_UNSAFE = re.compile(_char_class(_RAW_TABLE))


def kept_raw(text: str) -> str:
    """Text kept as a file wrote it (a .bib file's field), without what ``printable``
    takes out, but with its line ends (CR, CRLF) as they are."""
    if text.isprintable() or _RAW_UNSAFE.search(text) is None:
        return text
    return text.translate(_RAW_TABLE)


def one_line(text: str) -> str:
    """``printable(text)`` on one line: white space collapsed to single spaces."""
    return " ".join(printable(text).split())


def author_line(authors: Sequence[str]) -> str:
    """Authors on one line: "Last, First" names (a .bib file's) are told apart by
    semicolons, others by commas."""
    return ("; " if any("," in name for name in authors) else ", ").join(authors)
