"""The window's import hands on the ids the importer created: "Undo last import" takes
back those papers, named by the importer, never worked out from a count."""

from __future__ import annotations

from tests.conftest import SEED_PAPERS
from tests.digest_files import write_digest


def test_the_window_keeps_the_ids_the_import_created(window, seed_lib, qtbot, tmp_path):
    before = {r[0] for r in seed_lib.db.execute("SELECT id FROM papers")}
    results = []
    window.context.importer.done.connect(results.append)
    window.context.importer.start([write_digest(tmp_path, "new.txt", 6, 1,
                                                {n: n for n in range(4)})])
    qtbot.waitUntil(lambda: bool(results), timeout=20000)
    window.context.importer.report.accept()
    made = sorted({r[0] for r in seed_lib.db.execute("SELECT id FROM papers")} - before)
    assert len(made) == 4
    assert results[0].created_ids == made
    assert sorted(window.context.importer.last_import.created) == made
    window.context.features["imports"].undo_last()
    assert seed_lib.stats()["papers"] == SEED_PAPERS
    assert "Import undone: removed 4 papers" in window.statusBar().currentMessage()
