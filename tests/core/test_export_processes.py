"""A large export made with an exporting process beside this one: the same file, report
and frozen keys as one made here alone; the library as it was when the export began,
whatever is written meanwhile; a process that dies or a cancel leave nothing behind."""

from __future__ import annotations

import multiprocessing
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paperdesk.core.bibtex import bibtex_export, export_query
from paperdesk.core.bibtex.export_report import ExportReport
from paperdesk.core.library import Library
from paperdesk.core.model import workers
from paperdesk.core.model.errors import Cancelled
from tests import processes, realbib
from tests.command_line import cli_command, cli_env
from tests.core.test_bib_scan import HOSTILE

NAME = "paperdesk-exporter"
# Real files that need repairs, balancing and every kind of entry, and the hostile cases.
REAL = ("texlive-biblatex-examples.bib", "biber-examples.bib", "texlive-beebe-serif.bib")


def _exporters() -> list[multiprocessing.Process]:
    return [p for p in multiprocessing.active_children() if p.name == NAME]


@pytest.fixture
def big(seed_lib, tmp_path):
    """The seeds, three real files and the hostile texts, with tags, notes and a few
    papers in the trash: a library whose export repairs, balances and leaves out."""
    paths = [realbib.CORPUS / name for name in REAL]
    for i, text in enumerate(HOSTILE.values()):
        path = tmp_path / f"hostile{i}.bib"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    # more repairs than a report names (it names 20), and a value to balance
    made = tmp_path / "repairs.bib"
    made.write_text("".join(f"@article{{r{i}, title = {{Repair {i}}}, journal = {{J_{i} & Co}}, "
                            "year = 2020}\n" for i in range(45))
                    + '@misc{bal, title = {Bal}, note = "x {y", year = 2021}\n', encoding="utf-8")
    paths.append(made)
    seed_lib.import_paths(paths)
    ids = list(seed_lib.search("").ids)
    seed_lib.curation.add_tags(ids[::7], ["Quokka", "math_$x$"])
    seed_lib.curation.add_note(ids[3], "a note with 50% of {braces")
    seed_lib.trash.delete(ids[10:13])
    # a library written by hand: an identifier that is not one, left out with a line
    with seed_lib.write("hand", []):
        seed_lib.db.execute("UPDATE papers SET doi = 'not a doi' WHERE id = ?", [ids[20]])
    assert len(ids) > 400
    return seed_lib


@pytest.fixture
def in_processes(monkeypatch):
    """Every export gets an exporting process, and batches of a few papers."""
    monkeypatch.setattr(bibtex_export, "PARALLEL_FROM", 0)
    monkeypatch.setattr(workers, "helpers", lambda: 2)
    monkeypatch.setattr(export_query, "BATCH", 7)


def _here(monkeypatch) -> None:
    monkeypatch.setattr(bibtex_export, "PARALLEL_FROM", 10**9)


def _exports(lib: Library, tmp_path, tag: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for style in ("bibtex", "biblatex", "csl-json"):
        for options in ({}, {"ascii": True, "notes": True}, {"as_written": True}):
            report = ExportReport()
            path = tmp_path / f"{tag}-{style}-{len(options)}.out"
            n = lib.bibtex.export_to(path, style=style, report=report, **options)
            out[f"{style} {sorted(options)}"] = (n, path.read_bytes(), report)
    out["string"] = lib.bibtex.export(notes=True)
    out["chosen"] = lib.bibtex.export([*lib.search("").ids[::-3], 1, 1])
    return out


def test_an_export_with_a_process_is_the_export_made_here(big, tmp_path, in_processes,
                                                           monkeypatch):
    started: list[int] = []
    run = workers.Workers.run

    def counted(pool, *args, **kwargs):
        started.append(len(_exporters()))
        yield from run(pool, *args, **kwargs)

    monkeypatch.setattr(workers.Workers, "run", counted)
    made = _exports(big, tmp_path, "processes")
    assert set(started) == {1}  # each export had its process
    assert _exporters() == []  # and none is left
    _here(monkeypatch)
    expected = _exports(big, tmp_path, "here")
    assert made == expected
    report = expected["bibtex []"][2]
    # the report was put together from the batches' parts
    assert report.repaired > 45 and len(report.repaired_fields) == 20
    assert report.balanced == ["bal.note"] and report.left_out


def test_keys_are_frozen_as_when_exported_here(big, tmp_path, in_processes, monkeypatch):
    frozen = "SELECT paper_id FROM frozen_keys ORDER BY paper_id"
    big.db.execute("DELETE FROM frozen_keys")
    big.bibtex.export_to(tmp_path / "a.bib", list(big.search("").ids)[::2])
    after = big.db.execute(frozen).fetchall()
    big.db.execute("DELETE FROM frozen_keys")
    _here(monkeypatch)
    big.bibtex.export_to(tmp_path / "b.bib", list(big.search("").ids)[::2])
    assert big.db.execute(frozen).fetchall() == after and len(after) > 200


@pytest.mark.parametrize("parallel", [True, False])
def test_an_export_is_the_library_as_it_was_when_it_began(big, tmp_path, monkeypatch,
                                                          parallel):
    """Tags added by another program while the entries are being written do not show
    in the entries still to come: the processes' batches read after the change are
    made here, from the export's own view of the library."""
    if parallel:
        monkeypatch.setattr(bibtex_export, "PARALLEL_FROM", 0)
        monkeypatch.setattr(workers, "helpers", lambda: 2)
        monkeypatch.setattr(export_query, "BATCH", 7)
    before = big.bibtex.export()
    header, entries = big.bibtex.stream()
    first = [next(entries) for _ in range(30)]
    other = Library.open(big.path)
    ids = list(other.search("").ids)
    other.curation.add_tags(ids, ["written meanwhile"])
    other.close()
    rest = list(entries)
    assert "\n\n".join(header + first + rest) == before
    assert "written meanwhile" not in before
    assert "written meanwhile" in big.bibtex.export()
    assert _exporters() == []


def test_a_process_that_dies_leaves_its_batches_to_this_one(big, tmp_path, in_processes):
    expected = big.bibtex.export()
    header, entries = big.bibtex.stream()
    made = header + [next(entries) for _ in range(40)]
    (process,) = _exporters()
    process.kill()
    made += list(entries)
    assert "\n\n".join(made) == expected
    assert _exporters() == []


def test_a_cancelled_export_stops_its_process_and_writes_nothing(big, tmp_path,
                                                                 in_processes):
    class Flag:
        is_set_calls = 0

        def is_set(self) -> bool:
            self.is_set_calls += 1
            return self.is_set_calls > 20

    path = tmp_path / "cancelled.bib"
    big.db.execute("DELETE FROM frozen_keys")
    with pytest.raises(Cancelled):
        big.bibtex.export_to(path, cancel=Flag())
    assert not path.exists()
    assert _exporters() == []
    assert big.db.execute("SELECT count(*) FROM frozen_keys").fetchone()[0] == 0


SLOW_EXPORT = """\
import sys, time
from pathlib import Path
from paperdesk.core.bibtex import bibtex_export, export_query
from paperdesk.core.library import Library
from paperdesk.core.model import workers

bibtex_export.PARALLEL_FROM = 0
workers.helpers = lambda: 2
export_query.BATCH = 3
lib = Library.open(Path(sys.argv[1]))
lib.bibtex.export_to(Path(sys.argv[2]), progress=lambda f, m: time.sleep(0.05))
"""


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_killing_the_exporting_program_leaves_no_process_and_no_file(big, tmp_path):
    """An export killed with SIGKILL while its exporting process runs: that process
    notices and ends on its own, and the destination is never written."""
    script = tmp_path / "slow_export.py"
    script.write_text(SLOW_EXPORT, encoding="utf-8")
    out = tmp_path / "out.bib"
    proc = subprocess.Popen([sys.executable, str(script), str(big.path), str(out)],
                            env=cli_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert processes.spawned(proc, 1, 60), "no exporting process seen"
    time.sleep(0.3)  # well into the export
    assert processes.killed_leaving(proc, 30) == []
    assert not out.exists()
    assert big.bibtex.export()  # the library reads as before


def test_a_paused_export_leaves_the_library_free_to_write_and_read(big, in_processes):
    """An export holds its view of the library on a connection of its own: while one is
    paused halfway, the library's own connection writes (committed at once, heard by
    its listeners), reads what other programs wrote, and closes."""
    before = big.bibtex.export()
    header, entries = big.bibtex.stream()
    first = [next(entries) for _ in range(30)]
    ids = list(big.search("").ids)
    heard = []
    big.add_listener(heard.append)
    big.curation.add_tags(ids[:5], ["mine meanwhile"])
    assert heard and not big.db.conn.in_transaction  # committed, not held in a savepoint
    other = Library.open(big.path)
    other.trash.delete(ids[-10:])
    other.close()
    assert len(big.search("").ids) == len(ids) - 10  # the window's reads are current
    rest = list(entries)
    assert "\n\n".join(header + first + rest) == before  # the export is as it began
    with Library.open(big.path) as again:
        assert again.search("tag:\"mine meanwhile\"").ids


def test_an_export_inside_a_write_is_that_write_s_state_alone(big, in_processes):
    """Inside a write under way, an export sees its uncommitted changes, every entry
    (no other process can see them: such an export is made here)."""
    ids = list(big.search("").ids)
    before = big.bibtex.export(ids, style="biblatex")
    with big.write("retitle", []):
        big.db.execute("UPDATE papers SET year = 1901, title = 'Retitled ' || id WHERE id IN "
                       f"({','.join(map(str, ids))})")
        text = big.bibtex.export(ids, style="biblatex")
    assert _exporters() == []
    assert text != before and text.count("Retitled") >= len(ids)
    assert big.bibtex.export(ids, style="biblatex") == text  # what was then committed


def test_export_to_a_pipe_closed_early_says_nothing_more(big, tmp_path):
    """``paperdesk export | head``: the reader goes, the export ends without a word on
    standard error about what it left open."""
    big.close()
    command = cli_command("--library", big.path, "export")
    proc = subprocess.run(" ".join(map(shlex.quote, map(str, command))) + " | head -c 200",
                          shell=True, capture_output=True, text=True, env=cli_env(),
                          timeout=120)
    assert len(proc.stdout) == 200
    assert "Exception ignored" not in proc.stderr and "Traceback" not in proc.stderr


def test_progress_counts_the_entries_made_not_the_batches_handed_out(big, in_processes):
    made: list[str] = []
    told: list[tuple[int, int]] = []  # (entries said to be made, entries made by then)

    def progress(fraction: float, message: str) -> None:
        if message.startswith("Exported") and " of " in message:
            told.append((int(message.split()[1]), len(made)))

    _, entries = big.bibtex.stream(progress=progress)
    for entry in entries:
        made.append(entry)
    assert len(told) > 20
    assert all(said <= done for said, done in told)
    assert [said for said, _ in told] == sorted(said for said, _ in told)


def test_the_last_batches_are_smaller_and_every_id_goes_once_in_order(monkeypatch):
    """At the end this process waits for the batches queued in the exporting ones: the
    last four batches' ids go in batches a quarter the size."""
    monkeypatch.setattr(export_query, "BATCH", 100)
    ids = list(range(1, 1051))
    batches = list(export_query.id_batches(ids, None))
    assert [i for batch in batches for i in batch] == ids
    sizes = [len(batch) for batch in batches]
    assert sizes == [100] * 7 + [25] * 14  # 350 ids left: no more than four batches
