"""The Hugging Face Hub's papers API, asked politely: bounded rate, retries, one-line errors.

Requests go through ``huggingface_hub`` (``HfApi.list_papers``, ``paper_info``,
``list_daily_papers``): it knows the endpoints and the JSON (``PaperInfo``), and
honours ``HF_ENDPOINT`` and ``HF_HUB_OFFLINE``. What it does not do for a
program that asks about thousands of papers, this module adds: a timeout on
every request (its client has none), a ceiling on requests per second shared by
all threads, HTTP 429 answered by waiting as long as ``Retry-After`` says (and
every thread waiting with it), 5xx and timeouts retried with back-off, and each
failure turned into a one-line ``HubError``; and its telemetry is off (it would
otherwise make a request of its own). The package is imported only when a
request is about to be made, so nothing else pays for it.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from email.utils import parsedate_to_datetime
from typing import Any

from paperdesk.core.model.errors import PaperDeskError

DEFAULT_ENDPOINT = "https://huggingface.co"


class HubError(PaperDeskError):
    """One request failed (after its retries); other papers may still be asked about."""


class HubUnavailable(HubError):
    """The Hub cannot be asked at all (offline mode, no connection): stop the run."""


@dataclass
class HubPaper:
    """What PaperDesk takes from a Hub paper record."""

    arxiv_id: str
    title: str
    abstract: str
    authors: list[str]
    published: str | None  # YYYY-MM-DD
    upvotes: int | None
    github: str | None
    project_page: str | None
    organization: str | None = None
    organization_handle: str | None = None


@dataclass
class Limits:
    """How hard PaperDesk may ask: requests per second, threads, waits and retries."""

    # Requests per second, all threads together. The Hub allows an anonymous
    # client 500 API requests per 5-minute window; 1.6/s stays under it.
    rate: float = 1.6
    workers: int = 4
    timeout: float = 10.0       # seconds for one request
    retries: int = 3            # after the first try, for 429, 5xx and timeouts
    max_wait: float = 60.0      # the longest Retry-After honoured (longer: give up)
    backoff: float = 1.0        # first back-off for 5xx and timeouts; doubles


DEFAULT_LIMITS = Limits()


def offline() -> bool:
    value = os.environ.get("HF_HUB_OFFLINE") or os.environ.get("TRANSFORMERS_OFFLINE") or ""
    return value.strip().lower() in {"1", "on", "yes", "true"}


def endpoint() -> str:
    return (os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")


@dataclass
class Hub:
    """A client for one run. ``requests`` counts what went out (retries included)."""

    limits: Limits = field(default_factory=lambda: DEFAULT_LIMITS)
    sleep: Callable[[float], None] = time.sleep
    requests: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _next_slot: float = 0.0
    _api: Any = None

    def _client(self) -> Any:
        if offline():
            raise HubUnavailable("offline: HF_HUB_OFFLINE is set, so nothing was asked")
        if self._api is None:
            # Its user-agent telemetry would ask the Hub for a registry of "agent
            # harnesses" and cache it under ~/.cache: a request nobody asked for.
            os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
            from huggingface_hub import HfApi, constants
            from huggingface_hub.utils import get_session

            constants.HF_HUB_DISABLE_TELEMETRY = True

            get_session().timeout = self.limits.timeout  # its default client never times out
            self._api = HfApi(endpoint=endpoint())
        return self._api

    def _wait_turn(self) -> None:
        """Keep to the rate: each request takes the next free slot, all threads together."""
        with self._lock:
            now = time.monotonic()
            slot = max(now, self._next_slot)
            self._next_slot = slot + 1.0 / self.limits.rate
            self.requests += 1
        if slot > now:
            self.sleep(slot - now)

    def _pause_all(self, seconds: float) -> None:
        with self._lock:
            self._next_slot = max(self._next_slot, time.monotonic() + seconds)

    def _call(self, what: str, fn: Callable[[Any], Any]) -> Any:
        api = self._client()
        from huggingface_hub.errors import HfHubHTTPError, OfflineModeIsEnabled

        delay = self.limits.backoff
        for attempt in range(self.limits.retries + 1):
            last = attempt == self.limits.retries
            self._wait_turn()
            try:
                return fn(api)
            except OfflineModeIsEnabled:
                raise HubUnavailable("offline: HF_HUB_OFFLINE is set, so nothing was "
                                     "asked") from None
            except HfHubHTTPError as exc:
                status = exc.response.status_code if exc.response is not None else 0
                if status == 404:
                    return None
                if status == 429:
                    wait = _retry_after(exc.response.headers) if exc.response is not None else None
                    wait = delay if wait is None else wait
                    if wait > self.limits.max_wait or last:
                        raise HubError(f"{what}: the Hub is rate-limiting PaperDesk (HTTP 429, "
                                       f"retry after {wait:g} s); try again later") from None
                    self._pause_all(wait)
                    delay *= 2
                    continue
                if status >= 500 and not last:
                    self.sleep(delay)
                    delay *= 2
                    continue
                raise HubError(f"{what}: the Hub answered HTTP {status}") from None
            except (ValueError, TypeError, KeyError, AttributeError):
                raise HubError(f"{what}: the Hub's answer is not the JSON it should "
                               "be") from None
            except Exception as exc:  # transport errors of whatever HTTP client it uses
                name = type(exc).__name__
                if "Timeout" in name:
                    if last:
                        raise HubError(f"{what}: the Hub did not answer within "
                                       f"{self.limits.timeout:g} s") from None
                    self.sleep(delay)
                    delay *= 2
                    continue
                if "Connect" in name or isinstance(exc, OSError):
                    raise HubUnavailable(f"cannot reach the Hub at {endpoint()} "
                                         f"({_first_line(exc)})") from None
                raise HubError(f"{what}: {name}: {_first_line(exc)}") from None
        raise HubError(f"{what}: no answer")  # not reached

    # -- the three questions ------------------------------------------------------

    def search(self, title: str, limit: int = 10) -> list[HubPaper]:
        """Papers whose title or text matches ``title`` (``/api/papers/search``)."""
        found = self._call(f"search {title[:40]!r}", lambda api: [
            _paper(p) for p in api.list_papers(query=title, limit=limit, token=False)])
        return found or []

    def paper(self, arxiv_id: str) -> HubPaper | None:
        """The record of one paper (``/api/papers/{id}``); None when the Hub has none."""
        return self._call(f"paper {arxiv_id}", lambda api: _paper(api.paper_info(arxiv_id)))

    def daily(self, day: date, page_size: int = 100) -> list[HubPaper]:
        """The daily papers of ``day`` (``/api/daily_papers?date=``), in the Hub's order."""
        out: list[HubPaper] = []
        for page in range(100):
            found = self._call(f"daily papers of {day.isoformat()}", lambda api, p=page: [
                _paper(info) for info in api.list_daily_papers(
                    date=day.isoformat(), p=p, limit=page_size, token=False)])
            out.extend(found or [])
            if not found or len(found) < page_size:
                break
        return out


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:120] if text else type(exc).__name__


_RESET = re.compile(r";\s*t=(\d+)")


def _retry_after(headers: Any) -> float | None:
    """Seconds to wait: ``Retry-After`` (seconds or a date), else the reset time ``t``
    of the Hub's ``RateLimit`` header."""
    value = headers.get("Retry-After") if headers is not None else None
    if not value:
        reset = _RESET.search(headers.get("RateLimit") or "") if headers is not None else None
        return float(reset.group(1)) if reset else None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _text(value: Any) -> str:
    return " ".join(str(value or "").split())


def _paper(info: Any) -> HubPaper:
    """A ``PaperInfo`` as PaperDesk's record; a malformed one raises ValueError."""
    arxiv_id = info.id
    if not isinstance(arxiv_id, str) or not arxiv_id.strip():
        raise ValueError("a paper without an id")
    authors = [_text(a.name) for a in (info.authors or []) if _text(a.name)]
    published = info.published_at.date().isoformat() if info.published_at else None
    org = info.organization
    return HubPaper(
        arxiv_id=arxiv_id.strip(), title=_text(info.title), abstract=_text(info.summary),
        authors=authors, published=published,
        upvotes=info.upvotes if isinstance(info.upvotes, int) else None,
        github=info.github_repo or None, project_page=info.project_page or None,
        organization=_text(getattr(org, "fullname", None) or getattr(org, "name", None))
        or None if org else None,
        organization_handle=getattr(org, "name", None) if org else None)
