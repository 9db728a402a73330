"""Importing real-world .bib files: fields, merges, broken entries, the round trip."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from paperdesk.core.library import Library

REAL = r"""% A file as people really have them: comments, @string, macros, braces.
@string{neurips = "Advances in Neural Information Processing Systems"}
@comment{ignored}

@inproceedings{Vaswani2017,
  author    = {Ashish Vaswani and Noam Shazeer and Niki Parmar and others},
  title     = {Attention is All you Need},
  booktitle = neurips,
  year      = {2017},
  month     = dec,
  url       = {https://arxiv.org/abs/1706.03762},
}

@article{mueller_2020,
  author = {M{\"u}ller, J{\"u}rgen and Garc\'{\i}a, Jos\'e},
  title = {{GPT}-style Models for {\"U}bersetzung: 95\% there},
  journal = {J. Mach. Learn.},
  year = 2020, volume = 21, pages = {1--30},
  doi = {https://doi.org/10.5555/ABC.123},
  keywords = {translation; Deep Learning, nlp},
  abstract = {We study $\alpha$-scaling in machine translation.}
}

@misc{broken,
  title = {Missing a closing brace,
  year = 2021

@online{deepseek2025r1,
  author = {{DeepSeek}},
  title = {{DeepSeek-R1}: Incentivizing Reasoning},
  date = {2025-01-22},
  eprint = {2501.12948}, eprinttype = {arxiv},
  note = {Read this first.}
}

@misc{notitle, author = {Nobody}, year = 2022}
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _papers(lib: Library) -> dict[str, dict]:
    ids = [r[0] for r in lib.db.execute("SELECT id FROM papers ORDER BY id")]
    return {p["citekey"]: p for p in lib.papers(ids, with_notes=True)}


def test_real_world_file_imports_with_line_numbered_skips(lib, tmp_path):
    report = lib.import_paths([_write(tmp_path, "refs.bib", REAL)])[0]
    assert (report.status, report.kind, report.entries, report.new_papers) == (
        "imported", "bibtex", 4, 4)
    text = "\n".join(report.warnings)
    reason = ("cannot be read (Unexpected block start: @online. Was still looking for "
              "field-value closing })")
    assert f"refs.bib: line 24: skipped an entry that {reason}" in text
    assert report.skipped == [{"line": 24, "key": "broken", "reason": reason}]
    assert report.to_json()["skipped"] == report.skipped
    papers = _papers(lib)
    # title is not required by BibTeX: the entry without one imports too
    assert set(papers) == {"Vaswani2017", "mueller_2020", "deepseek2025r1", "notitle"}
    assert (papers["notitle"]["title"], papers["notitle"]["authors"]) == ("", ["Nobody"])
    v = papers["Vaswani2017"]
    assert v["authors"] == ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "others"]
    assert v["author_count"] is None  # "and others": the count is not known
    assert (v["year"], v["arxiv_id"], v["title"]) == (2017, "1706.03762",
                                                      "Attention is All you Need")
    m = papers["mueller_2020"]
    assert m["authors"] == ["Müller, Jürgen", "García, José"] and m["author_count"] == 2
    assert m["title"] == "GPT-style Models for Übersetzung: 95% there"
    assert m["doi"] == "10.5555/ABC.123"
    # keywords split at ";" when the value has one (MeSH terms hold commas), else at ","
    assert m["tags"] == ["Deep Learning, nlp", "translation"]
    assert m["abstract"] == "We study α-scaling in machine translation."
    d = papers["deepseek2025r1"]
    assert (d["organization"], d["authors"], d["published"]) == ("DeepSeek", [], "2025-01-22")
    assert d["arxiv_id"] == "2501.12948"
    assert d["notes"] == []  # the file's note is the entry's, not the user's: kept as written
    assert "\tnote = {Read this first.}" in lib.bibtex.export([d["id"]])
    assert lib.search("tag:translation").ids == [m["id"]]
    assert lib.search("incentivizing").ids == [d["id"]]


def test_sniffed_by_content_not_extension(lib, tmp_path):
    report = lib.import_paths([_write(tmp_path, "exported.txt", REAL)])[0]
    assert report.kind == "bibtex" and report.new_papers == 4


def test_file_without_a_readable_entry_changes_nothing(seed_lib, tmp_path):
    before = seed_lib.stats()
    sha = seed_lib.db.execute("SELECT group_concat(citekey) FROM papers").fetchone()
    bad = _write(tmp_path, "bad.bib", "@article{a,\n  title = {never closed,\n\n"
                                      "@misc{b, author = {never closed either\n")
    report = seed_lib.import_paths([bad])[0]
    assert report.status == "error"
    assert report.error.startswith("bad.bib: no BibTeX entry could be read")
    assert "\n" not in report.error
    assert seed_lib.stats() == before
    assert seed_lib.db.execute("SELECT group_concat(citekey) FROM papers").fetchone() == sha


def test_entries_merge_into_existing_papers(seed_lib, tmp_path):
    row = seed_lib.db.execute("SELECT id, title, abstract, citekey FROM papers "
                              "WHERE organization IS NULL ORDER BY id LIMIT 1").fetchone()
    pid, title, abstract, key = row
    other = seed_lib.db.execute("SELECT id FROM papers WHERE id > ? ORDER BY id LIMIT 1",
                                [pid]).fetchone()[0]
    seed_lib.db.execute("UPDATE papers SET arxiv_id = '2101.00001' WHERE id = ?", [other])
    count = seed_lib.stats()["papers"]
    text = (f"@article{{someone,\n title = {{{title.upper()}}},\n author = {{Ada Lovelace}},\n"
            f" abstract = {{{abstract[:400]}}},\n keywords = {{merged}}\n}}\n\n"
            "@misc{byid, title = {A Different Title Entirely}, eprint = {2101.00001v2},\n"
            " archivePrefix = {arXiv}, author = {Bob Byid}}\n")
    report = seed_lib.import_paths([_write(tmp_path, "merge.bib", text)])[0]
    # Only the arXiv id merges; the same title is a duplicate candidate to review.
    assert (report.new_papers, report.merged) == (1, 1)
    assert seed_lib.stats()["papers"] == count + 1
    assert report.merge_lines() == [f"byid -> byid (paper {other}; same arXiv id 2101.00001)"]
    assert report.likely_duplicates == 1
    new = seed_lib.db.execute("SELECT id FROM papers WHERE citekey = 'someone'").fetchone()[0]
    assert {pid, new} <= {r[0] for r in seed_lib.db.execute(
        "SELECT paper_id FROM duplicate_candidates")}
    paper = seed_lib.paper(pid)
    assert paper["citekey"] == key and paper["title"] == title and paper["tags"] == []
    assert seed_lib.paper(new)["tags"] == ["merged"]
    # the paper that came from no .bib file takes the entry's key and fields as written
    assert seed_lib.paper(other)["authors"] == ["Bob Byid"]
    assert "archivePrefix = {arXiv}" in seed_lib.bibtex.export([other])


def test_no_entry_of_a_file_merges_with_another_of_it(lib, tmp_path):
    text = "".join(f"@article{{ed{i}, title = {{Editorial comments}}, journal = {{J}}, "
                   f"year = {{{1990 + i % 3}}}}}\n" for i in range(67))
    text += ("@book{series1, title = {Collected Works}, volume = 1, year = 1950}\n"
             "@book{series2, title = {Collected Works}, volume = 2, year = 1950}\n"
             "@phdthesis{t, title = {On Things}, author = {Ann Lee}, year = 2001}\n"
             "@book{b, title = {On Things}, author = {Ann Lee}, year = 2003}\n"
             "@article{d1, title = {A}, doi = {10.1/x}, year = 2001}\n"
             "@inproceedings{d2, title = {A}, doi = {10.1/x}, year = 2001}\n")
    report = lib.import_paths([_write(tmp_path, "columns.bib", text)])[0]
    assert (report.new_papers, report.merged, report.merges) == (73, 0, [])
    exported = lib.bibtex.export()
    for key in [f"ed{i}" for i in range(67)] + ["series1", "series2", "t", "b", "d1", "d2"]:
        assert f"{{{key},\n" in exported


def test_an_identifier_contradicted_by_type_year_or_authors_does_not_merge(lib, tmp_path):
    lib.import_paths([_write(tmp_path, "a.bib", "@article{a, title = {One}, author = "
                             "{Ann Lee}, doi = {10.1/one}, year = 2001}\n"
                             "@article{b, title = {Two}, author = {Ann Lee}, "
                             "eprint = {2101.00002}, archivePrefix = {arXiv}, year = 2021}\n")])
    report = lib.import_paths([_write(tmp_path, "b.bib", (
        "@inproceedings{c, title = {One}, author = {Ann Lee}, doi = {10.1/ONE}, year = 2001}\n"
        "@article{d, title = {Two}, author = {Bo Chen}, eprint = {2101.00002v3}, "
        "archivePrefix = {arXiv}, year = 2021}\n"
        "@article{e, title = {One, again}, author = {Lee, Ann}, doi = {10.1/one}, "
        "year = 2002}\n"
        "@misc{f, title = {Two (preprint)}, author = {A. Lee}, eprint = {2101.00002v1}, "
        "archivePrefix = {arXiv}, year = 2021}\n"))])[0]
    assert (report.new_papers, report.merged) == (3, 1)
    assert report.merge_lines() == ["f -> b (paper 2; same arXiv id 2101.00002)"]
    text = "\n".join(report.warnings)
    assert "'c' has the DOI 10.1/ONE of paper 1 but is @inproceedings, not @article" in text
    assert "'d' has the arXiv id 2101.00002 of paper 2 but has other authors" in text
    assert "'e' has the DOI 10.1/one of paper 1 but is from 2002, not 2001" in text
    assert {"c", "d", "e"} <= {p["citekey"] for p in lib.papers(range(1, 7))}


def test_keys_kept_when_free_and_reimport_adds_nothing(lib, tmp_path):
    path = _write(tmp_path, "refs.bib", REAL)
    lib.import_paths([path])
    first = _papers(lib)
    report = lib.import_paths([path])[0]
    assert (report.new_papers, report.merged) == (0, 4)
    assert _papers(lib).keys() == first.keys()
    assert {m["reason"] for m in report.merges} == {"the same entry"}


@pytest.mark.parametrize("style", ["bibtex", "biblatex"])
@pytest.mark.parametrize("ascii", [False, True])
def test_round_trip_export_import_export(seed_lib, tmp_path, style, ascii):
    seed_lib.import_paths([_write(tmp_path, "refs.bib", REAL)])
    ids = [r[0] for r in seed_lib.db.execute("SELECT id FROM papers ORDER BY id LIMIT 40")]
    seed_lib.curation.add_tags(ids[:20], ["reading group", "C++ & co"])
    seed_lib.curation.add_note(ids[3], "First note with 50% and a_b.")
    seed_lib.curation.add_note(ids[3], "Second note.")
    options = {"style": style, "ascii": ascii, "notes": True}
    first = seed_lib.bibtex.export(**options)
    path = _write(tmp_path, "all.bib", first)
    with Library.open(tmp_path / "empty.sqlite") as fresh:
        report = fresh.import_paths([path])[0]
        assert report.new_papers == seed_lib.stats()["papers"], report.warnings
        assert fresh.bibtex.export(**options) == first


def test_many_entries_use_the_bulk_path_and_stay_searchable(lib, tmp_path):
    entries = "".join(
        f"@misc{{k{i},\n title = {{Paper number {i} about topic{i % 7}}},\n"
        f" author = {{Author {i}}},\n year = {{{2000 + i % 20}}},\n"
        f" keywords = {{bulk{i % 3}}},\n note = {{note {i}}}\n}}\n\n" for i in range(2500))
    report = lib.import_paths([_write(tmp_path, "many.bib", entries)])[0]
    assert report.new_papers == 2500
    assert len(lib.search("tag:bulk1").ids) == 833
    assert len(lib.search("topic3").ids) == 357
    # a file's note is the entry's own, not the user's: exported as written, not a note
    assert lib.paper(2500)["notes"] == []
    assert "\tnote = {note 2499}" in lib.bibtex.export([2500])


def test_older_library_gains_the_bibtex_columns(tmp_path):
    old = tmp_path / "old.sqlite"
    shutil.copy(Path(__file__).parent.parent / "data" / "library-0001.sqlite", old)
    with Library.open(old) as lib:
        columns = {r[1] for r in lib.db.execute("PRAGMA table_info(papers)")}
        assert {"bib_type", "bib_fields"} <= columns
        assert lib.bibtex.export().count("@misc{") == lib.stats()["papers"]
    raw = sqlite3.connect(old)
    applied = [r[0] for r in raw.execute("SELECT name FROM _sqlite_migrations")]
    raw.close()
    assert "0005_bibtex_fields" in applied
    assert json.loads(json.dumps(applied)) == applied


def test_cancel_keeps_nothing_from_the_file(seed_lib, tmp_path):
    import threading

    entries = "".join(f"@misc{{c{i}, title = {{Cancelled paper {i}}}, keywords = {{gone}}}}\n"
                      for i in range(1200))
    path = _write(tmp_path, "cancel.bib", entries)
    before = seed_lib.stats()
    cancel = threading.Event()

    def progress(fraction, message):
        if message.startswith("Matching") and fraction > 0.35:
            cancel.set()  # midway through the file, inside its transaction

    report = seed_lib.import_paths([path], progress=progress, cancel=cancel)[0]
    assert report.status == "cancelled"
    assert seed_lib.stats() == before
    assert seed_lib.search("tag:gone").ids == []


def test_in_a_folder_bib_files_import_and_code_is_skipped(lib, tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    _write(folder, "refs.bib", "@misc{only, title = {Only Paper}}\n")
    _write(folder, "Test.java", "@Test(timeout = 1)\n@SuppressWarnings(\"all\")\nclass T {}\n")
    reports = {r.name: r for r in lib.import_paths([folder])}
    assert reports["refs.bib"].status == "imported" and reports["refs.bib"].kind == "bibtex"
    assert reports["Test.java"].status == "skipped"


def test_a_string_with_an_unusable_name_is_skipped_not_kept(lib, tmp_path):
    path = tmp_path / "strings.bib"
    path.write_text('@STRING{=}\n@string{ 2bad = "x"}\n@string{good = "Good"}\n'
                    '@misc{k, title = good}\n', encoding="utf-8")
    [report] = lib.import_paths([path])
    assert report.status == "imported"
    assert [s["line"] for s in report.skipped] == [1, 2]
    assert all("unusable name" in s["reason"] for s in report.skipped)
    exported = lib.bibtex.export()
    assert "@string{good" in exported.lower() or "@STRING{good" in exported
    assert "{=}" not in exported and "2bad" not in exported


def test_a_digest_kept_with_an_entry_is_the_one_that_finds_it_again(lib, tmp_path):
    """Entries kept before digests were made on demand carry their own: it is used
    as it is (one changed to another entry's is not found again as the same entry)."""
    from paperdesk.core.bibtex.bibtex_source import entry_sha

    path = _write(tmp_path, "refs.bib", REAL)
    lib.import_paths([path])
    rows = lib.db.execute("SELECT id, bib_source FROM papers ORDER BY id").fetchall()
    with lib.db.atomic():
        for pid, text in rows:
            source = json.loads(text)
            sha = entry_sha(source["type"], source["key"], source["fields"])
            source["sha"] = "0" * 32 if pid == rows[0][0] else sha
            lib.db.execute("UPDATE papers SET bib_source = ? WHERE id = ?",
                           [json.dumps(source), pid])
    report = lib.import_paths([path])[0]
    reasons = {m["paper_id"]: m["reason"] for m in report.merges}
    assert reasons[rows[1][0]] == "the same entry"
    assert reasons.get(rows[0][0]) != "the same entry"
