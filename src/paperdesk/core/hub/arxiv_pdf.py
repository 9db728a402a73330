"""One arXiv PDF: ``arxiv.org/pdf/IDvN``, the version asked for, into a file.

The base URL is ``$PAPERDESK_ARXIV_PDF`` when set (tests point it at a local server),
else ``https://arxiv.org/pdf``. The requests take their turns from the pace arXiv's
API keeps (``pace.ARXIV``): one connection and three seconds between requests for
every PaperDesk program on the computer, ``Retry-After`` honoured, a User-Agent
naming PaperDesk and its version (``hub_http.USER_AGENT``).

What comes back is untrusted. It is written as it comes into the file given (never
held whole in memory), and refused with one line, the file then worth nothing (the
caller deletes it), when it is larger than ``MAX_BYTES``, shorter than its
``Content-Length`` promised, slower than ``DEADLINE`` in all, or not a PDF at all
(it does not begin ``%PDF-``: arXiv's HTML page saying the PDF is being made, a
captcha, an error page).
"""

from __future__ import annotations

from pathlib import Path

from paperdesk.core.hub.hub import HubError
from paperdesk.core.hub.pace import ARXIV
from paperdesk.core.hub.service import Service
from paperdesk.core.model.jobs import CancelFlag

MAX_BYTES = 100 * 2**20   # the largest PDF taken
DEADLINE = 300.0          # seconds for one whole PDF (100 MB at a third of a MB a second)
MAGIC = b"%PDF-"

ARXIV_PDF = Service("arXiv", "PAPERDESK_ARXIV_PDF", "https://arxiv.org/pdf",
                    timeout=DEADLINE, max_bytes=MAX_BYTES, accept="application/pdf",
                    pace=ARXIV)


def pdf_url(arxiv_id: str, version: int, service: Service = ARXIV_PDF) -> str:
    """Where the PDF of ``arxiv_id`` version ``version`` is asked for."""
    return f"{service.base}/{arxiv_id}v{version}"


def download(arxiv_id: str, version: int, dest: Path, cancel: CancelFlag | None = None,
             service: Service = ARXIV_PDF) -> str:
    """Write the PDF of ``arxiv_id`` version ``version`` into ``dest`` (made or emptied);
    its URL. HubError (one line) when there is none or what came is not one; Cancelled
    when ``cancel`` is set. On failure ``dest`` holds nothing worth keeping."""
    what = f"arXiv {arxiv_id}v{version}"
    with open(dest, "wb") as out:
        answer = service.get(f"/{arxiv_id}v{version}", None, what, cancel, into=out)
    if answer is None:
        raise HubError(f"{what}: arXiv has no PDF of it (HTTP 404)")
    with open(dest, "rb") as written:
        head = written.read(1024)
    if not head.startswith(MAGIC):
        raise HubError(f"{what}: arXiv's answer is not a PDF ({_described(head)}); "
                       "nothing kept")
    return pdf_url(arxiv_id, version, service)


def _described(head: bytes) -> str:
    """What a body that is no PDF looks like, in a few words."""
    if not head:
        return "it is empty"
    lowered = head.lstrip().lower()
    if lowered.startswith((b"<!doctype html", b"<html")) or b"<html" in lowered[:200]:
        return "a web page"
    shown = head[:12].decode("ascii", "backslashreplace")
    return f"it begins {shown!r}"
