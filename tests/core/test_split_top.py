"""``bib_names.split_top`` (mark to mark) splits as the character-by-character reading it
replaced, for the two separators .bib reading uses: ``#`` and `` and ``."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from paperdesk.core.bibtex.bib_names import split_top


def _by_character(text: str, sep: str) -> list[str]:
    """The earlier split, word for word (the reference)."""
    parts, depth, quoted, start, i = [], 0, False, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0:
            quoted = not quoted
        elif depth == 0 and not quoted and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i + len(sep)
            i = start
            continue
        i += 1
    parts.append(text[start:])
    return parts


_TEXT = st.lists(st.sampled_from(['{', '}', '"', "\\", "#", " and ", "and", " ", "a", "B",
                                  "\\{", "\\#", "é", "\n"]), max_size=40).map("".join)


@settings(max_examples=3000, deadline=None)
@given(_TEXT, st.sampled_from(["#", " and "]))
@example('a # {b # c} # "d # e" # \\# f', "#")
@example('Ann and {Bob and Co} and "Cy and Di" and Ed\\', " and ")
def test_split_top_splits_as_before(text, sep):
    assert split_top(text, sep) == _by_character(text, sep)
