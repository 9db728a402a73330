"""Completing papers from a local stand-in for the Hugging Face Hub (loopback only)."""

from __future__ import annotations

import json
import socket

import pytest

from paperdesk.core.hub import hub_http
from paperdesk.core.hub.hub import Hub, Limits
from tests.fake_hub import record

ABSTRACT = ("We study how the loss of language models falls as a power of their size, "
            "their data and their compute, across seven orders of magnitude.")


def fast(**kw) -> Hub:
    return Hub(Limits(rate=1000, workers=4, timeout=kw.pop("timeout", 2.0),
                      backoff=0.01, **kw))


def _add_paper(lib, title, abstract=ABSTRACT, **fields):
    with lib.transaction() as db:
        from paperdesk.core.model.text import title_key

        pid = db.execute(
            "INSERT INTO papers (title, abstract, title_key, year, year_inferred, citekey, "
            "added, modified) VALUES (?, ?, ?, ?, ?, ?, '2026-01-01', '2026-01-01')",
            [title, abstract, title_key(title), fields.get("year", 2026),
             fields.get("year_inferred", 1), fields.get("citekey")]).lastrowid
    if fields.get("citekey") is None:
        from paperdesk.core.bibtex.citekey import refresh

        with lib.transaction() as db:
            refresh(db, [pid])
    return pid


def test_exact_match_fills_every_field_with_its_source(lib, hub):
    pid = _add_paper(lib, "Scaling Laws for Neural Language Models")
    hub.add(record("2001.08361", "Scaling Laws for Neural Language Models", ABSTRACT,
                   ["Jared Kaplan", "Sam McCandlish", "Tom Henighan"], "2020-01-23",
                   upvotes=42, github="https://github.com/openai/scaling",
                   project="https://scaling.example"))
    before = lib.paper(pid)["citekey"]
    changes = lib.enrich(hub=fast())
    paper = lib.paper(pid)
    assert paper["arxiv_id"] == "2001.08361"
    assert paper["authors"] == ["Jared Kaplan", "Sam McCandlish", "Tom Henighan"]
    assert (paper["published"], paper["year"], paper["year_inferred"]) == (
        "2020-01-23", 2020, False)
    assert paper["github"] == "https://github.com/openai/scaling"
    assert paper["project_page"] == "https://scaling.example"
    assert paper["hub_upvotes"] == 42
    assert paper["url"] == "https://arxiv.org/abs/2001.08361"
    assert {paper["sources"][f]["source"] for f in (
        "authors", "arxiv_id", "published", "year", "github", "project_page")} == {"hf"}
    assert paper["sources"]["title"]["source"] == "bib"  # no digest saw it
    assert paper["citekey"] == "kaplan2020scaling" != before
    result = changes.result
    assert result.completed == [pid] and result.requests == 2
    assert result.rekeyed == {pid: (before, "kaplan2020scaling")}


def test_look_alike_title_with_a_different_abstract_is_never_taken(lib, hub):
    pid = _add_paper(lib, "Attention Is All You Need")
    hub.add(record("1706.03762", "Attention is all you need!",
                   "A completely different paper about gardening and soil moisture.",
                   ["Someone Else"], "2017-06-12"))
    hub.add(record("2401.00002", "Attention Is All You Need For Tables", ABSTRACT,
                   ["Near Miss"], "2024-01-01"))
    before = lib.paper(pid)
    result = lib.enrich(hub=fast()).result
    assert lib.paper(pid) == before
    assert result.completed == [] and result.unsure[0][0] == pid
    assert "different abstract" in result.unsure[0][2]


def test_missing_paper_is_untouched_reported_and_retried(lib, hub):
    pid = _add_paper(lib, "A Paper The Hub Does Not Know")
    before = lib.paper(pid)
    first = lib.enrich(hub=fast()).result
    assert first.not_found == [(pid, "A Paper The Hub Does Not Know")]
    assert lib.paper(pid) == before
    hub.add(record("2402.00003", "A Paper The Hub Does Not Know", ABSTRACT, ["Ada Lovelace"],
                   "2024-02-01"))
    second = lib.enrich(hub=fast()).result
    assert second.completed == [pid] and lib.paper(pid)["authors"] == ["Ada Lovelace"]
    # A third run has nothing left to ask.
    third_hub = fast()
    third = lib.enrich(hub=third_hub).result
    assert third.asked == 0 and third_hub.requests == 0


def test_accented_names_and_particles_in_keys_and_export(lib, hub):
    pid = _add_paper(lib, "Particles in Names")
    other = _add_paper(lib, "Gaelic Names Matter", abstract=ABSTRACT + " Second.")
    hub.add(record("2403.00004", "Particles in Names", ABSTRACT,
                   ["Jan van der Berg", "Zoë Ñúñez"], "2024-03-04"))
    hub.add(record("2403.00005", "Gaelic Names Matter", ABSTRACT + " Second.",
                   ["Niamh Ó Briain", "José García Jr."], "2024-03-05"))
    lib.enrich(hub=fast())
    assert lib.paper(pid)["citekey"] == "berg2024particles"
    assert lib.paper(other)["citekey"] == "obriain2024gaelic"
    text = lib.bibtex.export([pid, other])
    assert "author = {van der Berg, Jan and Zoë Ñúñez}" in text
    assert "author = {Ó Briain, Niamh and García, Jr., José}" in text
    assert "eprint = {2403.00004}" in text and "archivePrefix = {arXiv}" in text
    assert "url = {https://arxiv.org/abs/2403.00004}" in text


def test_an_organisation_as_the_only_author(lib, hub):
    pid = _add_paper(lib, "DeepSeek-OCR: Contexts Optical Compression")
    hub.add(record("2510.18234", "DeepSeek-OCR: Contexts Optical Compression", ABSTRACT,
                   ["DeepSeek-AI"], "2025-10-21", organization=("deepseek-ai", "DeepSeek")))
    lib.enrich(hub=fast())
    paper = lib.paper(pid)
    assert paper["authors"] == ["DeepSeek-AI"] and paper["organization"] == "DeepSeek"
    assert paper["citekey"] == "deepseekai2025deepseek"
    assert "author = {{DeepSeek-AI}}" in lib.bibtex.export([pid])


@pytest.fixture
def waits(monkeypatch) -> list[float]:
    """The seconds of every wait the Hub client asks for (each still really waited)."""
    asked: list[float] = []
    real = hub_http.wait

    def counted(seconds: float, stop) -> None:
        asked.append(seconds)
        real(seconds, stop)

    monkeypatch.setattr(hub_http, "wait", counted)
    return asked


def test_429_with_retry_after_is_waited_out(lib, hub, waits):
    pid = _add_paper(lib, "Rate Limited Paper")
    hub.add(record("2404.00006", "Rate Limited Paper", ABSTRACT, ["Ann Lee"], "2024-04-01"))
    hub.fail("/api/papers/search", 429, times=1, headers={"Retry-After": "1"})
    result = lib.enrich(hub=fast()).result
    assert max(waits) >= 0.9  # it waited as told
    assert result.completed == [pid]
    assert hub.count("/api/papers/search") == 2


def test_429_asking_for_too_long_a_wait_fails_that_paper_only(lib, hub):
    pid = _add_paper(lib, "Rate Limited Paper")
    hub.add(record("2404.00006", "Rate Limited Paper", ABSTRACT, ["Ann Lee"], "2024-04-01"))
    hub.fail("/api/papers/search", 429, times=1, headers={"Retry-After": "3600"})
    before = lib.paper(pid)
    result = lib.enrich(hub=fast()).result
    assert lib.paper(pid) == before
    assert "HTTP 429" in result.failed[0][2] and "\n" not in result.failed[0][2]


def test_503_is_retried_and_then_reported(lib, hub):
    a = _add_paper(lib, "Server Error Paper")
    hub.add(record("2405.00007", "Server Error Paper", ABSTRACT, ["Bo Chen"], "2024-05-01"))
    hub.fail("/api/papers/2405.00007", 503, times=2)
    assert lib.enrich(hub=fast()).result.completed == [a]  # two 503s, then an answer
    b = _add_paper(lib, "Always Failing Paper")
    hub.add(record("2405.00008", "Always Failing Paper", ABSTRACT, ["Cy Dee"], "2024-05-02"))
    hub.fail("/api/papers/2405.00008", 503, times=99)
    before = lib.paper(b)
    result = lib.enrich(hub=fast()).result
    assert result.failed == [(b, "Always Failing Paper",
                              "paper 2405.00008: the Hub answered HTTP 503")]
    assert lib.paper(b) == before


def test_slow_response_times_out_and_the_rest_is_kept(lib, hub):
    slow = _add_paper(lib, "Slow Paper")
    quick = _add_paper(lib, "Quick Paper", abstract=ABSTRACT + " Quick.")
    hub.add(record("2406.00009", "Slow Paper", ABSTRACT, ["Dee Slow"], "2024-06-01"))
    hub.add(record("2406.00010", "Quick Paper", ABSTRACT + " Quick.", ["Ed Quick"],
                   "2024-06-02"))
    hub.fail("/api/papers/2406.00009", 0, times=99, delay=1.5)
    before = lib.paper(slow)
    result = lib.enrich(hub=fast(timeout=0.5, retries=1)).result
    assert result.completed == [quick]
    assert "did not answer within 0.5 s" in result.failed[0][2]
    assert lib.paper(slow) == before


def test_malformed_json_fails_that_paper_with_one_line(lib, hub):
    pid = _add_paper(lib, "Malformed Paper")
    hub.add(record("2407.00011", "Malformed Paper", ABSTRACT, ["Fay Bad"], "2024-07-01"))
    hub.fail("/api/papers/search", 200, times=1, body=b'{"not": "a list"')
    before = lib.paper(pid)
    result = lib.enrich(hub=fast()).result
    assert result.failed and "not the JSON it should be" in result.failed[0][2]
    assert lib.paper(pid) == before


def test_server_down_stops_the_run_with_one_line(lib, monkeypatch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    ids = [_add_paper(lib, f"Paper {n}", abstract=f"{ABSTRACT} {n}") for n in range(20)]
    before = lib.papers(ids)
    hub = fast()
    result = lib.enrich(hub=hub).result
    assert result.stopped and "could not reach the Hub" in result.stopped
    assert hub.requests < 10  # it stopped asking
    assert lib.papers(ids) == before


def test_offline_mode_asks_nothing(lib, hub, monkeypatch):
    _add_paper(lib, "Offline Paper")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    result = lib.enrich(hub=fast()).result
    assert "offline" in result.stopped and hub.requests == []


def test_one_run_is_one_undo_and_user_values_are_kept(lib, hub):
    ids = [_add_paper(lib, f"Undo Paper {w}", abstract=f"{ABSTRACT} {w}")
           for w in ("alpha", "beta", "gamma")]
    for n, w in enumerate(("alpha", "beta", "gamma")):
        hub.add(record(f"2408.0001{n}", f"Undo Paper {w}", f"{ABSTRACT} {w}",
                       [f"Author {w.title()}"], "2024-08-01"))
    lib.curation.set_year(ids[0], 2019)          # the user's year
    lib.bibtex.set_citekey(ids[1], "mine2024")  # the user's key
    before = lib.papers(ids)
    changes = lib.enrich(hub=fast())
    after = lib.papers(ids)
    assert all(p["arxiv_id"] for p in after)
    assert (after[0]["year"], after[0]["published"]) == (2019, before[0]["published"])
    assert after[0]["sources"]["year"]["source"] == "user"
    assert after[1]["citekey"] == "mine2024"
    assert after[2]["citekey"] == "gamma2024undo"
    lib.undo(changes.undo)
    assert lib.papers(ids) == before
    lib.redo(changes.undo)
    assert lib.papers(ids) == after


def test_frozen_keys_stay_and_provisional_keys_follow(lib, hub, tmp_path):
    a = _add_paper(lib, "Frozen Key Paper", abstract=ABSTRACT + " a")
    b = _add_paper(lib, "Provisional Key Paper", abstract=ABSTRACT + " b")
    hub.add(record("2409.00001", "Frozen Key Paper", ABSTRACT + " a", ["Kim Park"],
                   "2024-09-01"))
    hub.add(record("2409.00002", "Provisional Key Paper", ABSTRACT + " b", ["Kim Park"],
                   "2024-09-02"))
    lib.bibtex.export_to(tmp_path / "a.bib", [a])
    frozen = lib.paper(a)["citekey"]
    lib.enrich(hub=fast())
    assert lib.paper(a)["citekey"] == frozen and lib.paper(a)["authors"] == ["Kim Park"]
    assert lib.paper(b)["citekey"] == "park2024provisional"


def test_json_records_carry_the_new_fields(lib, hub):
    pid = _add_paper(lib, "Json Fields Paper")
    hub.add(record("2410.00001", "Json Fields Paper", ABSTRACT, ["Lee Json"], "2024-10-01",
                   github="https://github.com/a/b"))
    lib.enrich(hub=fast())
    paper = json.loads(json.dumps(lib.paper(pid)))
    assert {"arxiv_id", "url", "github", "project_page", "sources"} <= set(paper)
    assert paper["sources"]["authors"]["source"] == "hf"
    assert paper["sources"]["authors"]["at"][:4].isdigit()


def test_429_with_the_hubs_ratelimit_header_waits_for_its_reset(lib, hub, waits):
    pid = _add_paper(lib, "Rate Limited Paper")
    hub.add(record("2404.00006", "Rate Limited Paper", ABSTRACT, ["Ann Lee"], "2024-04-01"))
    hub.fail("/api/papers/search", 429, times=1,
             headers={"RateLimit": '"api";r=0;t=1', "RateLimit-Policy": '"fixed window";q=500'})
    assert lib.enrich(hub=fast()).result.completed == [pid]
    assert max(waits) >= 0.9


def test_a_record_without_an_id_is_malformed_not_a_crash(lib, hub):
    pid = _add_paper(lib, "Idless Paper")
    hub.add(record("2411.00001", "Idless Paper", ABSTRACT, ["Al Id"], "2024-11-01"))
    hub.fail("/api/papers/search", 200, times=1,
             body=b'[{"paper": {"title": "Idless Paper"}, "title": "Idless Paper"}]')
    before = lib.paper(pid)
    result = lib.enrich(hub=fast()).result
    assert "not the JSON it should be" in result.failed[0][2]
    assert lib.paper(pid) == before
