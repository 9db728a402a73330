"""The path tracer's measure of values derived twice (bench/trace_drop.py): a SELECT run
again with no write between to a table it reads derives the same value again, and
counts; run again after such a write it derives another value (an edit's before and
after images, a paper's rows read after its tags changed), and does not."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import trace_drop

TAGS = "SELECT * FROM [paper_tags] WHERE [paper_id] IN (152)"
JOINED = "SELECT pt.paper_id, t.name FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id"


def twice(statements: list[str]) -> int:
    recorder = trace_drop.Recorder()
    for sql in statements:
        recorder.statement(sql)
    return recorder.measures()["values derived twice"]


def test_the_same_read_twice_with_no_write_between_is_a_double():
    assert twice([TAGS, TAGS]) == 1
    assert twice([TAGS, "INSERT INTO notes (paper_id, text) VALUES (1, 'x')", TAGS]) == 1


def test_a_read_again_after_a_write_to_its_table_is_another_value():
    assert twice([TAGS, "INSERT INTO paper_tags (paper_id, tag_id) VALUES (152, 3)", TAGS]) == 0
    # A write to any table the read joins makes it another value too.
    assert twice([JOINED, "UPDATE tags SET name = 'b' WHERE id = 3", JOINED]) == 0
    # Read twice after the write, it is a double again.
    assert twice([TAGS, "DELETE FROM paper_tags WHERE paper_id = 152", TAGS, TAGS]) == 1
