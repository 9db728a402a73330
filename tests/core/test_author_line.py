"""Authors on one line, as the window, triage and show print them: a .bib file's
"Last, First" names are told apart by semicolons; a queue error names the paper."""

from __future__ import annotations

import pytest

from paperdesk.core.model.errors import CurationError
from paperdesk.core.model.text import author_line


def test_last_first_names_are_told_apart_by_semicolons():
    assert author_line(["Ada Lovelace", "Chen Wei"]) == "Ada Lovelace, Chen Wei"
    assert author_line(["Lovelace, Ada", "Wei, Chen"]) == "Lovelace, Ada; Wei, Chen"
    assert author_line([]) == ""


def test_moving_a_paper_not_in_the_queue_names_it_by_its_title(seed_lib):
    pid = seed_lib.search("").ids[0]
    title = seed_lib.paper(pid)["title"]
    with pytest.raises(CurationError) as caught:
        seed_lib.queue.move_to([pid], 1)
    assert str(caught.value).startswith(repr(title[:59] + "…" if len(title) > 60 else title))
    assert f"(paper {pid}) is not in the reading queue" in str(caught.value)
