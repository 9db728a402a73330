"""duplicates, merge, unmerge and not-duplicate from the command line on a real library."""

from __future__ import annotations

import json

import pytest

from paperdesk.core.library import Library
from tests.command_line import paperdesk
from tests.core.test_duplicates import add_copy, by_title
from tests.core.test_import import content


@pytest.fixture
def with_copies(seed_path):
    """The seed library plus a certain copy and a likely (typo) copy of two papers."""
    path = seed_path
    with Library.open(path) as lib:
        s, z = by_title(lib, "Serverless Cold Starts")[0], by_title(lib, "ZeRO-Infinity")[0]
        certain = add_copy(lib, s)
        likely = add_copy(lib, z, title=lib.paper(z)["title"].replace("Memory", "Memroy"))
    return path, (s, certain), (z, likely)


def test_duplicates_json_lists_ids_tier_score_evidence(with_copies):
    path, (s, certain), (z, likely) = with_copies
    groups = json.loads(paperdesk("--library", path, "duplicates", "--json", check_rc=0).stdout)
    assert [(sorted(g["ids"]), g["tier"]) for g in groups] == [
        (sorted([s, certain]), "certain"), (sorted([z, likely]), "likely")]
    assert all(set(g) == {"ids", "tier", "score", "evidence"} for g in groups)
    assert "abstract 100%" in groups[1]["evidence"]
    only = json.loads(paperdesk("--library", path, "duplicates", "--json", "--tier", "likely",
                                check_rc=0).stdout)
    assert [g["tier"] for g in only] == ["likely"]
    text = paperdesk("--library", path, "duplicates", check_rc=0)
    assert "certain" in text.stdout and "2 groups" in text.stderr


def test_merge_unmerge_by_paper_and_by_id(with_copies):
    path, (s, certain), _ = with_copies
    before = content(path)
    out = paperdesk("--library", path, "merge", s, certain, "--json", check_rc=0)
    merge_id = json.loads(out.stdout)["merge_id"]
    assert content(path) != before
    paperdesk("--library", path, "unmerge", "--paper", certain, check_rc=0)
    assert content(path) == before
    paperdesk("--library", path, "merge", s, certain, check_rc=0)
    merges = json.loads(paperdesk("--library", path, "unmerge", "--json", check_rc=0).stdout)
    assert [m["undone"] for m in merges] == [False, True] and merges[1]["id"] == merge_id
    out = paperdesk("--library", path, "unmerge", merges[0]["id"], check_rc=0)
    assert f"paper {certain} is back" in out.stderr
    assert content(path) == before


def test_merge_all_certain_then_not_duplicate(with_copies):
    path, (s, certain), (z, likely) = with_copies
    out = paperdesk("--library", path, "merge", "--all-certain", "--json", check_rc=0)
    assert {k: v for k, v in json.loads(out.stdout).items() if k != "merge_ids"} == {
        "groups": 1, "papers": 1}
    shown = json.loads(paperdesk("--library", path, "show", s, "--json", check_rc=0).stdout)
    assert len(shown["sightings"]) == 3
    paperdesk("--library", path, "show", certain, check_rc=1)
    paperdesk("--library", path, "not-duplicate", z, likely, check_rc=0)
    groups = json.loads(paperdesk("--library", path, "duplicates", "--json", check_rc=0).stdout)
    assert groups == []


@pytest.mark.parametrize("args, message", [
    (["merge", "1"], "name the paper to keep"),
    (["merge", "1", "1"], "cannot be merged into itself"),
    (["merge", "1", "99999"], "no paper with id 99999"),
    (["merge", "1", "2", "--take", "title"], "--take wants FIELD=ID"),
    (["merge", "--all-certain", "1", "2"], "--all-certain takes no paper ids"),
    (["unmerge", "77"], "no merge with id 77"),
    (["unmerge", "--paper", "3"], "no merge involving paper 3"),
    (["not-duplicate", "4"], "at least two"),
])
def test_bad_requests_exit_1_with_one_line_and_change_nothing(with_copies, args, message):
    path = with_copies[0]
    before = content(path)
    out = paperdesk("--library", path, *args, check_rc=1)
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert content(path) == before


def test_duplicates_stats_says_how_many_title_pairs_were_compared(with_copies):
    path, (s, certain), _ = with_copies
    run = paperdesk("--library", path, "duplicates", "--json", "--stats", check_rc=0)
    assert sorted(json.loads(run.stdout)[0]["ids"]) == sorted([s, certain])
    line = run.stderr.strip().splitlines()[-1]
    assert line.startswith("compared ") and line.endswith(" candidate pairs of titles")
    assert int(line.split()[1]) > 0



def test_a_merge_keeps_where_each_field_came_from_and_says_when_the_key_changes(seed_path,
                                                                               tmp_path):
    """Fields the kept paper takes from the other keep the other's source (a .bib
    file's authors are the .bib file's), and a key the merge changes is said."""
    with Library.open(seed_path) as lib:
        keep = by_title(lib, "Serverless Cold Starts")[0]
        before = lib.paper(keep)
    bib = tmp_path / "dup.bib"
    bib.write_text(f"@article{{Roe2099copy,\n  title = {{{before['title']}}},\n"
                   "  author = {Roe, Ann},\n  doi = {10.1234/roe.2099}\n}\n", encoding="utf-8")
    paperdesk("--library", seed_path, "import", bib, check_rc=0)
    with Library.open(seed_path) as lib:
        copy = max(lib.search().ids)
    out = paperdesk("--library", seed_path, "merge", keep, copy, check_rc=0)
    assert (f"paper {keep}'s citation key is now Roe2099copy (was {before['citekey']})"
            in out.stderr)
    shown = json.loads(paperdesk("--library", seed_path, "show", keep, "--json",
                                 check_rc=0).stdout)
    assert shown["doi"] == "10.1234/roe.2099" and shown["sources"]["doi"]["source"] == "bib"
    assert shown["sources"]["citekey"]["source"] == "bib"
    assert shown["sources"]["title"]["source"] == "digest"
    if before["authors"]:
        assert shown["authors"] == before["authors"]
        assert shown["sources"]["authors"]["source"] == "digest"
    else:
        assert shown["authors"] == ["Roe, Ann"]
        assert shown["sources"]["authors"]["source"] == "bib"
