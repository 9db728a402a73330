"""Folding text for title keys: the ASCII shortcut gives what the full rule gives."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from paperdesk.core.model import text


def _full_rule(value: str) -> str:
    return (unicodedata.normalize("NFKC", value).translate(text._DASHES)
            .translate(text._QUOTES).casefold())


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_ascii_text_folds_as_the_full_rule_folds_it(value):
    assert text.fold(value) == _full_rule(value)


@given(st.text())
def test_any_text_folds_as_the_full_rule_folds_it(value):
    assert text.fold(value) == _full_rule(value)


def test_every_ascii_character_at_once():
    every = "".join(map(chr, range(128)))
    assert text.fold(every) == _full_rule(every)
    assert text.fold("Don`t – Stop") == "don't - stop"
