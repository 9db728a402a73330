"""BibTeX export: fields that fit the data, escaping, the writer, files written whole."""

from __future__ import annotations

import json
import re
import threading

import bibtexparser
import pytest

from paperdesk.core.bibtex.bibtex_export import BibtexError
from paperdesk.core.bibtex.latex_read import decode
from paperdesk.core.model.errors import Cancelled
from tests.conftest import SEED_PAPERS


def _parse(text: str) -> dict[str, dict[str, str]]:
    """key -> {field: raw value} as bibtexparser reads the text."""
    library = bibtexparser.parse_string(text, parse_stack=[])
    assert not library.failed_blocks, [b.error for b in library.failed_blocks]
    return {e.key: {f.key: f.value for f in e.fields} | {"@type": e.entry_type}
            for e in library.entries}


def _row(lib, where: str) -> dict:
    cursor = lib.db.execute(f"SELECT * FROM papers WHERE {where} ORDER BY id LIMIT 1")
    names = [d[0] for d in cursor.description]
    return dict(zip(names, cursor.fetchone(), strict=True))


def test_streaming_writer_matches_bibtexparser_writer(seed_lib):
    for style in ("bibtex", "biblatex"):
        text = seed_lib.bibtex.export(style=style, notes=True)
        library = bibtexparser.parse_string(text, parse_stack=[])
        assert len(library.entries) == SEED_PAPERS and not library.failed_blocks
        assert bibtexparser.write_string(library, unparse_stack=[]) == text


def test_every_seed_paper_reads_back_with_its_own_text(seed_lib):
    entries = _parse(seed_lib.bibtex.export())
    rows = seed_lib.db.execute("SELECT citekey, title, abstract, year FROM papers").fetchall()
    assert set(entries) == {r[0] for r in rows}
    for key, title, abstract, year in rows:
        entry = entries[key]
        assert entry["@type"] == "misc"
        assert decode(entry["title"][1:-1]) == title
        # an escape the abstract already held (50\%) reads back as its character
        math = re.findall(r"\$\S[^$]*\S\$", abstract)
        if math:  # math stays math: written as it is
            assert all(span in entry["abstract"] for span in math)
        else:
            assert decode(entry["abstract"][1:-1]) == re.sub(r"\\([%&#_${}])", r"\1",
                                                             abstract)
        assert entry.get("year") == (f"{{{year}}}" if year else None)


def test_fields_fit_what_is_known(seed_lib):
    entries = _parse(seed_lib.bibtex.export())
    org = _row(seed_lib, "organization IS NOT NULL")
    assert entries[org["citekey"]]["author"] == "{{" + org["organization"] + "}}"
    counted = _row(seed_lib, "author_count IS NOT NULL AND organization IS NULL")
    assert "author" not in entries[counted["citekey"]]  # a count is not a name
    assert entries[counted["citekey"]]["key"]  # plain styles sort on it instead
    dated = _row(seed_lib, "published IS NOT NULL")
    month = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
             "dec"][int(dated["published"][5:7]) - 1]
    assert entries[dated["citekey"]]["month"] == month
    for entry in entries.values():
        assert not {"note", "keywords", "eprint", "date"} & set(entry)

    online = _parse(seed_lib.bibtex.export(style="biblatex"))
    entry = online[dated["citekey"]]
    assert entry["@type"] == "online"
    assert entry["date"] == "{" + dated["published"] + "}"
    assert not {"year", "month", "key"} & set(entry)


def test_escaping_text_fields_only_and_never_twice(seed_lib):
    pid = _row(seed_lib, "abstract LIKE '%\\%%' ESCAPE '!'")["id"]
    seed_lib.db.execute(
        "UPDATE papers SET title = ?, arxiv_id = ?, doi = ?, url = ? WHERE id = ?",
        ["R&D of C# at 100% for x_1 {and} $5: GPT-4 in LLMs", "2401.00001", "10.1000/a_b%2Fc",
         "https://example.org/a_b?x=1%20&y=#z", pid])
    seed_lib.curation.add_tags([pid], ["C++ & ML", "deep_rl"])
    seed_lib.curation.add_note(pid, "Read §3; 50% faster #fast")
    key = seed_lib.paper(pid)["citekey"]
    entry = _parse(seed_lib.bibtex.export([pid], notes=True))[key]
    assert entry["title"] == ("{{R\\&D} of {C\\#} at 100\\% for x\\_1 \\{and\\} \\$5: "
                              "{GPT-4} in {LLMs}}")
    assert entry["eprint"] == "{2401.00001}" and entry["archivePrefix"] == "{arXiv}"
    assert entry["doi"] == "{10.1000/a_b%2Fc}"
    assert entry["url"] == "{https://example.org/a_b?x=1%20&y=#z}"
    assert "\\%" in entry["abstract"] and "\\\\%" not in entry["abstract"]
    assert "\\textbackslash" not in entry["abstract"]
    assert entry["keywords"] == "{C++ \\& ML, deep\\_rl}"
    # the user's notes go to annote, never to note
    assert entry["annote"] == "{Read §3; 50\\% faster \\#fast}" and "note" not in entry
    assert "annote" not in _parse(seed_lib.bibtex.export([pid]))[key]


def test_names_and_ascii_output(lib, tmp_path):
    bib = tmp_path / "people.bib"
    bib.write_text("@article{x, title = {Über Größe}, author = {Jürgen Müller and "
                   "Łukasz Kaiser and Zoë O'Brien}, journal = {Nature}, year = 2020}\n",
                   encoding="utf-8")
    assert lib.import_paths([bib])[0].status == "imported"
    utf8 = _parse(lib.bibtex.export())["x"]
    assert utf8["author"] == "{Jürgen Müller and Łukasz Kaiser and Zoë O'Brien}"
    assert utf8["@type"] == "article" and utf8["journal"] == "{Nature}"
    text = lib.bibtex.export(ascii=True)
    assert text.isascii()
    entry = _parse(text)["x"]
    assert entry["author"] == ("{J{\\\"u}rgen M{\\\"u}ller and {\\L}ukasz Kaiser and "
                               "Zo{\\\"e} O'Brien}")
    assert entry["title"] == "{{\\\"U}ber Gr{\\\"o}{\\ss}e}"  # the title as written, in ASCII
    assert decode(entry["title"][1:-1]) == "Über Größe"


def test_ids_query_and_order(seed_lib):
    ids = [r[0] for r in seed_lib.db.execute("SELECT id FROM papers ORDER BY id DESC LIMIT 3")]
    keys = [seed_lib.paper(i)["citekey"] for i in ids]
    assert list(_parse(seed_lib.bibtex.export(ids))) == keys
    found = seed_lib.search("scaling").ids
    assert list(_parse(seed_lib.bibtex.export(query="scaling"))) == [
        seed_lib.paper(i)["citekey"] for i in found]
    assert seed_lib.bibtex.export([]) == ""
    with pytest.raises(BibtexError, match="unknown style"):
        seed_lib.bibtex.export(style="apa")


def test_export_to_writes_whole_file_or_nothing(seed_lib, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    target = out / "refs.bib"
    assert seed_lib.bibtex.export_to(target) == SEED_PAPERS
    assert target.read_text(encoding="utf-8") == seed_lib.bibtex.export()
    target.write_text("@misc{old, title = {old content}}", encoding="utf-8")
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        seed_lib.bibtex.export_to(target, cancel=cancel)
    assert target.read_text(encoding="utf-8") == "@misc{old, title = {old content}}"
    assert [p.name for p in out.iterdir()] == ["refs.bib"]  # no temp file left
    with pytest.raises(BibtexError, match="cannot write"):
        seed_lib.bibtex.export_to(tmp_path / "missing" / "refs.bib")


def test_imported_fields_without_a_column_are_written_back(lib, tmp_path):
    bib = tmp_path / "paper.bib"
    bib.write_text("@inproceedings{vaswani2017,\n  title = {Attention Is All You Need},\n"
                   "  author = {Vaswani, Ashish and others},\n  booktitle = {NeurIPS},\n"
                   "  pages = {5998--6008},\n  volume = 30,\n  year = 2017,\n"
                   "  eprint = {1706.03762},\n  archivePrefix = {arXiv},\n"
                   "  primaryClass = {cs.CL}\n}\n", encoding="utf-8")
    lib.import_paths([bib])
    paper = _row(lib, "1")
    assert json.loads(paper["authors"]) == ["Vaswani, Ashish", "others"]
    entry = _parse(lib.bibtex.export())["vaswani2017"]
    assert entry["@type"] == "inproceedings"
    assert entry["author"] == "{Vaswani, Ashish and others}"
    assert (entry["booktitle"], entry["pages"], entry["volume"]) == (
        "{NeurIPS}", "{5998--6008}", "30")
    assert entry["primaryClass"] == "{cs.CL}"
    assert "url" not in entry  # as written: PaperDesk adds nothing the entry did not have
