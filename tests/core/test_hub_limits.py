"""The Hub client's hard limits, against a hostile local stand-in for the Hub (loopback).

Slow-loris answers, 429 storms, malformed and out-of-range fields, invalid UTF-8,
newline-laden organisation names and records answered for the wrong paper: each
costs at most its own paper, never the run, and never more time than the deadline.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import threading
import time

import pytest

from paperdesk.core.hub.hub import HubError
from tests.core.test_enrich import ABSTRACT, _add_paper, fast
from tests.fake_hub import FakeHub, list_item, record
from tests.work import finishes

DAY = "2025-06-02"


def test_a_slow_loris_is_cut_at_the_deadline_of_the_whole_request(hub):
    # One byte a second: every read is quick, the request never ends by itself (600 s
    # for the whole body; a deadline per read would never fire).
    hub.fail("/api/papers/2501.00001", 200, times=9,
             body=b'{"id": "2501.00001"' + b" " * 580 + b"}", trickle=1.0)
    with pytest.raises(HubError, match="did not answer within 3 s"):
        finishes(lambda: fast(timeout=3.0).paper("2501.00001"))


def test_an_answer_cut_short_is_one_line(hub):
    body = json.dumps(record("2501.00002", "Cut Paper", ABSTRACT, ["Ada"], DAY)).encode()
    hub.fail("/api/papers/2501.00002", 200, body=body, cut=40)
    with pytest.raises(HubError, match=r"the Hub's answer was cut short \(40 of [0-9,]+ "
                                       r"bytes\); nothing kept"):
        finishes(lambda: fast().paper("2501.00002"))


def test_cancel_ends_a_429_storm_without_waiting_for_the_retry(lib, hub):
    ids = [_add_paper(lib, f"Storm Paper {n}", abstract=f"{ABSTRACT} {n}") for n in range(8)]
    # An hour's wait asked for, and honoured: only the cancel can end the run in time.
    hub.fail("/api/papers/search", 429, times=10**6, headers={"Retry-After": "3600"})
    before = lib.papers(ids)
    cancel = threading.Event()

    def press_cancel() -> None:
        while hub.count("/api/papers/search") < 1:
            time.sleep(0.01)
        time.sleep(0.3)  # inside the wait the Hub asked for
        cancel.set()

    presser = threading.Thread(target=press_cancel)
    presser.start()
    result = finishes(lambda: lib.enrich(hub=fast(max_wait=7200), cancel=cancel).result)
    presser.join()
    assert result.cancelled and result.completed == []
    assert lib.papers(ids) == before


def test_one_list_valued_github_fails_that_paper_and_the_rest_are_written(lib, hub):
    ids = [_add_paper(lib, f"Batch Paper {n}", abstract=f"{ABSTRACT} {n}") for n in range(34)]
    for n in range(34):
        github = ["https://github.com/a/b", "x"] if n == 17 else f"https://github.com/l/{n}"
        hub.add(record(f"2502.{n:05d}", f"Batch Paper {n}", f"{ABSTRACT} {n}", [f"Au {n}"],
                       "2025-02-01", github=github))
    before = lib.paper(ids[17])
    result = lib.enrich(hub=fast()).result
    assert len(result.completed) == 33 and ids[17] not in result.completed
    ((pid, _, why),) = result.failed
    assert pid == ids[17] and "githubRepo is a list, not text" in why and "\n" not in why
    assert lib.paper(ids[17]) == before
    assert lib.paper(ids[3])["github"] == "https://github.com/l/3"


def test_upvotes_out_of_range_are_refused_and_reported_the_rest_kept(lib, hub):
    values = {"Huge Upvotes Paper": 2**63, "Negative Upvotes Paper": -1,
              "Text Upvotes Paper": "12", "Fine Upvotes Paper": 2**63 - 1}
    ids = {}
    for n, (title, upvotes) in enumerate(values.items()):
        ids[title] = _add_paper(lib, title, abstract=f"{ABSTRACT} {n}")
        hub.add(record(f"2503.0000{n}", title, f"{ABSTRACT} {n}", ["Ann Lee"], "2025-03-01",
                       upvotes=upvotes))
    result = lib.enrich(hub=fast()).result
    assert sorted(result.completed) == sorted(ids.values())
    for title in ("Huge Upvotes Paper", "Negative Upvotes Paper", "Text Upvotes Paper"):
        paper = lib.paper(ids[title])
        assert paper["hub_upvotes"] is None and paper["authors"] == ["Ann Lee"]
    assert lib.paper(ids["Fine Upvotes Paper"])["hub_upvotes"] == 2**63 - 1
    assert len(result.warnings) == 3
    assert all("upvotes refused" in w for w in result.warnings)


@pytest.mark.parametrize("garbage", ["²", "soon, maybe", "99999999999999999999"])
def test_a_garbled_retry_after_means_the_default_back_off(lib, hub, garbage):
    pid = _add_paper(lib, "Rate Limited Paper")
    hub.add(record("2504.00006", "Rate Limited Paper", ABSTRACT, ["Ann Lee"], "2024-04-01"))
    hub.fail("/api/papers/search", 429, times=1, headers={"Retry-After": garbage})
    result = lib.enrich(hub=fast()).result
    assert result.completed == [pid] and result.failed == []
    assert hub.count("/api/papers/search") == 2


def _day(hub: FakeHub, papers: list[dict]) -> None:
    for paper in papers:
        hub.add(paper, day=DAY)


def _fetch(lib):
    (report,) = lib.fetch_daily(dt.date.fromisoformat(DAY), hub=fast())
    return report


def _titles(lib) -> list[str]:
    return [t for (t,) in lib.db.execute("SELECT title FROM papers ORDER BY title")]


def test_newlines_in_an_organisation_name_inject_no_papers(lib, hub):
    evil = ("evil\n\nInjected Fake Paper\n\nAn abstract that was never on the Hub.\n\n"
            "acme Acme\n·\nJun 1, 2025 99\n\nSecond Injected Paper")
    _day(hub, [record("2506.00001", "Honest Paper One", "Abstract one.", ["A B"], "2025-06-01"),
               record("2506.00002", "Honest Paper Two", "Abstract two.", ["C D"], "2025-06-01",
                      organization=(evil, evil.replace("evil", "Evil\r\x1b[2J\u2028"))),
               record("2506.00003", "Honest Paper Three", "Abstract three.", ["E F"],
                      "2025-06-01")])
    report = _fetch(lib)
    assert (report.status, report.papers, report.completed) == ("imported", 3, 3)
    assert _titles(lib) == ["Honest Paper One", "Honest Paper Three", "Honest Paper Two"]
    org, handle = lib.db.execute("SELECT organization, organization_handle FROM papers "
                                 "WHERE arxiv_id = '2506.00002'").fetchone()
    assert "\n" not in org + handle and "\x1b" not in org and "\u2028" not in org


def test_invalid_utf8_is_replaced_and_the_day_still_imported(lib, hub):
    papers = [record(f"2507.0000{n}", f"Byte Paper {n}", f"Abstract {n}.", ["A B"],
                     "2025-07-01", upvotes=2**63 if n == 1 else n) for n in range(3)]
    _day(hub, papers)
    body = json.dumps([list_item(p) for p in papers]).encode()
    hub.fail("/api/daily_papers", 200, times=1,
             body=body.replace(b"Byte Paper 2", b"Byte \xff\xfe Paper 2"))
    report = _fetch(lib)
    assert (report.status, report.papers) == ("imported", 3)
    assert "Byte \ufffd\ufffd Paper 2" in _titles(lib)
    assert any("upvotes refused" in w for w in report.warnings)


def test_fetch_matches_records_by_id_not_by_position(lib, hub):
    papers = [record(f"2508.0000{n}", f"Ordered Paper {n}", f"Abstract {n}.", [f"Author {n}"],
                     "2025-08-01") for n in range(6)]
    random.Random(7).shuffle(papers)
    _day(hub, papers)
    # The record asked for as 2508.00001 is another paper's: it must not be taken.
    hub.fail("/api/papers/2508.00001", 200, times=9,
             body=json.dumps(record("2508.00004", "Ordered Paper 4", "Abstract 4.",
                                    ["Author 4"], "2025-08-01")).encode())
    report = _fetch(lib)
    assert (report.status, report.papers, report.completed) == ("imported", 6, 6)
    rows = lib.db.execute("SELECT title, arxiv_id, authors FROM papers").fetchall()
    assert sorted(rows) == [(f"Ordered Paper {n}", f"2508.0000{n}",
                             json.dumps([f"Author {n}"])) for n in range(6)]
    assert any("answered with the record of '2508.00004'" in w for w in report.warnings)


@pytest.mark.parametrize(("body", "why"), [
    (b"[" * 100_000, "not the JSON it should be"),           # nested past the stack
    (b"[" + b"{}," * 600_000 + b"{}]", "more than 500,000 values"),  # 2 MB, 300 MB parsed
])
def test_answers_that_would_blow_up_when_parsed_fail_their_day_with_one_line(lib, hub, body,
                                                                            why):
    hub.fail("/api/daily_papers", 200, times=1, body=body)
    report = _fetch(lib)
    assert report.status == "failed" and why in report.error and "\n" not in report.error


def test_huggingface_hubs_shared_client_is_left_as_it_is(lib, hub):
    from huggingface_hub.utils import get_session

    shared = get_session()
    timeout, hooks = shared.timeout, dict(shared.event_hooks)
    pid = _add_paper(lib, "Shared Client Paper")
    hub.add(record("2509.00001", "Shared Client Paper", ABSTRACT, ["Ann Lee"], "2025-09-01"))
    assert lib.enrich(hub=fast()).result.completed == [pid]
    assert get_session() is shared
    assert (shared.timeout, dict(shared.event_hooks)) == (timeout, hooks)
    assert timeout.read is None  # huggingface_hub's own default, not PaperDesk's


def test_a_stalled_hub_is_said_to_have_sent_nothing_for_the_read_timeout(hub):
    # Nothing at all for 3 s: the read timeout (0.5 s) ends the wait, not the deadline.
    hub.fail("/api/papers/2501.00001", 0, times=9, delay=3.0)
    with pytest.raises(HubError) as raised:
        fast(timeout=2.5, read_timeout=0.5, retries=0).paper("2501.00001")
    assert str(raised.value) == "paper 2501.00001: the Hub sent nothing for 0.5 s"
    assert hub.count("/api/papers/2501.00001") == 1
