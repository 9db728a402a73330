"""The app survives PySide6 6.12.0's lost references to None on Python 3.11."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QLabel

import paperdesk.gui  # noqa: F401  (applies the workaround)


def test_many_calls_without_a_result_do_not_free_none(qtbot):
    label = QLabel()
    qtbot.addWidget(label)
    before = sys.getrefcount(None)
    for _ in range(50_000):  # more than None's natural reference count
        label.setText("x")
    assert sys.getrefcount(None) > 0
    assert before - sys.getrefcount(None) <= 50_000
