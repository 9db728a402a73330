"""paperdesk pdf fetch and pdf auto-fetch against a local stand-in for arXiv (its API
and its PDFs: tests/fake_services.py). Never the internet."""

from __future__ import annotations

import itertools
import json
import signal
import subprocess
import time

import pytest

from paperdesk.core.library import Library
from tests.command_line import cli_command, cli_env, paperdesk
from tests.fake_services import ArxivPaper, FakeServices
from tests.made_pdfs import pdf_bytes
from tests.processes import hears_ctrl_c

ONE = ArxivPaper("2401.00001", "Attention Is Still All You Need", "A first abstract.",
                 ["Ada Lovelace"], version=2)
TWO = ArxivPaper("2401.00002", "Scaling Everything", "A second abstract.", ["Alan Turing"])
OFFLINE = {"HF_HUB_OFFLINE": "1"}


@pytest.fixture
def arxiv(monkeypatch):
    """The stand-in with two papers and their PDFs; the pace at rest, its spacing kept
    only by the tests that measure it."""
    from paperdesk.core.hub import arxiv_pdf, pace, service

    pace.ARXIV.reset()
    monkeypatch.setattr(service.ARXIV_API, "spacing", 0.0)
    monkeypatch.setattr(arxiv_pdf.ARXIV_PDF, "spacing", 0.0)
    with FakeServices() as fake:
        fake.arxiv.update({p.arxiv_id: p for p in (ONE, TWO)})
        fake.pdfs.update({"2401.00001v1": pdf_bytes("one v1"),
                          "2401.00001v2": pdf_bytes("one v2"),
                          "2401.00002v1": pdf_bytes("two v1")})
        yield fake


def _library(tmp_path, arxiv):
    path = tmp_path / "lib.sqlite"
    paperdesk("--library", path, "add", ONE.arxiv_id, TWO.arxiv_id,
              env={**arxiv.env, **OFFLINE}, check_rc=0)
    return path


def _attachments(path):
    with Library.open(path) as lib:
        return [dict(r) for r in lib.db.query(
            "SELECT paper_id, kind, path, source, source_url, arxiv_version, size "
            "FROM attachments ORDER BY id")]


def _leftovers(tmp_path):
    return [p.name for p in tmp_path.iterdir() if ".fetching-" in p.name]


def test_fetch_attaches_the_recorded_version(tmp_path, arxiv):
    path = _library(tmp_path, arxiv)
    out = paperdesk("--library", path, "pdf", "fetch", "Attention", env=arxiv.env, check_rc=0)
    assert "fetched: " in out.stderr and "(arXiv 2401.00001v2)" in out.stderr
    [row] = _attachments(path)
    assert row["source"] == "arxiv" and row["arxiv_version"] == 2
    assert row["source_url"] == f"{arxiv.url}/pdf/2401.00001v2"
    assert row["size"] == len(arxiv.pdfs["2401.00001v2"])
    assert arxiv.paths("/pdf/") == ["/pdf/2401.00001v2"]
    assert _leftovers(tmp_path) == []
    again = paperdesk("--library", path, "pdf", "fetch", "Attention", env=arxiv.env,
                      check_rc=0)
    assert "already has a PDF" in again.stderr
    assert arxiv.paths("/pdf/") == ["/pdf/2401.00001v2"]  # not asked again


def test_a_paper_without_a_recorded_version_gets_arxivs_current_one(tmp_path, arxiv):
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{s, title = {Scaling Everything}, eprint = {2401.00002}, "
                   "archiveprefix = {arXiv}}\n", encoding="utf-8")
    path = tmp_path / "lib.sqlite"
    paperdesk("--library", path, "import", bib, check_rc=0)
    out = paperdesk("--library", path, "pdf", "fetch", "--json", "Scaling", env=arxiv.env,
                    check_rc=0)
    [item] = json.loads(out.stdout)
    assert item["status"] == "fetched" and item["version"] == 1
    assert [p.split("?")[0] for p in arxiv.paths()] == ["/api/query", "/pdf/2401.00002v1"]
    assert _attachments(path)[0]["arxiv_version"] == 1


@pytest.mark.parametrize(("fault", "said"), [
    (dict(status=200, body=b"<html><body>Please wait</body></html>"), "is not a PDF"),
    (dict(status=200, body=pdf_bytes() * 4, cut=100), "was cut short"),
    (dict(status=429, body=b"", headers={"Retry-After": "600"}), "rate-limiting"),
])
def test_a_failed_pdf_is_one_line_and_nothing_is_kept(tmp_path, arxiv, fault, said):
    path = _library(tmp_path, arxiv)
    before = path.read_bytes()
    arxiv.answer("/pdf/", **fault, times=3)
    out = paperdesk("--library", path, "pdf", "fetch", "Attention", env=arxiv.env, check_rc=1)
    failed = [line for line in out.stderr.splitlines() if said in line]
    assert len(failed) == 1 and failed[0].startswith("  arXiv 2401.00001v2: ")
    assert _attachments(path) == []
    assert not (tmp_path / "lib.files").exists() or not any((tmp_path / "lib.files").rglob(
        "*.pdf"))
    assert _leftovers(tmp_path) == []
    assert path.read_bytes() == before


def test_arxiv_unreachable_stops_the_run_with_one_line(tmp_path, arxiv):
    path = _library(tmp_path, arxiv)
    away = {**arxiv.env, "PAPERDESK_ARXIV_PDF": "http://127.0.0.1:9/pdf"}
    out = paperdesk("--library", path, "pdf", "fetch", "1", "2", env=away, check_rc=1)
    assert out.stderr.count("could not reach arXiv") == 2  # the first paper's, the second's
    assert "No PDF fetched" in out.stderr
    assert _attachments(path) == []


def test_papers_without_an_arxiv_id_or_unknown_ids_are_said(tmp_path, arxiv):
    path = _library(tmp_path, arxiv)
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{b, title = {A Book Without Ids}}\n", encoding="utf-8")
    paperdesk("--library", path, "import", bib, check_rc=0)
    out = paperdesk("--library", path, "pdf", "fetch", "Book", env=arxiv.env, check_rc=0)
    assert "no arXiv id: " in out.stderr
    bad = paperdesk("--library", path, "pdf", "fetch", "999", env=arxiv.env, check_rc=1)
    assert bad.stderr.strip() == "paperdesk: no paper with id 999"
    assert arxiv.paths("/pdf/") == []


def test_without_a_query_the_to_read_papers_are_fetched(tmp_path, arxiv):
    path = _library(tmp_path, arxiv)
    out = paperdesk("--library", path, "pdf", "fetch", env=arxiv.env, check_rc=0)
    assert "no papers to fetch" in out.stderr and arxiv.paths("/pdf/") == []
    paperdesk("--library", path, "status", "2", "to-read", check_rc=0)
    paperdesk("--library", path, "pdf", "fetch", env=arxiv.env, check_rc=0)
    assert arxiv.paths("/pdf/") == ["/pdf/2401.00002v1"]


def test_auto_fetch_is_off_until_turned_on_then_to_read_fetches(tmp_path, arxiv):
    path = _library(tmp_path, arxiv)
    said = paperdesk("--library", path, "pdf", "auto-fetch", check_rc=0)
    assert "auto-fetch is off" in said.stderr
    paperdesk("--library", path, "status", "1", "to-read", env=arxiv.env, check_rc=0)
    assert arxiv.paths("/pdf/") == []
    paperdesk("--library", path, "pdf", "auto-fetch", "on", check_rc=0)
    with Library.open(path) as lib:
        assert lib.settings.get("fetch_to_read") is True
    out = paperdesk("--library", path, "status", "1", "2", "to-read", env=arxiv.env,
                    check_rc=0)
    assert "Fetched 2 PDFs" in out.stderr
    assert sorted(arxiv.paths("/pdf/")) == ["/pdf/2401.00001v2", "/pdf/2401.00002v1"]
    paperdesk("--library", path, "pdf", "auto-fetch", "off", check_rc=0)
    with Library.open(path) as lib:
        assert lib.settings.get("fetch_to_read") is False


def test_two_programs_fetching_at_once_keep_arxivs_pace(tmp_path, arxiv):
    """Two real `paperdesk pdf fetch` processes, one server: every request begins three
    seconds or more after the one before ended, and never two at once."""
    paths = []
    for n, paper in enumerate((ONE, TWO)):
        path = tmp_path / f"lib{n}.sqlite"
        paperdesk("--library", path, "add", paper.arxiv_id, env={**arxiv.env, **OFFLINE},
                  check_rc=0)
        paths.append(path)
    del arxiv.log[:]
    env = {**cli_env(), **arxiv.env}
    programs = [subprocess.Popen(cli_command("--library", path, "pdf", "fetch", "1"),
                                 env=env, stderr=subprocess.PIPE, text=True)
                for path in paths]
    for program in programs:
        _, err = program.communicate(timeout=120)
        assert program.returncode == 0, err
    asked = sorted((began, ended) for began, ended, _ in arxiv.log)
    assert len(asked) == 2
    assert asked[1][0] - asked[0][1] >= 3.0
    assert arxiv.most_at_once == 1
    assert all(len(_attachments(p)) == 1 for p in paths)


def test_add_and_pdf_fetch_at_once_share_arxivs_pace(tmp_path, arxiv):
    """`paperdesk add` (arXiv's API) beside `paperdesk pdf fetch` (its PDFs), two real
    processes: they take turns three seconds apart (issue 39's cross-process pace)."""
    fetching = _library(tmp_path, arxiv)
    del arxiv.log[:]
    env = {**cli_env(), **arxiv.env, **OFFLINE}
    programs = [subprocess.Popen(cli_command("--library", fetching, "pdf", "fetch", "1", "2"),
                                 env=env, stderr=subprocess.PIPE, text=True),
                subprocess.Popen(cli_command("--library", tmp_path / "other.sqlite", "add",
                                             ONE.arxiv_id), env=env, stderr=subprocess.PIPE,
                                 text=True)]
    for program in programs:
        _, err = program.communicate(timeout=120)
        assert program.returncode == 0, err
    asked = sorted((began, ended, path) for began, ended, path in arxiv.log)
    assert {p.split("?")[0] for *_, p in asked} == {"/api/query", "/pdf/2401.00001v2",
                                                    "/pdf/2401.00002v1"}
    assert min(b[0] - a[1] for a, b in itertools.pairwise(asked)) >= 3.0
    assert arxiv.most_at_once == 1


@pytest.mark.posix
def test_ctrl_c_while_waiting_for_arxiv_is_one_line(tmp_path, arxiv):
    path = _library(tmp_path, arxiv)
    arxiv.answer("/pdf/", 503, b"", headers={"Retry-After": "30"})
    program = subprocess.Popen(cli_command("--library", path, "pdf", "fetch", "1"),
                               env={**cli_env(), **arxiv.env}, stderr=subprocess.PIPE,
                               text=True, **hears_ctrl_c())
    deadline = time.monotonic() + 60
    while not arxiv.paths("/pdf/") and time.monotonic() < deadline:  # the 503: it waits
        time.sleep(0.05)
    program.send_signal(signal.SIGINT)
    _, err = program.communicate(timeout=60)
    assert program.returncode == 130
    assert "Traceback" not in err
    assert err.strip().splitlines() == ["No PDF fetched (1 not fetched); cancelled"]
    assert _attachments(path) == [] and _leftovers(tmp_path) == []
    assert len(arxiv.paths("/pdf/")) == 1  # the retry was never sent
