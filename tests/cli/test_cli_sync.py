"""paperdesk sync: real processes over a real library and real files."""

from __future__ import annotations

import json
import os

from tests.command_line import paperdesk
from tests.conftest import SEED_PAPERS


def _export(seed_path, *args) -> str:
    return paperdesk("--library", seed_path, "export", *args, check_rc=0).stdout


def test_add_list_and_every_command_keeps_the_file_up_to_date(seed_path, tmp_path):
    refs = tmp_path / "paper" / "refs.bib"
    refs.parent.mkdir()
    added = paperdesk("--library", seed_path, "sync", "add", refs, check_rc=0)
    assert f"keeping {refs} in sync with the whole library" in added.stderr
    assert refs.read_text(encoding="utf-8") == _export(seed_path)
    listed = paperdesk("--library", seed_path, "sync", "list", check_rc=0).stdout
    assert "up to date" in listed and str(refs) in listed and f"{SEED_PAPERS}" in listed

    tagged = paperdesk("--library", seed_path, "tag", "5", "+to-cite", check_rc=0)
    assert f"updated {refs} ({SEED_PAPERS} entries)" in tagged.stderr
    assert "keywords = {to-cite}" in refs.read_text(encoding="utf-8")
    assert refs.read_text(encoding="utf-8") == _export(seed_path)

    before = os.stat(refs)
    rated = paperdesk("--library", seed_path, "rate", "5", "4", check_rc=0)
    assert "updated" not in rated.stderr  # ratings are not in the file: not rewritten
    after = os.stat(refs)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)

    paperdesk("--library", seed_path, "delete", "5", check_rc=0)
    assert refs.read_text(encoding="utf-8") == _export(seed_path)
    assert refs.read_text(encoding="utf-8").count("@misc{") == 192

    data = json.loads(paperdesk("--library", seed_path, "sync", "list", "--json",
                                check_rc=0).stdout)
    assert [(s["path"], s["state"], s["entries"], s["source"]) for s in data] == [
        (str(refs), "up to date", 192, "all")]
    paperdesk("--library", seed_path, "sync", "remove", refs, check_rc=0)
    paperdesk("--library", seed_path, "tag", "6", "+x", check_rc=0)
    assert "keywords = {x}" not in refs.read_text(encoding="utf-8")  # no longer synced
    assert json.loads(paperdesk("--library", seed_path, "sync", "list", "--json",
                                check_rc=0).stdout) == []


def test_a_tag_sync_in_csl_json(seed_path, tmp_path):
    out = tmp_path / "cite.json"
    paperdesk("--library", seed_path, "sync", "add", out, "--tag", "to-cite", "--style",
              "csl-json", check_rc=0)
    assert json.loads(out.read_text()) == []
    paperdesk("--library", seed_path, "tag", "3", "4", "+To-Cite", check_rc=0)
    keys = [json.loads(paperdesk("--library", seed_path, "show", str(i), "--json",
                                 check_rc=0).stdout)["citekey"] for i in (3, 4)]
    assert [i["id"] for i in json.loads(out.read_text())] == keys


def test_someone_elses_edit_stops_the_sync_until_overwritten(seed_path, tmp_path):
    refs = tmp_path / "refs.bib"
    paperdesk("--library", seed_path, "sync", "add", refs, check_rc=0)
    refs.write_text(refs.read_text() + "\n% mine\n")
    # Before any write notices it, the list says what is on disk.
    listed = paperdesk("--library", seed_path, "sync", "list", check_rc=0).stdout
    assert listed.startswith("changed: the file is not what PaperDesk last wrote")
    shown = json.loads(paperdesk("--library", seed_path, "sync", "list", "--json").stdout)
    assert shown[0]["state"] == "changed"
    stopped = paperdesk("--library", seed_path, "tag", "1", "+x", check_rc=0)
    assert "changed by someone else" in stopped.stderr
    assert f"paperdesk sync now --overwrite {refs}" in stopped.stderr
    assert refs.read_text().endswith("% mine\n")
    assert "added 1 tag" in stopped.stderr  # the command's own work is done
    listed = paperdesk("--library", seed_path, "sync", "list", check_rc=0).stdout
    assert listed.startswith("stopped: the file was changed by someone else")
    # Every command says it until it is resolved, even one that changes nothing in it.
    for args in (["tag", "2", "+x"], ["stats"], ["list", "--limit", "1"]):
        said = paperdesk("--library", seed_path, *args, check_rc=0).stderr
        assert f"paperdesk: {refs}: sync stopped: the file was changed" in said, args
    assert refs.read_text().endswith("% mine\n")
    paperdesk("--library", seed_path, "sync", "now", check_rc=1)
    assert refs.read_text().endswith("% mine\n")
    mine = refs.read_bytes()
    over = paperdesk("--library", seed_path, "sync", "now", "--overwrite", refs, check_rc=0)
    assert refs.read_text() == _export(seed_path)
    [kept] = tmp_path.glob("refs.conflict-*.bib")
    assert kept.read_bytes() == mine and f"kept as {kept}" in over.stderr
    assert "sync" not in paperdesk("--library", seed_path, "stats", check_rc=0).stderr


def test_failures_are_one_line_and_leave_the_library_alone(seed_path, tmp_path):
    missing = tmp_path / "gone" / "refs.bib"
    failed = paperdesk("--library", seed_path, "sync", "add", missing, check_rc=1)
    assert f"sync failed: the folder {missing.parent} does not exist" in failed.stderr
    stats = paperdesk("--library", seed_path, "stats", "--json", check_rc=0).stdout
    again = paperdesk("--library", seed_path, "tag", "1", "+x", check_rc=0)
    assert "sync failed" in again.stderr
    missing.parent.mkdir()
    paperdesk("--library", seed_path, "tag", "2", "+x", check_rc=0)
    assert missing.read_text() == _export(seed_path)
    bad = paperdesk("--library", seed_path, "sync", "add", tmp_path / "s.bib", "--search",
                    "nope", check_rc=1)
    assert bad.stderr.strip() == "paperdesk: there is no saved search named 'nope'"
    bad = paperdesk("--library", seed_path, "sync", "add", tmp_path / "q.bib", "rating>>4",
                    check_rc=1)
    assert len(bad.stderr.strip().splitlines()) == 1
    paperdesk("--library", seed_path, "sync", "remove", tmp_path / "nope.bib", check_rc=1)
    paperdesk("--library", seed_path, "sync", "add", tmp_path / "x.bib", "--style", "ris",
              check_rc=2)
    assert json.loads(paperdesk("--library", seed_path, "stats", "--json",
                                check_rc=0).stdout)["papers"] == json.loads(stats)["papers"]


def test_adding_a_sync_over_someone_elses_file_records_nothing(seed_path, tmp_path):
    mine = tmp_path / "mine.bib"
    mine.write_text("@article{mine, title = {Mine}}\n", encoding="utf-8")
    out = paperdesk("--library", seed_path, "sync", "add", mine, check_rc=1)
    assert out.stderr.count("\n") == 1 and "did not write" in out.stderr
    assert "--overwrite" in out.stderr
    assert json.loads(paperdesk("--library", seed_path, "sync", "list", "--json",
                                check_rc=0).stdout) == []
    assert mine.read_text(encoding="utf-8") == "@article{mine, title = {Mine}}\n"
    paperdesk("--library", seed_path, "sync", "add", mine, "--overwrite", check_rc=0)
    assert mine.read_text(encoding="utf-8") == _export(seed_path)
    kept = [p for p in tmp_path.iterdir() if ".conflict-" in p.name]
    assert [p.read_text(encoding="utf-8") for p in kept] == ["@article{mine, title = {Mine}}\n"]
    exported = tmp_path / "exported.bib"  # a file PaperDesk wrote, as the sync would
    paperdesk("--library", seed_path, "export", "-o", exported, check_rc=0)
    paperdesk("--library", seed_path, "sync", "add", exported, check_rc=0)
    again = paperdesk("--library", seed_path, "sync", "add", exported, check_rc=1)
    assert "already kept in sync" in again.stderr
    empty = paperdesk("--library", seed_path, "sync", "add", tmp_path / "t.bib", "--tag",
                      "no-such-tag", check_rc=0)
    assert "no paper has the tag “no-such-tag” yet" in empty.stderr


def test_a_path_through_a_link_and_up_is_the_file_the_kernel_names(seed_path, tmp_path):
    """`away/../refs.bib`, away a link to another folder, is refs.bib beside that folder:
    checked, locked and written there, never the refs.bib beside the link."""
    (tmp_path / "proj").mkdir()
    (tmp_path / "other").mkdir()
    (tmp_path / "proj" / "away").symlink_to(tmp_path / "other")
    mine = tmp_path / "proj" / "refs.bib"
    mine.write_text("@article{mine, title = {Only copy}}\n", encoding="utf-8")
    paperdesk("--library", seed_path, "sync", "add", tmp_path / "proj" / "away" / ".." /
              "refs.bib", check_rc=0)
    assert mine.read_text(encoding="utf-8") == "@article{mine, title = {Only copy}}\n"
    assert (tmp_path / "refs.bib").read_text(encoding="utf-8") == _export(seed_path)
    paperdesk("--library", seed_path, "export", "--ids", "1", "-o",
              tmp_path / "proj" / "away" / ".." / "one.bib", check_rc=0)
    assert (tmp_path / "one.bib").exists() and not (tmp_path / "proj" / "one.bib").exists()


def test_a_loop_of_links_is_one_line(seed_path, tmp_path):
    (tmp_path / "a.bib").symlink_to(tmp_path / "b.bib")
    (tmp_path / "b.bib").symlink_to(tmp_path / "a.bib")
    for args in (["sync", "add", tmp_path / "a.bib"], ["export", "-o", tmp_path / "a.bib"],
                 ["import", tmp_path / "a.bib"]):
        out = paperdesk("--library", seed_path, *args, check_rc=1)
        assert "Traceback" not in out.stderr and "symbolic links" in out.stderr, out.stderr


def test_a_moved_library_takes_its_syncs_when_told(seed_path, tmp_path):
    refs = tmp_path / "refs.bib"
    paperdesk("--library", seed_path, "sync", "add", refs, check_rc=0)
    moved = tmp_path / "moved.sqlite"
    seed_path.rename(moved)
    out = paperdesk("--library", moved, "tag", "1", "+x", check_rc=0)
    assert "sync failed" in out.stderr and "sync now --take" in out.stderr
    assert "keywords = {x}" not in refs.read_text(encoding="utf-8")
    [listed] = json.loads(paperdesk("--library", moved, "sync", "list", "--json",
                                    check_rc=0).stdout)
    assert listed["library"] == os.path.realpath(seed_path) and listed["state"] == "failed"
    paperdesk("--library", moved, "sync", "now", "--take", refs, check_rc=0)
    assert refs.read_text(encoding="utf-8") == _export(moved)
    out = paperdesk("--library", moved, "tag", "2", "+y", check_rc=0)
    assert f"updated {refs}" in out.stderr
