"""Shortcuts of the .bib reading processes held to what they replace: the JSON that
digests are made of, written by json's public encoder made once
(``bibtex_source.json_text``), is json.dumps's text to the character; the kept entry's
JSON, written and read by orjson (``stored_json``, ``read_stored``), holds what json
would write and reads back as json reads it, whatever the values hold; values are
searched for dangerous commands only where one may be; a missing comma is found from a
value's braces and quotes as the expression that takes its groups out finds it."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from paperdesk.core.bibtex import bib_salvage
from paperdesk.core.bibtex.bib_read import BibReader
from paperdesk.core.bibtex.bibtex_fields import read_entry
from paperdesk.core.bibtex.bibtex_source import json_text, read_stored, stored_json
from paperdesk.core.bibtex.tex_safe import DANGEROUS
from paperdesk.core.importing import bibtex_import
from paperdesk.core.importing.bib_records import chunk_reader
from paperdesk.core.library import Library

_PIECES = ["a", " ", "\\", '"', "\n", "\t", "\r", "\\n", '\\"', "é", "𝔸", "\u2028", "\x7f",
           "\ud800", "{", "}", "$", "\x0c", "\x00", "\x1f"]


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=20).map("".join))
def test_json_text_writes_strings_as_json_does(text: str) -> None:
    assert json_text(text) == _dumps(text)


def _json_like(scalars: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    """``scalars`` and texts of ``_PIECES``, nested in lists and objects."""
    return st.recursive(
        scalars | st.lists(st.sampled_from(_PIECES), max_size=6).map("".join),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
            st.lists(st.sampled_from(_PIECES), max_size=3).map("".join), inner, max_size=4),
        max_leaves=12)


_VALUES = _json_like(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False))


@settings(max_examples=1500, deadline=None)
@given(_VALUES)
def test_json_text_is_json_dumps(value: object) -> None:
    assert json_text(value) == _dumps(value)


# What a kept entry holds: text, integers of 64 bits (years, row ids), None, lists,
# objects; no floats (orjson writes an infinite one as null, and reads an integer
# beyond 64 bits as a float: ``stored_json`` is given neither).
_KEPT_VALUES = _json_like(st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1))


@settings(max_examples=3000, deadline=None)
@given(_KEPT_VALUES)
def test_stored_json_reads_back_as_json_reads_json_dumps(value: object) -> None:
    """Lone surrogates and integers beyond 64 bits, which orjson refuses, are written
    and read by json: every value comes back as json would give it back."""
    text = stored_json(value)
    assert json.loads(text) == json.loads(_dumps(value))
    assert read_stored(text) == json.loads(text)
    assert read_stored(_dumps(value)) == json.loads(_dumps(value))


def test_what_orjson_refuses_is_written_and_read_by_json() -> None:
    for value in (["\ud800 lone"], {"year": 2**70}, "a\udc80b"):
        value = json.loads(json.dumps(value))  # the surrogate itself, not its escape
        assert stored_json(value) == _dumps(value)
        assert read_stored(stored_json(value)) == value
    assert read_stored('{"n": NaN}')["n"] != read_stored('{"n": NaN}')["n"]  # json's NaN


def _entries(text: str, as_bytes: bool) -> list:
    reader = BibReader(text, "t.bib")
    found = reader.found
    chunks = (bibtex_import._byte_chunks(text, text.encode("utf-8", "surrogatepass"), found)
              if as_bytes else bibtex_import._chunks(text, found))
    read = chunk_reader(reader.strings, found.string_keys, "t.bib", False)
    return [entry for chunk in chunks for entry in read(chunk).entries]


def test_kept_entries_are_stored_json_text_whatever_their_values_hold() -> None:
    """Each kept entry is ``stored_json``'s text of what it holds, whichever way it was
    read: entries with quotes, backslashes, tabs and line breaks, and an entry with a
    form feed and a NUL (escaped in JSON)."""
    values = ['Q "quoted" \\\\ back \\% \\"o', "two\n\tlines\r\n", "form\x0cfeed\x00nul",
              "plain"]
    text = "".join(f"@article{{k{i},\n  title = {{T {i}}},\n  note = {{{v}}},\n"
                   f"  author = {{Li, Ann and M\\\"uller, Jan}}\n}}\n\n"
                   for i, v in enumerate(values))
    for as_bytes in (False, True):
        entries = _entries(text, as_bytes)
        assert len(entries) == len(values)
        for entry, value in zip(entries, values, strict=True):
            kept = (entry.source_head + b"7" + entry.source_tail).decode()
            assert stored_json(json.loads(kept)) == kept
            assert json.loads(kept)["fields"][1] == ["note", "{" + value + "}"]
        alone = _entries(text.split("@article{k2")[0], as_bytes)  # no control characters
        assert alone == entries[:2]
        for odd in ("@misc{nofields}\n", "@misc{one, title = {T}}\n", "@Misc{q\\x, a = 1}\n"):
            (entry,) = _entries(odd, as_bytes)
            kept = (entry.source_head + b"7" + entry.source_tail).decode()
            assert stored_json(json.loads(kept)) == kept, odd


def test_every_dangerous_command_is_still_reported() -> None:
    for name in DANGEROUS:
        for value in (f"{{x \\{name}{{y}}}}", f"{{\\{name}}}", f"{{a \\'e \\{name} b}}"):
            paper = read_entry("misc", "k", 1, [("note", value)], {})
            assert any(f"\\{name}" in w for w in paper.warnings), value
    quiet = read_entry("misc", "k", 1, [("note", "{\\'e \\emph{x} \\inputs}")], {})
    assert quiet.warnings == []


_VALUE_PIECES = ["{", "}", '"', "=", "a", " ", "\\", "{=}", "{{{{", "}}}}", '"="', "$x = 1$"]


@settings(max_examples=5000, deadline=None)
@given(st.lists(st.sampled_from(_VALUE_PIECES), max_size=24).map("".join))
def test_equals_outside_answers_as_the_expression(value: str) -> None:
    """Groups three deep and deeper, unclosed ones, quotes inside and outside braces."""
    want = "=" in bib_salvage._DELIMITED.sub("", value)
    assert bib_salvage.equals_outside(value) == want


def test_a_run_on_value_is_found_and_math_is_not_one() -> None:
    assert bib_salvage.run_on([("title", "{A}  journal = {B}")])
    assert bib_salvage.run_on([("title", '"A" journal = "B"')])
    assert not bib_salvage.run_on([("abstract", "{We show $\\alpha = 0.9$ and {x = y}.}")])
    assert bib_salvage.run_on([("abstract", "{a {b {c {d} e} f} g = h}")])  # four deep


def test_kept_entries_sent_in_utf8_are_stored_as_text(tmp_path) -> None:
    """The kept entry goes from the reader to SQLite as UTF-8 bytes: stored as text (a
    blob would be read back as bytes), non-ASCII names and all."""
    path = tmp_path / "utf8.bib"
    path.write_text("@article{k1, title = {Über Straße}, author = {Øster, Åsa and Li, Ann},\n"
                    "  year = 2020}\n@misc{k2, title = {Plain}}\n", encoding="utf-8")
    with Library.open(tmp_path / "lib.sqlite") as lib:
        lib.import_paths([path])
        rows = lib.db.execute("SELECT typeof(bib_source), bib_source, citekey FROM papers "
                              "ORDER BY id").fetchall()
    assert [r[0] for r in rows] == ["text", "text"]
    first = json.loads(rows[0][1])
    assert first["names"] == {"Øster, Åsa": "Øster, Åsa", "Li, Ann": "Li, Ann"}
    assert first["fields"][0] == ["title", "{Über Straße}"] and first["file"] == 1
