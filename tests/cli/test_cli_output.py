"""JSON written item by item is the very text written for the whole list at once."""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperdesk.cli.output import emit_json, emit_json_list
from tests.conftest import SEED_PAPERS

_SHARED = {"source": "digest", "at": "2026-01-01"}  # one object met several times

CASES = [
    [],
    [{}],
    [{"id": 1, "title": "Ünïcode – dash", "notes": [{"text": "two\nlines"}], "tags": []}],
    [{"id": n, "abstract": "x\ty\n" * n, "empty": {}, "nested": [[], [n], {"a": None}]}
     for n in range(4)],
    [1, "two", None, [3.5]],
    [{"float": 1e300, "neg": -0.5, "big": 2**70, "bools": [True, False], "t": (1, "a")},
     {"int keys": {1: "one", 2: [{}]}, "quote": 'say "hi" \\ \u0001 \u2028'}],
    [{"sources": {"title": _SHARED, "year": _SHARED, "doi": {"at": "y", "source": "user"}},
      "again": [_SHARED, [_SHARED]], "deep": [[[{"k": [1, {"z": None}]}]]]}],
    [{"d": ["a", "b"], "s": {"a": "b"}}, {"d": ["a", "b"], "x": {"y": ["a", "b"]}},
     ["a", "b"], {"s": {"a": "b"}, "t": {"b": "a"}}, [["1"], [1], [True]], {"a": "b"}],
    # Plain values beside a nested one, as in a paper: beyond ASCII, DEL, a written \\u.
    [{"id": 1, "title": "café", "d": ["a"]}, {"id": 2, "t": "del \x7f", "d": ["b"]},
     {"id": 3, "t": "\\underline{x} \\u00e9 \\\\u", "d": ["c"]}, {"id": 4, "t": "plain", "d": []}],
]


@pytest.mark.parametrize("items", CASES, ids=["empty", "empty-dict", "unicode", "nested",
                                              "scalars", "odd-values", "shared", "repeats",
                                              "beside-nested"])
def test_streamed_list_matches_the_whole_list(capsys, items):
    emit_json(items)
    whole = capsys.readouterr().out
    emit_json_list(iter(items))
    streamed = capsys.readouterr().out
    assert streamed == whole
    assert whole == json.dumps(items, ensure_ascii=False, indent=2) + "\n"
    assert json.loads(streamed) == json.loads(whole)
    for item in items:  # one value alone, as a command's --json prints it
        emit_json(item)
        assert capsys.readouterr().out == json.dumps(item, ensure_ascii=False, indent=2) + "\n"


def test_list_json_of_the_seed_library_is_every_paper_in_order(seed_lib, capsys):
    from paperdesk.cli.main import main

    seed_lib.close()
    assert main(["--library", str(seed_lib.path), "list", "--json", "--sort", "title"]) == 0
    papers = json.loads(capsys.readouterr().out)
    with type(seed_lib).open(seed_lib.path) as lib:
        expected = lib.papers(lib.search("", sort="title").ids, with_notes=True)
    assert papers == expected and len(papers) == SEED_PAPERS


_SCALARS = (st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
            | st.floats(allow_nan=True, allow_infinity=True) | st.text())
_JSONISH = st.recursive(
    _SCALARS,
    lambda inner: (st.lists(inner, max_size=4) | st.tuples(inner, inner)
                   | st.dictionaries(st.text(max_size=8), inner, max_size=4)
                   | st.dictionaries(st.integers(0, 9), inner, max_size=2)),
    max_leaves=20)


@settings(max_examples=600, deadline=None)
@given(_JSONISH)
def test_written_json_is_what_json_writes_for_any_value(value):
    """Floats of every size (json and orjson write exponents differently), integers
    beyond 64 bits, keys that are not text, lone surrogates, control characters."""
    expected = json.dumps(value, ensure_ascii=False, indent=2)
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        emit_json(value)
    assert buffer.getvalue() == expected + "\n"


def test_floats_written_as_json_writes_them():
    values = [1e-05, 1.5e-07, 1e16, 1e22, -0.0, 5e-324, float("nan"), float("-inf"), 0.1 + 0.2]
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        emit_json_list([{"momentum": v} for v in values])
    assert buffer.getvalue() == json.dumps([{"momentum": v} for v in values],
                                           ensure_ascii=False, indent=2) + "\n"
