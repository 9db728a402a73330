"""Reviewing duplicates in the window, against a real library with re-typed repeats."""

from __future__ import annotations

import pytest

from paperdesk.core.library import Library
from paperdesk.gui.common import dialogs
from paperdesk.gui.duplicates.merge_history import MergeHistory
from paperdesk.gui.startup import library_files

from .conftest import sidebar_counts
from .duplicate_library import add_retyped, retype

SCAN_TIMEOUT = 20000


@pytest.fixture
def repeats(lib, seeds, tmp_path) -> list[list[int]]:
    lib.import_paths(seeds[1:])
    return add_retyped(lib, seeds[0], tmp_path, 3)


def scanned(window, qtbot):
    view = window.context.features["review"].duplicates
    qtbot.waitUntil(lambda: view.groups is not None and not view.scanning
                    and not view._timer.isActive(), timeout=SCAN_TIMEOUT)
    return view


def rescanned(window, qtbot):
    view = window.context.features["review"].duplicates
    qtbot.waitUntil(lambda: view._timer.isActive() or view.scanning, timeout=SCAN_TIMEOUT)
    return scanned(window, qtbot)


def open_review(window, qtbot):
    view = scanned(window, qtbot)
    window.sidebar.select(("duplicates", None))
    assert window.context.features["review"].content.currentWidget() is view
    return view


def test_retyped_repeats_show_as_groups_side_by_side(repeats, lib, make_window, qtbot):
    window = make_window(lib)
    view = open_review(window, qtbot)
    assert sorted(sorted(g.ids) for g in view.groups) == sorted(repeats)
    assert {g.tier for g in view.groups} == {"likely"}
    assert sidebar_counts(window)["Duplicates"] == "3"
    assert view.list.count() == 3
    assert all("title" in " ".join(g.evidence) for g in view.groups)
    original, repeat = repeats[0]
    assert view.select_paper(repeat)
    table = view.compare
    assert sorted(table.ids) == [original, repeat]
    assert "title" in table.differing()
    assert "abstract" not in table.differing()
    titles = {table.item(0, col).text() for col in range(2)}
    assert titles == {lib.paper(original)["title"], lib.paper(repeat)["title"]}
    assert table.item(0, 2).text() == lib.paper(table.keep)["title"]  # the merged column


def test_merging_through_the_view_changes_the_library_and_undo_restores(
        repeats, lib, make_window, qtbot):
    window = make_window(lib)
    view = open_review(window, qtbot)
    original, repeat = repeats[1]
    before = {p["id"]: p for p in lib.papers([original, repeat], with_notes=True)}
    sightings = len(lib.sightings(original)) + len(lib.sightings(repeat))
    assert view.select_paper(original)
    view.compare.set_keep(original)
    view.compare.choose("title", repeat)  # keep the re-typed spelling, to see the choice work
    assert view.compare.preview()["title"] == before[repeat]["title"]
    view.merge.click()

    assert lib.papers([repeat]) == []
    merged = lib.paper(original)
    assert merged["title"] == before[repeat]["title"]
    assert len(lib.sightings(original)) == sightings
    assert lib.stats()["papers"] == 195
    assert view.list.count() == 2 and sidebar_counts(window)["Duplicates"] == "2"
    assert window.feed.model.rowCount() == 195

    window.actions_by_name["undo"].trigger()
    after = {p["id"]: p for p in lib.papers([original, repeat], with_notes=True)}
    assert after == before
    assert lib.stats()["papers"] == 196 and window.feed.model.rowCount() == 196
    rescanned(window, qtbot)
    assert sorted(sorted(g.ids) for g in view.groups) == sorted(repeats)

    window.actions_by_name["redo"].trigger()
    assert lib.papers([repeat]) == [] and lib.paper(original)["title"] == before[repeat]["title"]


def test_not_duplicates_hides_the_group_across_a_restart(repeats, lib, make_window, qtbot):
    window = make_window(lib)
    view = open_review(window, qtbot)
    apart = repeats[2]
    assert view.select_paper(apart[0])
    view.different.click()
    assert lib.stats()["papers"] == 196  # nothing merged
    assert all(sorted(g.ids) != apart for g in view.groups)
    assert sidebar_counts(window)["Duplicates"] == "2"
    window.close()
    path = lib.path
    lib.close()

    with Library.open(path) as again:
        second = make_window(again)
        view = open_review(second, qtbot)
        assert sorted(sorted(g.ids) for g in view.groups) == sorted(repeats[:2])
        assert sidebar_counts(second)["Duplicates"] == "2"
        second.close()


def test_merge_all_certain_merges_exactly_the_certain_groups(repeats, lib, make_window, qtbot,
                                                            monkeypatch):
    certain = repeats[0]
    with lib.transaction() as db:  # the same arXiv id makes a pair certain
        db.execute("UPDATE papers SET arxiv_id = '2401.00001' WHERE id IN (?, ?)", certain)
    window = make_window(lib)
    view = open_review(window, qtbot)
    assert [sorted(g.ids) for g in view.certain_groups()] == [certain]
    assert view.merge_all.text() == "Merge all certain (1)…" and view.merge_all.isEnabled()
    asked = []
    monkeypatch.setattr(dialogs, "confirm", lambda *a: asked.append(a[2]) or True)
    view.merge_all.click()
    assert len(asked) == 1 and "1 group of certain duplicates" in asked[0]
    assert lib.stats()["papers"] == 195
    gone = [pid for pid in certain if not lib.papers([pid])]
    assert len(gone) == 1
    for likely in repeats[1:]:
        assert len(lib.papers(likely)) == 2
    view = rescanned(window, qtbot)
    assert sorted(sorted(g.ids) for g in view.groups) == sorted(repeats[1:])
    assert not view.merge_all.isEnabled()
    window.actions_by_name["undo"].trigger()
    assert lib.stats()["papers"] == 196 and len(lib.papers(certain)) == 2


def test_the_merge_history_undoes_any_merge(repeats, lib, make_window, qtbot):
    window = make_window(lib)
    view = open_review(window, qtbot)
    for original, _repeat in repeats[:2]:
        assert view.select_paper(original)
        view.compare.set_keep(original)
        view.merge.click()
    assert lib.stats()["papers"] == 194
    history = MergeHistory(window)
    qtbot.addWidget(history)
    assert [e["kept_id"] for e in history.entries] == [repeats[1][0], repeats[0][0]]
    first = history.entries[1]["id"]  # the older merge, not the last one done
    assert history.select(first) and history.undo_button.isEnabled()
    assert history.unmerge_selected()
    assert lib.stats()["papers"] == 195
    assert lib.paper(repeats[0][1])["title"] == retype(lib.paper(repeats[0][0])["title"])
    assert len(lib.papers(repeats[1])) == 1  # the other merge stands
    assert history.entries[1]["undone"] and not history.undo_button.isEnabled()
    window.actions_by_name["undo"].trigger()  # the unmerge is on the undo stack too
    assert lib.stats()["papers"] == 194 and lib.papers([repeats[0][1]]) == []


def test_the_import_report_links_to_the_likely_duplicates(lib, seeds, tmp_path, make_window,
                                                          qtbot):
    lib.import_paths(seeds[1:])
    window = make_window(lib)
    scanned(window, qtbot)
    folder = tmp_path / "later"
    folder.mkdir()
    with Library.open(tmp_path / "scratch.sqlite") as scratch:  # only to write the file
        assert add_retyped(scratch, seeds[0], folder, 2)
    window.context.importer.start([seeds[0], folder / f"retyped-{seeds[0].name}"])
    qtbot.waitUntil(lambda: window.context.importer.report is not None, timeout=SCAN_TIMEOUT)
    report = window.context.importer.report
    qtbot.waitUntil(lambda: report.findChild(type(report.summary), "duplicates-link")
                    is not None, timeout=5000)
    link = report.findChild(type(report.summary), "duplicates-link")
    assert "2 new papers may repeat" in link.text()
    link.linkActivated.emit("review")
    view = rescanned(window, qtbot)
    assert window.context.features["review"].content.currentWidget() is view
    group = view.current_group()
    titles = {p["title"] for p in lib.papers(group.ids)}
    assert len(titles) == 2 and any(retype(t) in titles for t in titles)


def test_opening_another_library_scans_that_one(repeats, lib, make_window, qtbot, tmp_path):
    window = make_window(lib)
    view = open_review(window, qtbot)
    assert view.list.count() == 3
    assert library_files.open_path(window, tmp_path / "other.sqlite", create=True)
    qtbot.waitUntil(lambda: view.list.count() == 0, timeout=5000)
    view = scanned(window, qtbot)
    assert view.groups == [] and view.heading.text() == "No duplicates to review"
    assert sidebar_counts(window)["Duplicates"] == "0"


def test_the_merge_history_counts_one_merge_in_the_singular(repeats, lib, make_window, qtbot):
    window = make_window(lib)
    view = open_review(window, qtbot)
    original = repeats[0][0]
    assert view.select_paper(original)
    view.compare.set_keep(original)
    view.merge.click()
    history = MergeHistory(window)
    qtbot.addWidget(history)
    assert history.summary.text() == "1 merge"
