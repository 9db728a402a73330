"""paperdesk follow: arXiv categories' and authors' new papers come with Today, beside the
Hub's; a paper already in the library is one more sighting of it, never a second one."""

from __future__ import annotations

import datetime as dt
import json
from urllib.parse import unquote_plus

import pytest

from paperdesk.core.hub.hub import Hub, Limits
from paperdesk.core.hub.today import fetch_today
from paperdesk.core.library import Library
from tests.command_line import paperdesk
from tests.fake_hub import FakeHub
from tests.fake_services import ArxivPaper, FakeServices

TODAY = dt.date.today()


def _day(back: int) -> str:
    return (TODAY - dt.timedelta(days=back)).isoformat()


def _paper(n: int, back: int, cats=("cs.CL",), authors=("Ada Lovelace", "Chen Wei")):
    return ArxivPaper(f"2612.{n:05d}", f"Followed Paper Number {n}",
                      f"The abstract of followed paper {n}, about language.", list(authors),
                      published=_day(back), categories=list(cats))


@pytest.fixture
def services(monkeypatch):
    from paperdesk.core.hub import service

    monkeypatch.setattr(service.ARXIV_API, "spacing", 0.0)
    with FakeServices() as fake:
        for paper in (_paper(1, 1), _paper(2, 2), _paper(3, 3, authors=("Zoë Ñúñez",)),
                      _paper(4, 30), _paper(5, 1, cats=("math.GT",))):
            fake.arxiv[paper.arxiv_id] = paper
        for name, value in fake.env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
        yield fake


def _titles(path) -> list[str]:
    out = paperdesk("--library", path, "list", "--json", check_rc=0).stdout
    return sorted(p["title"] for p in json.loads(out))


def test_a_followed_category_brings_its_recent_papers_once(tmp_path, services):
    path = tmp_path / "lib.sqlite"
    digest = tmp_path / "d.txt"
    known = services.arxiv["2612.00002"]
    digest.write_text("new\n\nGet trending papers in your email inbox!\n\nSubscribe\n\n"
                      "Daily Papers\n\nbyAK and the research community\n\nJan 24, 2026\n\n"
                      f"{known.title}\n\n{known.summary}\n", encoding="utf-8")
    paperdesk("--library", path, "import", digest, check_rc=0)
    said = paperdesk("--library", path, "follow", "cs.CL", check_rc=0)
    assert said.stderr.strip() == "following cs.CL"
    out = paperdesk("--library", path, "follow", "--now", "--json", check_rc=0)
    [report] = json.loads(out.stdout)
    assert (report["status"], report["papers"], report["new_papers"]) == ("imported", 3, 2)
    assert _titles(path) == [f"Followed Paper Number {n}" for n in (1, 2, 3)]  # not 4: old
    with Library.open(path) as lib:
        (pid,) = lib.search('"Followed Paper Number 2"').ids
        paper = lib.paper(pid)
        assert len(paper["digests"]) == 2  # the digest's paper, seen again
        assert paper["authors"] == known.authors and paper["arxiv_id"] == "2612.00002"
        assert paper["sources"]["authors"]["source"] == "arxiv"
    again = paperdesk("--library", path, "follow", "--now", "--json", check_rc=0)
    assert json.loads(again.stdout)[0]["status"] == "nothing new"
    services.arxiv["2612.00009"] = _paper(9, 0)
    third = json.loads(paperdesk("--library", path, "follow", "--now", "--json",
                                 check_rc=0).stdout)
    assert (third[0]["papers"], third[0]["new_papers"]) == (1, 1)
    assert len(_titles(path)) == 4
    listed = paperdesk("--library", path, "follow", "--list", check_rc=0).stdout
    assert listed.startswith(f"category  cs.CL  (newest taken: {_day(0)})")


def test_an_author_is_followed_and_today_brings_both(tmp_path, services, monkeypatch):
    path = tmp_path / "lib.sqlite"
    paperdesk("--library", path, "--create", "follow", "--author", "Zoë  Ñúñez", check_rc=0)
    with FakeHub() as hub, Library.open(path) as lib:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        monkeypatch.delenv("HF_HUB_OFFLINE")
        result = fetch_today(lib, TODAY, hub=Hub(Limits(rate=500)))
        assert [lib.paper(i)["title"] for i in result.new_ids] == ["Followed Paper Number 3"]
        assert result.fresh == 1 and "Zoë Ñúñez: 1 new paper" in result.summary()
    assert any('au:"Zoë Ñúñez"' in unquote_plus(p) for p in services.paths("/api/query"))


@pytest.mark.parametrize("bad", ["cs CL}", "../etc", "x" * 200, "cat:cs.CL OR au:x"])
def test_what_cannot_be_followed_is_one_line_and_nothing_changes(tmp_path, services, bad):
    path = tmp_path / "lib.sqlite"
    paperdesk("--library", path, "--create", "follow", "cs.LG", check_rc=0)
    out = paperdesk("--library", path, "follow", "cs.CL", bad, check_rc=1)
    assert len(out.stderr.strip().splitlines()) == 1
    listed = paperdesk("--library", path, "follow", "--list", check_rc=0).stdout
    assert listed.count("\n") == 1  # cs.LG only: all or none


def test_unfollow_and_arxiv_unreachable(tmp_path, services, monkeypatch):
    path = tmp_path / "lib.sqlite"
    paperdesk("--library", path, "--create", "follow", "cs.CL", "math.GT", check_rc=0)
    gone = paperdesk("--library", path, "unfollow", "math.GT", "hep-th", check_rc=1)
    assert "no longer following math.GT" in gone.stderr and "hep-th was not followed" in gone.stderr
    monkeypatch.setenv("PAPERDESK_ARXIV_API", "http://127.0.0.1:9/api/query")
    failed = paperdesk("--library", path, "follow", "--now", check_rc=1)
    assert failed.stderr.startswith("cs.CL: could not reach arXiv")
    assert _titles(path) == []
