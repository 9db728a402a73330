"""Shared pieces of the reliability tests: a curated library, its user data, the CLI."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from paperdesk.core.library import Library
from tests.command_line import paperdesk_process


def curate(lib: Library) -> None:
    """Give a library with papers some of everything a person adds by hand."""
    ids = lib.search("", sort="title").ids
    assert len(ids) >= 20
    cur = lib.curation
    cur.set_rating(ids[:5], 4)
    cur.set_rating(ids[5:8], 1)
    cur.set_status(ids[:3], "read")
    cur.set_status(ids[10:14], "to-read")
    cur.add_tags(ids[:6], ["Systems", "to cite"])
    cur.add_tags(ids[3:9], "Ünïcode tag")
    for n, pid in enumerate(ids[:7]):
        cur.add_note(pid, f"Note {n}: read the *containment* section, p. {n + 3}.")
    cur.save_search("systems", "tag:Systems")


def user_data(path: Path) -> dict[str, Any]:
    """Everything a person made or imported, read without changing the file."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        one = {
            "papers": "SELECT id, title, abstract, citekey, rating, status, list_position, "
                      "year, deleted_at FROM papers ORDER BY id",
            "tags": "SELECT id, name FROM tags ORDER BY id",
            "paper_tags": "SELECT paper_id, tag_id FROM paper_tags ORDER BY 1, 2",
            "notes": "SELECT id, paper_id, text FROM notes ORDER BY id",
            "digests": "SELECT id, sha256, entries FROM digests ORDER BY id",
            "sightings": "SELECT digest_id, count(*) FROM sightings GROUP BY 1 ORDER BY 1",
            "saved": "SELECT name, query FROM saved_searches ORDER BY name",
        }
        return {key: conn.execute(sql).fetchall() for key, sql in one.items()}
    finally:
        conn.close()


def integrity(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def cli(*args: Any, input: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``paperdesk ARGS`` in a process of its own; never a traceback."""
    return paperdesk_process(*args, input=input, timeout=timeout)


def kill_when(proc: subprocess.Popen, ready: Callable[[], bool]) -> bool:
    """SIGKILL ``proc`` as soon as ``ready()``; whether it was still running then."""
    try:
        while not ready() and proc.poll() is None:
            time.sleep(0.001)
        return proc.poll() is None
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)


def file_digest(path: Path) -> str:
    """The SHA-256 of a file, read by another process: reading (and closing) a library
    file here would drop this process's SQLite locks on it."""
    code = "import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest())"
    return subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          text=True, check=True).stdout.strip()
