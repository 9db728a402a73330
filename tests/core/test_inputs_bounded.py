"""Inputs of any size stay bounded: a value past its cap is cut and reported, a 2 MB title
is compared only as far as its cap, and a 60 MB line is parsed before the write lock is
taken, so another process writes meanwhile."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from paperdesk.core.importing import digest_import
from paperdesk.core.library import Library
from paperdesk.core.model.digest import CAPS
from tests.work import comparisons

TIMEOUT = 60

# Another process: tries for the write lock (BEGIN IMMEDIATE, no waiting) every 10 ms
# while the file STOP does not exist; prints how often it got it and the longest time
# it could not.
WRITER = """
import json, os, sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None)
ok = tries = 0
longest = 0.0
blocked_since = None
end = time.monotonic() + 60
while not os.path.exists(sys.argv[2]) and time.monotonic() < end:
    tries += 1
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
        ok += 1
        if blocked_since is not None:
            longest = max(longest, time.monotonic() - blocked_since)
        blocked_since = None
    except sqlite3.OperationalError:
        blocked_since = blocked_since or time.monotonic()
    time.sleep(0.01)
print(json.dumps({"ok": ok, "tries": tries, "longest_blocked": longest}))
"""


def run_cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "paperdesk", *map(str, args)],
                          capture_output=True, text=True, timeout=TIMEOUT)


def with_long_title(seed: Path, target: Path, title: str) -> Path:
    lines = seed.read_text(encoding="utf-8").split("\n")
    first = next(n for n, line in enumerate(lines) if line.startswith("POLCA"))
    lines[first] = title
    target.write_text("\n".join(lines), encoding="utf-8")
    return target


def test_a_2_mb_title_is_cut_reported_and_quick(lib, seeds, tmp_path):
    # About 2 MB, opening with the title it replaces, so that it is compared with the
    # titles already in the library: without the cap that comparison took 68 s (118 s
    # in an older matcher); with it, no string compared is longer than the cap.
    title = "POLCA: Power Oversubscription in LLM Cloud Providers " + " ".join(
        f"word{n % 997}" for n in range(260_000))
    lib.import_paths([seeds[1]])
    path = with_long_title(seeds[0], tmp_path / "long-title.txt", title)
    with comparisons() as compared:
        report = lib.import_paths([path])[0]
    assert report.status == "imported", report.error
    assert compared.calls > 0 and compared.longest < CAPS["title"], compared
    cut = [w for w in report.warnings if "title of" in w]
    assert cut == [f"line 11: title of {len(title):,} characters cut to {CAPS['title']:,}"]
    longest = lib.db.execute("SELECT max(length(title)) FROM papers").fetchone()[0]
    assert longest == CAPS["title"]
    assert "cut to 2,000" in json.dumps(report.to_json())


def test_a_60_mb_line_imports_while_another_process_writes(seeds, tmp_path, monkeypatch):
    library = tmp_path / "big.sqlite"
    assert run_cli("--library", library, "import", seeds[1]).returncode == 0
    path = with_long_title(seeds[0], tmp_path / "line.txt", "x" * 60_000_000)
    stop = tmp_path / "stop"
    events: list[str] = []
    parse = digest_import.parse_digest

    def recorded_parse(*args, **kwargs):
        events.append("parse")
        digest = parse(*args, **kwargs)
        events.append("parsed")
        return digest

    monkeypatch.setattr(digest_import, "parse_digest", recorded_parse)
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(library), str(stop)],
                              stdout=subprocess.PIPE, text=True)
    with Library.open(library) as lib:
        lib.db.conn.set_trace_callback(events.append)
        report = lib.import_paths([path])[0]
        lib.db.conn.set_trace_callback(None)
    stop.touch()
    seen = json.loads(writer.communicate(timeout=TIMEOUT)[0])
    assert report.status == "imported", report.error
    assert "line 11: title of 60,000,000 characters cut to 2,000" in report.warnings
    # The 60 MB are read and parsed before the write lock is taken, never inside it:
    # the other process got the write lock all along, but for the short write itself.
    begins = [n for n, e in enumerate(events) if e.startswith("BEGIN")]
    assert events.count("parsed") == 1 and begins, events[:5]
    assert events.index("parsed") < begins[0], events[:5]
    assert seen["ok"] > 0, seen
    print(f"60 MB line: writer {seen}")


def test_one_bad_byte_in_utf8_is_replaced_and_reported_with_its_line(lib, seeds, tmp_path):
    seed = next(p for p in seeds if p.name.startswith("002"))  # 34 papers, UTF-8 accents
    data = seed.read_bytes()
    assert b"\xe2\x80" in data  # multi-byte characters the fallback would turn to mojibake
    spot = data.index(b"Transformers")
    damaged = tmp_path / "damaged.txt"
    damaged.write_bytes(data[:spot] + b"\xff" + data[spot + 1:])
    line = data.count(b"\n", 0, spot) + 1
    report = lib.import_paths([damaged])[0]
    assert report.status == "imported", report.error
    assert report.entries == 34 and report.new_papers == 34
    utf8 = [w for w in report.warnings if "UTF-8" in w]
    assert utf8 == [f"line {line}: byte 0xff at offset {spot} is not UTF-8; "
                    "replaced by U+FFFD"]
    texts = [t for (t,) in lib.db.execute("SELECT title || ' ' || abstract FROM papers")]
    assert sum("\ufffdransformers" in t for t in texts) == 1
    assert not any("â€" in t for t in texts)  # no cp1252 mojibake


def test_a_newline_in_a_file_name_cannot_forge_report_lines(seeds, tmp_path):
    library = tmp_path / "names.sqlite"
    forged = "x.txt\nimported: forged.txt: 99 entries, 99 new papers, 0 merged into existing"
    good = tmp_path / forged
    good.write_bytes(seeds[0].read_bytes())
    bad = tmp_path / "bad\nerror: forged\x1b[2K.txt"
    bad.write_text("not a digest\n", encoding="utf-8")
    result = run_cli("--library", library, "import", good, bad)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith("imported: x.txt\\nimported: forged.txt: 99 entries")
    assert not any(line.startswith(("imported: forged", "error: forged")) for line in lines)
    assert [line for line in lines if line.startswith("error:")] == [
        "error: bad\\nerror: forged\\x1b[2K.txt: not a Hugging Face Daily Papers digest "
        "(no 'byAK and the research community' line near the top)"]
    assert "\x1b" not in result.stderr


def test_undo_of_an_import_trashes_a_paper_whose_key_was_exported(lib, seeds, tmp_path):
    from paperdesk.core.importing import import_undo

    reports = lib.import_paths([seeds[0]])
    rec = import_undo.record(lib, reports)
    created = sorted(rec.created)
    out = tmp_path / "out.bib"
    assert lib.bibtex.export_to(out, [created[0]]) == 1  # its key has left PaperDesk
    key = lib.paper(created[0])["citekey"]
    assert key in out.read_text(encoding="utf-8")

    changes = import_undo.undo_import(lib, rec)
    assert changes.result["trashed"] == 1
    assert changes.result["deleted"] == len(created) - 1
    row = lib.db.execute("SELECT citekey, deleted_at FROM papers WHERE id = ?",
                         [created[0]]).fetchone()
    assert row[0] == key and row[1] is not None  # in the trash with its key
    assert "changed or exported since" in import_undo.summary(changes.result)


def test_a_damaged_library_reached_through_a_link_still_refuses_writes(seeds, tmp_path):
    import os

    from paperdesk.core.db import sessions
    from tests.reliability.test_damaged import scribble_table

    real = tmp_path / "real" / "library.sqlite"
    real.parent.mkdir()
    assert run_cli("--library", real, "import", seeds[0]).returncode == 0
    link = tmp_path / "link.sqlite"
    link.symlink_to(real)
    folder_link = tmp_path / "via"
    folder_link.symlink_to(real.parent)
    # A program that had the file open ended without closing it (its process id is
    # this one, its start time another), and the file took damage meanwhile.
    markers = sessions.folder(real)
    markers.mkdir(parents=True, exist_ok=True)
    (markers / f"{os.getpid()}-1").write_text("x")
    scribble_table(real, "notes")
    for path in (link, folder_link / "library.sqlite", real, link):
        write = run_cli("--library", path, "tag", "1", "+after")
        assert write.returncode == 1, (path, write.stderr)
        lines = write.stderr.strip().splitlines()
        assert len(lines) == 1 and "damaged" in lines[0], write.stderr
        assert run_cli("--library", path, "stats").returncode == 0  # still readable
    assert sessions.folder(link) == sessions.folder(folder_link / "library.sqlite") == markers


def test_a_read_only_library_exports_and_backs_up(seeds, tmp_path):
    import sqlite3

    from tests.reliability.test_damaged import _run_read_only as as_user

    folder = tmp_path / "lib"
    folder.mkdir()
    library = folder / "library.sqlite"
    assert run_cli("--library", library, "import", seeds[0]).returncode == 0
    out = tmp_path / "out"
    out.mkdir()
    for case in ("file 0444", "folder 0555"):
        if case == "file 0444":
            library.chmod(0o444)
        else:
            library.chmod(0o644)
            folder.chmod(0o555)
        before = library.read_bytes()
        try:
            bib = out / f"{case[:4]}.bib"
            export = as_user("--library", library, "export", "-o", bib)
            assert export.returncode == 0, (case, export.stderr)
            assert bib.read_text(encoding="utf-8").count("@") == 17
            copy = out / f"{case[:4]}.sqlite"
            backup = as_user("--library", library, "backup", copy)
            assert backup.returncode == 0, (case, backup.stderr)
            with sqlite3.connect(copy) as conn:
                assert conn.execute("SELECT count(*) FROM papers").fetchone()[0] == 17
            write = as_user("--library", library, "tag", "1", "+after")
            assert write.returncode == 1
            lines = write.stderr.strip().splitlines()
            assert len(lines) == 1 and "read-only; nothing was changed" in lines[0], lines
            assert library.read_bytes() == before
        finally:
            folder.chmod(0o755)


def test_upvotes_past_any_real_count_are_left_empty_and_reported(lib, seeds, tmp_path):
    seed = next(p for p in seeds if p.name.startswith("001"))
    lines = seed.read_text(encoding="utf-8").split("\n")
    assert lines[18] == "Dec 3, 2024 3"
    lines[18] = f"Dec 3, 2024 {2**64}"
    path = tmp_path / "upvotes.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    report = lib.import_paths([path])[0]
    assert report.status == "imported", report.error
    assert f"line 19: {2**64:,} upvotes is out of range (at most 1,000,000,000); left empty" \
        in report.warnings
    assert lib.db.execute("SELECT max(upvotes) FROM papers").fetchone()[0] < 10**9


def test_a_2_mb_title_in_a_bib_file_is_cut_in_the_library_and_kept_in_the_entry(lib, tmp_path):
    title = " ".join(f"word{n % 997}" for n in range(260_000))
    bib = tmp_path / "long.bib"
    bib.write_text(f"@article{{a1,\n title={{{title}}},\n year={{2020}}\n}}\n"
                   "@article{a2,\n title={Another title},\n year={2021}\n}\n", encoding="utf-8")
    report = lib.import_paths([bib])[0]
    assert report.status == "imported", report.error  # 87 s before the cap
    assert f"long.bib: line 1: title of {len(title):,} characters cut to 2,000" \
        in report.warnings
    assert lib.db.execute("SELECT max(length(title)) FROM papers").fetchone()[0] == 2_000
    out = tmp_path / "out.bib"
    lib.bibtex.export_to(out)
    assert title in out.read_text(encoding="utf-8")  # the entry's own text as written
