"""Text PaperDesk writes into LaTeX is inert (core/bibtex/tex_safe.py, latex.py): math is
kept only with allowlisted commands, everything else is escaped as text, and no
field's braces can close early, whatever the text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperdesk.core.bibtex import tex_safe
from paperdesk.core.bibtex.latex import char_tables, escape, protect_title

DOC = Path(__file__).parents[2] / "docs" / "latex-safety.md"


def allowed() -> set[str]:
    """Every command escaped text may hold: the math list, the text escapes, and the
    names pylatexenc's character table writes."""
    names = set(tex_safe.MATH_COMMANDS) | set(tex_safe.CONTROL_SYMBOLS) | set(
        tex_safe.TEXT_COMMANDS)
    for latex in char_tables()[0].values():
        names.update(tex_safe.commands(latex))
    return names


ALLOWED = allowed()


def balanced(text: str) -> bool:
    """As BibTeX counts braces: every brace, escaped or not."""
    depth = 0
    for ch in text:
        depth += (ch == "{") - (ch == "}")
        if depth < 0:
            return False
    return depth == 0


def assert_inert(field: str) -> None:
    assert balanced(field), field
    found = tex_safe.commands(field)
    assert "^^" not in found, field
    assert set(found) <= ALLOWED, (set(found) - ALLOWED, field)
    assert not tex_safe.dangerous(field), field
    # inside a field of BibTeX, the value can never end before its last character
    assert not re.search(r"(?<!\\)%", field), field  # no comment can swallow a brace


PIECES = ["\\", "write18", "immediate", "input", "def", "csname", "catcode", "{", "}", "$",
          "$$", "^", "^^", "5c", "_", "%", "#", "&", "~", "alpha", "frac", "mathrm", "leq",
          "\\(", "\\)", "\\[", "\\]", " ", "a", "B", "É", "α", "ß", "\n", "@", "x", "1",
          "{/etc/passwd}", "\\ensuremath", "ü", "\u0301", "中"]


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.lists(st.sampled_from(PIECES), max_size=24).map("".join), st.text()),
       st.booleans())
def test_any_text_escaped_is_inert(text, ascii):
    assert_inert(escape(text, ascii=ascii))
    assert_inert(protect_title(text, ascii=ascii))


@pytest.mark.parametrize("text", [
    r"$\immediate\write18{touch CANARY}$", r"$\input{/tmp/canary.txt}$",
    r"$x^^5cinput{/etc/hostname}$", r"$a}$ and $\def\x{y}$", r"$\csname input\endcsname$",
    r"$\alpha^{\write18{x}}$", r"$a % comment$", r"$\mathrm{\input{f}}$", r"$\alpha@x$",
])
def test_hostile_math_is_written_as_text(text):
    field = escape(text)
    assert "$" not in field.replace("\\$", "")
    assert_inert(field)


@pytest.mark.parametrize("text", [
    r"in $O(n^2)$ time", r"$\alpha \leq \frac{1}{2}$", r"$\mathbf{x} \times \mathrm{d}t$",
    r"$\sqrt{n}\cdot\log n$", r"$1\ldots\infty$", r"$\sum_{i=1}^{n} x_i$",
])
def test_allowlisted_math_stays_math(text):
    assert escape(text) == text


def test_the_documented_list_is_the_list():
    doc = DOC.read_text(encoding="utf-8")
    lists = [line for line in doc.splitlines() if line.startswith(": ")]
    assert len(lists) == 4
    listed = set(re.findall(r"`\\([A-Za-z]+)`", " ".join(lists)))
    assert listed == set(tex_safe.MATH_COMMANDS)
    assert all(f"`\\{name}`" in doc for name in ("write18", "immediate", "input", "def"))


def test_dangerous_commands_are_named():
    assert tex_safe.dangerous(r"a \immediate\write18{x} \input{f} \inputenc") == [
        "\\immediate", "\\write18", "\\input"]
    # the notation is named, and since issue 43 the command it spells as well
    assert tex_safe.dangerous("^^5cinput") == ["^^", "\\input (spelt in ^^ notation)"]
    assert tex_safe.dangerous(r"\definition \defined") == []
