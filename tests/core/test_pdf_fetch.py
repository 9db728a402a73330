"""Which version of which paper ``fetch_pdfs`` asks arXiv for, and what it never asks."""

from __future__ import annotations

import pytest

from paperdesk.core.db import papers_table
from paperdesk.core.hub import arxiv_pdf, pace, service
from paperdesk.core.hub.pdf_fetch import MAX_PAPERS, recorded_version
from paperdesk.core.model.errors import PaperDeskError
from tests.fake_services import ArxivPaper, FakeServices
from tests.made_pdfs import pdf_bytes


@pytest.mark.parametrize(("arxiv_id", "url", "expected"), [
    ("2401.00001v3", None, ("2401.00001", 3)),
    ("2401.00001", "http://arxiv.org/abs/2401.00001v2", ("2401.00001", 2)),
    ("2401.00001", "https://arxiv.org/pdf/2401.00001v4.pdf", ("2401.00001", 4)),
    ("2401.00001", "http://arxiv.org/abs/2401.99999v2", ("2401.00001", None)),  # another's
    ("2401.00001", "https://huggingface.co/papers/2401.00001", ("2401.00001", None)),
    ("hep-th/9901001v1", None, ("hep-th/9901001", 1)),
    ("solv-int/9901001", None, ("solv-int/9901001", None)),
    (None, "http://arxiv.org/abs/2401.00001v2", (None, None)),
])
def test_the_version_recorded(arxiv_id, url, expected):
    assert recorded_version(arxiv_id, url) == expected


@pytest.fixture
def fake(monkeypatch):
    pace.ARXIV.reset()
    monkeypatch.setattr(service.ARXIV_API, "spacing", 0.0)
    monkeypatch.setattr(arxiv_pdf.ARXIV_PDF, "spacing", 0.0)
    with FakeServices() as server:
        for key, value in server.env.items():
            monkeypatch.setenv(key, value)
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
        server.arxiv["2401.00001"] = ArxivPaper("2401.00001", "A Title", "An abstract.",
                                                ["A B"], version=1)
        server.pdfs["2401.00001v1"] = pdf_bytes()
        yield server


def test_an_id_that_is_no_arxiv_id_is_never_made_into_a_request(lib, fake):
    [item] = lib.add(["2401.00001"]).result.inputs
    with lib.transaction():
        papers_table.set_columns(lib.db, item.paper_id, {"arxiv_id": "../../admin?x=1"})
    [done] = lib.fetch_pdfs([item.paper_id]).result.papers
    assert done.status == "no arXiv id" and "is not an arXiv id" in done.why
    assert fake.paths("/pdf/") == []


def test_more_than_the_most_at_once_is_refused_before_anything_is_asked(lib, fake):
    [item] = lib.add(["2401.00001"]).result.inputs
    with pytest.raises(PaperDeskError, match=r"201 papers at once; fetch at most 200 PDFs"):
        lib.fetch_pdfs([item.paper_id, *range(10_000, 10_000 + MAX_PAPERS)])
    assert fake.paths("/pdf/") == [] and lib.pdf.of_paper(item.paper_id) == []
    lib.fetch_pdfs([item.paper_id] * (MAX_PAPERS + 1))  # one paper named many times is one
    assert fake.paths("/pdf/") == ["/pdf/2401.00001v1"]
