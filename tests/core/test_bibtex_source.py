"""Entries from .bib files written back as written; PaperDesk's own text only where edited."""

from __future__ import annotations

import json
from pathlib import Path

import bibtexparser

from paperdesk.core.library import Library

FILE = r"""@preamble{"\newcommand{\noopsort}[1]{}"}
@String{jgg = "J. Great Games"}

@Article{K*?:2020/long-key-that-goes-on-and-on-beyond-sixty-four-characters-easily,
  Author = {Giuseppe {De Giacomo} and Harry B. {Hunt III} and {van Leeuwen}, Jan},
  Title = "Cu$_2$O and $O(n^2)$: {\em big} \mkbibquote{X}",
  journal = jgg # " (Series " # {2} # ")",
  month = {2~} # jan,
  year = {forthcoming},
  note = {Costs 5 # 1 and \url{http://x.org/a_b#c}},
  keywords = {Brain Injuries, Traumatic; Humans},
}

@InBook{child, crossref = {parent}, pages = {1--10}}
@Book{parent, editor = {{American Heart Association}}, title = {Handbook}, date = {1984/1986}}
@set{both, entryset = {child,parent}}
"""


def _import(lib: Library, tmp_path: Path, text: str, name: str = "refs.bib"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return lib.import_paths([path])[0]


def _fields(text: str) -> dict[str, dict[str, str]]:
    parsed = bibtexparser.parse_string(text, parse_stack=[])
    assert not parsed.failed_blocks
    return {e.key: {f.key: f.value for f in e.fields} for e in parsed.entries}


def test_every_field_key_type_and_definition_comes_back_as_written(lib, tmp_path):
    report = _import(lib, tmp_path, FILE)
    assert (report.new_papers, report.skipped) == (4, [])
    out = lib.bibtex.export()
    assert out.startswith('@preamble{"\\newcommand{\\noopsort}[1]{}"}\n\n\n'
                          '@String{jgg = "J. Great Games"}\n')
    original, exported = _fields(FILE), _fields(out)
    assert list(exported) == list(original)  # keys and order, as written
    for key, fields in original.items():
        assert exported[key] == {name: " ".join(v.split()) if name == "note" else v
                                 for name, v in fields.items()} or key.startswith("K")
    long_key = next(iter(original))
    assert exported[long_key]["Title"] == '"Cu$_2$O and $O(n^2)$: {\\em big} \\mkbibquote{X}"'
    assert exported[long_key]["month"] == "{2~} # jan"
    assert exported[long_key]["year"] == "{forthcoming}"
    # the only change: a bare # in a printed field, which LaTeX rejects; \url{} untouched
    assert exported[long_key]["note"] == "{Costs 5 \\# 1 and \\url{http://x.org/a_b#c}}"
    assert "@Article{" in out and "@InBook{child," in out and "@set{both," in out
    with Library.open(tmp_path / "again.sqlite") as fresh:
        _import(fresh, tmp_path, out, "out.bib")
        assert fresh.bibtex.export() == out  # byte for byte


def test_display_copy_decodes_names_math_and_macros(lib, tmp_path):
    _import(lib, tmp_path, FILE)
    papers = {p["citekey"]: p for p in lib.papers([1, 2, 3, 4])}
    first = papers[next(iter(_fields(FILE)))]
    assert first["authors"] == ["De Giacomo, Giuseppe", "Hunt III, Harry B.", "van Leeuwen, Jan"]
    assert first["title"] == "Cu_2O and O(n^2): big X"
    assert first["tags"] == ["Brain Injuries, Traumatic", "Humans"]
    assert papers["parent"]["title"] == "Handbook" and papers["child"]["title"] == ""
    assert lib.search("handbook").ids == [papers["parent"]["id"]]


def test_an_edited_field_is_written_by_paperdesk_the_rest_as_written(lib, tmp_path):
    _import(lib, tmp_path, "@string{jgg = {J. Great Games}}\n"
                           "@article{k, author = {Giuseppe {De Giacomo} and Ann Lee},\n"
                           "  title = {A {GPT} Study}, journal = jgg, year = 2020, month = jan,\n"
                           "  keywords = {one, two}, note = {as written}}\n")
    lib.curation.set_year(1, 2021)
    lib.db.execute("UPDATE papers SET authors = ? WHERE id = 1",
                   [json.dumps(["De Giacomo, Giuseppe", "Ann Lee", "Zoë Ng"])])
    entry = _fields(lib.bibtex.export())["k"]
    assert entry["year"] == "{2021}" and "month" in entry
    # names that were in the file keep their form as written; a new one is encoded
    assert entry["author"] == "{Giuseppe {De Giacomo} and Ann Lee and Zoë Ng}"
    assert (entry["title"], entry["journal"], entry["keywords"], entry["note"]) == (
        "{A {GPT} Study}", "jgg", "{one, two}", "{as written}")
    lib.curation.add_tags([1], ["three"])
    assert _fields(lib.bibtex.export())["k"]["keywords"] == "{one, three, two}"


def test_user_notes_go_to_annote_and_the_file_note_is_always_there(lib, tmp_path):
    _import(lib, tmp_path, "@misc{a, title = {A}, note = {file note}}\n"
                           "@misc{b, title = {B}, annote = {file annote}}\n")
    lib.curation.add_note(1, "my note")
    lib.curation.add_note(2, "mine too")
    plain, with_notes = _fields(lib.bibtex.export()), _fields(lib.bibtex.export(notes=True))
    assert plain["a"] == {"title": "{A}", "note": "{file note}"}
    assert with_notes["a"] == {"title": "{A}", "note": "{file note}", "annote": "{my note}"}
    assert with_notes["b"] == {"title": "{B}", "annote": "{file annote}",
                               "paperdesk-notes": "{mine too}"}


def test_ascii_export_of_fields_as_written(lib, tmp_path):
    _import(lib, tmp_path, "@misc{a, title = {Über α}, author = {Jürgen Müller}}\n")
    entry = _fields(lib.bibtex.export(ascii=True))["a"]
    assert entry["title"] == "{{\\\"U}ber {\\ensuremath{\\alpha}}}"
    assert entry["author"] == "{J{\\\"u}rgen M{\\\"u}ller}"


def test_the_definitions_go_with_the_files_of_the_papers_out_of_the_trash(lib, tmp_path):
    _import(lib, tmp_path, "@string{aa = {Kept}}\n@misc{a, title = {A}, note = aa}\n", "a.bib")
    _import(lib, tmp_path, "@string{bb = {Binned}}\n@misc{b, title = {B}, note = bb}\n",
            "b.bib")
    _import(lib, tmp_path, "@string{cc = {Journal abbreviations}}\n", "c.bib")
    lib.curation.add_tags([1, 2], ["both"])
    lib.trash.delete([2])
    out = lib.bibtex.export()
    # a's paper is out, b's only paper is in the trash, c holds definitions only
    assert out.startswith("@string{aa = {Kept}}\n\n\n@string{cc = {Journal abbreviations}}\n")
    assert "Binned" not in out and "@misc{b," not in out
    assert _fields(out)["a"] == {"title": "{A}", "note": "aa", "keywords": "{both}"}
    assert lib.bibtex.export([1]) == out
    assert lib.bibtex.export([2]).startswith("@string{bb = {Binned}}\n\n\n@string{cc = {")
    lib.trash.restore([2])
    assert "@string{bb = {Binned}}" in lib.bibtex.export()


def _old_layout(seen: dict, abstract: str) -> dict:
    """``seen`` as entries imported before abstract digests keep it: the whole abstract
    after the other columns, then the tags."""
    from paperdesk.core.bibtex.bibtex_source import DIGEST

    old = {name: value for name, value in seen.items() if name not in (DIGEST, "tags")}
    return {**old, "abstract": abstract, "tags": seen["tags"]}


def test_an_unedited_entry_is_written_as_the_field_by_field_way_writes_it(tmp_path):
    """The shortcut for an entry nobody edited gives the lines the general way gives
    with no group edited, on every entry of the real .bib corpus, plain and ASCII, with
    the abstract seen as its digest (as imported now) and whole (as imported before)."""
    from paperdesk.core.bibtex.bibtex_source import _edited_lines, source_entry
    from tests import realbib

    checked = 0
    for path in realbib.corpus():
        with Library.open(tmp_path / f"{path.stem}.sqlite") as lib:
            lib.import_paths([path])
            rows = lib.db.execute("SELECT citekey, bib_source, abstract FROM papers "
                                  "WHERE bib_source IS NOT NULL").fetchall()
        for key, text, abstract in rows:
            source = json.loads(text)
            seen = source["seen"]
            assert "abstract" not in seen
            current = {**seen, "authors": json.dumps(seen["authors"], ensure_ascii=False),
                       "abstract": abstract}
            tags = source["seen"]["tags"]
            old = {**source, "seen": _old_layout(seen, abstract)}
            for ascii in (False, True):
                lines = [f"@{source['type']}{{{key},"]
                _edited_lines(lines, source["fields"], set(), {}, ascii=ascii)
                if len(lines) > 1:
                    lines[-1] = lines[-1][:-1]
                general = "\n".join(lines) + "\n}\n"
                # the @comment blocks that stood before it (after it: the file's last)
                general = ("".join(c + "\n\n" for c in source.get("before", ())) + general
                           + "".join("\n" + c + "\n" for c in source.get("after", ())))
                for layout in (source, old):
                    assert source_entry(layout, key, current, tags, [], None, None,
                                        ascii=ascii) == general
            checked += 1
    assert checked > 800


def test_the_unchanged_shortcut_never_hides_an_edit():
    """Whenever ``_unchanged`` says no column changed, no group compares as edited;
    over generated columns that are equal, blank in the other way, or different."""
    import random

    from paperdesk.core.bibtex.bibtex_source import SEEN, _differs, _unchanged

    rng = random.Random(7)
    values = [None, "", "[]", "a", "b", "[\"A\"]", 2020, 2021, "2020", ["A"], [], ["A", "B"]]
    agreed = 0
    for _ in range(50000):
        seen = {c: rng.choice(values) for c in SEEN if rng.random() < 0.9}
        current = {c: seen.get(c) if rng.random() < 0.85 else rng.choice(values) for c in SEEN}
        if isinstance(current["authors"], list) and rng.random() < 0.5:
            current["authors"] = json.dumps(current["authors"])  # the column's form
        if _unchanged(seen, current):
            agreed += 1
            assert not any(_differs(current.get(c), seen.get(c)) for c in SEEN), (seen, current)
    assert agreed > 100


_ABSTRACTS = [None, "", "[]", "[ ]", "a", "a ", "b", "[\"A\"]", "[ \"A\" ]", "[1", "[1, 2]",
              "[1,2]", "{x}", "x" * 1200, "x" * 1199 + "y", "Über α", "Uber a"]


def test_the_abstract_digest_decides_as_the_whole_abstract_did():
    """Over generated columns (abstracts among blank, equal, JSON-looking, long and
    near-equal texts): every layout's edited groups are the same, and ``_unchanged``
    never hides an edit, with the abstract seen whole (imported before) or as its
    digest (imported now)."""
    import random

    from paperdesk.core.bibtex.bibtex_source import (
        DIGEST,
        SEEN,
        _differs,
        _stored_seen,
        _unchanged,
        abstract_digest,
        edited_groups,
    )

    rng = random.Random(11)
    values = [None, "", "[]", "a", "b", "[\"A\"]", 2020, 2021, "2020", ["A"], [], ["A", "B"]]
    agreed = edited = 0
    for _ in range(50000):
        whole = {c: rng.choice(values) for c in SEEN[:-1] if rng.random() < 0.9}
        whole["abstract"] = rng.choice(_ABSTRACTS)
        current = {c: whole.get(c) if rng.random() < 0.85 else rng.choice(values)
                   for c in SEEN[:-1]}
        current["abstract"] = whole["abstract"] if rng.random() < 0.5 else rng.choice(
            _ABSTRACTS)
        if isinstance(current["authors"], list) and rng.random() < 0.5:
            current["authors"] = json.dumps(current["authors"])  # the column's form
        tags = rng.choice([[], ["t"], ["t", "u"]])
        seen_tags = rng.choice([[], ["t"], ["t", "u"]])
        digested = _stored_seen(whole)
        assert "abstract" not in digested
        assert digested.get(DIGEST) == abstract_digest(whole["abstract"])
        groups = edited_groups({"seen": {**whole, "tags": seen_tags}}, current, tags)
        assert edited_groups({"seen": {**digested, "tags": seen_tags}}, current,
                             tags) == groups, (whole, current)
        edited += "abstract" in groups
        if _unchanged(digested, current):
            agreed += 1
            assert not any(_differs(current.get(c), whole.get(c)) for c in SEEN), (
                whole, current)
    assert agreed > 1000 and 5000 < edited < 45000


def test_blank_abstracts_share_no_digest_and_texts_differ_by_one_character():
    from paperdesk.core.bibtex.bibtex_source import _differs, abstract_digest

    assert abstract_digest(None) is abstract_digest("") is None
    digests = {a: abstract_digest(a) for a in _ABSTRACTS}
    for a in _ABSTRACTS:
        for b in _ABSTRACTS:
            assert (digests[a] != digests[b]) == _differs(a, b), (a, b)
    assert all(len(d) == 16 and int(d, 16) >= 0 for d in digests.values() if d)
