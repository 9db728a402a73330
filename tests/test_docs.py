"""docs/modules.md stays in step with the code: its module table lists every
module of every folder, and nothing that is not there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "paperdesk"
DOC = ROOT / "docs" / "modules.md"
MAP = ROOT / "docs" / "architecture.md"


def module_table() -> dict[str, set[str]]:
    """{folder: modules} from the rows of the "Modules" table."""
    text = DOC.read_text().split("## Modules", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, set[str]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`") and cells[0].endswith("/`"):
            rows[cells[0].strip("`")] = set(re.findall(r"`([\w]+\.py)`", cells[2]))
    return rows


def folders() -> dict[str, set[str]]:
    """{folder as the table names it: modules} for every package under src/paperdesk."""
    out = {}
    for init in PACKAGE.rglob("__init__.py"):
        folder = init.parent.relative_to(PACKAGE).as_posix()
        name = "paperdesk/" if folder == "." else f"{folder}/"
        out[name] = {p.name for p in init.parent.glob("*.py") if p.name != "__init__.py"}
    return out


def test_every_module_is_in_the_architecture_table_and_every_listed_one_exists():
    table, actual = module_table(), folders()
    assert sorted(table) == sorted(actual)
    for folder, modules in actual.items():
        assert table[folder] == modules, (
            f"{folder}: missing from docs/modules.md {sorted(modules - table[folder])}, "
            f"listed but absent {sorted(table[folder] - modules)}")


def test_the_table_reader_sees_every_row():
    table = module_table()
    assert {"paperdesk/", "core/", "core/model/", "core/db/", "core/bibtex/", "core/importing/",
            "cli/", "gui/"} <= set(table)
    assert "library.py" in table["core/"] and "changes.py" in table["core/db/"]


def test_paths_the_architecture_names_exist():
    named = set(re.findall(r"`((?:core|gui|cli)/[\w/]+\.py)`", MAP.read_text()))
    assert named, "the architecture names no module path"
    assert sorted(p for p in named if not (PACKAGE / p).exists()) == []
