"""What a .bib entry keeps of its abstract: a digest of it, not a third copy; entries
imported before, which keep the whole abstract, export exactly as they did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperdesk.core.bibtex.bibtex_source import DIGEST, abstract_digest
from paperdesk.core.library import Library

FILE = r"""@string{jt = {J. Tests}}

@Article{lee2020,
  author = {Ann Lee and Bo {\v{C}}ech},
  title = {Sparse {GPT} Models},
  year = 2020,
  journal = jt,
  abstract = {We study $O(n^2)$ sparse models --
     {\"U}ber results_on  data.},
  note = {kept},
}

@misc{bare, title = {No Abstract Here}, year = {2019}}
"""
# bib_source of the two entries as PaperDesk wrote it before abstract digests (0fe9647)
OLD_SOURCES = [
    r'''{"type": "Article", "key": "lee2020", "fields": [["author", "{Ann Lee and Bo {\\v{C}}ech}"], ["title", "{Sparse {GPT} Models}"], ["year", "2020"], ["journal", "jt"], ["abstract", "{We study $O(n^2)$ sparse models --\n     {\\\"U}ber results_on  data.}"], ["note", "{kept}"]], "names": {"Ann Lee": "Ann Lee", "Bo Čech": "Bo {\\v{C}}ech"}, "file": 1, "sha": "fb4d6f512f9f7814ea139fc2efb44735", "seen": {"title": "Sparse GPT Models", "authors": ["Ann Lee", "Bo Čech"], "organization": null, "year": 2020, "published": null, "arxiv_id": null, "doi": null, "url": null, "abstract": "We study O(n^2) sparse models --\n     Über results_on  data.", "tags": []}}''',  # noqa: E501
    r'''{"type": "misc", "key": "bare", "fields": [["title", "{No Abstract Here}"], ["year", "{2019}"]], "names": {}, "file": 1, "sha": "c84dbfb02547563cdcea1fe4b91194e6", "seen": {"title": "No Abstract Here", "authors": [], "organization": null, "year": 2019, "published": null, "arxiv_id": null, "doi": null, "url": null, "abstract": "", "tags": []}}''',  # noqa: E501
]
# what PaperDesk exported for them before (0fe9647): the first entry's abstract as
# written, replaced by PaperDesk's, removed (the bare "_" of the abstract as written is
# kept since bare & _ ^ in abstracts are: bib_repair.NOTES)
HEAD = "@string{jt = {J. Tests}}\n\n\n@Article{lee2020,\n\tauthor = {Ann Lee and Bo {\\v{C}}ech},\n\ttitle = {Sparse {GPT} Models},\n\tyear = 2020,\n\tjournal = jt,\n"  # noqa: E501
TAIL = "\tnote = {kept}\n}\n\n\n@misc{bare,\n\ttitle = {No Abstract Here},\n\tyear = {2019}\n}\n"
AS_WRITTEN = HEAD + "\tabstract = {We study $O(n^2)$ sparse models --\n     {\\\"U}ber results_on  data.},\n" + TAIL  # noqa: E501
EDITED = HEAD + "\tabstract = {A new abstract.},\n" + TAIL
CLEARED = HEAD + TAIL
ABSTRACT = "We study O(n^2) sparse models --\n     Über results_on  data."


def _open(tmp_path: Path, layout: str) -> Library:
    path = tmp_path / "refs.bib"
    path.write_text(FILE, encoding="utf-8")
    lib = Library.open(tmp_path / f"{layout}.sqlite")
    lib.import_paths([path])
    if layout == "whole":  # the rows as an older PaperDesk wrote them, into the library
        for pid, text in enumerate(OLD_SOURCES, 1):
            lib.db.execute("UPDATE papers SET bib_source = ? WHERE id = ?", [text, pid])
    return lib


def test_a_new_entry_keeps_a_digest_of_its_abstract_not_the_abstract(lib, tmp_path):
    path = tmp_path / "refs.bib"
    path.write_text(FILE, encoding="utf-8")
    lib.import_paths([path])
    rows = lib.db.execute("SELECT abstract, bib_source FROM papers ORDER BY id").fetchall()
    (abstract, text), (blank, bare) = rows
    assert (abstract, blank) == (ABSTRACT, "")
    seen = json.loads(text)["seen"]
    assert "abstract" not in seen and seen[DIGEST] == abstract_digest(ABSTRACT)
    assert len(seen[DIGEST]) == 16 and text.count("sparse models") == 1  # in fields only
    assert json.loads(bare)["seen"] == {  # a blank abstract: no digest at all
        "title": "No Abstract Here", "authors": [], "organization": None, "year": 2019,
        "published": None, "arxiv_id": None, "doi": None, "url": None, "tags": []}
    # the same as before, but for the seen abstract (and the entry's digest, which an
    # import into a library without .bib entries leaves out)
    old = [json.loads(t) for t in OLD_SOURCES]
    for new, before in zip((json.loads(text), json.loads(bare)), old, strict=True):
        before["seen"].pop("abstract")
        assert new.pop("sha", before["sha"]) == before.pop("sha")
        assert {**new, "seen": {k: v for k, v in new["seen"].items() if k != DIGEST}} == before
    assert len(text.encode()) < len(OLD_SOURCES[0].encode()) - len(ABSTRACT) + 30


@pytest.mark.parametrize("layout", ["digest", "whole"])
def test_unedited_edited_cleared_and_edited_back_export_as_before(tmp_path, layout):
    """Each layout: exactly what PaperDesk exported before abstract digests."""
    lib = _open(tmp_path, layout)
    try:
        assert ("abstract" in json.loads(lib.db.execute(
            "SELECT bib_source FROM papers WHERE id = 1").fetchone()[0])["seen"]) is (
                layout == "whole")
        assert lib.bibtex.export() == AS_WRITTEN
        lib.db.execute("UPDATE papers SET abstract = 'A new abstract.' WHERE id = 1")
        assert lib.bibtex.export() == EDITED
        lib.db.execute("UPDATE papers SET abstract = '' WHERE id = 1")
        assert lib.bibtex.export() == CLEARED
        lib.db.execute("UPDATE papers SET abstract = ? WHERE id = 1", [ABSTRACT + " "])
        assert lib.bibtex.export() == HEAD + (  # one space more is an edit
            "\tabstract = {We study O(n\\^{}2) sparse models --\n     Über results\\_on  "
            "data. },\n") + TAIL
        lib.db.execute("UPDATE papers SET abstract = ? WHERE id = 1", [ABSTRACT])
        assert lib.bibtex.export() == AS_WRITTEN  # edited back: as written again
        lib.db.execute("UPDATE papers SET abstract = 'Found later.' WHERE id = 2")
        assert lib.bibtex.export([2]).endswith(
            "@misc{bare,\n\ttitle = {No Abstract Here},\n\tyear = {2019},\n"
            "\tabstract = {Found later.}\n}\n")
    finally:
        lib.close()


def test_an_entry_merging_into_a_paper_keeps_the_digest_of_the_papers_abstract(
        seed_lib, tmp_path):
    """A paper that came from no .bib file takes the entry as its source; what was
    seen is the paper's abstract, which it keeps."""
    pid, abstract = seed_lib.db.execute(
        "SELECT id, abstract FROM papers WHERE abstract != '' ORDER BY id LIMIT 1").fetchone()
    seed_lib.db.execute("UPDATE papers SET arxiv_id = '2101.00001' WHERE id = ?", [pid])
    path = tmp_path / "merge.bib"
    path.write_text("@misc{byid, title = {Some Title}, eprint = {2101.00001},\n"
                    " archivePrefix = {arXiv}, abstract = {As the file has it.}}\n",
                    encoding="utf-8")
    assert seed_lib.import_paths([path])[0].merged == 1
    text, now = seed_lib.db.execute("SELECT bib_source, abstract FROM papers WHERE id = ?",
                                    [pid]).fetchone()
    seen = json.loads(text)["seen"]
    assert now == abstract and "abstract" not in seen
    assert seen[DIGEST] == abstract_digest(abstract)
    assert "\tabstract = {As the file has it.}" in seed_lib.bibtex.export([pid])
    seed_lib.db.execute("UPDATE papers SET abstract = 'Mine.' WHERE id = ?", [pid])
    assert "\tabstract = {Mine.}" in seed_lib.bibtex.export([pid])
