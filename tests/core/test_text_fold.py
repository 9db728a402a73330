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


def test_many_similarities_at_once_are_the_figures_one_by_one():
    """Above ``AT_ONCE`` pairs the comparisons go to rapidfuzz in one call; the figures,
    the cutoff's zeros, the equal, empty and truncated keys are those of one by one."""
    import random

    rng = random.Random(4)
    words = "model data attention sparse token agent scaling vision graph".split()
    base = [" ".join(rng.choice(words) for _ in range(60)) for _ in range(40)]
    pairs = []
    for k in range(3 * text.AT_ONCE):
        a = base[k % len(base)]
        b = " ".join(w if rng.random() > k % 7 / 40 else rng.choice(words) for w in a.split())
        pairs.append([(a, b), (a, a), (a, ""), (a, a[:-9]), (a, base[(k + 1) % 40])][k % 5])
    for cutoff in (0.0, text.ABSTRACT_MATCH):
        many = text.key_similarities(pairs, cutoff)
        assert many == [text.key_similarity(a, b, cutoff) for a, b in pairs]
        assert len(set(many)) > 20 and 0.0 in many and 100.0 in many
    assert text.key_similarities(pairs[:3]) == [text.key_similarity(a, b) for a, b in pairs[:3]]
