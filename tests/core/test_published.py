"""Published versions: ``paperdesk published`` asks stand-ins for DBLP and Semantic
Scholar (speaking their JSON) about preprints, shows what would change, records only
what is accepted (one candidate, or the one picked of several), and exports then write
the venue entry and keep ``eprint``; a frozen key never changes; hostile answers give
one line and change nothing."""

from __future__ import annotations

import json

import bibtexparser
import pytest

from paperdesk.core.hub import published
from paperdesk.core.hub.hub import Hub, Limits
from paperdesk.core.library import Library
from tests.command_line import paperdesk
from tests.fake_hub import FakeHub, populate_from
from tests.fake_scholarly import FakeScholarly, dblp_hit, s2_paper

CONF, JOURNAL, CORR = ("Conference and Workshop Papers", "Journal Articles",
                       "Informal and Other Publications")


@pytest.fixture
def preprints(seed_lib, monkeypatch, tmp_path):
    """The seed library completed from a stand-in Hub (arXiv ids for its papers), closed;
    (path, {name: (paper id, arXiv id, title)}) for four of them."""
    with FakeHub() as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        populate_from(seed_lib, hub)
        seed_lib.enrich(hub=Hub(Limits(rate=1000, workers=4)))
    rows = seed_lib.db.execute("SELECT id, arxiv_id, title FROM papers WHERE arxiv_id IS NOT "
                               "NULL AND authors != '[]' ORDER BY id LIMIT 4").fetchall()
    assert len(rows) == 4
    path = seed_lib.path
    seed_lib.close()
    for service in (published.DBLP, published.S2):  # the tests count, never wait
        monkeypatch.setattr(service, "spacing", 0.0)
    return path, dict(zip(("one", "two", "none", "other"), rows, strict=True))


@pytest.fixture
def scholarly(preprints, monkeypatch):
    path, papers = preprints
    _one_id, one_arxiv, one_title = papers["one"]
    _two_id, two_arxiv, two_title = papers["two"]
    _n, none_arxiv, none_title = papers["none"]
    with FakeScholarly() as fake:
        for name, value in fake.env.items():
            monkeypatch.setenv(name, value)
        # one: DBLP and Semantic Scholar name the same publication (the same DBLP key)
        fake.hits.append(dblp_hit(one_title, "NeurIPS", 2024, CONF, "conf/nips/Lovelace24",
                                  pages="5998-6008", doi="10.5555/nips.2024.1"))
        fake.hits.append(dblp_hit(one_title, "CoRR", 2023, CORR, "journals/corr/abs-1",
                                  volume=f"abs/{one_arxiv}"))
        fake.papers[one_arxiv] = s2_paper(one_arxiv, one_title,
                                          "Neural Information Processing Systems", 2024,
                                          dblp_key="conf/nips/Lovelace24")
        # two: a conference version and a journal version
        fake.hits.append(dblp_hit(two_title, "ICLR", 2024, CONF, "conf/iclr/Turing24"))
        fake.papers[two_arxiv] = s2_paper(two_arxiv, two_title, "Trans. Mach. Learn. Res.",
                                          2025, kind="journal", volume="2025")
        # none: only the preprint, in both
        fake.hits.append(dblp_hit(none_title, "CoRR", 2024, CORR, "journals/corr/abs-2"))
        fake.papers[none_arxiv] = s2_paper(none_arxiv, none_title, "arXiv.org", 2024,
                                           kind="journal")
        yield path, papers, fake


def _entries(path, tmp_path, name="refs.bib", style="bibtex"):
    out = tmp_path / name
    paperdesk("--library", path, "export", "-o", out, "--style", style, check_rc=0)
    return {e.key: e for e in bibtexparser.parse_string(out.read_text("utf-8")).entries}


def _recorded(path) -> list[tuple]:
    with Library.open(path) as lib:
        return lib.db.execute("SELECT paper_id, entry_type, venue, year, source "
                              "FROM published_versions ORDER BY paper_id").fetchall()


def test_looking_up_shows_what_would_change_and_changes_nothing(scholarly, tmp_path):
    path, papers, fake = scholarly
    before = path.read_bytes()
    done = paperdesk("--library", path, "published", "--ids",
                     ",".join(str(p[0]) for p in papers.values()), "--json", check_rc=0)
    found = {f["id"]: f for f in json.loads(done.stdout)}
    one = found[papers["one"][0]]
    assert [c["source"] for c in one["candidates"]] == ["dblp+s2"]  # one publication
    [merged] = one["candidates"]
    assert merged["entry_type"] == "inproceedings" and merged["year"] == 2024
    assert merged["venue"] == "Neural Information Processing Systems"  # the fuller name
    assert merged["pages"] == "5998-6008" and merged["doi"] == "10.5555/nips.2024.1"
    assert "booktitle = Neural Information Processing Systems" in merged["changes"]
    assert "eprint kept" in merged["changes"]
    two = found[papers["two"][0]]
    assert sorted((c["entry_type"], c["venue"]) for c in two["candidates"]) == [
        ("article", "Trans. Mach. Learn. Res."), ("inproceedings", "ICLR")]
    assert found[papers["none"][0]]["candidates"] == []  # CoRR and arXiv.org are preprints
    assert found[papers["other"][0]]["candidates"] == []
    # one DBLP search and one Semantic Scholar lookup a paper, nothing else
    assert sum(p.startswith("/search/publ/api") for p in fake.log) == 4
    assert sum(p.startswith("/graph/v1/paper/arXiv:") for p in fake.log) == 4
    assert _recorded(path) == [] and path.read_bytes() == before


def test_accept_records_the_only_candidate_and_asks_about_two(scholarly, tmp_path):
    path, papers, _fake = scholarly
    one_id, one_arxiv, _t = papers["one"]
    two_id = papers["two"][0]
    keys_before = {k: e.fields_dict["eprint"].value for k, e in
                   _entries(path, tmp_path, "first.bib").items() if "eprint" in e.fields_dict}
    done = paperdesk("--library", path, "published", "--ids", f"{one_id},{two_id}",
                     "--accept", check_rc=0)
    assert "1 recorded" in done.stderr and "1 with several candidates, not decided" in done.stderr
    assert "--pick ID:N" in done.stderr
    [(pid, kind, venue, year, source)] = _recorded(path)
    assert (pid, kind, year, source) == (one_id, "inproceedings", 2024, "dblp+s2")
    assert venue == "Neural Information Processing Systems"
    entries = _entries(path, tmp_path)
    # the keys froze at the first export and stayed
    assert {k: e.fields_dict["eprint"].value for k, e in entries.items()
            if "eprint" in e.fields_dict} == keys_before
    [entry] = [e for e in entries.values() if e.fields_dict.get("eprint") and
               e.fields_dict["eprint"].value == one_arxiv]
    fields = {k: f.value for k, f in entry.fields_dict.items()}
    assert entry.entry_type == "inproceedings"
    assert fields["booktitle"] == "Neural Information Processing Systems"
    assert fields["year"] == "2024" and fields["pages"] == "5998--6008"
    assert fields["doi"] == "10.5555/nips.2024.1" and fields["archivePrefix"] == "arXiv"
    assert "howpublished" not in fields and "month" not in fields
    with Library.open(path) as lib:  # two is still a preprint, until picked
        two_key = lib.paper(two_id)["citekey"]
    assert entries[two_key].entry_type == "misc"
    paperdesk("--library", path, "published", "--pick", f"{two_id}:2", check_rc=0)
    picked = [r for r in _recorded(path) if r[0] == two_id]
    with Library.open(path) as lib:
        finding = lib.published.find([two_id])[0][0]
        assert [r[2] for r in picked] == [finding.candidates[1].venue]
        assert lib.paper(two_id)["citekey"] == two_key
    biblatex = _entries(path, tmp_path, "b.bib", style="biblatex")
    assert biblatex[two_key].entry_type in ("article", "inproceedings")


def test_an_acceptance_is_one_undoable_edit(scholarly):
    path, papers, _fake = scholarly
    one_id = papers["one"][0]
    with Library.open(path) as lib:
        [finding], _stopped = lib.published.find([one_id])
        text_before = lib.bibtex.export([one_id])
        changes = lib.published.accept(one_id, finding.candidates[0])
        assert lib.published.of(one_id)["source"] == "dblp+s2"
        assert "@inproceedings{" in lib.bibtex.export([one_id])
        lib.undo(changes.undo)
        assert lib.published.of(one_id) is None
        assert lib.bibtex.export([one_id]) == text_before


@pytest.mark.parametrize("fault", ["html", "huge", "slow", "busy", "malformed", "tex"])
def test_hostile_answers_give_one_line_and_change_nothing(scholarly, monkeypatch, fault):
    path, papers, fake = scholarly
    one_id, one_arxiv, _title = papers["one"]
    both = ("/search/publ/api", "/graph/v1/paper/")
    if fault == "html":
        for prefix in both:
            fake.answer(prefix, 200, b"<!DOCTYPE html><html><body>Rate limited</body></html>",
                        headers={"Content-Type": "text/html"})
    elif fault == "huge":
        for prefix in both:
            fake.answer(prefix, 200, b"[" + b" " * (3 * 2**20) + b"]")
    elif fault == "slow":
        for service in (published.DBLP, published.S2):
            monkeypatch.setattr(service, "timeout", 0.5)
        for prefix in both:
            fake.answer(prefix, 200, b"{}", delay=1.5)
    elif fault == "busy":  # Retry-After longer than PaperDesk waits: not waited for
        for prefix in both:
            fake.answer(prefix, 429, b'{"message": "Too Many Requests"}',
                        headers={"Retry-After": "3600"})
    elif fault == "malformed":
        for prefix in both:
            fake.answer(prefix, 200, b'{"result": {"hits": {"hit": [{"info": ')
    else:  # LaTeX in the venue names
        fake.hits[0]["info"]["venue"] = "NeurIPS\\input{/etc/passwd}"
        fake.papers[one_arxiv]["publicationVenue"]["name"] = "X}, note = {\\write18{rm -rf ~}"
    done = paperdesk("--library", path, "published", "--ids", str(one_id), "--accept",
                     check_rc=0)
    problems = [line for line in done.stdout.splitlines() if line.startswith("\t! ")]
    assert len(problems) == 2, done.stdout  # one line for each service's answer
    assert all("\n" not in p and len(p) < 300 for p in problems)
    assert "Traceback" not in done.stderr and _recorded(path) == []
    assert "0 with a published version" in done.stderr


def test_a_retry_after_within_reason_is_honoured(scholarly):
    path, papers, fake = scholarly
    one_id = papers["one"][0]
    fake.answer("/graph/v1/paper/", 429, b"{}", headers={"Retry-After": "1"})
    paperdesk("--library", path, "published", "--ids", str(one_id), "--accept", check_rc=0)
    assert sum(p.startswith("/graph/v1/paper/") for p in fake.log) == 2  # asked again once
    assert [r[4] for r in _recorded(path)] == ["dblp+s2"]


def test_unreachable_services_say_so_in_one_line(preprints, monkeypatch):
    import socket

    path, _papers = preprints
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for name in ("PAPERDESK_DBLP_API", "PAPERDESK_S2_API"):
        monkeypatch.setenv(name, f"http://127.0.0.1:{port}")
    done = paperdesk("--library", path, "published", "--accept", check_rc=1)
    [line] = done.stderr.splitlines()
    assert "could not reach" in line and "nothing changed" in line
    assert _recorded(path) == []


def test_a_service_that_rate_limits_is_not_asked_again_in_the_run(scholarly):
    """429 with a Retry-After beyond what PaperDesk waits: that service rests for the
    rest of the run (each later paper says so in one line); the other is still asked."""
    path, papers, fake = scholarly
    fake.answer("/graph/v1/paper/", 429, b"{}", times=10, headers={"Retry-After": "3600"})
    ids = ",".join(str(p[0]) for p in papers.values())
    done = paperdesk("--library", path, "published", "--ids", ids, check_rc=0)
    assert sum(p.startswith("/graph/v1/paper/") for p in fake.log) == 1  # not waited for
    assert sum(p.startswith("/search/publ/api") for p in fake.log) == 4
    assert done.stdout.count("not asked: Semantic Scholar asked PaperDesk to wait") == 3
    assert _recorded(path) == []


@pytest.mark.tex
@pytest.mark.parametrize(("backend", "style"), [("bibtex", "plain"), ("bibtex", "plainnat"),
                                                 ("biber", "numeric")])
def test_the_accepted_venue_builds_and_prints(scholarly, tmp_path, backend, style):
    from tests import latex_build as tex

    tex.require_tools()
    path, papers, _fake = scholarly
    one_id, one_arxiv, _t = papers["one"]
    paperdesk("--library", path, "published", "--ids", str(one_id), "--accept", check_rc=0)
    folder = tmp_path / style
    folder.mkdir()
    paperdesk("--library", path, "export", "--ids", str(one_id), "-o", folder / "refs.bib",
              "--style", "biblatex" if backend == "biber" else "bibtex", check_rc=0)
    done = tex.build(folder, backend, style=style,
                     packages="natbib" if style == "plainnat" else "")
    assert not tex.complaints(done.backend), tex.complaints(done.backend)
    assert "Neural Information Processing Systems" in done.bbl
    assert "5998" in done.bbl and "6008" in done.bbl
    # plain prints no eprint of an @inproceedings: the venue is the citation there
    assert one_arxiv in done.bbl or (backend == "bibtex" and style == "plain")


def test_csl_json_gives_the_accepted_venue_too(scholarly, tmp_path):
    path, papers, _fake = scholarly
    one_id = papers["one"][0]
    paperdesk("--library", path, "published", "--ids", str(one_id), "--accept", check_rc=0)
    out = paperdesk("--library", path, "export", "--ids", str(one_id), "--format", "csl-json",
                    check_rc=0)
    [item] = json.loads(out.stdout)
    assert item["type"] == "paper-conference"
    assert item["container-title"] == "Neural Information Processing Systems"
    assert item["issued"] == {"date-parts": [[2024]]} and item["page"] == "5998-6008"
    assert item["DOI"] == "10.5555/nips.2024.1" and item["archive"] == "arXiv"
