"""Curation from the command line: real processes on a real library file."""

from __future__ import annotations

import json

import pytest

from tests.command_line import paperdesk
from tests.core.test_import import content as tables


def content(path) -> dict[str, list]:
    import sqlite3

    conn = sqlite3.connect(path)
    saved = conn.execute("SELECT * FROM saved_searches ORDER BY 1").fetchall()
    conn.close()
    return {**tables(path), "saved_searches": saved}


def pd(seed_path, *args, rc=0):
    return paperdesk("--library", seed_path, *args, check_rc=rc)


def listed(seed_path, *query) -> list[dict]:
    return json.loads(pd(seed_path, "list", "--json", *query).stdout)


def test_tag_and_untag_many_papers(seed_path):
    out = pd(seed_path, "tag", 1, 2, 3, "+Vision", "+deep RL")
    assert "added 6 tags on 3 papers" in out.stderr
    pd(seed_path, "tag", 2, 3, "-vision", "+LLM")
    tags = json.loads(pd(seed_path, "tags", "--json").stdout)
    assert tags == [{"name": "deep RL", "count": 3}, {"name": "LLM", "count": 2},
                    {"name": "Vision", "count": 1}]
    assert [p["id"] for p in listed(seed_path, "tag:vision")] == [1]
    assert {p["id"] for p in listed(seed_path, "--", "-tag:vision tag:llm")} == {2, 3}
    by_id = {p["id"]: p for p in listed(seed_path)}
    assert by_id[2]["tags"] == ["deep RL", "LLM"]


def test_tags_may_look_like_numbers(seed_path):
    pd(seed_path, "tag", 5, "+2024", "+-1")
    assert json.loads(pd(seed_path, "tags", "--json").stdout) == [
        {"name": "-1", "count": 1}, {"name": "2024", "count": 1}]
    pd(seed_path, "tag", 5, "-2024")
    assert [t["name"] for t in json.loads(pd(seed_path, "tags", "--json").stdout)] == ["-1"]


def test_a_tag_with_a_comma_is_refused_since_exports_split_on_commas(seed_path):
    out = pd(seed_path, "tag", 1, "+nlp, survey", rc=1)
    assert out.stderr.count("\n") == 1 and "cannot hold a comma" in out.stderr
    assert json.loads(pd(seed_path, "tags", "--json").stdout) == []
    pd(seed_path, "tag", 1, "+nlp")
    out = pd(seed_path, "tags", "rename", "nlp", "nlp,survey", rc=1)
    assert out.stderr.count("\n") == 1 and "cannot hold a comma" in out.stderr
    assert json.loads(pd(seed_path, "tags", "--json").stdout) == [{"name": "nlp", "count": 1}]


def test_tags_rename_merge_delete(seed_path):
    pd(seed_path, "tag", 1, 2, "+ml")
    pd(seed_path, "tag", 3, "+machine-learning")
    pd(seed_path, "tags", "rename", "ml", "ML")
    pd(seed_path, "tags", "merge", "machine-learning", "ml")
    assert json.loads(pd(seed_path, "tags", "--json").stdout) == [{"name": "ML", "count": 3}]
    out = pd(seed_path, "tags", "delete", "ML")
    assert "3 papers" in out.stderr
    assert json.loads(pd(seed_path, "tags", "--json").stdout) == []
    out = pd(seed_path, "tags", "delete", "ML", rc=1)
    assert out.stderr.strip() == "paperdesk: no tag named 'ML'"


def test_notes_add_list_edit_delete(seed_path):
    out = pd(seed_path, "note", 4, "Check *table 2*; the wombat result.")
    note_id = int(out.stderr.split()[2])
    notes = json.loads(pd(seed_path, "note", 4, "--json").stdout)
    assert [n["text"] for n in notes] == ["Check *table 2*; the wombat result."]
    assert set(notes[0]) == {"id", "text", "created", "updated"}
    assert [p["id"] for p in listed(seed_path, "wombat")] == [4]
    pd(seed_path, "note", "--edit", note_id, "Numbat, not wombat")
    paper = listed(seed_path, "numbat")[0]
    assert paper["notes"][0]["text"] == "Numbat, not wombat"
    assert paper["notes"][0]["id"] == note_id
    pd(seed_path, "note", "--delete", note_id)
    assert listed(seed_path, "numbat") == []
    assert listed(seed_path)[0]["notes"] == []
    out = pd(seed_path, "note", "--delete", note_id, rc=1)
    assert out.stderr.strip() == f"paperdesk: no note with id {note_id}"


def test_rate_status_and_the_reading_list(seed_path):
    pd(seed_path, "rate", 5, 6, 7, 4)
    pd(seed_path, "status", 9, 7, 8, "to-read")
    pd(seed_path, "status", 6, "read")
    by_id = {p["id"]: p for p in listed(seed_path)}
    assert [by_id[i]["rating"] for i in (5, 6, 7, 8)] == [4, 4, 4, 0]
    assert [by_id[i]["status"] for i in (6, 7, 8, 9)] == ["read", "to-read", "to-read", "to-read"]
    assert [p["id"] for p in listed(seed_path, "rating>=4 status:to-read")] == [7]
    reading = json.loads(pd(seed_path, "reading-list", "--json").stdout)
    assert [p["id"] for p in reading] == [9, 7, 8]
    pd(seed_path, "reading-list", "move", 8, 1)
    reading = json.loads(pd(seed_path, "reading-list", "--json").stdout)
    assert [p["id"] for p in reading] == [8, 9, 7]
    moved = pd(seed_path, "reading-list", "move", 8, 99)  # past the end: the last place
    assert "moved paper 8 to place 3 of 3" in moved.stderr
    reading = json.loads(pd(seed_path, "reading-list", "--json").stdout)
    assert [p["id"] for p in reading] == [9, 7, 8]


def test_year_correction(seed_path):
    pd(seed_path, "year", 3, 2019)
    paper = json.loads(pd(seed_path, "show", 3, "--json").stdout)
    assert (paper["year"], paper["year_inferred"], paper["published"][:4]) == (2019, False, "2019")


def test_saved_searches(seed_path):
    pd(seed_path, "search", "save", "Good unread", "rating>=4", "status:unread")
    pd(seed_path, "search", "save", "vision", "tag:vision OR vision")
    saved = json.loads(pd(seed_path, "search", "list", "--json").stdout)
    assert saved == [{"name": "Good unread", "query": "rating>=4 status:unread"},
                     {"name": "vision", "query": "tag:vision OR vision"}]
    pd(seed_path, "rate", 2, 3, 4)
    pd(seed_path, "status", 3, "reading")
    ran = json.loads(pd(seed_path, "search", "run", "Good unread", "--json").stdout)
    assert [p["id"] for p in ran] == [2]
    pd(seed_path, "search", "delete", "vision")
    out = pd(seed_path, "search", "run", "vision", rc=1)
    assert out.stderr.strip() == "paperdesk: no saved search named 'vision'"
    assert "Good unread\trating>=4 status:unread" in pd(seed_path, "search", "list").stdout


def test_list_sorts_by_any_field(seed_path):
    pd(seed_path, "rate", 10, 5)
    pd(seed_path, "rate", 11, 3)
    rated = listed(seed_path, "has:rating", "--sort", "rating", "--desc")
    assert [p["id"] for p in rated] == [10, 11]
    ups = [p["upvotes"] for p in listed(seed_path, "--sort", "upvotes", "--desc")]
    known = [u for u in ups if u is not None]
    assert known == sorted(known, reverse=True) and ups[:len(known)] == known


@pytest.mark.parametrize("args", [
    ("list", "(tag:x"),
    ("list", "colour:red"),
    ("list", "rating>=lots"),
    ("list", "status:finished"),
    ("search", "save", "broken", "tag:x OR"),
    ("tag", "999999", "+x"),
    ("tags", "rename", "nope", "other"),
    ("note", "1", "   "),
    ("year", "1", "20"),
    ("reading-list", "move", "1", "1"),
])
def test_bad_input_exits_1_with_one_line_and_changes_nothing(seed_path, args):
    before = content(seed_path)
    out = pd(seed_path, *args, rc=1)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paperdesk: "), out.stderr
    assert content(seed_path) == before


@pytest.mark.parametrize("args", [
    ("tag", "1"),
    ("tag", "+x", "1"),
    ("rate", "1", "9"),
    ("status", "1", "finished"),
    ("note", "--edit", "1"),
])
def test_usage_mistakes_exit_2(seed_path, args):
    before = content(seed_path)
    pd(seed_path, *args, rc=2)
    assert content(seed_path) == before


def test_curation_commands_have_help_and_descriptions():
    from paperdesk.cli.main import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in ("tag", "tags", "note", "rate", "status", "year", "reading-list", "search"):
        p = sub.choices[name]
        assert p.description
        nested = [a for a in p._actions if a.dest == "action" and a.choices]
        for action in nested:
            helps = {c.dest: c.help for c in action._choices_actions}
            assert set(helps) == set(action.choices) and all(helps.values()), name
            assert all(c.description for c in action.choices.values()), name
