"""No window text names a paper by its internal id (issue 39, "What broke" 5): the
queue's refusal names the title, the duplicate comparison heads its columns with the
papers' titles, the Hub's report lines name titles."""

from __future__ import annotations

import re
from types import SimpleNamespace

from paperdesk.gui.curation.queue_view import move
from paperdesk.gui.hub.enrich_action import enrich_lines
from tests.gui.test_duplicates_view import open_review, repeats  # noqa: F401

from .conftest import select_row


def test_moving_a_paper_not_in_the_queue_names_its_title(window, seed_lib, qtbot):
    pid = select_row(window, 3)
    title = seed_lib.paper(pid)["title"]
    move(window.context, seed_lib.queue.to_top)
    said = window.statusBar().currentMessage()
    assert "not in the reading queue" in said
    assert title[:40] in said
    assert not re.search(rf"\b{pid}\b", said.replace(title, ""))


def test_the_comparison_heads_its_columns_with_titles(repeats, lib, make_window, qtbot):  # noqa: F811
    window = make_window(lib)
    view = open_review(window, qtbot)
    assert view.select_paper(repeats[0][1])
    table = view.compare
    heads = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert not any(re.search(rf"\b{i}\b", h) for h in heads for i in table.ids)
    kept = lib.paper(table.keep)["title"]
    assert any(h.endswith("(kept)") and kept[:30] in h for h in heads)
    assert heads[-1] == "Merged paper"


def test_the_hub_report_names_titles():
    result = SimpleNamespace(not_found=[(207, "A Paper")], unsure=[(39, "B", "two answers")],
                             failed=[(5, "C", "timed out")])
    lines = enrich_lines(result)
    assert lines == ["Not found on the Hub: A Paper", "Left alone: B: two answers",
                     "Failed: C: timed out"]
