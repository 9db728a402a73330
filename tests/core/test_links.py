"""What a person pastes to add a paper: every form of arXiv id, link and DOI, and refusals."""

from __future__ import annotations

import pytest

from paperdesk.core.model.links import ARXIV, DOI, OPENREVIEW, LinkError, paper_links, parse

FORMS = [
    ("2401.12345", ARXIV, "2401.12345", None),
    ("2401.12345v2", ARXIV, "2401.12345", 2),
    ("arXiv:2401.12345", ARXIV, "2401.12345", None),
    ("arxiv: 2401.01234v3", ARXIV, "2401.01234", 3),
    ("hep-th/9901001", ARXIV, "hep-th/9901001", None),
    ("arXiv:hep-th/9901001v1", ARXIV, "hep-th/9901001", 1),
    ("math.GT/0309136", ARXIV, "math.GT/0309136", None),
    ("https://arxiv.org/abs/2401.12345", ARXIV, "2401.12345", None),
    ("https://arxiv.org/abs/2401.12345v4", ARXIV, "2401.12345", 4),
    ("http://export.arxiv.org/abs/hep-th/9901001", ARXIV, "hep-th/9901001", None),
    ("https://arxiv.org/pdf/2401.12345", ARXIV, "2401.12345", None),
    ("https://arxiv.org/pdf/2401.12345v2.pdf", ARXIV, "2401.12345", 2),
    ("https://www.arxiv.org/html/2401.12345v1/", ARXIV, "2401.12345", 1),
    ("arxiv.org/abs/2401.12345", ARXIV, "2401.12345", None),
    ("<https://arxiv.org/abs/2401.12345>", ARXIV, "2401.12345", None),
    ("https://huggingface.co/papers/2401.12345", ARXIV, "2401.12345", None),
    ("huggingface.co/papers/2401.12345#community", ARXIV, "2401.12345", None),
    ("10.1145/3292500.3330701", DOI, "10.1145/3292500.3330701", None),
    ("doi:10.18653/v1/2020.acl-main.463", DOI, "10.18653/v1/2020.acl-main.463", None),
    ("DOI: 10.1000/ABC", DOI, "10.1000/abc", None),
    ("https://doi.org/10.1145/3292500.3330701", DOI, "10.1145/3292500.3330701", None),
    ("https://dx.doi.org/10.1038/nature14539", DOI, "10.1038/nature14539", None),
    ("https://doi.org/10.1002/%28SICI%291097", DOI, "10.1002/(sici)1097", None),
    ("https://openreview.net/forum?id=rJ4km2R5t7", OPENREVIEW, "rJ4km2R5t7", None),
    ("https://openreview.net/pdf?id=rJ4km2R5t7", OPENREVIEW, "rJ4km2R5t7", None),
]


@pytest.mark.parametrize(("text", "kind", "value", "version"), FORMS)
def test_each_form_names_its_identifier(text, kind, value, version):
    link = parse(text)
    assert (link.kind, link.value, link.version) == (kind, value, version)


def test_a_link_gives_the_page_a_browser_opens():
    assert parse("2401.12345v2").url == "https://arxiv.org/abs/2401.12345v2"
    assert parse("doi:10.1038/nature14539").url == "https://doi.org/10.1038/nature14539"
    assert str(parse("hep-th/9901001")) == "arXiv:hep-th/9901001"


@pytest.mark.parametrize("text", [
    "", "   ", "foo", "2401.123", "2401.12345v", "https://example.com/abs/2401.12345",
    "https://arxiv.org/list/cs.CL/recent", "ftp://arxiv.org/abs/2401.12345",
    "https://huggingface.co/models/2401.12345", "https://openreview.net/forum?id=x",
    "https://openreview.net/group?id=ICLR.cc", "10.1145/{x}", "doi:10.1145/a b",
    "javascript:alert(1)", "https://arxiv.org.evil.example/abs/2401.12345",
    "https://doi.org/", "x" * 3000, "2401.12345\x1b[31m",
])
def test_anything_else_is_refused_in_one_line(text):
    with pytest.raises(LinkError) as caught:
        parse(text)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 400


def test_a_paper_opens_on_each_of_its_pages_once():
    paper = {"arxiv_id": "2310.06825", "doi": "10.48550/arXiv.2310.06825",
             "github": "https://github.com/mistralai/src", "project_page": "https://mistral.ai",
             "url": "https://arxiv.org/abs/2310.06825v2"}
    assert paper_links(paper) == [
        ("arXiv", "https://arxiv.org/abs/2310.06825"),
        ("Hugging Face", "https://huggingface.co/papers/2310.06825"),
        ("DOI", "https://doi.org/10.48550/arXiv.2310.06825"),
        ("code", "https://github.com/mistralai/src"), ("project page", "https://mistral.ai")]
    old = paper_links({"arxiv_id": "hep-th/9901001", "url": "https://example.org/x"})
    assert old == [("arXiv", "https://arxiv.org/abs/hep-th/9901001"),
                   ("page", "https://example.org/x")]
    assert paper_links({"arxiv_id": "x}", "github": "javascript:alert(1)"}) == []
