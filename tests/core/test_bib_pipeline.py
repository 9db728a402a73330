"""A large .bib import writes each chunk of rows on a thread of its own while the next
chunk is matched: the library it leaves is the one the same import makes chunk after
chunk, and an error or a cancel on that thread rolls the whole file back."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from paperdesk.core.importing.bibtex_write import BibWriter
from paperdesk.core.library import Library
from tests.core.test_bib_pool import _text

TIMES = {"added", "modified", "imported_at"}
TABLES = ("papers", "tags", "paper_tags", "frozen_keys", "bib_files", "papers_fts",
          "annotations_fts")


def tables(lib: Library) -> dict[str, list[tuple[object, ...]]]:
    """Every row the import writes, without the time of the run."""
    found = {}
    for table in TABLES:
        rowid = "rowid, " if table.endswith("_fts") else ""  # the search rows' paper ids
        cursor = lib.db.execute(f"SELECT {rowid}* FROM {table}")
        keep = [n for n, d in enumerate(cursor.description) if d[0] not in TIMES]
        found[table] = sorted((tuple(row[n] for n in keep) for row in cursor), key=repr)
    return found


def _imported(tmp_path: Path, name: str, chunk: int, monkeypatch: pytest.MonkeyPatch,
              cancel: threading.Event | None = None):
    """The same library before (papers an entry merges into, on DOI), then the file."""
    monkeypatch.setattr(BibWriter, "CHUNK", chunk)
    (tmp_path / name).mkdir()
    before = tmp_path / name / "before.bib"
    before.write_text("".join(f"@article{{old{n}, title = {{Same key again {n}}}, "
                              f"doi = {{10.1/x{n}}}, keywords = {{kept}}}}\n"
                              for n in range(5, 3000, 250)), encoding="utf-8")
    lib = Library.open(tmp_path / f"{name}.sqlite", create=True)
    lib.import_paths([before])
    path = tmp_path / "in.bib"
    path.write_text(_text(3000), encoding="utf-8")
    return lib, lib.import_paths([path], cancel=cancel)[0]


def test_the_rows_written_beside_the_matching_are_those_written_after_it(
        tmp_path, monkeypatch):
    whole, one = _imported(tmp_path, "whole", 10**6, monkeypatch)  # one chunk
    parts, many = _imported(tmp_path, "parts", 250, monkeypatch)  # a dozen, overlapping
    assert many.merged == one.merged > 0 and many.new_papers == one.new_papers > 2000
    assert (many.warnings, many.renamed, many.merges) == (one.warnings, one.renamed,
                                                         one.merges)
    assert tables(parts) == tables(whole)
    assert parts.bibtex.export() == whole.bibtex.export()
    assert parts.search("tag:kept").ids == whole.search("tag:kept").ids != []
    whole.close()
    parts.close()


def test_an_error_on_the_writing_thread_rolls_the_file_back(tmp_path, monkeypatch):
    """A row the library refuses in the ninth chunk (another program's trigger): the
    import fails with the library's reason, and nothing of the file stays."""
    lib, _ = _imported(tmp_path, "first", 250, monkeypatch)
    before = tables(lib)
    conn = sqlite3.connect(tmp_path / "first.sqlite")
    conn.execute("CREATE TRIGGER refuse BEFORE INSERT ON papers WHEN new.title = "
                 "'Again 2201' BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END")
    conn.close()
    again = tmp_path / "again.bib"  # new papers all: none is an entry of before
    again.write_text(_text(3000).replace("Plain ", "Again ").replace("{art", "{again"),
                     encoding="utf-8")
    report = lib.import_paths([again])[0]
    assert report.status == "error" and "refused by a trigger" in report.error
    assert tables(lib) == before
    assert [t.name for t in threading.enumerate() if "bib-writer" in t.name] == []
    lib.close()


def test_a_cancel_while_rows_are_written_keeps_nothing(tmp_path, monkeypatch):
    cancel = threading.Event()
    original = BibWriter._store

    def store_then_cancel(self, rows, tagged):
        if self.new >= 1000:  # a chunk beside the matching of the next
            cancel.set()
        original(self, rows, tagged)

    monkeypatch.setattr(BibWriter, "_store", store_then_cancel)
    lib, report = _imported(tmp_path, "cancel", 250, monkeypatch, cancel)
    assert report.status == "cancelled", report.error
    assert lib.stats()["papers"] == 12  # those of before alone
    lib.close()



@pytest.mark.slow
def test_an_import_killed_while_chunks_are_written_keeps_all_or_nothing(tmp_path):
    """``paperdesk import`` of a file of several chunks, killed with SIGKILL at random
    points while the writing thread may be inside an insert: each library opens intact,
    holding the whole file or none of it."""
    import random
    import signal
    import subprocess
    import time

    from tests.command_line import cli_command, cli_env

    path = tmp_path / "big.bib"
    path.write_text(_text(7000), encoding="utf-8")
    started = time.monotonic()  # the whole import, uninterrupted: when to kill the others
    subprocess.run(cli_command("--library", tmp_path / "whole.sqlite", "--create", "import",
                               path), env=cli_env(), capture_output=True, check=True)
    took = time.monotonic() - started
    with Library.open(tmp_path / "whole.sqlite") as whole:
        expected = whole.stats()["papers"]
    rng = random.Random(42)
    outcomes = []
    for n in range(6):
        library = tmp_path / f"k{n}.sqlite"
        Library.open(library, create=True).close()
        proc = subprocess.Popen(cli_command("--library", library, "import", path),
                                env=cli_env(), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, 0.95) * took)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        with Library.open(library) as lib:
            assert lib.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            outcomes.append(lib.stats()["papers"])
    assert set(outcomes) <= {0, expected} and expected > 4000, (outcomes, expected)
    assert 0 in outcomes, outcomes  # some kill landed inside the import
