"""The review, trash and BibTeX screens on a large library: what the UI thread pays.

The duplicate scan and big exports run on the worker; these figures are the
work left on the UI thread, which must stay short for the window to feel
instant. Each is printed beside a floor measured in the same run: raw sqlite3
reading the same rows.

1. Filling the duplicate review's list with every group of a scan, and
   showing the first group side by side (target <= 150 ms), beside a raw
   select of the groups' titles.
2. Showing one group side by side, with the merged paper's preview
   (target <= 30 ms), beside a raw select of the group's rows.
3. The sidebar's Review entries on every sidebar refresh (target <= 10 ms),
   beside the raw count.
4. Listing the trash with 5,000 papers in it (the newest 1,000 are listed;
   target <= 50 ms), beside a raw select of the same rows.
5. Copy BibTeX of 1,000 selected papers (target <= 250 ms), beside a raw
   select of their rows.
6. Exporting 2,000 papers to a file, the largest export the dialog runs
   inline rather than on the worker (target <= 250 ms), beside a raw select of
   their rows written to a file.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_review.py [--runs 3]
        [--papers 100000]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from common import OUT, header, median_time, note, report
from generate import make_library


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--papers", type=int, default=100_000)
    args = parser.parse_args(argv)

    from PySide6.QtWidgets import QApplication

    from paperdesk.gui import operations
    from paperdesk.gui.common import clipboard
    from paperdesk.gui.curation import trash_view
    from paperdesk.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    OUT.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=OUT, prefix="review-"))
    os.environ["PAPERDESK_DATA_DIR"] = str(tmp)
    lib = make_library(tmp / "library.sqlite", args.papers)
    start = time.perf_counter()
    groups = lib.duplicates.scan()
    note(f"{args.papers} papers; scan (on the worker in the app): "
         f"{time.perf_counter() - start:.2f} s, {len(groups)} groups")
    ids = [r[0] for r in lib.db.execute("SELECT id FROM papers ORDER BY id")]
    lib.trash.delete(ids[-5000:])
    window = MainWindow(lib)
    pages = window.context.features["review"]
    view = pages.duplicates
    view._timer.stop()  # the measured fills use the scan above, not one on the worker
    app.processEvents()
    raw = sqlite3.connect(lib.path)
    ok = []
    header(f"The review and BibTeX screens, UI thread ({args.papers} papers)")

    def fill() -> None:
        view.groups = list(groups)
        view.fill()

    keepers = [g.ids[0] for g in groups]

    def raw_titles() -> None:
        for i in range(0, len(keepers), 900):
            part = keepers[i:i + 900]
            raw.execute(f"SELECT id, title FROM papers WHERE id IN ({','.join('?' * len(part))})",
                        part).fetchall()

    ok.append(report("duplicate review: list every group, show the first",
                     median_time(fill, args.runs), median_time(raw_titles, args.runs), 0.150))
    group = groups[0].ids
    marks = ",".join("?" * len(group))
    ok.append(report("one group side by side, with the merge preview",
                     median_time(lambda: view.compare.set_group(lib, group), args.runs),
                     median_time(lambda: raw.execute(f"SELECT * FROM papers WHERE id IN "
                                                     f"({marks})", group).fetchall(), args.runs),
                     0.030))
    ok.append(report("sidebar Review entries (each sidebar refresh)",
                     median_time(lambda: pages._sidebar_entries(window.sidebar), args.runs),
                     median_time(lambda: raw.execute("SELECT count(*) FROM papers WHERE "
                                                     "deleted_at IS NOT NULL").fetchone(),
                                 args.runs), 0.010))
    ok.append(report("trash view: 5,000 deleted papers, list the newest",
                     median_time(pages.trash.reload, args.runs),
                     median_time(lambda: raw.execute(
                         "SELECT id, title, year, deleted_at FROM papers WHERE deleted_at IS "
                         "NOT NULL ORDER BY deleted_at DESC, id DESC LIMIT ?",
                         [trash_view.MAX_ROWS]).fetchall(), args.runs), 0.050))
    chosen = ids[:1000]

    def raw_rows(part_ids: list[int]) -> list[tuple]:
        rows = []
        for i in range(0, len(part_ids), 900):
            part = part_ids[i:i + 900]
            rows += raw.execute(f"SELECT id, citekey, title, abstract, authors, organization, "
                                f"published, year, arxiv_id, doi, url FROM papers WHERE id IN "
                                f"({','.join('?' * len(part))})", part).fetchall()
        return rows

    ok.append(report("Copy BibTeX of 1,000 selected papers",
                     median_time(lambda: clipboard.bibtex_mime(lib, chosen), args.runs),
                     median_time(lambda: raw_rows(chosen), args.runs), 0.250))
    inline = ids[:operations.LARGE]
    out = tmp / "export.bib"

    def raw_export() -> None:
        with open(out, "w", encoding="utf-8") as f:
            for row in raw_rows(inline):
                f.write(repr(row))

    ok.append(report(f"export {operations.LARGE} papers inline (the dialog's limit)",
                     median_time(lambda: lib.bibtex.export_to(out, inline), args.runs),
                     median_time(raw_export, args.runs), 0.250))
    window.worker.stop()
    window.close()
    raw.close()
    lib.close()
    return 0 if all(ok) else 1


if __name__ == "__main__":
    raise SystemExit(main())
