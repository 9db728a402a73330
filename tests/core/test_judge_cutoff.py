"""The duplicate scan works out two abstracts' similarity exactly only where the verdict
needs it (``matcher.judge``: below ABSTRACT_MATCH, titles that differ make no pair), and
makes each paper's abstract key once: the groups, tiers, scores and reasons are those of
exact similarities worked out pair by pair."""

from __future__ import annotations

import random

from paperdesk.core.duplicates import duplicates
from paperdesk.core.model import text
from tests.core.test_duplicates import write_digest

WORDS = ("model language training data scaling laws transformer attention sparse "
         "efficient benchmark reasoning agent retrieval vision token context").split()


def _abstract(rng: random.Random, base: list[str], changed: float) -> str:
    """``base`` with a share ``changed`` of its words replaced: similarities from about
    70% to 100% around the threshold of 90%."""
    return " ".join(rng.choice(WORDS) if rng.random() < changed else w for w in base) + "."


def _entries() -> list[tuple[str, str]]:
    rng = random.Random(7)
    entries = []
    for family in range(12):
        base = [rng.choice(WORDS) for _ in range(120)]
        for k in range(8):  # near-identical titles: every pair of a family is judged
            ending = ("Models", "Model", "Modeling", "Modelling")[k % 4]
            title = f"Scaling Laws for {WORDS[family].title()} {ending}"
            changed = rng.choice([0.0, 0.02, 0.05, 0.08, 0.12, 0.2, 0.35])
            abstract = _abstract(rng, base, changed) if k != 5 else "... ---"
            entries.append((title + (" Again" if k == 6 else ""), abstract))
    return entries


def _pairs(lib) -> list[tuple[int, int]]:
    return sorted(duplicates.blocking.id_pairs(*duplicates._titles(lib.db), None))


def _scan_facts(lib):
    """Every pair's verdict with its reasons, and the groups."""
    judged, _ = duplicates.judge_pairs(lib.db, _pairs(lib))
    return judged, [g.to_json() for g in duplicates.find_groups(lib.db)]


def test_the_scan_is_what_exact_similarities_give(lib, tmp_path, monkeypatch):
    lib.import_paths([write_digest(tmp_path / "d.txt", _entries())])
    made = _scan_facts(lib)
    seen: list[float] = []
    exact = text.key_similarity

    def pair_by_pair(ka: str, kb: str, cutoff: float = 0.0) -> float:
        seen.append(exact(ka, kb))
        return seen[-1]

    monkeypatch.setattr(text, "key_similarity", pair_by_pair)
    assert _scan_facts(lib) == made
    judged, groups = made
    assert len(judged) > 20 and {p.tier for p in judged} >= {"likely", "possible"} and groups
    # the threshold was crossed both ways, and near it
    assert any(80 <= s < text.ABSTRACT_MATCH for s in seen)
    assert any(text.ABSTRACT_MATCH <= s < 100 for s in seen)


def test_each_abstract_key_is_made_once(lib, tmp_path, monkeypatch):
    lib.import_paths([write_digest(tmp_path / "d.txt", _entries())])
    made: list[str] = []
    key = text.abstract_key

    def counted(abstract: str) -> str:
        made.append(abstract)
        return key(abstract)

    monkeypatch.setattr(text, "abstract_key", counted)
    pairs = _pairs(lib)
    duplicates.judge_pairs(lib.db, pairs)
    papers = {x for pair in pairs for x in pair}
    assert len(pairs) > 2 * len(papers)  # papers are in several pairs
    assert 0 < len(made) <= len(papers)  # and their keys made once


def test_titles_with_other_numbers_are_other_works(lib, tmp_path):
    """A version or a part is another paper, however alike its abstract; a title retyped
    with a typo, its numbers the same, is still found."""
    rng = random.Random(3)
    base = [rng.choice(WORDS) for _ in range(120)]
    abstract = " ".join(base) + "."
    lib.import_paths([write_digest(tmp_path / "v.txt", [
        ("Llama 2: Open Foundation and Fine-Tuned Chat Models", abstract),
        ("Llama 3: Open Foundation and Fine-Tuned Chat Models", abstract + " More."),
        ("Llama 3: Open Foundation and Fine-Tunned Chat Models", abstract + " More!"),
        ("Scaling Study Part 1 of Sparse Attention", abstract + " One."),
        ("Scaling Study Part 12 of Sparse Attention", abstract + " Two."),
    ])])
    groups = [g.to_json() for g in duplicates.find_groups(lib.db)]
    titles = dict(lib.db.execute("SELECT id, title FROM papers").fetchall())
    named = [sorted(titles[i] for i in g["ids"]) for g in groups]
    assert named == [["Llama 3: Open Foundation and Fine-Tuned Chat Models",
                      "Llama 3: Open Foundation and Fine-Tunned Chat Models"]]
