"""One GET to the Hub with hard limits: a total deadline, a size cap, and waits that stop.

``huggingface_hub``'s ``HfApi`` reads every answer whole through one client
shared by the whole process (``get_session()``), with no timeout; changing that
client would change it for every other user of the package in the process. So
PaperDesk keeps its own ``httpx2`` client (the HTTP package ``huggingface_hub``
itself is built on) and asks the same endpoints with it:

- the deadline is for the whole request (connect, headers, every byte of the
  body), not for one read: a server trickling a byte every second is cut at it;
- the answer is streamed and reading stops past ``max_bytes`` (a ``Content-Length``
  over it is refused before the body is read), so a huge answer costs at most
  the cap in memory;
- the transfer runs on a thread of its own while the asking thread waits in
  slices of ``SLICE`` seconds, looking at the cancel flag (and Ctrl-C reaching
  it) between them: nothing waits longer than that for the network. A transfer
  given up on is told to stop and ends at its next read;
- an answer whose ``Content-Length`` promised more than came is ``CutShort``;
- with ``into`` (a file open for writing), a successful (200) answer's body is
  written there as it comes rather than kept in memory (a PDF of up to 100 MB);
  the file is emptied before each answer is written, so a retry starts it afresh;
- a redirect is followed only to the Hub's own scheme, host and port (the
  ``HF_ENDPOINT`` it was asked at), at most ``MAX_REDIRECTS`` times and within the
  same deadline; a redirect anywhere else raises ``OffHost`` before anything is
  asked there, so no answer of another host is ever taken for the Hub's.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

from paperdesk import __version__

SLICE = 0.1  # seconds between looks at the cancel flag in every wait
USER_AGENT = f"PaperDesk/{__version__} (+https://github.com/paperdesk)"
MAX_REDIRECTS = 5  # on the Hub's own host (a moved path, an added slash)
REDIRECTS = frozenset({301, 302, 303, 307, 308})
_PORTS = {"http": 80, "https": 443}


class TooLarge(Exception):
    """The answer is larger than the cap; it was not read to its end."""


class CutShort(Exception):
    """The answer ended before the length its ``Content-Length`` promised."""


class DeadlineExceeded(Exception):
    """The whole request took longer than its deadline."""


class OffHost(Exception):
    """The Hub redirected to another scheme, host or port: not followed."""

    def __init__(self, target: str) -> None:
        super().__init__(target)
        self.target = target  # "scheme://host:port" of where it pointed


class TooManyRedirects(Exception):
    """More than MAX_REDIRECTS redirects on the Hub's host."""


# The refusals said the same way for every service (``hub.http_failure``).
REFUSALS = (TooManyRedirects, TooLarge, CutShort)


@dataclass(frozen=True)
class Answer:
    status: int
    headers: Mapping[str, str]
    body: bytes


def client(read_timeout: float) -> Any:
    """A client of PaperDesk's own (never huggingface_hub's shared one)."""
    import httpx2

    return httpx2.Client(timeout=httpx2.Timeout(read_timeout), follow_redirects=False,
                         headers={"user-agent": USER_AGENT, "accept": "application/json"})


def wait(seconds: float, stop: Callable[[], None]) -> None:
    """Sleep ``seconds`` in slices, calling ``stop()`` (which raises to end it) between."""
    end = time.monotonic() + max(0.0, seconds)
    while True:
        stop()
        left = end - time.monotonic()
        if left <= 0:
            return
        time.sleep(min(SLICE, left))


def origin(url: Any) -> tuple[str, str, int | None]:
    """(scheme, host, port) of ``url`` as the client reads it (its own URL parser, so
    what is compared is where it would connect), the port a scheme's default when it
    has none; ("", "", None) for a URL it cannot read."""
    import httpx2

    try:
        parsed = httpx2.URL(url)
    except (httpx2.InvalidURL, TypeError, ValueError):
        return "", "", None
    scheme = parsed.scheme.lower()
    return scheme, parsed.host.lower(), parsed.port or _PORTS.get(scheme)


def _shown(place: tuple[str, str, int | None]) -> str:
    scheme, host, port = place
    text = f"{scheme}://{host[:80]}" + (f":{port}" if port is not None else "")
    return text.encode("ascii", "backslashreplace").decode("ascii")


def get(http: Any, url: str, params: Mapping[str, Any] | None, *, deadline: float,
        max_bytes: int, stop: Callable[[], None], into: BinaryIO | None = None) -> Answer:
    """The answer to one GET, within ``deadline`` seconds and ``max_bytes`` bytes,
    redirects on the same host followed; raises DeadlineExceeded, TooLarge, OffHost,
    TooManyRedirects, the client's own errors, or what ``stop`` raises."""
    import httpx2

    ends = time.monotonic() + deadline
    home = origin(url)
    asked: Any = url
    for _ in range(MAX_REDIRECTS + 1):
        answer = _one(http, asked, params, ends, max_bytes, stop, into)
        location = answer.headers.get("location") if answer.status in REDIRECTS else None
        if not location:
            return answer
        try:  # the URL object itself goes out next: nothing parses it a second time
            asked, params = httpx2.URL(asked).join(location.strip()), None
        except (httpx2.InvalidURL, TypeError, ValueError):
            raise OffHost("an address that is not one") from None
        if origin(asked) != home or not home[1]:
            raise OffHost(_shown(origin(asked)))
    raise TooManyRedirects()


def _one(http: Any, url: Any, params: Mapping[str, Any] | None, ends: float,
         max_bytes: int, stop: Callable[[], None], into: BinaryIO | None) -> Answer:
    """One request and its answer, as it came (a redirect is not followed)."""
    box: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
    given_up = threading.Event()
    worker = threading.Thread(target=_transfer, name="hub-transfer", daemon=True,
                              args=(http, url, params, ends, max_bytes, given_up, box,
                                    into))
    worker.start()
    try:
        while True:
            try:
                ok, value = box.get(timeout=min(SLICE, max(0.001, ends - time.monotonic())))
            except queue.Empty:
                stop()
                if time.monotonic() >= ends:
                    raise DeadlineExceeded() from None
                continue
            if ok:
                return value
            raise value
    finally:
        given_up.set()


def _transfer(http: Any, url: Any, params: Mapping[str, Any] | None, ends: float,
              max_bytes: int, given_up: threading.Event,
              box: queue.SimpleQueue[tuple[bool, Any]], into: BinaryIO | None) -> None:
    import httpx2

    try:
        with http.stream("GET", url, params=params) as response:
            length = response.headers.get("content-length", "")
            promised = int(length) if length.isascii() and length.isdigit() else None
            if promised is not None and promised > max_bytes:
                raise TooLarge()
            sink = into if into is not None and response.status_code == 200 else None
            if sink is not None:
                sink.seek(0)
                sink.truncate()
            body = bytearray()
            count = 0
            try:
                for chunk in response.iter_bytes():
                    if given_up.is_set():
                        return
                    count += len(chunk)
                    if count > max_bytes:
                        raise TooLarge()
                    if sink is not None:
                        sink.write(chunk)
                    else:
                        body += chunk
                    if time.monotonic() >= ends:
                        raise DeadlineExceeded()
            except httpx2.RemoteProtocolError as exc:
                if promised is None or "complete message body" not in str(exc):
                    raise
                raise CutShort(f"{response.num_bytes_downloaded:,} of {promised:,} "
                               "bytes") from None
            # The length counts the bytes sent, compressed or not: so is this count.
            if promised is not None and response.num_bytes_downloaded < promised:
                raise CutShort(f"{response.num_bytes_downloaded:,} of {promised:,} bytes")
            if sink is not None:
                sink.flush()
            box.put((True, Answer(response.status_code, response.headers, bytes(body))))
    except BaseException as exc:  # handed to the asking thread, which decides
        box.put((False, exc))
