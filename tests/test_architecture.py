"""The layer rules, checked by import-linter inside the test run so they cannot be skipped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 3 kept, 0 broken" in result.stdout


def test_core_never_mentions_qt_even_lazily():
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in (ROOT / "src" / "paperdesk" / "core").rglob("*.py")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if any(word in line for word in ("PySide6", "shiboken6", "paperdesk.gui", "paperdesk.cli"))
    ]
    assert offenders == []
