"""paperdesk add against local stand-ins for arXiv's API, Crossref and the Hub."""

from __future__ import annotations

import itertools
import json

import pytest

from paperdesk.core.library import Library
from tests.command_line import paperdesk
from tests.fake_hub import record
from tests.fake_services import ArxivPaper, FakeServices, crossref_work

KAPLAN = ArxivPaper("2001.08361", "Scaling Laws for Neural Language Models",
                    "We study empirical scaling laws for language model performance on the "
                    "cross-entropy loss.", ["Jared Kaplan", "Sam McCandlish", "Tom Henighan"],
                    published="2020-01-23", version=1, journal_ref="arXiv preprint")
MISTRAL = ArxivPaper("2310.06825", "Mistral 7B",
                     "We introduce Mistral 7B, a 7-billion-parameter language model.",
                     ["Albert Q. Jiang", "Alexandre Sablayrolles", "Arthur Mensch"],
                     published="2023-10-10", version=2, doi="10.48550/arXiv.2310.06825")
OLD = ArxivPaper("hep-th/9901001", "A Large N Duality", "Old style ids still name papers.",
                 ["Zoë Ñúñez", "Łukasz Kaiser"], published="1999-01-04")
DOI = "10.1145/3292500.3330701"
WORK = crossref_work(DOI, "Optuna: A Next-generation Hyperparameter Optimization Framework",
                     [("Takuya", "Akiba"), ("Shotaro", "Sano"), ("Masanori", "Koyama")], 2019,
                     abstract="The purpose of this study is to introduce new design-criteria.")

FORMS = {  # each form, and the paper it names
    "2001.08361": KAPLAN, "arXiv:2001.08361v1": KAPLAN,
    "https://arxiv.org/abs/2001.08361v1": KAPLAN, "https://arxiv.org/pdf/2001.08361v1.pdf": KAPLAN,
    "https://arxiv.org/pdf/2310.06825": MISTRAL, "https://arxiv.org/html/2310.06825v2": MISTRAL,
    "https://huggingface.co/papers/2310.06825": MISTRAL, "hep-th/9901001": OLD,
    "arXiv:hep-th/9901001v1": OLD, DOI: WORK, f"doi:{DOI}": WORK,
    f"https://doi.org/{DOI}": WORK, f"https://dx.doi.org/{DOI.upper()}": WORK,
}


@pytest.fixture
def services(monkeypatch):
    """The stand-ins; arXiv's three seconds between requests are kept only by the test
    that checks them (every test here would otherwise wait for the one before)."""
    from paperdesk.core.hub import service

    monkeypatch.setattr(service.ARXIV_API, "spacing", 0.0)
    monkeypatch.setattr(service.CROSSREF, "spacing", 0.0)
    with FakeServices() as fake:
        fake.arxiv.update({p.arxiv_id: p for p in (KAPLAN, MISTRAL, OLD)})
        fake.works[DOI.lower()] = WORK
        yield fake


def _env(services, hub=None):
    return {**services.env, "HF_ENDPOINT": hub.url if hub else services.url + "/nohub",
            **({} if hub else {"HF_HUB_OFFLINE": "1"})}


def _papers(path):
    return json.loads(paperdesk("--library", path, "list", "--json", check_rc=0).stdout)


def test_every_form_gives_its_paper_with_its_authors_in_order_and_never_twice(tmp_path,
                                                                              services):
    path = tmp_path / "lib.sqlite"
    out = paperdesk("--library", path, "add", *FORMS, "--json", env=_env(services),
                    check_rc=0)
    items = json.loads(out.stdout)
    assert [i["input"] for i in items] == list(FORMS)
    assert [i["status"] for i in items].count("added") == 4
    papers = {p["id"]: p for p in _papers(path)}
    assert len(papers) == 4
    for item, paper in zip(items, FORMS.values(), strict=True):
        got = papers[item["paper_id"]]
        title = paper["title"][0] if isinstance(paper, dict) else paper.title
        assert got["title"] == title
        if isinstance(paper, ArxivPaper):
            assert got["authors"] == paper.authors and got["arxiv_id"] == paper.arxiv_id
            assert got["sources"]["authors"]["source"] == "arxiv"
        else:
            assert got["authors"] == ["Takuya Akiba", "Shotaro Sano", "Masanori Koyama"]
            assert got["doi"] == DOI and got["year"] == 2019
            assert got["sources"]["title"]["source"] == "crossref"
        # the key is made from what the service gave, never said to come from a .bib file
        assert got["sources"]["citekey"]["source"] == got["sources"]["title"]["source"]
    # one request to arXiv for every id, however many forms named them
    assert len(services.paths("/api/query")) == 1
    again = paperdesk("--library", path, "add", *FORMS, env=_env(services), check_rc=0)
    assert again.stderr.count("already in the library as ") == len(FORMS)
    assert len(_papers(path)) == 4


def test_a_paper_from_a_digest_is_that_paper_completed(tmp_path, services):
    path = tmp_path / "lib.sqlite"
    digest = tmp_path / "d.txt"
    digest.write_text("new\n\nGet trending papers in your email inbox!\n\nSubscribe\n\n"
                      "Daily Papers\n\nbyAK and the research community\n\nJan 24, 2020\n\n"
                      f"{KAPLAN.title}\n\n{KAPLAN.summary}\n\n  • 3 authors\n·\nJan 23, 2020 40\n",
                      encoding="utf-8")
    paperdesk("--library", path, "import", digest, check_rc=0)
    [before] = _papers(path)
    out = paperdesk("--library", path, "add", "https://arxiv.org/abs/2001.08361", "--json",
                    env=_env(services), check_rc=0)
    [item] = json.loads(out.stdout)
    assert item["paper_id"] == before["id"] and item["status"] == "completed"
    [after] = _papers(path)
    assert after["arxiv_id"] == "2001.08361" and after["authors"] == KAPLAN.authors


def test_offline_a_paper_is_kept_incomplete_and_completed_when_added_again(tmp_path, services):
    path = tmp_path / "lib.sqlite"
    away = {"PAPERDESK_ARXIV_API": "http://127.0.0.1:9/api/query",
            "PAPERDESK_CROSSREF_API": "http://127.0.0.1:9", "HF_HUB_OFFLINE": "1"}
    out = paperdesk("--library", path, "add", "2310.06825v2", DOI,
                    "https://openreview.net/forum?id=rJ4km2R5t7", env=away, check_rc=0)
    assert out.stderr.count("added incomplete: ") == 3
    assert "could not reach arXiv" in out.stderr
    papers = _papers(path)
    assert sorted(p["title"] for p in papers) == [
        "OpenReview rJ4km2R5t7", "arXiv:2310.06825v2", f"doi:{DOI}"]
    assert {p["sources"]["title"]["source"] for p in papers} == {"link"}
    assert {p["sources"]["citekey"]["source"] for p in papers} == {"link"}
    assert {p["url"] for p in papers} >= {"https://openreview.net/forum?id=rJ4km2R5t7"}
    later = paperdesk("--library", path, "add", "2310.06825", DOI, env=_env(services),
                      check_rc=0)
    assert later.stderr.count("completed: ") == 2
    titles = {p["title"]: p for p in _papers(path)}
    assert titles["Mistral 7B"]["authors"] == MISTRAL.authors
    assert titles[WORK["title"][0]]["year"] == 2019
    assert len(titles) == 3


def test_the_hub_adds_its_upvotes_and_links(tmp_path, services, server):
    server.add(record("2310.06825", "Mistral 7B", MISTRAL.summary, MISTRAL.authors,
                      "2023-10-10", upvotes=321, github="https://github.com/mistralai/src"))
    path = tmp_path / "lib.sqlite"
    paperdesk("--library", path, "add", "2310.06825", env=_env(services, server), check_rc=0)
    [paper] = _papers(path)
    assert paper["github"] == "https://github.com/mistralai/src"
    assert paper["sources"]["authors"]["source"] == "arxiv"
    assert server.count("/api/papers/2310.06825") == 1
    assert paper["upvotes"] == 321 and paper["sources"]["upvotes"]["source"] == "hf"
    assert paper["id"] in json.loads(paperdesk("--library", path, "list", "upvotes>300",
                                               "--json", check_rc=0).stdout)[0].values()
    shown = paperdesk("--library", path, "show", str(paper["id"]), check_rc=0).stdout
    assert ("arXiv https://arxiv.org/abs/2310.06825 · Hugging Face https://huggingface.co/"
            "papers/2310.06825 · DOI https://doi.org/10.48550/arXiv.2310.06825 · code "
            "https://github.com/mistralai/src") in shown
    assert "321 upvotes" in shown


def test_one_undo_takes_the_whole_add_back(tmp_path, services):
    path = tmp_path / "lib.sqlite"
    paperdesk("--library", path, "add", "2001.08361", DOI, env=_env(services), check_rc=0)
    with Library.open(path) as lib:
        changes = lib.add(["2310.06825", "hep-th/9901001"])
        assert lib.stats()["papers"] == 4
        lib.undo(changes.undo)
        assert lib.stats()["papers"] == 2
        lib.redo(changes.undo)
        assert lib.stats()["papers"] == 4


BAD = ["https://example.com/abs/2001.08361", "2001.083", "doi:10.1145/{x}", "x" * 10_000_000]


@pytest.mark.parametrize("text", BAD, ids=["other site", "malformed id", "brace", "10 MB"])
def test_bad_input_is_one_line_and_changes_nothing(tmp_path, services, text):
    path = tmp_path / "lib.sqlite"
    paperdesk("--library", path, "add", "2001.08361", env=_env(services), check_rc=0)
    before = path.read_bytes()
    out = paperdesk("--library", path, "add", "-", input=text + "\n", env=_env(services),
                    check_rc=1)
    assert len(out.stderr.strip().splitlines()) == 1 and len(out.stderr) < 400
    assert out.stdout == "" and len(_papers(path)) == 1
    assert path.read_bytes() == before


HOSTILE = {
    "entities": b'<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa">'
                b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><feed xmlns="http://www.w3.org/2005/'
                b'Atom"><entry><id>http://arxiv.org/abs/2001.08361v1</id><title>&b;</title>'
                b'</entry></feed>',
    "not xml": b"<html><body>Rate exceeded</body></html",
    "another root": b'<rss><channel><title>x</title></channel></rss>',
    "another paper": b'<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/'
                     b'abs/9999.99999v1</id><title>Other</title></entry></feed>',
}


@pytest.mark.parametrize("body", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_atom_answer_takes_nothing_from_it(tmp_path, services, body):
    path = tmp_path / "lib.sqlite"
    services.answer("/api/query", 200, body, headers={"Content-Type": "application/atom+xml"})
    out = paperdesk("--library", path, "add", "2001.08361", "--json", env=_env(services),
                    check_rc=0)
    [item] = json.loads(out.stdout)
    assert item["status"] == "added incomplete"
    [paper] = _papers(path)
    assert paper["title"] == "arXiv:2001.08361" and paper["authors"] == []


def test_a_hostile_crossref_answer_takes_nothing_from_it(tmp_path, services):
    path = tmp_path / "lib.sqlite"
    other = json.dumps({"message": crossref_work("10.1/other", "Other", [], 2000)}).encode()
    for body in (b"[" * 100_000, b"not json", other, b'{"message": "x"}'):
        services.answer("/works/", 200, body)
        out = paperdesk("--library", path, "add", DOI, "--json", env=_env(services),
                        check_rc=0)
        [item] = json.loads(out.stdout)
        assert item["status"] in ("added incomplete", "already in the library")
        assert item["status"] != "added incomplete" or "Crossref" in item["warnings"][0]
    [paper] = _papers(path)
    assert paper["title"] == f"doi:{DOI}"


def test_arxiv_is_asked_on_one_connection_three_seconds_apart_with_retry_after(
        tmp_path, monkeypatch):
    from paperdesk.core.hub import service

    service.ARXIV_API.pace.reset()  # the spacing from rest: earlier tests set it to 0
    with FakeServices() as fake:
        fake.arxiv.update({p.arxiv_id: p for p in (KAPLAN, MISTRAL)})
        fake.answer("/api/query", 429, b"slow down", headers={"Retry-After": "1"})
        path = tmp_path / "lib.sqlite"
        out = paperdesk("--library", path, "add", "2001.08361", env=_env(fake), check_rc=0)
        assert "added: " in out.stderr
        paperdesk("--library", path, "add", "2310.06825", env=_env(fake), check_rc=0)
        asked = [(began, ended) for began, ended, p in fake.log if p.startswith("/api/query")]
        assert len(asked) == 3  # the 429, its retry, the second add
        gaps = [b[0] - a[0] for a, b in itertools.pairwise(asked)]
        assert min(gaps) >= 3.0
        assert fake.most_at_once == 1
        assert all("paperdesk" in agent.lower() for agent in fake.agents)


def test_a_redirect_to_another_host_takes_nothing_from_it(tmp_path, services):
    with FakeServices(host="127.0.0.2") as elsewhere:
        elsewhere.arxiv[KAPLAN.arxiv_id] = KAPLAN
        services.answer("/api/query", 302, b"", headers={
            "Location": f"{elsewhere.url}/api/query?id_list=2001.08361"})
        path = tmp_path / "lib.sqlite"
        out = paperdesk("--library", path, "add", "2001.08361", "--json",
                        env=_env(services), check_rc=0)
        [item] = json.loads(out.stdout)
        assert item["status"] == "added incomplete"
        assert "another host; not followed" in item["warnings"][0]
        assert elsewhere.log == []
