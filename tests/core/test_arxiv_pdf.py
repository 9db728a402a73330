"""arXiv's PDFs against a local stand-in (tests/fake_services.py): the versioned URL,
the User-Agent, the pace shared with arXiv's API and with other programs (one
connection, three seconds apart, Retry-After), and every answer that is no PDF: one
line each, nothing kept. The spacing is a lower bound; nothing here times an upper one."""

from __future__ import annotations

import itertools
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from paperdesk import __version__
from paperdesk.core.hub import arxiv_api, arxiv_pdf, pace, service
from paperdesk.core.hub.hub import HubError
from paperdesk.core.model.errors import Cancelled
from tests.command_line import cli_env
from tests.fake_services import ArxivPaper, FakeServices
from tests.made_pdfs import pdf_bytes


@pytest.fixture
def fake(monkeypatch):
    """The stand-in, its addresses in the environment, the pace from rest."""
    pace.ARXIV.reset()
    with FakeServices() as server:
        for key, value in server.env.items():
            monkeypatch.setenv(key, value)
        yield server


def _arrivals(server: FakeServices, prefix: str = "/") -> list[float]:
    return sorted(began for began, _, p in server.log if p.startswith(prefix))


def test_the_pdf_of_the_recorded_version_is_asked_for_by_paperdesk(fake, tmp_path):
    fake.pdfs["2401.00001v2"] = body = pdf_bytes("v2")
    fake.pdfs["2401.00001v1"] = pdf_bytes("v1")
    dest = tmp_path / "a.pdf"
    url = arxiv_pdf.download("2401.00001", 2, dest)
    assert dest.read_bytes() == body
    assert url == f"{fake.url}/pdf/2401.00001v2"
    assert fake.paths() == ["/pdf/2401.00001v2"]
    assert fake.agents == [f"PaperDesk/{__version__} (+https://github.com/paperdesk)"]


def test_an_old_style_id_keeps_its_archive_in_the_path(fake, tmp_path):
    fake.pdfs["hep-th/9901001v1"] = pdf_bytes()
    arxiv_pdf.download("hep-th/9901001", 1, tmp_path / "a.pdf")
    assert fake.paths() == ["/pdf/hep-th/9901001v1"]


@pytest.mark.parametrize(("fault", "said"), [
    (dict(status=200, body=b"<!DOCTYPE html><html><body>PDF being made</body></html>",
          headers={"Content-Type": "text/html"}), "is not a PDF (a web page); nothing kept"),
    (dict(status=200, body=b""), "is not a PDF (it is empty); nothing kept"),
    (dict(status=200, body=b"GIF89a" + bytes(100)), "is not a PDF (it begins 'GIF89a"),
    (dict(status=200, body=pdf_bytes() * 20, cut=300), "was cut short (300 of"),
    (dict(status=404, body=b"<html>nope</html>"), "arXiv has no PDF of it (HTTP 404)"),
    (dict(status=500, body=b"oops"), "arXiv answered HTTP 500"),
])
def test_an_answer_that_is_no_pdf_is_one_line(fake, tmp_path, fault, said):
    fake.answer("/pdf/", **fault)
    with pytest.raises(HubError) as caught:
        arxiv_pdf.download("2401.00001", 1, tmp_path / "a.pdf")
    message = str(caught.value)
    assert said in message and message.startswith("arXiv 2401.00001v1: ")
    assert "\n" not in message


def test_a_pdf_past_the_cap_is_not_read_to_its_end(fake, tmp_path, monkeypatch):
    assert arxiv_pdf.MAX_BYTES == arxiv_pdf.ARXIV_PDF.max_bytes == 100 * 2**20
    monkeypatch.setattr(arxiv_pdf.ARXIV_PDF, "max_bytes", 2**20)
    fake.pdfs["2401.00001v1"] = pdf_bytes() + bytes(2**20)
    with pytest.raises(HubError, match=r"larger than 1 MB; not read"):
        arxiv_pdf.download("2401.00001", 1, tmp_path / "a.pdf")
    # No Content-Length to refuse it up front: the bytes are counted as they come.
    fake.answer("/pdf/", 200, pdf_bytes() + bytes(2**20), headers={"Content-Length": ""})
    with pytest.raises(HubError, match=r"larger than 1 MB"):
        arxiv_pdf.download("2401.00001", 1, tmp_path / "b.pdf")
    assert (tmp_path / "b.pdf").stat().st_size <= 2**20


def test_a_pdf_slower_than_its_deadline_is_given_up(fake, tmp_path, monkeypatch):
    monkeypatch.setattr(arxiv_pdf.ARXIV_PDF, "timeout", 1.0)
    fake.answer("/pdf/", 200, pdf_bytes(), trickle=0.05)  # a byte every 50 ms
    with pytest.raises(HubError, match=r"arXiv did not answer within 1 s"):
        arxiv_pdf.download("2401.00001", 1, tmp_path / "a.pdf")


def test_one_connection_three_seconds_apart_and_retry_after_honoured(fake, tmp_path):
    for n in (1, 2, 3):
        fake.pdfs[f"2401.0000{n}v1"] = pdf_bytes(str(n))
    fake.answer("/pdf/", 429, b"slow down", headers={"Retry-After": "4"})
    for n in (1, 2, 3):
        arxiv_pdf.download(f"2401.0000{n}", 1, tmp_path / f"{n}.pdf")
    asked = [(began, ended) for began, ended, _ in fake.log]
    assert len(asked) == 4  # the 429, its retry, two more
    gaps = [b[0] - a[1] for a, b in itertools.pairwise(asked)]  # end of one to the next
    assert gaps[0] >= 4.0 and min(gaps) >= 3.0
    assert fake.most_at_once == 1


def test_the_pdfs_and_the_api_share_one_pace(fake, tmp_path, monkeypatch):
    monkeypatch.setattr(service.ARXIV_API, "spacing", 3.0)
    fake.arxiv["2401.00001"] = ArxivPaper("2401.00001", "A title", "An abstract.", ["A B"])
    fake.pdfs["2401.00001v1"] = pdf_bytes()
    assert arxiv_api.lookup(["2401.00001"])["2401.00001"].version == 1
    arxiv_pdf.download("2401.00001", 1, tmp_path / "a.pdf")
    api, pdf = fake.log
    assert api[2].startswith("/api/query") and pdf[2].startswith("/pdf/")
    assert pdf[0] - api[1] >= 3.0


def test_a_retry_after_heard_by_the_api_holds_for_the_pdf_too(fake, tmp_path, monkeypatch):
    monkeypatch.setattr(service.ARXIV_API, "retries", 0)  # the API gives up at once
    fake.answer("/api/query", 503, b"busy", headers={"Retry-After": "5"})
    with pytest.raises(HubError, match="busy or rate-limiting"):
        arxiv_api.lookup(["2401.00001"])
    fake.pdfs["2401.00001v1"] = pdf_bytes()
    arxiv_pdf.download("2401.00001", 1, tmp_path / "a.pdf")
    (_, busy_end, _), (pdf_began, _, _) = fake.log
    assert pdf_began - busy_end >= 5.0


def test_the_wait_for_a_turn_is_cancelled(fake, tmp_path):
    fake.pdfs["2401.00001v1"] = fake.pdfs["2401.00002v1"] = pdf_bytes()
    arxiv_pdf.download("2401.00001", 1, tmp_path / "a.pdf")
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()  # during the three seconds' wait
    with pytest.raises(Cancelled):
        arxiv_pdf.download("2401.00002", 1, tmp_path / "b.pdf", cancel)
    assert fake.paths() == ["/pdf/2401.00001v1"]


def test_a_stamp_that_cannot_be_read_is_a_request_that_just_ended(fake, tmp_path):
    _, stamp = pace.ARXIV.paths()
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text("not a time")
    fake.pdfs["2401.00001v1"] = pdf_bytes()
    before = time.monotonic()
    arxiv_pdf.download("2401.00001", 1, tmp_path / "a.pdf")
    [(began, _, _)] = fake.log
    assert began - before >= 3.0
    assert len(stamp.read_text().split()) == 2  # rewritten whole: the end, the next


SCRIPT = """
import sys
from pathlib import Path
from paperdesk.core.hub import arxiv_pdf
for arxiv_id in sys.argv[2:]:
    arxiv_pdf.download(arxiv_id, 1, Path(sys.argv[1]) / (arxiv_id + ".pdf"))
"""


def test_two_programs_fetching_at_once_keep_three_seconds_apart(fake, tmp_path):
    ids = [f"2401.0000{n}" for n in range(1, 5)]
    for arxiv_id in ids:
        fake.pdfs[f"{arxiv_id}v1"] = pdf_bytes(arxiv_id)
    env = {**cli_env(), **fake.env}  # one data folder: the stamp and the lock are shared
    programs = [subprocess.Popen([sys.executable, "-c", SCRIPT, str(tmp_path), *pair],
                                 env=env, stderr=subprocess.PIPE, text=True)
                for pair in (ids[:2], ids[2:])]
    for program in programs:
        _, err = program.communicate(timeout=120)
        assert program.returncode == 0, err
    asked = sorted((began, ended) for began, ended, _ in fake.log)
    assert len(asked) == 4
    assert min(b[0] - a[1] for a, b in itertools.pairwise(asked)) >= 3.0
    assert fake.most_at_once == 1
    assert sorted(Path(p).name for p in tmp_path.glob("*.pdf")) == [i + ".pdf" for i in ids]
