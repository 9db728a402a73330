"""Asking a metadata service other than the Hub (arXiv, Crossref) politely.

One ``Service`` per service and process. Its requests take turns from its ``Pace``
(``pace.py``; arXiv's API and its PDFs share one, across processes too): one request
at a time (arXiv's terms for automated clients ask for a single connection), at least
``spacing`` seconds from the end of one answer to the next request, ``Retry-After``
honoured on 429 and 503 up to ``max_wait`` seconds (by the next request, in whichever
program), a User-Agent naming PaperDesk, a deadline and a size cap per
answer (``hub_http.get``), and every wait cancellable. A redirect is followed only on
the service's own scheme, host and port (``hub_http.get``): an answer must come from
the host PaperDesk asked. Each failure is one ``HubError``
line; "cannot be reached" is ``HubUnavailable``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, BinaryIO
from urllib.parse import urlsplit

from paperdesk.core.hub import hub_http
from paperdesk.core.hub.hub import HubError, http_failure
from paperdesk.core.hub.pace import ARXIV, Pace
from paperdesk.core.model.errors import Cancelled
from paperdesk.core.model.jobs import CancelFlag


@dataclass
class Service:
    """``name`` as messages say it, the base URL (``env`` overrides ``default``)."""

    name: str
    env: str
    default: str
    spacing: float = 3.0        # seconds between requests
    timeout: float = 30.0       # seconds for one whole request
    max_bytes: int = 10 * 2**20
    max_wait: float = 60.0      # the longest Retry-After honoured
    retries: int = 2            # after the first try, for 429 and 503
    accept: str = "*/*"
    pace: Pace | None = None    # None: a pace of its own, in this process only
    requests: int = 0
    _http: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.pace is None:
            self.pace = Pace(self.name.lower(), shared=False)

    @property
    def base(self) -> str:
        return (os.environ.get(self.env) or self.default).rstrip("/")

    def get(self, path: str, params: Mapping[str, Any] | None, what: str,
            cancel: CancelFlag | None = None,
            into: BinaryIO | None = None) -> hub_http.Answer | None:
        """The answer to one GET of ``base + path`` (None for a 404); ``into``: a
        successful answer's body is written there instead (``hub_http.get``)."""
        def stop() -> None:
            if cancel is not None and cancel.is_set():
                raise Cancelled(f"cancelled while waiting for {self.name}")

        assert self.pace is not None
        for attempt in range(self.retries + 1):
            # One connection: the turn is held until the answer is read whole; the
            # spacing runs from the end of one answer to the next request.
            with self.pace.turn(self.spacing, stop, self.max_wait) as turn:
                self.requests += 1
                answer = self._once(self.base + path, params, what, stop, into)
                wait = (_seconds(answer.headers.get("retry-after"))
                        if answer.status in (429, 503) else None)
                turn.retry_after = wait
            if wait is not None and wait <= self.max_wait and attempt < self.retries:
                continue  # the next turn waits for the Retry-After, then the spacing
            return self._checked(answer, what)
        raise HubError(f"{what}: no answer")  # not reached

    def _once(self, url: str, params: Mapping[str, Any] | None, what: str,
              stop: Any, into: BinaryIO | None = None) -> hub_http.Answer:
        import httpx2

        try:
            return hub_http.get(self._client(), url, params, deadline=self.timeout,
                                max_bytes=self.max_bytes, stop=stop, into=into)
        except (hub_http.DeadlineExceeded, httpx2.TimeoutException):
            raise HubError(f"{what}: {self.name} did not answer within "
                           f"{self.timeout:g} s") from None
        except hub_http.OffHost as exc:
            raise HubError(f"{what}: {self.name} sent PaperDesk to {exc.target}, another "
                           "host; not followed, nothing taken from it") from None
        except (*hub_http.REFUSALS, httpx2.HTTPError, OSError) as exc:
            raise http_failure(exc, what, self.name, self.base, self.max_bytes) from None

    def _checked(self, answer: hub_http.Answer, what: str) -> hub_http.Answer | None:
        status = answer.status
        if status == 404:
            return None
        if 300 <= status < 400:
            where = urlsplit(answer.headers.get("location", "")).netloc or "elsewhere"
            raise HubError(f"{what}: {self.name} sent PaperDesk to {where[:80]}; "
                           "not followed")
        if status == 429 or status == 503:
            raise HubError(f"{what}: {self.name} is busy or rate-limiting PaperDesk "
                           f"(HTTP {status}); try again later")
        if status >= 300 or status < 200:
            raise HubError(f"{what}: {self.name} answered HTTP {status}")
        return answer

    def _client(self) -> Any:
        import httpx2

        if self._http is None:
            self._http = httpx2.Client(
                timeout=httpx2.Timeout(min(10.0, self.timeout)), follow_redirects=False,
                headers={"user-agent": hub_http.USER_AGENT, "accept": self.accept})
        return self._http


def _seconds(value: str | None) -> float | None:
    value = (value or "").strip()
    return float(value) if value.isascii() and value.isdigit() and len(value) < 10 else None


# One of each per process: the spacing holds for every caller in it (arXiv's, for
# every PaperDesk program: its pace is shared with the PDFs and across processes).
ARXIV_API = Service("arXiv", "PAPERDESK_ARXIV_API", "https://export.arxiv.org/api/query",
                    accept="application/atom+xml", pace=ARXIV)
CROSSREF = Service("Crossref", "PAPERDESK_CROSSREF_API", "https://api.crossref.org",
                   spacing=1.0, accept="application/json")
