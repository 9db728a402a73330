"""kill -9 during indexing, then resume: every attachment's pages once, none missing.

A real process indexes a library of 40 PDFs; it is killed (SIGKILL on POSIX,
TerminateProcess on Windows) once it has said it is at the 12th file, whatever it is
writing then. The full-text file must hold whole attachments only, and the next run
must index exactly the rest.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import psutil

from tests.command_line import cli_env
from tests.pdf_library import attach_pdf, paper_ids

FILES = 40
CHILD = """
import sys
from paperdesk.core.library import Library
lib = Library.open(sys.argv[1], create=False)
lib.fulltext.index(progress=lambda f, m: print(m, flush=True))
print("finished", flush=True)
"""


def _pages(i: int) -> list[list[str]]:
    return [[f"File {i} page {p} holds the word w{i}x{p} and the phrase common text."]
            for p in range(1 + i % 5)]


def _content(path) -> tuple[list, list, list]:
    conn = sqlite3.connect(path)
    try:
        states = conn.execute("SELECT attachment_id, pages FROM extractions ORDER BY 1").fetchall()
        pages = conn.execute("SELECT attachment_id, page, count(*) FROM page_texts "
                             "GROUP BY attachment_id, page ORDER BY 1, 2").fetchall()
        check = conn.execute("INSERT INTO page_texts_fts (page_texts_fts) "
                             "VALUES ('integrity-check')").fetchall()
        return states, pages, check
    finally:
        conn.close()


def test_killed_while_indexing_then_resumed(seed_lib) -> None:
    papers = paper_ids(seed_lib, 8)
    expected = {attach_pdf(seed_lib, papers[i % 8], _pages(i), f"f{i}.pdf"): len(_pages(i))
                for i in range(FILES)}
    path = seed_lib.path
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE,
                            text=True, env=cli_env())
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line.strip())
        if line.startswith("Indexing the text of PDFs: 12 of"):
            break
    family = [proc.pid, *(c.pid for c in psutil.Process(proc.pid).children(recursive=True))]
    proc.kill()
    proc.wait()
    _, alive = psutil.wait_procs([psutil.Process(p) for p in family
                                     if psutil.pid_exists(p)], timeout=10)
    assert alive == []  # the sandbox's child ended with its parent
    assert "finished" not in seen and len(seen) == 13

    states, pages, check = _content(seed_lib.fulltext.path)
    assert check == []
    done = {a for a, _ in states}
    assert 12 <= len(done) < FILES
    assert all(n == expected[a] for a, n in states)
    assert all(count == 1 for _, _, count in pages)  # no page twice
    assert sorted((a, p) for a, p, _ in pages) == sorted(  # none missing, no stray
        (a, p) for a in done for p in range(expected[a]))

    report = seed_lib.fulltext.index()
    assert report.indexed == FILES - len(done) and report.current == len(done)
    states, pages, check = _content(seed_lib.fulltext.path)
    assert check == [] and dict(states) == expected
    assert sorted((a, p) for a, p, _ in pages) == sorted(
        (a, p) for a in expected for p in range(expected[a]))
    assert seed_lib.search("pdf:w39x3").ids == [papers[39 % 8]]
