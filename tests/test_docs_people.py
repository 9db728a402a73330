"""The docs a person reads stay short and true to the program: the README is a front door
of at most 150 lines whose Quick start is exactly the two commands that work on a fresh
machine; docs/guide.md names every command, option and query field PaperDesk has;
docs/architecture.md is a map of at most 10 KB; docs/howto/ has its four pages; and every
link and path the docs name exists."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from paperdesk.cli.main import build_parser
from paperdesk.core.model.errors import QueryError
from paperdesk.core.search.query import compile_query
from paperdesk.core.search.query_parse import VALUE_FIELDS, WORD_COLUMNS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide.md"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
HOWTO = ROOT / "docs" / "howto"
PEOPLE_DOCS = [README, GUIDE, ROOT / "docs" / "development.md", ARCHITECTURE,
               ROOT / "docs" / "internals.md", *sorted(HOWTO.glob("*.md"))]


def section(path: Path, heading: str) -> str:
    """The text under ``heading`` (a level-2 heading) up to the next level-2 heading."""
    text = path.read_text(encoding="utf-8")
    assert f"\n## {heading}\n" in text, f"{path.name} has no '## {heading}'"
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def commands(text: str) -> list[str]:
    """The command lines of the ```sh blocks in ``text`` (comments and blank lines aside)."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                out.append(line)
    return out


def test_the_readme_is_at_most_150_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines"


def test_the_quick_start_is_exactly_the_two_commands_ci_runs():
    quick = commands(section(README, "Quick start"))
    assert quick == ["python3 .ci/dev.py demo", "python3 .ci/dev.py test"]
    # CI's entry point runs the README's test command, nothing else.
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"exec {quick[1]}" in run.replace('"$@"', "").replace("  ", " ")
    # Both name a command the script knows.
    dev = (ROOT / ".ci" / "dev.py").read_text(encoding="utf-8")
    for command in quick:
        assert f'"{shlex.split(command)[-1]}"' in dev


def the_commands(parser: argparse.ArgumentParser, words: list[str]):
    """(command words, long options) for the parser and every subcommand under it."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from the_commands(sub, [*words, name])
    yield words, [o for a in parser._actions for o in a.option_strings
                  if o.startswith("--") and o != "--help"]


def test_the_guide_names_every_command_and_option():
    reference = section(GUIDE, "The command line")
    shown = "\n".join(commands(reference))
    found = list(the_commands(build_parser(), []))
    assert len(found) > 30  # every command and action was walked
    missing = []
    for words, options in found:
        line = " ".join(["paperdesk", *words])
        if words and not re.search(rf"^{re.escape(line)}\b", shown, re.M):
            missing.append(line)
        missing += [f"{line} {o}" for o in options
                    if not re.search(rf"{re.escape(o)}\b", reference)]
    assert missing == []


def test_the_guide_holds_the_whole_query_language():
    searching = section(GUIDE, "Searching")
    for name in (*VALUE_FIELDS, *WORD_COLUMNS):
        assert re.search(rf"`-?{name}(:|=|>|<)", searching), name
    # The values has: and is: take are the ones the query compiler lists.
    for field in ("has", "is"):
        with pytest.raises(QueryError) as error:
            compile_query(f"{field}:nothing-of-the-kind")
        choices = str(error.value).split("choose from ", 1)[1].split(", ")
        assert len(choices) >= 2
        for value in choices:
            assert f"`{field}:{value}`" in searching, f"{field}:{value}"
    for limit in ("256", "64", "10,000", "8", "9223372036854775807"):
        assert limit in section(GUIDE, "Searching"), limit


def test_the_architecture_is_a_map_of_at_most_10_kb():
    size = len(ARCHITECTURE.read_bytes())
    assert size <= 10 * 1024, f"docs/architecture.md is {size:,} bytes"


def test_the_howto_has_its_four_pages():
    pages = {p.name for p in HOWTO.glob("*.md")}
    assert {"export-format.md", "table-column.md", "table.md", "gui-feature.md"} <= pages


def test_every_link_and_path_the_docs_name_exists():
    missing = []
    for doc in PEOPLE_DOCS:
        text = doc.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" not in target and not (doc.parent / target).exists():
                missing.append(f"{doc.name}: {target}")
        for path in re.findall(r"`((?:src|tests|bench|packaging|docs|\.ci)/[\w./-]+)`", text):
            if not (ROOT / path).exists():
                missing.append(f"{doc.name}: {path}")
        for path in re.findall(r"`((?:core|gui|cli)/[\w/]+\.py)`", text):
            if not (ROOT / "src" / "paperdesk" / path).exists():
                missing.append(f"{doc.name}: {path}")
    assert missing == []
