"""The Hugging Face Hub's papers API, asked politely and within hard limits.

The endpoints and the JSON are ``huggingface_hub``'s (``/api/papers/search``,
``/api/papers/{id}``, ``/api/daily_papers``, read by its ``PaperInfo``); it
also decides ``HF_ENDPOINT`` and ``HF_HUB_OFFLINE`` as it does. The requests
go out on a client of PaperDesk's own (``core/hub/hub_http.py``: a total
deadline per request, a cap on the size of an answer, every wait cancellable),
and this module adds what a program asking about thousands of papers needs: a
ceiling on requests per second shared by all threads, HTTP 429 answered by
waiting as long as ``Retry-After`` says (and every thread waiting with it), 5xx
retried with back-off (a request past its deadline is not: three in a
row stop the run), a redirect off the Hub's host refused (it stops the run:
nothing another host answers is taken as the Hub's), and each failure turned
into a one-line ``HubError``. Each record is checked field by field
(``core/hub/hub_record.py``), and in a list each alone: a malformed one is left
out and named, never taken for a failure of the whole answer.
The packages are imported only when a request is about to be made.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import date
from email.utils import parsedate_to_datetime
from typing import Any, NoReturn
from urllib.parse import quote

from paperdesk.core.hub import hub_http
from paperdesk.core.hub.hub_record import Broken, HubPaper, Malformed, from_json, from_list
from paperdesk.core.model.errors import Cancelled, PaperDeskError
from paperdesk.core.model.jobs import CancelFlag

__all__ = ["DEFAULT_LIMITS", "Broken", "Hub", "HubError", "HubPaper", "HubUnavailable",
           "Limits"]

DEFAULT_ENDPOINT = "https://huggingface.co"


class HubError(PaperDeskError):
    """One request failed (after its retries); other papers may still be asked about."""


class HubUnavailable(HubError):
    """The Hub cannot be asked at all (offline mode, no connection): stop the run."""


@dataclass
class Limits:
    """How hard PaperDesk may ask, and how long and how much it takes from one answer."""

    # Requests per second, all threads together. The Hub allows an anonymous
    # client 500 API requests per 5-minute window; 1.6/s stays under it.
    rate: float = 1.6
    workers: int = 4
    timeout: float = 30.0       # seconds for one whole request, every byte of it
    read_timeout: float = 10.0  # seconds without a byte before a read gives up
    max_bytes: int = 20 * 2**20  # the largest answer read (20 MB)
    retries: int = 3            # after the first try, for 429, 5xx and timeouts
    max_wait: float = 60.0      # the longest Retry-After honoured (longer: give up)
    backoff: float = 1.0        # first back-off for 5xx and timeouts; doubles


DEFAULT_LIMITS = Limits()
TIMEOUTS_TO_STOP = 3  # requests in a row past their deadline: the run stops


def offline() -> bool:
    value = os.environ.get("HF_HUB_OFFLINE") or os.environ.get("TRANSFORMERS_OFFLINE") or ""
    return value.strip().lower() in {"1", "on", "yes", "true"}


def endpoint() -> str:
    return (os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")


@dataclass
class Hub:
    """A client for one run. ``requests`` counts what went out (retries included).

    ``cancel`` (or ``stop()``) ends every wait of every thread within a tenth of a
    second with ``Cancelled``."""

    limits: Limits = field(default_factory=lambda: DEFAULT_LIMITS)
    cancel: CancelFlag | None = None
    requests: int = 0
    _timeouts_in_a_row: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stopped: threading.Event = field(default_factory=threading.Event)
    _next_slot: float = 0.0
    _http: Any = None

    def stop(self) -> None:
        """Every thread's wait ends now (Ctrl-C, a stopped run)."""
        self._stopped.set()

    def check(self) -> None:
        if self._stopped.is_set() or (self.cancel is not None and self.cancel.is_set()):
            raise Cancelled("cancelled while waiting for the Hub")

    def _client(self) -> Any:
        if offline():
            raise HubUnavailable("offline: HF_HUB_OFFLINE is set, so nothing was asked")
        with self._lock:
            if self._http is None:
                self._http = hub_http.client(min(self.limits.read_timeout,
                                                 self.limits.timeout))
        return self._http

    def _wait_turn(self) -> None:
        """Keep to the rate: each request takes the next free slot, all threads together."""
        with self._lock:
            now = time.monotonic()
            slot = max(now, self._next_slot)
            self._next_slot = slot + 1.0 / self.limits.rate
            self.requests += 1
        hub_http.wait(slot - now, self.check)

    def _pause_all(self, seconds: float) -> None:
        with self._lock:
            self._next_slot = max(self._next_slot, time.monotonic() + seconds)

    def _timed_out(self, what: str, *, quiet: bool) -> NoReturn:
        """A request past its deadline (``quiet``: past the read timeout, the wait for
        the next byte, which is the shorter one unless the deadline is shorter still)."""
        with self._lock:
            self._timeouts_in_a_row += 1
            many = self._timeouts_in_a_row >= TIMEOUTS_TO_STOP
        lim = self.limits
        text = (f"the Hub sent nothing for {lim.read_timeout:g} s"
                if quiet and lim.read_timeout < lim.timeout
                else f"the Hub did not answer within {lim.timeout:g} s")
        if many:
            raise HubUnavailable(f"could not reach the Hub at {endpoint()}: {text}, "
                                 f"{TIMEOUTS_TO_STOP} times in a row")
        raise HubError(f"{what}: {text}")

    def _get(self, what: str, path: str, params: dict[str, Any] | None = None) -> Any:
        """The JSON of one GET (None for a 404), retried as the limits say."""
        import httpx2

        http, lim = self._client(), self.limits
        delay = lim.backoff
        for attempt in range(lim.retries + 1):
            last = attempt == lim.retries
            self._wait_turn()
            try:
                answer = hub_http.get(http, endpoint() + path, params, deadline=lim.timeout,
                                      max_bytes=lim.max_bytes, stop=self.check)
            except hub_http.DeadlineExceeded:
                self._timed_out(what, quiet=False)  # not retried: a slow server stays slow
            except httpx2.TimeoutException:
                self._timed_out(what, quiet=True)
            except hub_http.OffHost as exc:
                raise HubUnavailable(f"the Hub at {endpoint()} redirected {what} to "
                                     f"{exc.target}, another host; not followed, nothing "
                                     "taken from it") from None
            except (*hub_http.REFUSALS, httpx2.HTTPError, OSError) as exc:
                raise http_failure(exc, what, "the Hub", endpoint(), lim.max_bytes) from None
            self._timeouts_in_a_row = 0
            status = answer.status
            if status == 404:
                return None
            if status == 429:
                wait = _retry_after(answer.headers)
                wait = delay if wait is None else wait
                if wait > lim.max_wait or last:
                    raise HubError(f"{what}: the Hub is rate-limiting PaperDesk (HTTP 429, "
                                   f"retry after {wait:g} s); try again later")
                self._pause_all(wait)
                delay *= 2
                continue
            if status >= 500 and not last:
                hub_http.wait(delay, self.check)
                delay *= 2
                continue
            if status >= 300:
                raise HubError(f"{what}: the Hub answered HTTP {status}")
            return _json(what, answer.body)
        raise HubError(f"{what}: no answer")  # not reached

    # -- the three questions ------------------------------------------------------

    def search(self, title: str, limit: int = 10) -> tuple[list[HubPaper], list[Broken]]:
        """Papers whose title or text matches ``title`` (``/api/papers/search``), and the
        listed records that were malformed (left out, each alone)."""
        what = f"search {title[:40]!r}"
        found = self._get(what, "/api/papers/search", {"q": title, "limit": limit})
        return from_list(_items(what, found))

    def paper(self, arxiv_id: str) -> HubPaper | None:
        """The record of one paper (``/api/papers/{id}``); None when the Hub has none.
        A record of another paper than the one asked for is refused."""
        what = f"paper {arxiv_id}"
        data = self._get(what, "/api/papers/" + quote(arxiv_id, safe=""))
        if data is None:
            return None
        record = _record(what, data)
        if record.arxiv_id != arxiv_id:
            raise HubError(f"{what}: the Hub answered with the record of "
                           f"{record.arxiv_id[:40]!r}; not taken")
        return record

    def daily(self, day: date, page_size: int = 100) -> tuple[list[HubPaper], list[str]]:
        """The daily papers of ``day`` (``/api/daily_papers?date=``), in the Hub's order,
        and one line for each item that was malformed (left out)."""
        out: list[HubPaper] = []
        problems: list[str] = []
        what = f"daily papers of {day.isoformat()}"
        for page in range(100):
            found = _items(what, self._get(what, "/api/daily_papers", {
                "date": day.isoformat(), "p": page, "limit": page_size}))
            papers, broken = from_list(found, page * page_size + 1)
            out += papers
            problems += [b.line(what) for b in broken]
            if len(found) < page_size:
                break
        return out, problems


# Parsed JSON costs far more memory than its text: 20 MB of "{}," is 550 MB of dicts.
# A day's page of 100 papers holds some 20,000 values; an answer with more than this
# many separators and containers is refused before it is parsed.
MAX_VALUES = 500_000


def _json(what: str, body: bytes) -> Any:
    """The answer's JSON; bytes that are not UTF-8 become U+FFFD."""
    if body.count(b",") + body.count(b"{") + body.count(b"[") > MAX_VALUES:
        raise HubError(f"{what}: the Hub's answer holds more than {MAX_VALUES:,} values; "
                       "not read")
    try:
        return json.loads(body.decode("utf-8", "replace"))
    except (ValueError, RecursionError):  # RecursionError: nested past Python's stack
        raise HubError(f"{what}: the Hub's answer is not the JSON it should be") from None


def _items(what: str, found: Any) -> list[Any]:
    if found is None:
        return []
    if not isinstance(found, list):
        raise HubError(f"{what}: the Hub's answer is not the JSON it should be")
    return found


def _record(what: str, data: Any) -> HubPaper:
    try:
        return from_json(data)
    except Malformed as exc:
        raise HubError(f"{what}: the Hub's answer is not the JSON it should be "
                       f"({exc})") from None


def http_failure(exc: BaseException, what: str, name: str, base: str,
                 max_bytes: int) -> HubError:
    """The one line for ``what``, asked of ``name`` at ``base``, when the request failed
    with ``exc``: one of ``hub_http.REFUSALS`` (too many redirects, an answer larger
    than ``max_bytes`` or shorter than it promised), no connection (HubUnavailable),
    or httpx's own error, its first line. Timeouts and redirects to another host are
    each caller's own to say."""
    import httpx2

    if isinstance(exc, hub_http.TooManyRedirects):
        return HubError(f"{what}: {name} redirected more than {hub_http.MAX_REDIRECTS} "
                        "times; not followed")
    if isinstance(exc, hub_http.TooLarge):
        return HubError(f"{what}: {name}'s answer is larger than {max_bytes / 2**20:g} MB; "
                        "not read")
    if isinstance(exc, hub_http.CutShort):
        return HubError(f"{what}: {name}'s answer was cut short ({exc}); nothing kept")
    if isinstance(exc, (httpx2.ConnectError, httpx2.UnsupportedProtocol, OSError)):
        return HubUnavailable(f"could not reach {name} at {base}: {first_line(exc)}")
    return HubError(f"{what}: {first_line(exc)}")


def first_line(exc: BaseException) -> str:
    """An error's first line, at most 120 characters (its type's name if it says nothing)."""
    text = str(exc).strip().splitlines()
    return text[0][:120] if text else type(exc).__name__


_RESET = re.compile(r";\s*t=([0-9]{1,9})(?![0-9])")
_SECONDS = re.compile(r"[0-9]{1,9}")


def _retry_after(headers: Any) -> float | None:
    """Seconds to wait: ``Retry-After`` (seconds or a date), else the reset time ``t``
    of the Hub's ``RateLimit`` header; None (the caller's back-off) for anything else."""
    value = (headers.get("Retry-After") or "").strip()
    if not value:
        reset = _RESET.search(headers.get("RateLimit") or "")
        return float(reset.group(1)) if reset else None
    if _SECONDS.fullmatch(value):
        return float(value)
    try:
        when = parsedate_to_datetime(value)
        return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError, OverflowError, IndexError):
        return None
