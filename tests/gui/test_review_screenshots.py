"""Screenshots of the duplicate review and the export dialog.

They are written to the test's temporary folder; with PAPERDESK_SCREENSHOTS=1
they also replace docs/screenshots/duplicates.png and export.png.
"""

from __future__ import annotations

from pathlib import Path

from .duplicate_library import add_retyped
from .screenshots import save_screenshot


def test_duplicate_review_screenshot(lib, seeds, make_window, tmp_path, qtbot):
    lib.import_paths(seeds[1:])
    pairs = add_retyped(lib, seeds[0], tmp_path, 4)
    original, repeat = pairs[0]
    lib.curation.set_rating([repeat], 4)
    lib.curation.add_tags([repeat], ["power"])
    lib.curation.set_status([original], "to-read")
    window = make_window(lib)
    window.resize(1440, 820)
    view = window.context.features["review"].duplicates
    qtbot.waitUntil(lambda: view.groups is not None and not view.scanning
                    and not view._timer.isActive(), timeout=20000)
    window.sidebar.select(("duplicates", None))
    assert view.select_paper(original)
    view.compare.choose("title", original)
    qtbot.wait(50)
    assert view.list.count() == 4
    save_screenshot(window, tmp_path, "duplicates.png")


def test_export_dialog_screenshot(seed_lib, make_window, tmp_path, qtbot):
    window = make_window(seed_lib)
    window.feed.set_query("scaling")
    model = window.feed.view.selectionModel()
    for row in (0, 1, 2):
        model.select(window.feed.model.index(row, 0), model.SelectionFlag.Select
                     | model.SelectionFlag.Rows)
    window.actions_by_name["export_bibtex"].trigger()
    dialog = window.context.features["export"].dialog
    qtbot.addWidget(dialog)
    dialog.set_options(path=Path.home() / "papers" / "thesis.bib", notes=True)
    qtbot.waitExposed(dialog)
    qtbot.wait(50)
    save_screenshot(dialog, tmp_path, "export.png")
    dialog.reject()
