"""Blocking: the title pairs a scan compares stay bounded whatever the vocabulary."""

import random

from paperdesk.core.duplicates import blocking


def _titles(n: int, seed: int = 3) -> list[str]:
    """``n`` titles of one opening ("Scaling Laws for X"), words from a vocabulary so
    small that every word is too common to file under, but for one of twenty rarer words
    (each in n / 20 titles), a number of its own; and a copy of every tenth with a typo
    in that number's word."""
    rng = random.Random(seed)
    common = [f"w{k}" for k in range(10)]  # each in far more than MAX_WORD_PAPERS titles
    titles = []
    for i in range(n):
        tail = " ".join(rng.choice(common) for _ in range(4))
        titles.append(f"scaling laws for zeppelin{i % 20} {tail} term{i}")
    titles += [titles[i].replace(" term", " tetm") for i in range(0, n, 10)]
    return sorted(titles)


def test_a_large_block_costs_a_bounded_number_of_comparisons_per_title():
    keys = _titles(3600)
    counts: dict[str, int] = {}
    pairs = blocking.all_pairs(keys, None, counts)
    # the twenty blocks of 198 titles compared whole: 19,500 pairs each, 99 a title;
    # bounded: a few dozen a title
    assert counts["candidates"] <= 40 * len(keys)
    # ... and every typo'd copy is still found
    index = {t: n for n, t in enumerate(keys)}
    copies = [t for t in keys if " tetm" in t]
    found = [tuple(sorted((index[t], index[t.replace(" tetm", " term")]))) in pairs
             for t in copies]
    assert len(copies) == 360 and all(found)


def test_the_count_grows_linearly_with_the_titles():
    small, large = {}, {}
    blocking.all_pairs(_titles(1000), None, small)
    blocking.all_pairs(_titles(3600), None, large)
    assert large["candidates"] <= 4.2 * small["candidates"]


def test_a_title_is_never_paired_with_itself():
    """A title holding a rare word twice is twice in that word's block."""
    keys = ["other data data", "more data data here", "learning to learn",
            "learning to learn again", "other words entirely"]
    assert blocking.all_pairs(keys) == {(2, 3)}
