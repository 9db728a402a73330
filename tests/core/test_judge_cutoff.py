"""The duplicate scan works out two abstracts' similarity exactly only where the verdict
needs it (``matcher.judge_many``: below ABSTRACT_MATCH, titles that differ make no pair),
compares many at once, and makes each paper's abstract key once: the groups, tiers, scores
and reasons are those of exact similarities worked out pair by pair."""

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

    def pair_by_pair(pairs: list[tuple[str, str]], cutoff: float = 0.0) -> list[float]:
        seen.extend(exact(ka, kb) for ka, kb in pairs)
        return seen[len(seen) - len(pairs):]

    monkeypatch.setattr(text, "key_similarities", pair_by_pair)
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


def _numbered_entries() -> list[tuple[str, str]]:
    """Families of alike titles told apart by numbers (versions, parts, years), some with
    one abstract for every member, some re-typed with a typo, their numbers the same."""
    rng = random.Random(11)
    entries = []
    for family in range(6):
        base = [rng.choice(WORDS) for _ in range(120)]
        for k in range(8):
            abstract = _abstract(rng, base, rng.choice([0.0, 0.03, 0.3]))
            title = f"{WORDS[family].title()} {k + 1}: Open Models for {WORDS[k].title()}"
            entries.append((title, abstract))
            if k % 3 == 0:
                entries.append((title.replace("Open", "Opne"), abstract + " Again."))
        entries.append((f"Benchmark {WORDS[family].title()} 2024", " ".join(base)))
        entries.append((f"Benchmark {WORDS[family].title()} 2025", " ".join(base)))
    return entries


def test_the_scan_leaves_out_only_pairs_the_judge_refuses(lib, tmp_path):
    """Titles whose numbers differ are not judged at all (``blocking``'s same_numbers):
    the groups are those of judging every pair of similar titles."""
    lib.import_paths([write_digest(tmp_path / "n.txt", _numbered_entries())])
    ids, keys = duplicates._titles(lib.db)
    every = {(min(ids[i], ids[j]), max(ids[i], ids[j]))
             for i, j in duplicates.blocking.all_pairs(keys)}
    judged, papers = duplicates.judge_pairs(lib.db, sorted(every))
    everything = [g.to_json() for g in duplicates.build_groups(judged, papers)]
    assert [g.to_json() for g in duplicates.find_groups(lib.db)] == everything
    counts: dict[str, int] = {}
    kept = duplicates.blocking.id_pairs(ids, keys, None, None, counts)
    key_of = dict(zip(ids, keys, strict=True))
    apart = every - kept
    assert len(apart) >= 20 and len(kept) <= counts["compared"] < counts["candidates"]
    assert all(text.title_numbers(key_of[a]) != text.title_numbers(key_of[b])
               for a, b in apart)
    assert len(everything) == 6 * 3  # the re-typed copies, and nothing told apart by numbers


def test_new_papers_meet_only_titles_with_their_numbers(lib, tmp_path):
    """A few new papers checked against a larger library (read from SQLite, not scanned):
    a retyped title is found, another version is not."""
    rng = random.Random(5)
    base = [rng.choice(WORDS) for _ in range(120)]
    lib.import_paths([write_digest(tmp_path / "old.txt", [
        (f"Sparse Study Part {k} of Efficient Attention", _abstract(rng, base, 0.03))
        for k in range(1, 41)])])
    report = lib.import_paths([write_digest(tmp_path / "new.txt", [
        ("Sparse Study Part 7 of Eficient Attention", _abstract(rng, base, 0.0)),
        ("Sparse Study Part 41 of Efficient Attention", _abstract(rng, base, 0.0))])])
    new = report.created_ids
    assert len(new) == 2 and 4 * len(new) < 42  # checked from SQLite, not by a scan
    titles = dict(lib.db.execute("SELECT id, title FROM papers").fetchall())
    groups = duplicates.check_new(lib, new)
    assert [sorted(titles[i] for i in g.ids) for g in groups] == [
        ["Sparse Study Part 7 of Efficient Attention",
         "Sparse Study Part 7 of Eficient Attention"]]
