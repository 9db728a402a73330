"""CSL-JSON export and formatted references.

``tests/data/csl-data.json`` is ``schemas/input/csl-data.json`` of the Citation Style
Language's schema repository (MIT licence), the schema pandoc and Zotero's data follow.
``pandoc --citeproc`` runs on the export where pandoc is installed (CI installs it).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest

from paperdesk.core.bibtex import citation
from paperdesk.core.bibtex.csl_json import name
from tests.conftest import SEED_PAPERS

SCHEMA = json.loads((Path(__file__).parent.parent / "data" / "csl-data.json").read_text())


def _validate(items) -> None:
    jsonschema.Draft7Validator(SCHEMA).validate(items)


def _give(lib, paper_id: int, **fields) -> None:
    with lib.transaction():
        for column, value in fields.items():
            lib.db.execute(f"UPDATE papers SET {column} = ? WHERE id = ?", [value, paper_id])


def test_seed_library_export_follows_the_schema(seed_lib):
    items = json.loads(seed_lib.bibtex.export(style="csl-json", notes=True))
    _validate(items)
    keys = [r[0] for r in seed_lib.db.execute("SELECT citekey FROM papers ORDER BY id")]
    assert [i["id"] for i in items] == keys
    titles = [r[0] for r in seed_lib.db.execute("SELECT title FROM papers ORDER BY id")]
    assert [i["title"] for i in items] == titles
    assert all(i["type"] == "article" for i in items)
    org = seed_lib.db.execute("SELECT citekey, organization FROM papers "
                              "WHERE organization IS NOT NULL LIMIT 1").fetchone()
    assert next(i for i in items if i["id"] == org[0])["author"] == [{"literal": org[1]}]
    counted = seed_lib.db.execute("SELECT citekey FROM papers WHERE organization IS NULL "
                                  "AND author_count IS NOT NULL LIMIT 1").fetchone()[0]
    assert "author" not in next(i for i in items if i["id"] == counted)  # no invented names


def test_names_ids_dates_and_links(seed_lib):
    _give(seed_lib, 1, authors=json.dumps(["Ashish Vaswani", "Berg, Ludwig van der",
                                           "Jan van der Berg", "{OpenAI Team}", "Plato"]),
          arxiv_id="1706.03762", doi="10.48550/arXiv.1706.03762", published="2017-06-12",
          year=2017, year_inferred=0, citekey="vaswani2017")
    _give(seed_lib, 2, published=None, year=2024, year_inferred=1, url="https://example.org/p")
    seed_lib.curation.add_tags([1], ["to-cite", "nlp"])
    items = json.loads(seed_lib.bibtex.export([1, 2], style="csl-json"))
    _validate(items)
    first, second = items
    assert first["id"] == "vaswani2017"
    assert first["author"] == [
        {"family": "Vaswani", "given": "Ashish"}, {"family": "Berg", "given": "Ludwig van der"},
        {"family": "van der Berg", "given": "Jan"}, {"literal": "OpenAI Team"},
        {"literal": "Plato"}]
    assert first["issued"] == {"date-parts": [[2017, 6, 12]]}
    assert (first["number"], first["archive"], first["publisher"]) == (
        "1706.03762", "arXiv", "arXiv")
    assert first["DOI"] == "10.48550/arXiv.1706.03762"
    assert first["URL"] == "https://arxiv.org/abs/1706.03762"
    assert first["keyword"] == "nlp, to-cite"
    assert second["issued"] == {"date-parts": [[2024]], "circa": True}
    assert second["URL"] == "https://example.org/p" and "number" not in second


def test_entries_from_a_bib_file_keep_their_type_and_container(lib, tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text("""@article{knuth1984,
  author = {Donald E. Knuth},
  title = {Literate Programming},
  journal = {The Computer Journal},
  volume = {27}, number = {2}, pages = {97--111},
  year = {1984}, doi = {10.1093/comjnl/27.2.97}
}
""", encoding="utf-8")
    assert lib.import_paths([bib])[0].status == "imported"
    (item,) = json.loads(lib.bibtex.export(style="csl-json"))
    _validate([item])
    assert item["id"] == "knuth1984" and item["type"] == "article-journal"
    assert item["container-title"] == "The Computer Journal"
    assert (item["volume"], item["issue"], item["page"]) == ("27", "2", "97-111")
    assert item["author"] == [{"family": "Knuth", "given": "Donald E."}]


def test_ascii_and_empty_exports(seed_lib, tmp_path):
    _give(seed_lib, 1, authors=json.dumps(["Jürgen Müller"]))
    text = seed_lib.bibtex.export([1], style="csl-json", ascii=True)
    assert text.isascii() and json.loads(text)[0]["author"][0]["family"] == "Müller"
    assert seed_lib.bibtex.export(query="nosuchwordanywhere", style="csl-json") == "[]\n"
    out = tmp_path / "refs.json"
    assert seed_lib.bibtex.export_to(out, style="csl-json") == SEED_PAPERS
    _validate(json.loads(out.read_text(encoding="utf-8")))


def test_name_splitting():
    assert name("Ó Briain, Dara") == {"family": "Ó Briain", "given": "Dara"}
    assert name("Ludwig  van   Beethoven") == {"family": "van Beethoven", "given": "Ludwig"}


def test_citations_for_latex_and_pandoc(seed_lib):
    _give(seed_lib, 2, citekey="odd-key.")
    keys = citation.keys(seed_lib, [2, 1])
    assert keys[0] == "odd-key."
    assert citation.latex_cite(keys) == f"\\cite{{odd-key.,{keys[1]}}}"
    assert citation.pandoc_cite(keys) == f"[@{{odd-key.}}; @{keys[1]}]"
    assert citation.pandoc_cite([]) == "" and citation.latex_cite([]) == ""


def test_formatted_references_in_the_shipped_style(seed_lib):
    _give(seed_lib, 1, authors=json.dumps(["Ashish Vaswani", "Noam Shazeer"]),
          arxiv_id="1706.03762", published="2017-06-12", year=2017)
    title = seed_lib.paper(1)["title"]
    (plain,) = citation.references(seed_lib, [1])
    assert plain.startswith("[1] A. Vaswani and N. Shazeer, “" + title + "”")
    assert "Jun. 12, 2017" in plain and "arXiv: 1706.03762" in plain
    assert "https://arxiv.org/abs/1706.03762" in plain
    (html,) = citation.references(seed_lib, [1], html=True)
    assert "<i>arXiv</i>" in html
    two = citation.references(seed_lib, [1, 2])
    assert len(two) == 2 and seed_lib.paper(2)["title"] in two[1]


def _pandoc() -> str:
    found = shutil.which("pandoc")
    if found is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("pandoc is missing (CI installs it; see .ci/dev.py)")
        pytest.skip("pandoc is not installed")
    return found


def test_pandoc_citeproc_reads_the_export(seed_lib, tmp_path):
    pandoc = _pandoc()
    _give(seed_lib, 1, authors=json.dumps(["Ashish Vaswani", "Noam Shazeer"]),
          arxiv_id="1706.03762", published="2017-06-12", year=2017, citekey="vaswani2017")
    assert seed_lib.bibtex.export_to(tmp_path / "refs.json", style="csl-json") == SEED_PAPERS
    doc = tmp_path / "doc.md"
    doc.write_text("As shown [@vaswani2017].\n", encoding="utf-8")
    done = subprocess.run([pandoc, "--citeproc", "--bibliography", "refs.json", "-t", "plain",
                           "doc.md"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    title = seed_lib.paper(1)["title"]
    assert "(Vaswani and Shazeer 2017)" in done.stdout
    assert title in " ".join(done.stdout.split())
    assert "1706.03762" in done.stdout
