"""A large .bib file read in reading processes: the same library, report and export as
when it is read in the importing process; cancel, a reader that dies, and a killed
importer leave no process behind."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from paperdesk.core.bibtex.bib_read import BibReader
from paperdesk.core.importing import bib_pool, bibtex_import
from paperdesk.core.importing.bib_records import chunk_reader
from paperdesk.core.library import Library
from tests import processes, realbib
from tests.command_line import cli_command, cli_env
from tests.core.test_bib_scan import HOSTILE
from tests.work import Checks

# Every kind of block the reader meets, with chunk edges falling anywhere among them.
HEAD = """% comments before the first block
@string{jml = "J. Mach. Learn."}
@preamble{"\\newcommand{\\noop}[1]{}"}
@comment{nothing here}
"""
KINDS = [
    "@article{{art{i},\n  author = {{M{{\\\"u}}ller, J{{\\\"u}}rgen and Garc\\'{{\\i}}a, "
    "Jos\\'e}},\n  title = {{{{GPT}}-style Models {i}: 95\\% there}},\n  journal = jml,\n"
    "  year = 2020, pages = {{1--30}},\n  keywords = {{translation; Deep Learning}},\n}}\n",
    "@misc{{misc{i}, title = {{Plain {i}}}, year = {{20{j:02d}}},\n"
    "  % a comment between fields\n  note = {{n}}}}\n",
    "@book(paren{i}, title = {{In parentheses {i}}}, year = 1999)\n",
    "@misc{{broken{i},\n  title = {{Missing a closing brace {i},\n  year = 2021\n\n",
    "@misc{{bad key {i}, title = {{A key with spaces {i}}}}}\n",
    "@misc{{dup, title = {{Same key again {i}}}, doi = {{10.1/x{i}}}}}\n",
    "@online{{on{i}, author = {{{{DeepSeek}}}}, title = {{On {i}}}, date = {{2025-01-22}},\n"
    "  eprint = {{2501.{i:05d}}}, eprinttype = {{arxiv}}, abstract = {{x^2 and $\\alpha$}}}}\n",
    "junk between blocks @misc{{inline{i}, title = {{not at a line start}}}}\n",
    "@misc{{uni{i}, title = {{Über 数学 {i} — ½}}, author = {{Ŝtefan Ñandú}}}}\n",
    "@misc{{deep{i}, title = {{" + "\\textbf{{" * 400 + "x" + "}}" * 400 + "}}}}\n",
]


def _text(n: int) -> str:
    """``n`` blocks; the slow deeply nested kind only among the first hundred."""
    kinds = [KINDS[i % len(KINDS)] for i in range(n)]
    kinds = [KINDS[1] if i >= 100 and "{{deep" in kind else kind for i, kind in enumerate(kinds)]
    return HEAD + "".join(kind.format(i=i, j=i % 100) for i, kind in enumerate(kinds))


def _import(tmp_path: Path, name: str, text: str, **options):
    path = tmp_path / "in.bib"
    path.write_text(text, encoding="utf-8")
    lib = Library.open(tmp_path / f"{name}.sqlite", create=True)
    report = lib.import_paths([path], **options)[0]
    return lib, report


@pytest.mark.parametrize("size", [1, 3, 1000])
def test_chunks_read_as_the_whole_file_reader_reads(size, monkeypatch):
    """The chunk reader against ``BibReader.papers`` (one entry at a time, the whole
    text): the same entries, failures and warnings, on the real corpus and the hostile
    cases, whatever the chunk size."""
    monkeypatch.setattr(bibtex_import, "CHUNK_SEGMENTS", size)
    texts = [realbib.text_of(p) for p in realbib.corpus()] + list(HOSTILE.values())
    for text in [*texts, _text(60)]:
        whole = BibReader(text, "t.bib")
        papers = list(whole.papers())
        parts = BibReader(text, "t.bib")
        read = chunk_reader(parts.strings, parts.found.string_keys, "t.bib")
        entries = [e for c in bibtex_import._chunks(parts.text, parts.found) for e in
                   _counted(read(c), parts)]
        assert [(e.key, e.line, e.title, e.year, e.doi, list(e.tags)) for e in entries] == [
            (p.key, p.line, p.title, p.year, p.doi, p.tags) for p in papers]
        assert (parts.warnings, parts.skipped, parts.read) == (whole.warnings, whole.skipped,
                                                               whole.read)


def _counted(result, reader):
    return list(bibtex_import._entries(iter([result]), reader, []))


def _readers() -> list[multiprocessing.Process]:
    return [p for p in multiprocessing.active_children() if p.name == "paperdesk-bib-reader"]


@pytest.fixture
def in_processes(monkeypatch):
    """Every file goes to two reading processes, a few segments at a time."""
    monkeypatch.setattr(bib_pool, "PARALLEL_FROM", 0)
    monkeypatch.setattr(bib_pool, "reader_count", lambda size: 2)
    monkeypatch.setattr(bibtex_import, "CHUNK_SEGMENTS", 7)


def _same(tmp_path: Path, text: str, monkeypatch, **options) -> tuple:
    seen: list[int] = []  # the reading processes alive when the reading starts
    read = bib_pool.ReaderPool.read

    def counted(pool, *args, **kwargs):
        seen.append(len(_readers()))
        yield from read(pool, *args, **kwargs)

    monkeypatch.setattr(bib_pool.ReaderPool, "read", counted)
    lib, report = _import(tmp_path, "parallel", text, **options)
    monkeypatch.setattr(bib_pool, "reader_count", lambda size: 0)
    ref, expected = _import(tmp_path, "here", text)
    assert max(seen) == 2  # the readers did run
    assert _readers() == []  # and are gone
    for field in ("status", "entries", "new_papers", "merged", "warnings", "skipped"):
        assert getattr(report, field) == getattr(expected, field), field
    rows = ("SELECT id, title, abstract, title_key, authors, author_count, organization, "
            "published, year, arxiv_id, doi, url, citekey, bib_type, bib_fields, bib_source "
            "FROM papers ORDER BY id")
    assert lib.db.execute(rows).fetchall() == ref.db.execute(rows).fetchall()
    assert lib.bibtex.export() == ref.bibtex.export()
    return lib, ref, report


def test_reading_processes_give_the_same_library_report_and_export(tmp_path, in_processes,
                                                                    monkeypatch):
    lib, ref, report = _same(tmp_path, _text(300), monkeypatch)
    assert report.new_papers > 200 and report.skipped  # broken entries with their lines
    assert any("line " in w for w in report.warnings)
    lib.close()
    ref.close()


def test_a_file_with_windows_line_ends_gives_the_same_too(tmp_path, in_processes,
                                                           monkeypatch):
    """Its text is not its bytes decoded as they are: the readers get text."""
    lib, ref, report = _same(tmp_path, _text(150).replace("\n", "\r\n"), monkeypatch)
    assert report.new_papers > 100
    lib.close()
    ref.close()


def test_loose_block_starts_read_in_processes_as_here(tmp_path, in_processes, monkeypatch):
    """BibTeX's loosest block starts are put in their usual form before the file is cut
    into chunks: the readers get those bytes, not the file's."""
    loose = "".join(f"text.@\n\nMaNuAl\n  {{m{i}, title = {{Manual {i}}}}}\n" for i in range(40))
    lib, ref, _report = _same(tmp_path, loose + _text(60), monkeypatch)
    assert "m39" in lib.bibtex.export()
    lib.close()
    ref.close()


def test_a_reader_that_dies_is_replaced_by_reading_here(tmp_path, in_processes, monkeypatch):
    killed: list[int] = []

    def kill_one(fraction: float, message: str) -> None:
        readers = _readers()
        if not killed and readers and message.startswith("Matching") and fraction > 0.3:
            killed.append(readers[0].pid)
            os.kill(readers[0].pid, signal.SIGKILL)

    path = tmp_path / "in.bib"
    path.write_text(_text(4500), encoding="utf-8")  # more than the writer takes at once
    with Library.open(tmp_path / "a.sqlite", create=True) as lib:
        report = lib.import_paths([path], progress=kill_one)[0]
        monkeypatch.setattr(bib_pool, "reader_count", lambda size: 0)
        with Library.open(tmp_path / "b.sqlite", create=True) as ref:
            expected = ref.import_paths([path])[0]
            assert killed
            assert (report.new_papers, report.warnings) == (expected.new_papers,
                                                            expected.warnings)
            assert lib.bibtex.export() == ref.bibtex.export()
    assert _readers() == []


@pytest.mark.parametrize("at", [1, 15, 3000])  # the readers starting, reading, matching
def test_cancel_answers_promptly_stops_the_readers_and_keeps_nothing(tmp_path, in_processes,
                                                                     at):
    """Pressed at a given look at the cancel flag (a whole import makes about 6,300:
    some 30 while the readers read, one an entry while matching); the job stops at the
    next look and reports no phase after it."""
    path = tmp_path / "in.bib"  # ordinary entries: the scan before the reading is short
    path.write_text("".join(KINDS[i % 2].format(i=i, j=i % 100) for i in range(6000)),
                    encoding="utf-8")
    lib = Library.open(tmp_path / "cancel.sqlite", create=True)
    checks = Checks(at=at)
    phases: list[tuple[int, str]] = []
    report = lib.import_paths([path], cancel=checks,
                              progress=lambda f, m: phases.append((checks.looks, m)))[0]
    assert _readers() == []
    assert report.status == "cancelled", report.error
    assert checks.seen <= 3, (checks.seen, phases[-2:])
    assert [m for n, m in phases if n > checks.set_at] == ["Done"], phases[-2:]
    assert lib.stats()["papers"] == 0
    lib.close()


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_killing_the_importer_leaves_no_reader_running(tmp_path):
    """A real ``paperdesk import`` of a file large enough for reading processes, killed
    with SIGKILL while they run: they notice and end on their own."""
    path = tmp_path / "big.bib"
    entry = KINDS[6] + "  % padding " + "x" * 1500 + "\n"
    n = bib_pool.PARALLEL_FROM // len(entry) + 2000
    path.write_text("".join(KINDS[1].format(i=i, j=i % 100) + entry.format(i=i)
                            for i in range(n)), encoding="utf-8")
    proc = subprocess.Popen(cli_command("--library", tmp_path / "k.sqlite", "--create",
                                        "import", path), env=cli_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children = processes.spawned(proc, 2, 120)
    assert proc.poll() is None and len(children) >= 2, "no reading processes seen"
    assert processes.killed_leaving(proc, 60) == []
    with Library.open(tmp_path / "k.sqlite") as lib:
        assert lib.stats()["papers"] == 0  # the import never committed


def test_a_python_started_without_the_readers_module_in_path_still_imports(tmp_path):
    """The reading process finds PaperDesk as the importing process did (sys.path)."""
    code = ("import sys; from paperdesk.core.importing import bib_pool, bibtex_import; "
            "bib_pool.reader_count = lambda size: 2; bibtex_import.CHUNK_SEGMENTS = 5; "
            "from paperdesk.core.library import Library; "
            "lib = Library.open(sys.argv[1], create=True); "
            "print(lib.import_paths([sys.argv[2]])[0].new_papers); lib.close()")
    path = tmp_path / "s.bib"
    path.write_text(_text(40), encoding="utf-8")
    env = {k: v for k, v in cli_env().items() if k != "PYTHONPATH"}
    src = str(Path(__file__).resolve().parents[2] / "src")
    result = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {src!r}); "
                             + code, str(tmp_path / "s.sqlite"), str(path)],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) > 20


UNGUARDED = """\
import sys
from pathlib import Path
from paperdesk.core.importing import bib_pool, bibtex_import
from paperdesk.core.model import workers
from paperdesk.core.library import Library

with open(sys.argv[3], "a") as runs:  # what a program without a __main__ guard repeats
    runs.write("ran\\n")
bib_pool.reader_count = lambda size: 2
bibtex_import.CHUNK_SEGMENTS = 5
ends = []
stop = workers.Worker.stop
def recorded(self, *, now=False):
    stop(self, now=now)
    ends.append((self.process.exitcode, self.failed))
workers.Worker.stop = recorded
lib = Library.open(Path(sys.argv[1]), create=True)
print(lib.import_paths([Path(sys.argv[2])])[0].new_papers, ends)
lib.close()
"""


def test_a_script_without_a_main_guard_is_not_run_again_by_the_readers(tmp_path):
    """Spawned processes run the caller's main file again unless it is guarded; the
    readers start without it, so the script's own work (here a line in a file; it could
    be a write or a delete) happens once, and both readers do their part."""
    script = tmp_path / "script.py"
    script.write_text(UNGUARDED, encoding="utf-8")
    path = tmp_path / "s.bib"
    path.write_text(_text(40), encoding="utf-8")
    runs = tmp_path / "runs.txt"
    result = subprocess.run([sys.executable, str(script), str(tmp_path / "s.sqlite"), str(path),
                             str(runs)], capture_output=True, text=True, env=cli_env(),
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert runs.read_text() == "ran\n"
    papers, ends = result.stdout.split(" ", 1)
    assert int(papers) > 20
    assert ends.strip() == "[(0, False), (0, False)]"  # each reader ended well, none replaced
    assert "Traceback" not in result.stderr


def test_digests_made_on_demand_equal_the_readers_own():
    """Read without digests (an import into a library with no .bib entries), each
    entry's digest worked out later is the one the readers make when asked."""
    from paperdesk.core.importing.bib_records import entry_sha_of

    texts = [realbib.text_of(p) for p in realbib.corpus()] + [_text(60)]
    checked = 0
    for text in texts:
        scan = BibReader(text, "t.bib")
        with_sha = chunk_reader(scan.strings, scan.found.string_keys, "t.bib")
        without = chunk_reader(scan.strings, scan.found.string_keys, "t.bib", False)
        for chunk in bibtex_import._chunks(text, scan.found):
            made, later = with_sha(chunk).entries, without(chunk).entries
            assert [e.sha for e in made] == [entry_sha_of(e) for e in later]
            assert all(e.sha == "" for e in later) and all(e.sha for e in made)
            checked += len(made)
    assert checked > 800


def test_a_file_imported_again_through_the_readers_is_the_same_entry(tmp_path, in_processes,
                                                                      monkeypatch):
    """The first import (into an empty library) keeps no digests; importing the file
    again finds the entries again, the digests worked out from the
    kept entries, as when the first import kept them (read here, digests made)."""
    lib, _ = _import(tmp_path, "again", _text(150))
    kept = [json.loads(s) for (s,) in lib.db.execute(
        "SELECT bib_source FROM papers WHERE bib_source IS NOT NULL")]
    assert kept and not any("sha" in s for s in kept)
    again = lib.import_paths([tmp_path / "in.bib"])[0]
    assert sum(m["reason"] == "the same entry" for m in again.merges) > 90
    monkeypatch.setattr(bib_pool, "reader_count", lambda size: 0)
    monkeypatch.setattr(bib_pool, "chunk_reader",
                        lambda strings, keys, name, shas: chunk_reader(strings, keys, name))
    ref, _ = _import(tmp_path, "again-here", _text(150))
    assert all("sha" in json.loads(s) for (s,) in ref.db.execute(
        "SELECT bib_source FROM papers WHERE bib_source IS NOT NULL"))
    ref_again = ref.import_paths([tmp_path / "in.bib"])[0]
    assert (again.new_papers, again.merged, again.merges) == (
        ref_again.new_papers, ref_again.merged, ref_again.merges)
    lib.close()
    ref.close()
