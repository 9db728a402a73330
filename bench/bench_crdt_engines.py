"""Loro against pycrdt (Yjs) on a library's shape, to choose the sharing engine.

A paper is a map of about a dozen registers (title, a 1,200-character abstract,
authors, year, identifiers, rating, status...) with a map of tags under it; the
reading queue a list of paper ids. Measured for each engine:

- build: 100,000 papers into a new document, in one transaction;
- export: the whole document as one update (a snapshot), and its size;
- apply: that update imported into an empty document (a new computer joining);
- 10,000 edits: a rating on 10,000 papers, their update's size, and applying it
  to a document that has the 100,000 already.

The floor is a dict of dicts built and pickled the same way (what the shape costs
in plain Python).

    PYTHONPATH=src python bench/bench_crdt_engines.py [--papers 100000]
"""

from __future__ import annotations

import argparse
import pickle
import time
from collections.abc import Callable
from typing import Any


def paper(i: int) -> dict[str, Any]:
    words = ("scaling", "laws", "diffusion", "attention", "sparse", "reasoning", "agents")
    return {
        "title": " ".join(words[(i + k) % len(words)] for k in range(12)) + f" {i}",
        "abstract": ("We study " + " ".join(words) + ". ") * 24,
        "authors": '["A. Author", "B. Writer"]',
        "year": 2020 + i % 6,
        "arxiv_id": f"24{i % 12:02d}.{i:05d}",
        "doi": None,
        "url": f"https://arxiv.org/abs/24{i % 12:02d}.{i:05d}",
        "citekey": f"author{2020 + i % 6}paper{i}",
        "rating": 0,
        "status": "unread",
        "deleted_at": None,
        "bib_type": "article",
    }


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def bench_loro(n: int) -> dict[str, float]:
    import loro

    def build() -> loro.LoroDoc:
        doc = loro.LoroDoc()
        papers = doc.get_map("papers")
        queue = doc.get_movable_list("queue")
        for i in range(n):
            m = papers.insert_container(f"p{i}", loro.LoroMap())
            for k, v in paper(i).items():
                m.insert(k, v)
            m.insert_container("tags", loro.LoroMap())
            if i % 50 == 0:
                queue.push(f"p{i}")
        doc.commit()
        return doc

    t_build, doc = timed(build)
    t_export, snap = timed(lambda: doc.export(loro.ExportMode.Snapshot()))

    def join() -> loro.LoroDoc:
        other = loro.LoroDoc()
        other.import_(snap)
        return other

    t_apply, other = timed(join)
    vv = doc.oplog_vv

    def edits() -> bytes:
        papers = doc.get_map("papers")
        for i in range(0, min(n, 10_000)):
            papers.get(f"p{i}").container.insert("rating", 1 + i % 5)  # type: ignore[union-attr]
        doc.commit()
        return doc.export(loro.ExportMode.Updates(vv))

    t_edit, update = timed(edits)
    t_apply_edits, _ = timed(lambda: other.import_(update))
    return {"build": t_build, "export": t_export, "size": len(snap), "apply": t_apply,
            "edit": t_edit, "edit size": len(update), "apply edits": t_apply_edits}


def bench_pycrdt(n: int) -> dict[str, float]:
    import pycrdt

    def build() -> pycrdt.Doc:
        doc = pycrdt.Doc()
        papers = doc.get("papers", type=pycrdt.Map)
        queue = doc.get("queue", type=pycrdt.Array)
        with doc.transaction():
            for i in range(n):
                fields = {k: v for k, v in paper(i).items() if v is not None}
                papers[f"p{i}"] = pycrdt.Map({**fields, "tags": pycrdt.Map()})
                if i % 50 == 0:
                    queue.append(f"p{i}")
        return doc

    t_build, doc = timed(build)
    t_export, snap = timed(doc.get_update)

    def join() -> pycrdt.Doc:
        other = pycrdt.Doc()
        other.apply_update(snap)
        return other

    t_apply, other = timed(join)
    state = doc.get_state()

    def edits() -> bytes:
        papers = doc.get("papers", type=pycrdt.Map)
        with doc.transaction():
            for i in range(0, min(n, 10_000)):
                papers[f"p{i}"]["rating"] = 1 + i % 5
        return doc.get_update(state)

    t_edit, update = timed(edits)
    t_apply_edits, _ = timed(lambda: other.apply_update(update))
    return {"build": t_build, "export": t_export, "size": len(snap), "apply": t_apply,
            "edit": t_edit, "edit size": len(update), "apply edits": t_apply_edits}


def floor(n: int) -> dict[str, float]:
    t_build, lib = timed(lambda: {f"p{i}": {**paper(i), "tags": {}} for i in range(n)})
    t_export, blob = timed(lambda: pickle.dumps(lib))
    t_apply, _ = timed(lambda: pickle.loads(blob))
    return {"build": t_build, "export": t_export, "size": len(blob), "apply": t_apply}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=100_000)
    ap.add_argument("--skip-pycrdt", action="store_true")
    n = ap.parse_args().papers
    rows = {"floor (dict+pickle)": floor(n), "loro": bench_loro(n)}
    if not ap.parse_args().skip_pycrdt:
        rows["pycrdt"] = bench_pycrdt(n)
    cols = ("build", "export", "size", "apply", "edit", "edit size", "apply edits")
    print(f"{n:,} papers; seconds, sizes in MB")
    print(f"{'engine':22}" + "".join(f"| {c:>11} " for c in cols))
    for name, r in rows.items():
        cells = []
        for c in cols:
            v = r.get(c)
            cells.append("-" if v is None else f"{v / 1e6:.1f}" if "size" in c else f"{v:.2f}")
        print(f"{name:22}" + "".join(f"| {c:>11} " for c in cells))


if __name__ == "__main__":
    main()
