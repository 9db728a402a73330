"""Each record of a list the Hub answers stands alone: a malformed one is left out and
named in one warning line, and fails no paper but (in a search) one of its own title.

Every search answer and every day's list of the stand-in Hub ends with the same
broken records (wrong types, no id, a ``}`` in an id, a huge string, nested
junk, not an object at all), as a Hub serving one bad record would list it
wherever it ranks.
"""

from __future__ import annotations

import datetime as dt
import json

from tests.core.test_enrich import ABSTRACT, _add_paper, fast
from tests.fake_hub import list_item, record

DAY = "2025-06-02"


def _good(n: int) -> dict:
    return record(f"2502.{n:05d}", f"Batch Paper {n}", f"{ABSTRACT} {n}", [f"Au {n}"],
                  "2025-02-01", github=f"https://github.com/l/{n}")


def _broken() -> list:
    """Broken items, and (last) one that is malformed but is the record of paper 7."""
    wrong_types = list_item(_good(90))
    wrong_types["paper"]["authors"] = "Ann Lee, Bo Chen"        # text, not a list
    bad_date = list_item(_good(91))
    bad_date["paper"]["publishedAt"] = 20250201                  # a number, not a date
    no_id = list_item(_good(92))
    del no_id["paper"]["id"]
    huge = list_item(_good(93))
    huge["title"] = huge["paper"]["title"] = "Huge " * 100_000  # 500 kB of title
    nested = {"paper": {"paper": {"paper": [[[{}]]]}}, "title": [["x"]], "id": {"id": []}}
    bad_author = list_item(_good(94))
    bad_author["paper"]["authors"] = [{"name": {"first": "Ann"}}, {"name": "Bo Chen"}]
    org = list_item(_good(95))
    org["organization"] = "acme"                               # text, not an object
    mine = list_item(_good(7))
    mine["summary"] = mine["paper"]["summary"] = ["a list", "of lines"]
    return [wrong_types, bad_date, no_id, huge, nested, 42, "text", None, [], bad_author,
            org, mine]


def test_one_malformed_record_in_every_search_fails_only_the_paper_it_is(lib, hub):
    ids = [_add_paper(lib, f"Batch Paper {n}", abstract=f"{ABSTRACT} {n}") for n in range(34)]
    for n in range(34):
        hub.add(_good(n))
    hub.extra = _broken()
    before = lib.paper(ids[7])
    result = lib.enrich(hub=fast()).result
    assert sorted(result.completed) == sorted(set(ids) - {ids[7]})
    ((pid, _, why),) = result.failed
    assert pid == ids[7] and "its record '2502.00007' of this title: summary is a list" in why
    assert lib.paper(ids[7]) == before
    assert lib.paper(ids[3])["github"] == "https://github.com/l/3"
    warnings = result.warnings
    assert len(warnings) == len(set(warnings)) and all("\n" not in w for w in warnings)
    for named in ("'2502.00090'", "'2502.00091'", "titled 'Batch Paper 92'", "'2502.00093'",
                  "'2502.00094'", "'2502.00095'", "'2502.00007'"):
        (line,) = [w for w in warnings if w.startswith(f"the Hub's record {named} is ")]
        assert line.endswith("; left out")
    assert "title is 500,000 characters long, more than 2,000" in " ".join(warnings)
    assert sum(w.startswith("a Hub record without an id or a title is malformed")
               for w in warnings) == 2  # not an object; nested junk


def test_a_brace_in_an_id_fails_its_paper_and_no_other(lib, hub):
    ids = [_add_paper(lib, f"Batch Paper {n}", abstract=f"{ABSTRACT} {n}") for n in range(5)]
    for n in range(5):
        hub.add(_good(n))
    brace = _good(3)
    brace["id"] = "2502.0}{x"
    hub.extra = [list_item(brace)]
    hub.papers["2502.00003"]["title"] = "Batch Paper 3 elsewhere"  # the brace one is 3's
    result = lib.enrich(hub=fast()).result
    assert sorted(result.completed) == sorted(set(ids) - {ids[3]})
    ((pid, _, why),) = result.failed
    assert pid == ids[3] and "is not an arXiv id" in why
    assert lib.paper(ids[3])["arxiv_id"] is None


def test_a_day_with_broken_records_imports_the_others_and_names_each(lib, hub):
    for n in range(6):
        hub.add(_good(n), day=DAY)
    hub.extra = _broken()
    (report,) = lib.fetch_daily(dt.date.fromisoformat(DAY), hub=fast())
    assert (report.status, report.papers, report.completed) == ("imported", 6, 6)
    left_out = [w for w in report.warnings if w.endswith("; left out")]
    assert len(left_out) == len(_broken())
    assert all(w.startswith(f"daily papers of {DAY}") for w in left_out)
    assert f"daily papers of {DAY}, item 12: the Hub's record is malformed" in " ".join(
        left_out)  # 42: not an object, named by its place (after the six good ones)


def test_a_paper_record_with_a_broken_author_fails_that_paper_alone(lib, hub):
    ids = [_add_paper(lib, f"Batch Paper {n}", abstract=f"{ABSTRACT} {n}") for n in range(3)]
    for n in range(3):
        hub.add(_good(n))
    hub.papers["2502.00001"]["authors"].append(["not", "an", "author"])
    result = lib.enrich(hub=fast()).result
    assert sorted(result.completed) == [ids[0], ids[2]]
    ((pid, _, why),) = result.failed
    assert pid == ids[1] and "the Hub's answer is not the JSON it should be" in why


def test_from_list_reads_each_item_alone():
    from paperdesk.core.hub.hub_record import from_list

    items = [list_item(_good(1)), *_broken(), list_item(_good(2))]
    papers, broken = from_list(json.loads(json.dumps(items)))
    assert [p.arxiv_id for p in papers] == ["2502.00001", "2502.00002"]
    assert [b.place for b in broken] == list(range(2, 14))


def test_junk_in_what_paperdesk_never_reads_costs_the_paper_nothing(lib, hub):
    ids = [_add_paper(lib, f"Batch Paper {n}", abstract=f"{ABSTRACT} {n}") for n in range(3)]
    for n in range(3):
        hub.add(_good(n))
    junk = hub.papers["2502.00001"]  # what /api/papers/{id} (paper_info) adds
    junk["linkedModels"] = [{"junk": 1}, 42]
    junk["linkedDatasets"] = "none"
    junk["submittedBy"] = ["x"]
    junk["authors"][0]["user"] = ["not", "a", "user"]
    result = lib.enrich(hub=fast()).result
    assert sorted(result.completed) == ids and result.failed == []
    assert lib.paper(ids[1])["authors"] == ["Au 1"]
