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


def _full_key(value: str) -> str:
    return text._NON_WORD.sub(" ", _full_rule(value)).strip()


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_ascii_words_key_is_the_expression_s(value):
    assert text.title_key(value) == text.abstract_key(value) == _full_key(value)


@given(st.text())
def test_any_words_key_is_the_expression_s(value):
    assert text.title_key(value) == _full_key(value)


def test_every_ascii_character_in_a_key():
    every = "".join(map(chr, range(128))) * 2
    assert text.title_key(every) == _full_key(every)
    assert text.title_key("  Foo_Bar: BAZ's `x`--y  ") == "foo bar baz s x y"
