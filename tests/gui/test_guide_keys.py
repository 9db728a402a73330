"""docs/guide.md's keyboard shortcuts are the window's: every key an action of the window
answers, and every triage key, is in the guide's tables."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtGui import QKeySequence

from paperdesk.gui.curation import triage_view

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide.md"


def keys_in(text: str) -> set[str]:
    """Every **key** the text names; **0**–**5** names each digit between."""
    found = set(re.findall(r"\*\*([^*]+)\*\*", text))
    for a, b in re.findall(r"\*\*(\d)\*\*\s*–\s*\*\*(\d)\*\*", text) + re.findall(
            r"\*\*(\d)–(\d)\*\*", text):
        found |= {str(n) for n in range(int(a), int(b) + 1)}
    return found


def section(heading: str) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    return text.split(f"\n{heading}\n", 1)[1].split("\n## ", 1)[0]


def test_every_key_of_the_window_is_in_the_guide(window):
    named = keys_in(section("## Keyboard shortcuts"))
    shortcuts = {action.shortcut().toString(QKeySequence.SequenceFormat.PortableText)
                 for action in window.actions_by_name.values()} - {""}
    assert len(shortcuts) > 20  # the window's actions were read
    assert sorted(shortcuts - named) == []


def test_every_triage_key_is_in_the_guide():
    named = keys_in(section("### Triage"))
    keys = set()
    for combo, _what in triage_view.KEYS:
        for key in re.split(r" / | (?=[→←])", combo):
            keys.add(key)
    assert {"T", "S", "G", "Esc"} <= keys
    missing = sorted(k for k in keys if k not in named and k != "0–5")
    assert "0–5" not in keys or {str(n) for n in range(6)} <= named
    assert missing == []
