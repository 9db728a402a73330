"""`pdf index` and the pdf: queries of `list`, as a person at the terminal runs them:
`list 'pdf:"PHRASE"' --json` names the paper and the page."""

from __future__ import annotations

import json

from tests.command_line import paperdesk, paperdesk_process
from tests.pdf_files import write_pdf


def _ids(path) -> dict[str, int]:
    papers = json.loads(paperdesk("--library", path, "list", "--json", check_rc=0).stdout)
    return {p["title"]: p["id"] for p in papers}


def test_index_then_list_names_paper_and_page(small, tmp_path):
    ids = _ids(small)
    scaling, nobody = ids["Scaling Laws for Neural Language Models"], ids["A Paper Nobody Has"]
    one = write_pdf(tmp_path / "scaling.pdf", [["Introduction to the topic."],
                                               ["We find the compute frontier here."],
                                               ["The compute frontier again, on page three."]])
    two = write_pdf(tmp_path / "nobody.pdf", [["No frontier at all in this ef\ufb01cient text."]])
    paperdesk("--library", small, "pdf", "attach", scaling, one, check_rc=0)
    paperdesk("--library", small, "pdf", "attach", nobody, two, check_rc=0)

    before = paperdesk("--library", small, "list", 'pdf:"compute frontier"', check_rc=0)
    assert before.stdout == ""  # nothing indexed yet, and the command says so
    assert "the text of 2 PDF(s) is not indexed yet" in before.stderr

    done = paperdesk("--library", small, "pdf", "index", check_rc=0)
    assert done.stderr.strip() == "indexed 2 of 2 PDFs (4 pages); 0 were indexed already"
    again = paperdesk("--library", small, "pdf", "index", "--json", check_rc=0)
    assert json.loads(again.stdout) == {"attachments": 2, "indexed": 0, "pages": 0,
                                        "current": 2, "removed": 0, "failed": [], "missing": []}

    found = paperdesk("--library", small, "list", 'pdf:"compute frontier"', "--json",
                      check_rc=0)
    (paper,) = json.loads(found.stdout)
    assert paper["id"] == scaling
    listed = json.loads(paperdesk("--library", small, "pdf", "list", "--json",
                                  check_rc=0).stdout)
    (attachment,) = [a for a in listed if a["paper_id"] == scaling]
    assert [(h["attachment_id"], h["name"], h["page"]) for h in paper["pdf_hits"]] == [
        (attachment["id"], attachment["name"], 2), (attachment["id"], attachment["name"], 3)]
    assert paper["pdf_hits"][0]["snippet"] == "We find the [compute frontier] here."
    assert found.stderr == ""

    plain = paperdesk("--library", small, "list", "pdf:efficient", check_rc=0)
    assert "A Paper Nobody Has" in plain.stdout
    assert "p. 1 of A Paper Nobody Has.pdf: No frontier at all in this [efficient] text." \
        in plain.stdout
    assert [p["id"] for p in json.loads(paperdesk(
        "--library", small, "list", "has:pdf", "--json", check_rc=0).stdout)] in (
        [scaling, nobody], [nobody, scaling])
    # a query without pdf: words carries no pdf_hits
    assert "pdf_hits" not in json.loads(paperdesk(
        "--library", small, "list", "scaling", "--json", check_rc=0).stdout)[0]


def test_rebuild_in_a_process_of_its_own(small, tmp_path):
    ids = _ids(small)
    pdf = write_pdf(tmp_path / "a.pdf", [["marsupial words"]] * 3)
    paperdesk("--library", small, "pdf", "attach", next(iter(ids.values())), pdf, check_rc=0)
    first = paperdesk_process("--library", small, "pdf", "index", "--json", check_rc=0)
    assert json.loads(first.stdout)["pages"] == 3
    again = paperdesk_process("--library", small, "pdf", "index", "--rebuild", "--json",
                              check_rc=0)
    assert json.loads(again.stdout)["indexed"] == 1


def test_a_bad_pdf_query_is_one_line(small):
    bad = paperdesk("--library", small, "list", "pdf:", check_rc=1)
    assert bad.stderr.strip().startswith("paperdesk: ") and "\n" not in bad.stderr.strip()
    assert "pdf:" in bad.stderr
