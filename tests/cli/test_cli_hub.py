"""paperdesk enrich / fetch against a local stand-in for the Hub: exit codes, reports, requests."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

from paperdesk.core.library import Library
from tests.command_line import paperdesk
from tests.fake_hub import record


def test_enrich_json_report_then_a_rerun_asks_only_what_is_missing(small, server):
    server.add(record("2001.08361", "Scaling Laws for Neural Language Models",
                      "We study empirical scaling laws for language model performance.",
                      ["Jared Kaplan", "Sam McCandlish"], "2020-01-23"))
    env = {"HF_ENDPOINT": server.url}
    out = paperdesk("--library", small, "enrich", "--json", env=env, check_rc=0)
    report = json.loads(out.stdout)
    assert report["asked"] == 2 and len(report["completed"]) == 1
    assert [t for _, t in report["not_found"]] == ["A Paper Nobody Has"]
    shown = json.loads(paperdesk("--library", small, "show", str(report["completed"][0]),
                                 "--json", check_rc=0).stdout)
    assert shown["authors"] == ["Jared Kaplan", "Sam McCandlish"]
    assert shown["arxiv_id"] == "2001.08361" and shown["sources"]["authors"]["source"] == "hf"
    assert shown["url"] == "https://arxiv.org/abs/2001.08361"
    text = paperdesk("--library", small, "show", str(shown["id"]), check_rc=0).stdout
    assert "Jared Kaplan, Sam McCandlish · 2020-01-23" in text
    assert "arXiv https://arxiv.org/abs/2001.08361" in text
    assert "sources: " in text and "authors: Hugging Face, " in text
    listed = json.loads(paperdesk("--library", small, "list", "--json", check_rc=0).stdout)
    assert all({"arxiv_id", "url", "github", "project_page", "sources"} <= set(p)
               for p in listed)
    before = len(server.requests)
    again = paperdesk("--library", small, "enrich", env=env, check_rc=0)
    assert "completed 0 of 1 papers; 1 not found" in again.stderr
    assert len(server.requests) - before == 1  # only the missing paper was asked about


def test_enrich_server_down_and_offline_give_one_line_and_change_nothing(small, tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    before = Library.open(small).papers([1, 2])
    down = paperdesk("--library", small, "enrich", env={"HF_ENDPOINT": f"http://127.0.0.1:{port}"},
                     check_rc=1)
    assert "could not reach the Hub" in down.stderr.splitlines()[-1]
    offline = paperdesk("--library", small, "enrich", env={"HF_HUB_OFFLINE": "1"}, check_rc=1)
    assert "offline" in offline.stderr.splitlines()[-1]
    with Library.open(small) as lib:
        assert lib.papers([1, 2]) == before


def test_commands_that_need_no_network_never_load_the_hub_client(small):
    code = ("import sys; from paperdesk.cli.main import main; "
            f"main(['--library', {str(small)!r}, 'stats', '--json']); "
            f"main(['--library', {str(small)!r}, 'list']); "
            "print('huggingface_hub' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stderr.strip().splitlines()[-1] == "False"


def test_fetch_a_day_twice_and_its_papers_merge_with_the_library(tmp_path, seeds, server):
    path = tmp_path / "lib.sqlite"
    paperdesk("--library", path, "import", seeds[0], check_rc=0)
    with Library.open(path) as lib:
        known = lib.db.execute("SELECT id, title, abstract FROM papers ORDER BY id "
                               "LIMIT 1").fetchone()
        papers_before = lib.stats()["papers"]
    server.add(record("2511.00001", known[1], known[2], ["Ada Lovelace", "Jan van der Berg"],
                      "2025-11-03", upvotes=7, github="https://github.com/a/b"), day="2025-11-04")
    server.add(record("2511.00002", "A Brand New Paper", "Its abstract is new as well.",
                      ["Niamh Ó Briain"], "2025-11-03", upvotes=3,
                      project="https://new.example"), day="2025-11-04")
    env = {"HF_ENDPOINT": server.url}
    out = paperdesk("--library", path, "fetch", "--date", "2025-11-04", "--json", env=env,
                    check_rc=0)
    (day,) = json.loads(out.stdout)
    assert (day["status"], day["papers"], day["new_papers"], day["completed"]) == (
        "imported", 2, 1, 2)
    with Library.open(path) as lib:
        assert lib.stats()["papers"] == papers_before + 1
        old = lib.paper(known[0])
        assert old["authors"] == ["Ada Lovelace", "Jan van der Berg"]
        assert old["arxiv_id"] == "2511.00001" and len(old["digests"]) == 2
        assert old["github"] == "https://github.com/a/b"
        new_id = lib.search('"A Brand New Paper"').ids[0]
        new = lib.paper(new_id)
        assert (new["published"], new["year_inferred"], new["project_page"]) == (
            "2025-11-03", False, "https://new.example")
        assert new["citekey"] == "obriain2025brand"
        (digest,) = [d for d in lib.digests() if d["name"] == "hf-daily-papers-2025-11-04.txt"]
        assert (digest["digest_date"], digest["daily_papers"], digest["year_source"]) == (
            "2025-11-04", 1, "explicit")
        snapshot = [lib.stats(), lib.papers(lib.search("").ids)]
    again = paperdesk("--library", path, "fetch", "--date", "2025-11-04", env=env, check_rc=0)
    assert "already" in again.stderr
    with Library.open(path) as lib:
        assert [lib.stats(), lib.papers(lib.search("").ids)] == snapshot


def test_fetch_refuses_bad_dates_with_one_line(tmp_path):
    path = tmp_path / "lib.sqlite"
    bad = paperdesk("--library", path, "fetch", "--date", "2025-13-01", check_rc=2)
    assert "not a date" in bad.stderr
    backwards = paperdesk("--library", path, "fetch", "--date", "2025-11-04", "--to",
                          "2025-11-01", check_rc=1)
    assert backwards.stderr.count("\n") == 1 and "before" in backwards.stderr


def test_enrich_offline_says_so_in_one_line(small):
    offline = paperdesk("--library", small, "enrich", env={"HF_HUB_OFFLINE": "1"}, check_rc=1)
    assert offline.stderr.splitlines() == [
        "offline: HF_HUB_OFFLINE is set, so nothing was asked; 2 papers left as they were"]
    assert offline.stdout == ""
