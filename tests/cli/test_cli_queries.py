"""The query language from the command line: `list`, `export QUERY` and saved searches
split the library in two with `X` and `-X`; a query beyond the limits is one line, exit 1,
and the library file is byte for byte as it was."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.command_line import paperdesk
from tests.conftest import SEED_PAPERS


def pd(seed_path: Path, *args, rc: int | None = 0) -> subprocess.CompletedProcess:
    return paperdesk("--library", seed_path, *args, check_rc=rc)


def listed(seed_path: Path, query: str) -> set[int]:
    return {p["id"] for p in json.loads(pd(seed_path, "list", "--json", "--", query).stdout)}


def exported(seed_path: Path, query: str) -> int:
    return pd(seed_path, "export", "--", query).stdout.count("\n@")  # entries after the first


@pytest.mark.parametrize("query", ["has:upvotes", "org:deep", "year:2023", "upvotes>5",
                                   "(org:deep OR year:2024) model"])
def test_list_export_and_saved_searches_partition_the_library(seed_path, query):
    total = json.loads(pd(seed_path, "stats", "--json").stdout)["papers"]
    yes, no = listed(seed_path, query), listed(seed_path, f"-({query})")
    assert len(yes) + len(no) == total and not yes & no
    assert listed(seed_path, f"NOT ({query})") == no
    assert exported(seed_path, query) + 1 == len(yes) or not yes
    assert exported(seed_path, f"-({query})") + 1 == len(no)
    pd(seed_path, "search", "save", "--", "not-it", f"-({query})")
    ran = json.loads(pd(seed_path, "search", "run", "not-it", "--json").stdout)
    assert {p["id"] for p in ran} == no


def test_the_reported_figures(seed_path):
    total = json.loads(pd(seed_path, "stats", "--json").stdout)["papers"]
    assert total == SEED_PAPERS
    counts = {q: int(pd(seed_path, "list", "--", q).stderr.split()[0])
              for q in ("has:upvotes", "-has:upvotes", "org:deep", "-org:deep",
                        "year:2023", "-year:2023")}
    assert counts["has:upvotes"] + counts["-has:upvotes"] == total
    assert counts["org:deep"] + counts["-org:deep"] == total
    assert counts["year:2023"] + counts["-year:2023"] == total
    assert counts["-has:upvotes"] > 150 and counts["-org:deep"] > 150


BAD = [
    "upvotes>99999999999999999999",
    "rating>=" + "9" * 5000,
    "(" * 330 + "model" + ")" * 330,
    "-" * 2000 + "model",
    " ".join(["tag:x"] * 1000),
    " OR ".join(f"word{i}" for i in range(1000)),
    "x" * 20_000,
]


@pytest.mark.parametrize("query", BAD, ids=lambda q: q[:24])
@pytest.mark.parametrize("command", [("list",), ("export",), ("search", "save", "bad"),
                                     ("export", "-o", "out.bib")])
def test_a_query_beyond_the_limits_is_one_line(seed_path, tmp_path, command, query):
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    command = [str(tmp_path / part) if part == "out.bib" else part for part in command]
    result = pd(seed_path, *command, "--", query, rc=1)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paperdesk: "), result.stderr
    assert "position" in lines[0] and len(lines[0]) < 200
    assert "Expression tree" not in lines[0] and "Error" not in lines[0]
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


@pytest.mark.parametrize(("query", "pos"), [("%", 1), ("+", 1), ("~", 1), ("scaling OR %", 12)])
def test_list_refuses_a_term_of_punctuation_alone_in_one_line(seed_path, query, pos):
    out = pd(seed_path, "list", "--", query, rc=1)
    assert out.stdout == ""
    assert out.stderr.splitlines() == [
        f"paperdesk: {query[pos - 1]!r} at position {pos} has no letters or digits to search "
        "for (punctuation only separates words)"]
