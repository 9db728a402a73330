"""A retired key still cites the work in biblatex: ``ids = {K}`` on the paper that is now
that work (``key_aliases``). A document written with ``\\cite{K}`` before a merge or a
re-keying prints the merged paper with biber; never another paper, never two entries."""

from __future__ import annotations

import re

import pytest

from paperdesk.core.bibtex import bibtex_export
from tests import latex_build as tex
from tests.core.test_retired_keys import _new_paper, _pair


def _entry(text: str, key: str) -> str:
    """The entry of ``key`` in an export's text."""
    found = re.search(r"^@\w+\{" + re.escape(key) + r",\n(?:\t.*\n)*\}\n", text, re.M)
    assert found, f"no entry {key}"
    return found.group(0)


def _ids(text: str, key: str) -> str | None:
    found = re.search(r"^\tids = \{(.*)\},?$", _entry(text, key), re.M)
    return found and found.group(1)


def test_a_merged_away_papers_key_is_an_alias_of_the_merged_paper(lib, tmp_path):
    a, b = _pair(lib, tmp_path)
    key_a, key_b = lib.paper(a)["citekey"], lib.paper(b)["citekey"]
    lib.bibtex.export_to(tmp_path / "ab.bib", [a, b])
    lib.duplicates.merge(a, [b])
    text = lib.bibtex.export(style="biblatex")
    assert _ids(text, key_a) == key_b
    assert text.count("\tids = ") == 1 and f"{{{key_b}," not in text  # no entry of its own
    # BibTeX has no such field: its export leaves it out.
    assert "\tids = " not in lib.bibtex.export(style="bibtex")


def test_a_key_replaced_by_hand_is_an_alias_of_its_paper_until_another_takes_it(
        lib, tmp_path):
    a, b = _pair(lib, tmp_path)
    key_a = lib.paper(a)["citekey"]
    lib.bibtex.export_to(tmp_path / "a.bib", [a])
    lib.bibtex.set_citekey(a, "coldstarts")
    assert _ids(lib.bibtex.export([a], style="biblatex"), "coldstarts") == key_a
    lib.bibtex.set_citekey(b, key_a)  # typed by hand: the user's word, and b's key now
    text = lib.bibtex.export([a, b], style="biblatex")
    assert _ids(text, "coldstarts") is None and _ids(text, key_a) is None


def test_a_key_retired_with_a_paper_deleted_for_good_names_nothing(lib, tmp_path):
    _a, b = _pair(lib, tmp_path)
    lib.bibtex.export_to(tmp_path / "b.bib", [b])
    lib.trash.delete([b])
    lib.trash.empty()
    assert "\tids = " not in lib.bibtex.export(style="biblatex")


def test_aliases_follow_every_later_merge_and_an_undo_takes_them_back(lib, tmp_path):
    a, b = _pair(lib, tmp_path)
    z = _new_paper(lib, tmp_path, "z.txt", "Serverless Cold Starts in Practice", 2024)
    keys = {p: lib.paper(p)["citekey"] for p in (a, b, z)}
    lib.bibtex.export_to(tmp_path / "abz.bib", [a, b, z])
    lib.duplicates.merge(a, [b])                 # b's key retired with b
    last = lib.duplicates.merge(z, [a])          # a's key retired with a: both now z's
    assert set(_ids(lib.bibtex.export(style="biblatex"), keys[z]).split(",")) == {
        keys[a], keys[b]}
    lib.undo(last.undo)                          # a is back, under its own key
    text = lib.bibtex.export(style="biblatex")
    assert _ids(text, keys[a]) == keys[b] and _ids(text, keys[z]) is None


def test_an_entry_from_a_bib_file_gets_its_aliases_unless_it_has_ids(lib, tmp_path):
    bib = tmp_path / "in.bib"
    bib.write_text("@article{one, title = {Serverless Cold Starts}, year = 2024}\n"
                   "@article{two, title = {Serverless Cold Starts, Again}, year = 2024,\n"
                   "  ids = {old2}}\n", encoding="utf-8")
    lib.import_paths([bib])
    one, two = (lib.db.execute("SELECT id FROM papers WHERE citekey = ?", [k]).fetchone()[0]
                for k in ("one", "two"))
    lib.bibtex.export_to(tmp_path / "out.bib", [one, two])
    lib.bibtex.set_citekey(one, "one2")
    lib.bibtex.set_citekey(two, "two2")
    text = lib.bibtex.export(style="biblatex")
    assert _entry(text, "one2").startswith("@article{one2,\n\tids = {one},\n")
    assert _ids(text, "two2") == "old2"  # the file's own ids field, as written


@pytest.mark.parametrize("parallel", [True, False])
def test_exporting_processes_write_the_same_aliases(lib, tmp_path, monkeypatch, parallel):
    a, b = _pair(lib, tmp_path)
    key_a, key_b = lib.paper(a)["citekey"], lib.paper(b)["citekey"]
    lib.bibtex.export_to(tmp_path / "ab.bib", [a, b])
    lib.duplicates.merge(a, [b])
    monkeypatch.setattr(bibtex_export, "PARALLEL_FROM", 0 if parallel else 10**9)
    lib.bibtex.export_to(tmp_path / "all.bib", style="biblatex")
    assert _ids((tmp_path / "all.bib").read_text(encoding="utf-8"), key_a) == key_b


@pytest.mark.tex
def test_biber_prints_the_merged_paper_for_a_retired_key(lib, tmp_path):
    """A document citing both keys of two papers later merged: with the biblatex export,
    biber resolves both to the merged paper's one entry, without a warning."""
    tex.require_tools()
    a, b = _pair(lib, tmp_path)
    key_a, key_b = lib.paper(a)["citekey"], lib.paper(b)["citekey"]
    lib.bibtex.export_to(tmp_path / "ab.bib", [a, b])
    lib.duplicates.merge(a, [b])
    folder = tmp_path / "doc"
    folder.mkdir()
    lib.bibtex.export_to(folder / "refs.bib", style="biblatex")
    (folder / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage[backend=biber]{biblatex}\n"
        "\\addbibresource{refs.bib}\n\\begin{document}\n"
        f"\\cite{{{key_a}}} and \\cite{{{key_b}}}\n\\printbibliography\n\\end{{document}}\n",
        encoding="utf-8")
    tex.latex(folder, "doc.tex")
    backend = tex.run(["biber", "doc"], folder)
    tex.latex(folder, "doc.tex")
    final = tex.latex(folder, "doc.tex")
    assert not tex.complaints(backend), tex.complaints(backend)
    log = (folder / "doc.log").read_text(errors="replace")
    assert "undefined" not in log and not tex.complaints(final), final[-2000:]
    bbl = (folder / "doc.bbl").read_text(errors="replace")
    assert bbl.count("\\entry{") == 1 and f"\\entry{{{key_a}}}" in bbl


def test_a_damaged_merge_row_names_nobody_and_the_export_goes_on(lib, tmp_path):
    a, b = _pair(lib, tmp_path)
    key_a, key_b = lib.paper(a)["citekey"], lib.paper(b)["citekey"]
    lib.bibtex.export_to(tmp_path / "ab.bib", [a, b])
    lib.duplicates.merge(a, [b])
    with lib.db.conn:  # another program damaged a later merge's list
        lib.db.execute("INSERT INTO merges (kept_id, merged_ids, created, undo) "
                       "VALUES (?, '[1, oops', '2025-01-01', '{}'), (?, '{\"x\": 1}', "
                       "'2025-01-01', '{}')", [a, a])
    assert _ids(lib.bibtex.export(style="biblatex"), key_a) == key_b


def test_a_key_that_named_two_papers_is_nobodys_alias(lib, tmp_path):
    """a's key k0 goes to c in a merge and is exported as c's; the merge is undone (c
    keeps k0) and c deleted for good: k0 named a and c, so it cites nothing."""
    a, _b = _pair(lib, tmp_path)
    key_a = lib.paper(a)["citekey"]
    c = _new_paper(lib, tmp_path, "c.txt", "Serverless Cold Starts in Practice", 2024)
    lib.bibtex.export_to(tmp_path / "a.bib", [a])
    lib.bibtex.set_citekey(a, "k0")
    merged = lib.duplicates.merge(c, [a])  # c takes a's frozen key
    assert lib.paper(c)["citekey"] == "k0"
    lib.bibtex.export_to(tmp_path / "c.bib", [c])
    lib.undo(merged.undo)
    # c keeps k0 (it left as c's); a comes back under the key it last left under
    assert lib.paper(c)["citekey"] == "k0" and lib.paper(a)["citekey"] == key_a
    lib.trash.delete([c])
    lib.trash.empty()
    assert "\tids = " not in lib.bibtex.export(style="biblatex")


def test_a_retired_key_typed_onto_another_paper_is_nobodys_alias(lib, tmp_path):
    a, b = _pair(lib, tmp_path)
    key_b = lib.paper(b)["citekey"]
    lib.bibtex.export_to(tmp_path / "b.bib", [b])
    lib.bibtex.set_citekey(b, "bee")          # key_b named b
    lib.bibtex.set_citekey(a, key_b)          # typed by hand: the user's word
    lib.bibtex.export_to(tmp_path / "a.bib", [a])
    lib.bibtex.set_citekey(a, "ay")           # key_b named a too
    assert "\tids = " not in lib.bibtex.export(style="biblatex")


@pytest.mark.parametrize("spelling", ["seven", "Seven"])
def test_a_key_an_entrys_own_ids_gives_is_nobody_elses_alias(lib, tmp_path, spelling):
    bib = tmp_path / "in.bib"
    bib.write_text("@article{three, title = {Serverless Cold Starts}, year = 2024,\n"
                   "  ids = {seven}}\n", encoding="utf-8")
    lib.import_paths([bib])
    _a, x = _pair(lib, tmp_path)
    lib.bibtex.set_citekey(x, spelling)
    lib.bibtex.export_to(tmp_path / "x.bib", [x])
    lib.bibtex.set_citekey(x, "xx")
    text = lib.bibtex.export(style="biblatex")
    assert _ids(text, "three") == "seven" and _ids(text, "xx") is None


def test_damaged_rows_name_nobody_and_the_export_goes_on(lib, tmp_path):
    a, b = _pair(lib, tmp_path)
    key_a, key_b = lib.paper(a)["citekey"], lib.paper(b)["citekey"]
    lib.bibtex.export_to(tmp_path / "ab.bib", [a, b])
    lib.duplicates.merge(a, [b])
    with lib.db.conn:  # another program wrote what PaperDesk never writes
        lib.db.execute("INSERT INTO retired_owners (key, paper_id) VALUES ('weird', 'p9')")
        lib.db.execute("INSERT INTO merges (kept_id, merged_ids, created, undo) "
                       "VALUES ('x', '[1]', '2025-01-01', '{}')")
    assert _ids(lib.bibtex.export(style="biblatex"), key_a) == key_b
