"""Attaching PDFs typeset by pdflatex: their metadata (hyperref) and their first page
(an arXiv-style stamp, a DOI) name the paper; an arXiv id the library lacks is added
from a stand-in arXiv API, as ``add`` would."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdesk.core.db import papers_table
from paperdesk.core.pdf import store
from tests.fake_services import ArxivPaper, FakeServices
from tests.latex_build import latex, require_tools

pytestmark = pytest.mark.tex

DOCUMENT = r"""\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage[pdftitle={%(title)s},pdfauthor={%(authors)s},pdfsubject={%(subject)s}]{hyperref}
\begin{document}
\noindent %(stamp)s\par
\section*{%(title)s}
Known phrase on the first page.
\newpage Second page.
\newpage Third page.
\end{document}
"""


def typeset(folder: Path, name: str, *, title: str = "A Typeset Paper", authors: str = "",
            subject: str = "", stamp: str = "") -> Path:
    require_tools()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.tex").write_text(DOCUMENT % {
        "title": title, "authors": authors, "subject": subject, "stamp": stamp})
    latex(folder, f"{name}.tex")
    return folder / f"{name}.pdf"


def test_a_doi_in_the_metadata_names_the_paper(seed_lib, tmp_path):
    pid = seed_lib.search("scaling").ids[1]
    with seed_lib.edit("doi", ["papers"], [pid]):
        papers_table.set_columns(seed_lib.db, pid, {"doi": "10.5555/tex.meta.1"})
    pdf = typeset(tmp_path / "tex", "meta", subject="doi:10.5555/tex.meta.1",
                  authors="Ada Lovelace, Alan Turing")
    got = seed_lib.pdf.attach(None, pdf).result
    assert got["paper_id"] == pid and got["pages"] == 3 and not got["new_paper"]
    file = store.files_folder(seed_lib.path) / got["path"]
    assert file.read_bytes() == pdf.read_bytes()


def test_an_arxiv_stamp_on_the_first_page_names_the_paper(seed_lib, tmp_path):
    pid = seed_lib.search("scaling").ids[0]
    with seed_lib.edit("id", ["papers"], [pid]):
        papers_table.set_columns(seed_lib.db, pid, {"arxiv_id": "2001.08361"})
    pdf = typeset(tmp_path / "tex", "stamp", stamp=r"arXiv:2001.08361v1 [cs.LG] 23 Jan 2020")
    got = seed_lib.pdf.attach(None, pdf).result
    assert got["paper_id"] == pid and not got["new_paper"]


def test_an_arxiv_id_the_library_lacks_is_added_from_arxiv(lib, tmp_path, monkeypatch):
    from paperdesk.core.hub import service

    monkeypatch.setattr(service.ARXIV_API, "spacing", 0.0)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    paper = ArxivPaper("2310.06825", "Mistral 7B", "We introduce Mistral 7B.",
                       ["Albert Q. Jiang", "Arthur Mensch"], published="2023-10-10", version=2)
    pdf = typeset(tmp_path / "tex", "mistral", title="Mistral 7B (as typeset)",
                  stamp=r"arXiv:2310.06825v2 [cs.CL] 10 Oct 2023")
    with FakeServices() as fake:
        fake.arxiv[paper.arxiv_id] = paper
        for name, value in fake.env.items():
            monkeypatch.setenv(name, value)
        changes = lib.pdf.attach(None, pdf)
    got = changes.result
    row = lib.paper(got["paper_id"])
    assert got["new_paper"] and row["title"] == "Mistral 7B" and row["arxiv_id"] == "2310.06825"
    assert got["path"].startswith(row["uid"] + "/") and got["name"] == "Mistral 7B.pdf"
    lib.undo(changes.undo)
    assert lib.stats()["papers"] == 0 and lib.pdf.listing() == []
