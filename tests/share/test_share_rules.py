"""PaperDesk's own rules on top of the engine's merges: duplicate merges against tags
given elsewhere, unmerges, and a lab's people keeping their own queues."""

from __future__ import annotations

import json

import pytest

from tests.command_line import paperdesk
from tests.share.sharing import digest, exchange, library, pair, uid_ids, view


@pytest.fixture
def two(tmp_path):
    with pair(tmp_path, papers=True, started=True) as libraries:
        yield libraries


def test_a_tag_on_a_paper_merged_elsewhere_stays_on_the_kept_paper(two):
    a, b, _ = two
    keep, gone = sorted(uid_ids(a))[:2]
    a.duplicates.merge(uid_ids(a)[keep], [uid_ids(a)[gone]])
    b.curation.add_tags([uid_ids(b)[gone]], "late")  # b has not seen the merge
    b.curation.add_note(uid_ids(b)[gone], "a note on the merged one")
    exchange(a, b)
    assert view(a) == view(b)
    assert gone not in uid_ids(a) and gone not in uid_ids(b)
    kept = b.paper(uid_ids(b)[keep], with_notes=True)
    assert kept["tags"] == ["late"]
    assert [n["text"] for n in kept["notes"]] == ["a note on the merged one"]


def test_a_merge_into_a_paper_merged_away_before_the_exchange_still_holds_its_tags(two):
    """A merges Q into P and then P into R, all before an exchange; B tags Q. Q went
    into a paper no longer in A's library: it is still a merged paper (its tag goes
    to R), not one emptied from the trash."""
    a, b, _ = two
    r, p, q = sorted(uid_ids(a))[:3]
    a.duplicates.merge(uid_ids(a)[p], [uid_ids(a)[q]])
    a.duplicates.merge(uid_ids(a)[r], [uid_ids(a)[p]])
    b.curation.add_tags([uid_ids(b)[q]], "late")
    exchange(a, b)
    for lib in (a, b):
        assert q not in uid_ids(lib) and p not in uid_ids(lib)
        assert lib.paper(uid_ids(lib)[r])["tags"] == ["late"]
        assert lib.curation.tags() == [{"name": "late", "count": 1}]
    assert view(a) == view(b)


def test_two_papers_merged_into_each_other_on_two_computers_stay_one_paper(two, tmp_path):
    """A merges Q into P while B merges P into Q: the merges make a ring. The paper
    with the lower stable id stays, alike everywhere, with both entries' sightings,
    both tags and both notes; without the rule neither paper was left."""
    a, b, folder = two
    p, q = sorted(uid_ids(a))[:2]
    a.duplicates.merge(uid_ids(a)[p], [uid_ids(a)[q]])
    b.duplicates.merge(uid_ids(b)[q], [uid_ids(b)[p]])
    a.curation.add_tags([uid_ids(a)[p]], "from-a")
    b.curation.add_note(uid_ids(b)[q], "from b")
    exchange(a, b)
    c = library(tmp_path / "c" / "c.sqlite")
    c.share.start(folder)
    for lib in (a, b, c):
        assert p in uid_ids(lib) and q not in uid_ids(lib), lib.path
        kept = lib.paper(uid_ids(lib)[p], with_notes=True)
        assert kept["tags"] == ["from-a"]
        assert [n["text"] for n in kept["notes"]] == ["from b"]
        assert len(lib.papers([uid_ids(lib)[p]])[0]["digests"]) == 1
        assert lib.db.execute("SELECT count(*) FROM sightings WHERE paper_id = ?",
                              [uid_ids(lib)[p]]).fetchone()[0] == 2
        assert lib.stats()["papers"] == 7
    assert view(a) == view(b) == view(c)
    c.close()


def test_a_ring_of_merges_keeps_its_lowest_paper_and_a_chain_is_left_as_it_is():
    from paperdesk.core.share.fields import kept_paper, live_marks

    ring = {"c": "a", "a": "b", "b": "c", "d": "c", "e": "f"}
    live = live_marks(ring)
    assert live == {"c": "a", "b": "c", "d": "c", "e": "f"}
    assert {u: kept_paper(u, live) for u in "abcde"} == dict.fromkeys("abcd", "a") | {"e": "f"}
    assert live_marks({"x": "y", "y": "z"}) == {"x": "y", "y": "z"}


def test_an_unmerge_brings_the_paper_back_everywhere(two):
    a, b, _ = two
    keep, gone = sorted(uid_ids(a))[:2]
    merged = a.duplicates.merge(uid_ids(a)[keep], [uid_ids(a)[gone]])
    exchange(a, b)
    assert gone not in uid_ids(b)
    a.duplicates.unmerge(merged.result.merge_id)
    exchange(a, b)
    assert gone in uid_ids(a) and gone in uid_ids(b)
    assert view(a) == view(b)


def test_a_merge_made_on_one_computer_is_taken_apart_on_the_other(two, tmp_path):
    """A merges Q into P; B, which has no list of A's merges, takes it apart with
    `unmerge --paper P`: Q comes back on both with its fields, tag, note and digest
    sighting, and P keeps its own."""
    a, b, _ = two
    p, q = sorted(uid_ids(a))[:2]
    a.curation.add_tags([uid_ids(a)[q]], "q-tag")
    a.curation.add_note(uid_ids(a)[q], "about q")
    exchange(a, b)
    before = {u: b.paper(uid_ids(b)[u]) for u in (p, q)}
    a.duplicates.merge(uid_ids(a)[p], [uid_ids(a)[q]])
    exchange(a, b)
    assert q not in uid_ids(b) and b.duplicates.history() == []
    out = paperdesk("--library", b.path, "unmerge", "--paper", str(uid_ids(b)[p]), "--json",
                    check_rc=0)
    assert json.loads(out.stdout)["restored_ids"] == [uid_ids(b)[q]]
    exchange(b, a)
    for lib in (a, b):
        back = lib.paper(uid_ids(lib)[q], with_notes=True)
        assert back["title"] == before[q]["title"] and back["tags"] == ["q-tag"]
        assert [n["text"] for n in back["notes"]] == ["about q"]
        assert back["seen_count"] == 1
        assert lib.paper(uid_ids(lib)[p])["tags"] == []
        for u in (p, q):
            assert lib.db.execute("SELECT count(*) FROM sightings WHERE paper_id = ?",
                                  [uid_ids(lib)[u]]).fetchone()[0] == 1
    assert view(a) == view(b)
    again = paperdesk("--library", b.path, "unmerge", "--paper", str(uid_ids(b)[p]))
    assert again.returncode != 0 and "no merge into paper" in again.stderr
    assert again.stderr.count("\n") == 1


def test_a_labs_people_keep_their_own_queues_statuses_and_ratings(tmp_path):
    folder = tmp_path / "Lab"
    folder.mkdir()
    ada = library(tmp_path / "ada" / "lib.sqlite")
    bob = library(tmp_path / "bob" / "lib.sqlite")
    ada.import_paths([digest(tmp_path / "d")])
    ada.share.start(folder, person="ada")
    bob.share.start(folder, person="bob")
    uids = sorted(uid_ids(ada))
    ada.curation.set_status([uid_ids(ada)[u] for u in uids[:3]], "to-read")
    ada.curation.set_rating([uid_ids(ada)[uids[0]]], 5)
    ada.curation.add_tags([uid_ids(ada)[uids[0]]], "group")
    bob.curation.set_status([uid_ids(bob)[uids[5]]], "to-read")
    bob.curation.add_note(uid_ids(bob)[uids[0]], "bob's note")
    exchange(ada, bob)
    assert view(ada)["queue"] == uids[:3]
    assert view(bob)["queue"] == [uids[5]]
    assert bob.paper(uid_ids(bob)[uids[0]])["rating"] == 0
    assert ada.paper(uid_ids(ada)[uids[0]])["rating"] == 5
    shared = {u: (p["tags"], p["notes"]) for u, p in view(ada)["papers"].items()}
    assert shared == {u: (p["tags"], p["notes"]) for u, p in view(bob)["papers"].items()}
    assert bob.paper(uid_ids(bob)[uids[0]])["tags"] == ["group"]
    assert bob.share.status().person == "bob"
    ada.close()
    bob.close()


def test_two_clones_of_a_bare_git_repository_converge(tmp_path):
    import subprocess

    bare = tmp_path / "library.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(bare)], check=True)
    a = library(tmp_path / "a" / "a.sqlite")
    b = library(tmp_path / "b" / "b.sqlite")
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(bare)
    b.share.start(bare)
    assert b.stats()["papers"] == 8
    uids = sorted(uid_ids(a))
    a.curation.add_tags([uid_ids(a)[uids[0]]], "from-a")
    b.curation.add_tags([uid_ids(b)[uids[0]]], "from-b")
    b.curation.set_rating([uid_ids(b)[uids[1]]], 3)
    a.share.now()
    b.share.now()  # its push is refused first (a pushed), then merged and pushed
    a.share.now()
    assert view(a) == view(b)
    assert a.paper(uid_ids(a)[uids[0]])["tags"] == ["from-a", "from-b"]
    log = subprocess.run(["git", "-C", str(bare), "log", "--oneline", "main"],
                         capture_output=True, text=True, check=True).stdout
    assert len(log.splitlines()) >= 3
    assert not (tmp_path / "a" / "a.sqlite.share" / "a.sqlite").exists()
    a.close()
    b.close()


def test_one_paper_merged_into_two_on_two_computers_ends_in_one_grouping(two):
    a, b, _ = two
    k, m, x = sorted(uid_ids(a))[:3]
    a.curation.add_note(uid_ids(a)[x], "a note on the merged one")
    exchange(a, b)
    a.duplicates.merge(uid_ids(a)[k], [uid_ids(a)[x]])
    merged = b.duplicates.merge(uid_ids(b)[m], [uid_ids(b)[x]])
    exchange(a, b)
    assert view(a) == view(b)
    assert x not in uid_ids(a) and x not in uid_ids(b)
    notes = [(u, n) for u, p in view(b)["papers"].items() for n in p["notes"]]
    assert [n[0] for _, n in notes] == ["a note on the merged one"]  # once, on one paper
    assert b.share.now().result.sent == 0  # nothing goes round again
    b.duplicates.unmerge(merged.result.merge_id)
    exchange(b, a)
    assert view(a) == view(b) and x in uid_ids(a)
    notes = [n[0] for p in view(a)["papers"].values() for n in p["notes"]]
    assert notes == ["a note on the merged one"]
