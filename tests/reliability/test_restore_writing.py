"""Restore while other programs write: every write that reported success is in the
restored library or in the copy restore kept of the library before it; none is in
neither. Writes during the restore wait for its lock, or fail loudly."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from paperdesk.core.db import backup
from paperdesk.core.library import Library
from tests.command_line import cli_command, cli_env
from tests.reliability.helpers import cli, curate, integrity

pytestmark = pytest.mark.slow

WRITER = """
import sys, time
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.core.library import Library
lib = Library.open(sys.argv[1], create=False)
ids = lib.search("").ids[:30]
n = 0
while True:
    n += 1
    token = f"{sys.argv[2]}-{n}"
    try:
        lib.curation.add_note(ids[n % len(ids)], token)
        print("ok", token, flush=True)
    except PaperDeskError as exc:
        print("err", token, str(exc).replace("\\n", " "), flush=True)
    time.sleep(0.001)
"""


def notes(path: Path) -> set[str]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {r[0] for r in conn.execute("SELECT text FROM notes")}
    finally:
        conn.close()


def test_no_write_is_lost_between_the_kept_copy_and_the_restored_library(tmp_path, seeds):
    library = tmp_path / "library.sqlite"
    with Library.open(library) as lib:
        lib.import_paths(seeds[:3])
        curate(lib)
    old = backup.backup_library(library, tmp_path / "old.sqlite")

    ok: set[str] = set()
    failed: list[str] = []
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(library), f"p{i}"],
                                env=cli_env(), stdout=subprocess.PIPE, text=True)
               for i in range(2)]

    writing = [threading.Event() for _ in writers]

    def collect(proc: subprocess.Popen, started: threading.Event) -> None:
        for line in proc.stdout:
            if not line.endswith("\n"):
                break
            words = line.split(maxsplit=2)
            if words[0] == "ok" and len(words) == 2:
                ok.add(words[1])
                started.set()
            elif words[0] == "err":
                failed.append(line.strip())

    readers = [threading.Thread(target=collect, args=(p, e), daemon=True)
               for p, e in zip(writers, writing, strict=True)]
    for r in readers:
        r.start()
    restores = 0
    cli_notes: set[str] = set()
    try:
        # The restores begin once every writer has saved a write (they start slowly
        # on a loaded machine).
        assert all(e.wait(timeout=120) for e in writing), "a writer never wrote"
        for round_ in range(4):
            time.sleep(0.5)
            # a command writing at the same moment, in a process of its own
            note = subprocess.Popen(cli_command("--library", library, "note", 5,
                                                f"cli-{round_}"), env=cli_env(),
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                    text=True)
            result = cli("--library", library, "restore", old, "--yes")
            assert result.returncode == 0, result.stderr
            restores += 1
            _, err = note.communicate(timeout=120)
            assert "Traceback" not in err
            if note.returncode == 0:
                cli_notes.add(f"cli-{round_}")
            else:
                assert "busy" in err and err.count("\n") == 1, err
        time.sleep(0.5)
    finally:
        for w in writers:
            w.kill()
            w.wait(timeout=60)
        for r in readers:
            r.join(timeout=60)

    kept = sorted((tmp_path / "backups").glob("library.before-restore-*.sqlite"))
    assert len(kept) == restores
    found = notes(library).union(*(notes(k) for k in kept))
    lost = sorted((ok | cli_notes) - found)
    print(f"\nrestore while writing: {restores} restores, {len(ok) + len(cli_notes)} writes "
          f"reported saved, {len(failed)} refused, lost {len(lost)}")
    assert not lost, lost[:20]
    assert all("busy" in line for line in failed), failed[:3]
    assert len(ok) > 20
    assert integrity(library) == "ok"
    for k in kept:
        assert integrity(k) == "ok"
