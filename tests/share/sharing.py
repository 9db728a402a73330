"""Helpers for the sharing tests: libraries, their shared view, edits."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from paperdesk.core.library import Library
from tests.digest_files import write_digest


def digest(folder: Path, name: str = "daily.txt", papers: range = range(1, 9)) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return write_digest(folder, name, 3, 4, {n: 10 + n for n in papers})


def view(lib: Library) -> dict[str, Any]:
    """What must be the same on every computer: papers by stable id (no local id,
    no local stamp), the reading queue, the tags."""
    papers = {}
    for p in lib.papers(lib.search("", include_deleted=True).ids, with_notes=True):
        p = dict(p)
        p.pop("id")
        p.pop("modified")
        # digests of one day are listed in the order each computer has them
        p["digests"] = sorted(p["digests"])
        # a note's local id is each computer's; its text and times travel
        p["notes"] = sorted((n["text"], n["created"], n["updated"]) for n in p["notes"])
        papers[p["uid"]] = p
    queue = [lib.paper(i)["uid"] for i in lib.curation.reading_list()]
    return {"papers": papers, "queue": queue, "tags": lib.curation.tags()}


def library(path: Path) -> Library:
    path.parent.mkdir(parents=True, exist_ok=True)
    return Library.open(path)


def uid_ids(lib: Library) -> dict[str, int]:
    return {lib.paper(i)["uid"]: i for i in lib.search("", include_deleted=True).ids}


@contextmanager
def pair(tmp_path: Path, papers: bool = False,
         started: bool = False) -> Iterator[tuple[Library, Library, Path]]:
    """Two libraries and the folder they may share (``papers``: the first holds a
    digest's; ``started``: both share the folder already); closed afterwards."""
    folder = tmp_path / "Sync"
    folder.mkdir()
    a, b = library(tmp_path / "a" / "a.sqlite"), library(tmp_path / "b" / "b.sqlite")
    if papers:
        a.import_paths([digest(tmp_path / "d")])
    if started:
        a.share.start(folder)
        b.share.start(folder)
    try:
        yield a, b, folder
    finally:
        a.close()
        b.close()


def exchange(*libs: Library) -> None:
    """Each exchanges, twice round: everyone has read everyone's."""
    for lib in (*libs, *libs):
        lib.share.now()
