"""Redirects: the Hub client never leaves the Hub's scheme, host and port.

The stand-in Hub listens on 127.0.0.1; a second server, on 127.0.0.2 (another
loopback address, so another host), holds every paper's record as a look-alike
would. A redirect there is refused with one line before anything is asked of it,
and nothing it could have answered reaches the library. A redirect on the Hub's
own host is followed, a few times at most.
"""

from __future__ import annotations

import datetime as dt

import pytest

from paperdesk.core.hub import hub_http
from paperdesk.core.hub.hub import HubError, HubUnavailable
from tests.core.test_enrich import ABSTRACT, _add_paper, fast
from tests.fake_hub import FakeHub, record

DAY = "2025-06-02"


@pytest.fixture
def elsewhere():
    """Another host, with every record the Hub should have had."""
    with FakeHub(host="127.0.0.2") as other:
        yield other


def _papers(lib, hubs, n=34):
    ids = [_add_paper(lib, f"Moved Paper {k}", abstract=f"{ABSTRACT} {k}") for k in range(n)]
    for k in range(n):
        for hub in hubs:
            hub.add(record(f"2502.{k:05d}", f"Moved Paper {k}", f"{ABSTRACT} {k}",
                           [f"Au {k}"], "2025-06-02"), day=DAY)
    return ids


def test_a_redirect_to_another_host_is_refused_and_nothing_is_taken(lib, hub, elsewhere):
    ids = _papers(lib, [elsewhere])
    hub.fail("/api/", 302, times=10**6, location=elsewhere.url)
    before = lib.papers(ids)
    result = lib.enrich(hub=fast()).result
    assert result.completed == [] and result.failed == []
    assert result.stopped.startswith(f"the Hub at {hub.url} redirected search ")
    assert result.stopped.endswith(f" to {elsewhere.url}, another host; not followed, "
                                   "nothing taken from it")
    assert elsewhere.requests == []
    assert lib.papers(ids) == before
    assert "\n" not in result.summary()


def test_a_fetch_redirected_to_another_host_fails_its_day_and_imports_nothing(lib, hub,
                                                                           elsewhere):
    _papers(lib, [elsewhere], n=3)
    hub.fail("/api/daily_papers", 307, times=10**6, location=elsewhere.url)
    (report,) = lib.fetch_daily(dt.date.fromisoformat(DAY), hub=fast())
    assert report.status == "failed" and report.digest_id is None
    assert report.error == (f"the Hub at {hub.url} redirected daily papers of {DAY} to "
                            f"{elsewhere.url}, another host; not followed, nothing taken "
                            "from it")
    assert elsewhere.requests == []
    assert lib.db.execute("SELECT count(*) FROM digests").fetchone()[0] == 0


@pytest.mark.parametrize("where", ["port", "scheme"])
def test_another_port_or_scheme_on_the_same_address_is_another_host(lib, hub, where):
    with FakeHub() as other_port:
        target = other_port.url if where == "port" else hub.url.replace("http:", "https:")
        hub.fail("/api/papers/2502.00001", 301, times=9, location=target)
        with pytest.raises(HubUnavailable, match="another host; not followed"):
            fast().paper("2502.00001")
        assert other_port.requests == []


@pytest.mark.parametrize("where", ["{other}", "//{host}", "http://{hub}@{host}",
                                   "http://{hub}\\@{host}", " {other}", "\t//{host}"])
def test_a_redirect_written_to_look_like_the_hub_is_still_another_host(hub, elsewhere,
                                                                      where):
    host = elsewhere.url.removeprefix("http://")
    location = where.format(other=elsewhere.url, host=host,
                            hub=hub.url.removeprefix("http://"))
    hub.fail("/api/papers/2502.00001", 302, times=9,
             headers={"Location": location + "/api/papers/2502.00001"})
    with pytest.raises(HubUnavailable, match=f"to {elsewhere.url}, another host"):
        fast().paper("2502.00001")
    assert elsewhere.requests == []


def test_a_redirect_on_the_hubs_own_host_is_followed(lib, hub):
    ids = _papers(lib, [hub], n=3)
    hub.fail("/api/papers/search", 301, times=1, location=hub.url)  # the same place again
    hub.fail("/api/papers/2502.00001", 308, times=1,
             headers={"Location": "/api/papers/2502.00001"})  # a relative one
    result = lib.enrich(hub=fast()).result
    assert sorted(result.completed) == ids and result.stopped is None
    assert hub.count("/api/papers/search") == 3 + 1
    assert hub.count("/api/papers/2502.00001") == 1 + 1


def test_a_redirect_loop_on_the_hubs_host_ends_after_a_few(lib, hub):
    hub.add(record("2502.00001", "Loop Paper", ABSTRACT, ["Au"], "2025-06-02"))
    hub.fail("/api/papers/2502.00001", 302, times=10**6, location=hub.url)
    with pytest.raises(HubError, match=f"redirected more than {hub_http.MAX_REDIRECTS} times"):
        fast().paper("2502.00001")
    assert hub.count("/api/papers/2502.00001") == hub_http.MAX_REDIRECTS + 1


@pytest.mark.parametrize(("url", "place"), [
    ("https://huggingface.co/api", ("https", "huggingface.co", 443)),
    ("HTTPS://HuggingFace.CO:443/x", ("https", "huggingface.co", 443)),
    ("http://127.0.0.1:8080/", ("http", "127.0.0.1", 8080)),
    ("http://127.0.0.1:99999/", ("http", "127.0.0.1", 99999)),
    ("http://[::1/", ("", "", None)),
    ("//elsewhere/", ("", "elsewhere", None)),
    ("http://127.0.0.1:5000@127.0.0.2:6000/", ("http", "127.0.0.2", 6000)),
    ("http://127.0.0.1:5000\\@127.0.0.2:6000/", ("http", "127.0.0.2", 6000)),
])
def test_origins_compare_scheme_host_and_port(url, place):
    assert hub_http.origin(url) == place
