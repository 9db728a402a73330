"""The duplicate scan on real libraries: what is grouped, in which tier, and why."""

from __future__ import annotations

import random

import pytest

from paperdesk.core.duplicates import blocking
from paperdesk.core.library import Library
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.core.model.text import title_key
from tests.conftest import SEED_PAPERS

HEADER = ("new\n\nGet trending papers in your email inbox!\n\nSubscribe\n\nDaily Papers\n\n"
          "byAK and the research community\n\nNov 3\n\n")


def write_digest(path, entries):
    """A digest file of (title, abstract) entries, without metadata blocks."""
    path.write_text(HEADER + "".join(f"{t}\n\n{a}\n\n" for t, a in entries), encoding="utf-8")
    return path


def by_title(lib, fragment):
    rows = lib.db.execute("SELECT id FROM papers WHERE title LIKE ?", [f"%{fragment}%"]).fetchall()
    return [r[0] for r in rows]


def add_copy(lib, source_id, **fields):
    """Insert a copy of a paper under a new id, as an older import or a .bib file could."""
    with lib.transaction() as db:
        row = dict(next(iter(db.query("SELECT * FROM papers WHERE id = ?", [source_id]))))
        # Without the stable id: a program that copies a row does not know to make one.
        row.update(id=None, uid=None, citekey=f"copy{random.randrange(10**9)}", **fields)
        if "title" in fields:
            row["title_key"] = title_key(fields["title"])
        cols = [c for c in row if c != "id"]
        return db.execute(f"INSERT INTO papers ({', '.join(cols)}) VALUES "
                          f"({', '.join('?' * len(cols))})", [row[c] for c in cols]).lastrowid


def candidates(lib) -> set[int]:
    """The papers in an open duplicate group, as the query language finds them."""
    return set(lib.search("is:duplicate-candidate", include_deleted=True).ids)


def grouped(groups, a, b):
    return any(a in g.ids and b in g.ids for g in groups)


def test_seed_library_has_no_certain_groups(seed_lib):
    groups = seed_lib.duplicates.scan()
    assert [g for g in groups if g.tier == "certain"] == []
    assert seed_lib.duplicates.scan(tier="certain") == []


def test_the_two_scaling_laws_papers_are_not_grouped(seed_lib):
    nmt = by_title(seed_lib, "Scaling Laws for Neural Machine Translation")
    multi = by_title(seed_lib, "Scaling Laws for Multilingual Neural Machine Translation")
    assert len(nmt) == len(multi) == 1
    assert not grouped(seed_lib.duplicates.scan(), nmt[0], multi[0])


RETYPINGS = [str.upper, str.lower, lambda t: t.replace("-", "\u2013") + ".",
             lambda t: t.replace(" ", "  "), lambda t: t.replace(": ", " - "),
             lambda t: t.replace("'", "\u2019").replace(" ", "  ", 1) + "."]


def test_retyped_seed_titles_land_on_the_existing_papers(seed_lib, tmp_path):
    papers = seed_lib.papers(seed_lib.search("").ids)
    picked, entries = [], []
    for way in RETYPINGS:
        paper = next(p for p in papers if way(p["title"]) != p["title"] and p not in picked)
        picked.append(paper)
        entries.append((way(paper["title"]), paper["abstract"]))
    report = seed_lib.import_paths([write_digest(tmp_path / "retyped.txt", entries)])[0]
    assert report.status == "imported", report.error
    assert (report.new_papers, report.merged) == (0, len(picked))
    assert seed_lib.stats()["papers"] == SEED_PAPERS
    for p in picked:
        assert len(seed_lib.sightings(p["id"])) == len(p["digests"]) + 1


def test_typo_copy_with_the_same_abstract_is_flagged_at_import_as_likely(seed_lib, tmp_path):
    paper = seed_lib.paper(by_title(seed_lib, "Serverless Cold Starts")[0])
    typo = paper["title"].replace("Serverless", "Serverles")
    report = seed_lib.import_paths([write_digest(tmp_path / "t.txt",
                                                 [(typo, paper["abstract"])])])[0]
    assert (report.new_papers, report.likely_duplicates) == (1, 1)
    new = by_title(seed_lib, "Serverles Cold")[0]
    assert candidates(seed_lib) == {paper["id"], new}
    groups = seed_lib.duplicates.scan()
    group = next(g for g in groups if paper["id"] in g.ids)
    assert sorted(group.ids) == sorted([paper["id"], new]) and group.ids[0] == paper["id"]
    assert group.tier == "likely" and group.score >= 90
    assert group.evidence[:2] == ["title 99%", "abstract 100%"]
    assert group.to_json() == {"ids": group.ids, "tier": "likely", "score": group.score,
                               "evidence": group.evidence}


def test_same_title_with_a_different_abstract_is_for_review_not_certain(seed_lib):
    source = by_title(seed_lib, "Serverless Cold Starts")[0]
    other = by_title(seed_lib, "ZeRO-Infinity")[0]
    copy = add_copy(seed_lib, source, abstract=seed_lib.paper(other)["abstract"])
    group = next(g for g in seed_lib.duplicates.scan() if copy in g.ids)
    assert set(group.ids) == {source, copy}
    assert group.tier == "possible"
    assert "same title, different abstracts" in group.evidence
    assert seed_lib.duplicates.merge_all_certain().result["groups"] == 0


def test_equal_identifiers_or_title_and_abstract_are_certain(seed_lib):
    a, b = by_title(seed_lib, "POLCA")[0], by_title(seed_lib, "R2D2")[0]
    with seed_lib.transaction() as db:
        db.execute("UPDATE papers SET arxiv_id = '2308.12908' WHERE id = ?", [a])
    by_id = add_copy(seed_lib, a, title="Something else entirely", arxiv_id="2308.12908v2")
    same = add_copy(seed_lib, b, title=seed_lib.paper(b)["title"].upper())
    groups = {frozenset(g.ids): g for g in seed_lib.duplicates.scan(tier="certain")}
    assert set(groups) == {frozenset({a, by_id}), frozenset({b, same})}
    assert groups[frozenset({a, by_id})].evidence[0] == "same arXiv id 2308.12908"
    assert groups[frozenset({b, same})].score == 100


def test_different_dates_and_author_counts_lower_the_tier(seed_lib):
    source = by_title(seed_lib, "Serverless Cold Starts")[0]
    title = seed_lib.paper(source)["title"].replace("Serverless", "Serverles")
    near = add_copy(seed_lib, source, title=title)
    far = add_copy(seed_lib, source, title=title.replace("Cold", "Clod"),
                   published="2001-01-01", author_count=99)
    with seed_lib.transaction() as db:
        db.execute("UPDATE papers SET published = '2024-12-20', author_count = 3 WHERE id IN "
                   "(?, ?)", [source, near])
    groups = seed_lib.duplicates.scan()
    pair = next(g for g in groups if set(g.ids) == {source, near})
    assert pair.tier == "likely" and "same date" in pair.evidence
    assert "author counts 3 vs 3" in pair.evidence
    assert not any(far in g.ids for g in groups)
    with seed_lib.transaction() as db:
        db.execute("UPDATE papers SET author_count = 3 WHERE id = ?", [far])
    group = next(g for g in seed_lib.duplicates.scan() if far in g.ids)
    assert group.tier == "possible" and "dates 2024-12-20 vs 2001-01-01" in group.evidence


def test_not_duplicates_survive_a_restart(seed_lib):
    source = by_title(seed_lib, "Serverless Cold Starts")[0]
    copy = add_copy(seed_lib, source)
    assert grouped(seed_lib.duplicates.scan(), source, copy)
    changes = seed_lib.duplicates.mark_different([copy, source])
    assert changes.result["pairs"] == 1 and changes.undo is not None
    path = seed_lib.path
    seed_lib.close()
    with Library.open(path) as again:
        assert not grouped(again.duplicates.scan(), source, copy)
        assert candidates(again) == set()
        again.undo(changes.undo)
        assert grouped(again.duplicates.scan(), source, copy)


def test_candidates_table_follows_the_scan(seed_lib):
    source = by_title(seed_lib, "Serverless Cold Starts")[0]
    copy = add_copy(seed_lib, source)
    assert candidates(seed_lib) == set()
    seed_lib.duplicates.scan(tier="likely")
    assert candidates(seed_lib) == {source, copy}


def test_bad_requests_are_one_line_errors(seed_lib):
    with pytest.raises(PaperDeskError, match="unknown tier 'sure'"):
        seed_lib.duplicates.scan(tier="sure")
    with pytest.raises(PaperDeskError, match="at least two"):
        seed_lib.duplicates.mark_different([1])
    with pytest.raises(PaperDeskError, match="no paper with id 99999"):
        seed_lib.duplicates.mark_different([1, 99999])


def typo(title: str, rng: random.Random) -> str:
    words = title.split()
    k = rng.randrange(len(words))
    w = words[k]
    if len(w) > 3:
        j = rng.randrange(len(w) - 1)
        words[k] = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    else:
        words[k] = w + "s"
    return " ".join(words)


def test_blocking_finds_typo_copies_that_all_pairs_finds(seeds):
    """On seed-like titles with typos anywhere, blocking misses nothing all-pairs finds."""
    rng = random.Random(7)
    from paperdesk.core.model.digest import parse_digest

    titles = [title_key(e.title) for s in seeds
              for e in parse_digest(s.read_bytes(), s.name, 2025).entries]
    titles = list(dict.fromkeys(titles))
    keys = titles + [title_key(typo(t, rng)) for t in titles[:80]]
    from rapidfuzz import fuzz

    reference = {(i, j) for i in range(len(keys)) for j in range(i + 1, len(keys))
                 if fuzz.ratio(keys[i], keys[j]) >= blocking.TITLE_FLOOR}
    assert len(reference) >= 70
    assert reference <= blocking.all_pairs(keys)
