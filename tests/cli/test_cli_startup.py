"""A command loads only what it uses: reading commands start without the heavy libraries.

Each case runs ``paperdesk`` in a process of its own and reports, from that
process, which modules were loaded once the command had finished.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.command_line import cli_env

# Libraries that cost tens of milliseconds to load, and what needs them: the window
# (PySide6), title comparison (numpy, rapidfuzz), .bib files (bibtexparser),
# transliteration (anyascii), the default data folder (platformdirs).
HEAVY = ("PySide6", "numpy", "rapidfuzz", "bibtexparser", "sqlite_utils", "anyascii",
         "platformdirs")

_PROBE = """
import io, json, sys
from contextlib import redirect_stdout
from paperdesk.app import main
with redirect_stdout(io.StringIO()) as out:
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "out": out.getvalue(),
                  "modules": sorted({m.split('.')[0] for m in sys.modules})}))
"""


def _loaded(*args: object) -> tuple[dict, set[str]]:
    result = subprocess.run([sys.executable, "-c", _PROBE, *map(str, args)],
                            capture_output=True, text=True, env=cli_env(), timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[-1])
    return report, set(report["modules"])


@pytest.mark.parametrize("command", [
    ["stats", "--json"],
    ["list", "scaling", "--limit", "5", "--json"],
    ["list", "--limit", "5", "--", "rating>=0", "-tag:x"],
    ["show", "1", "--json"],
], ids=["stats", "word-search", "field-search", "show"])
def test_reading_commands_load_no_heavy_library(seed_path, command):
    report, modules = _loaded("--library", seed_path, *command)
    assert report["code"] == 0
    assert report["out"].strip()  # the command did its work
    assert modules.isdisjoint(HEAVY), sorted(modules & set(HEAVY))


def test_the_probe_sees_heavy_libraries_when_a_command_needs_them(seed_path, seeds):
    """The same probe on an import (which compares titles) does see rapidfuzz:
    the check above can fail."""
    report, modules = _loaded("--library", seed_path, "duplicates", "--json")
    assert report["code"] == 0
    assert {"numpy", "rapidfuzz"} <= modules


def test_the_default_library_folder_still_loads_platformdirs(tmp_path):
    env = {k: v for k, v in cli_env().items() if k != "PAPERDESK_DATA_DIR"}
    env["HOME"] = str(tmp_path)
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    result = subprocess.run([sys.executable, "-m", "paperdesk", "stats", "--json"],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["papers"] == 0
    assert any((tmp_path / "data").rglob("library.sqlite")), os.listdir(tmp_path)


def test_command_groups_name_exactly_the_commands_each_module_registers():
    import argparse
    import importlib

    from paperdesk.cli.main import COMMAND_GROUPS, build_parser, command_group

    for name, commands in COMMAND_GROUPS.items():
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(name).register(sub)
        assert tuple(sub.choices) == commands, name
    every = [c for commands in COMMAND_GROUPS.values() for c in commands]
    assert len(every) == len(set(every))
    full = build_parser()
    [action] = [a for a in full._actions if isinstance(a, argparse._SubParsersAction)]
    assert list(action.choices) == every
    assert command_group(["--library", "stats", "list"]) == "paperdesk.cli.library_cmds"
    assert command_group(["--demo", "tag", "add"]) == "paperdesk.cli.curation_cmds"
    assert command_group(["stats", "--help"]) is None
    assert command_group(["nonsense"]) is None


def test_a_command_loads_no_other_command_group(seed_path):
    _, modules = _loaded_full("--library", seed_path, "stats", "--json")
    assert not {"paperdesk.cli.duplicate_cmds", "paperdesk.cli.bibtex_cmds",
                "paperdesk.cli.hub_cmds", "paperdesk.core.duplicates.duplicates",
                "paperdesk.core.bibtex.bibtex_export"} & modules


def _loaded_full(*args: object) -> tuple[dict, set[str]]:
    probe = _PROBE.replace("{m.split('.')[0] for m in sys.modules}", "set(sys.modules)")
    result = subprocess.run([sys.executable, "-c", probe, *map(str, args)],
                            capture_output=True, text=True, env=cli_env(), timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[-1])
    return report, set(report["modules"])


# What `stats` has no use for: the query compiler, the syncs' code (no sync is set up),
# backups, curation and the citation keys, the importer's reports, logging.
NOT_FOR_STATS = {"paperdesk.core.search.search", "paperdesk.core.search.query",
                 "paperdesk.core.sync.syncs", "paperdesk.core.db.backup",
                 "paperdesk.core.curation.curation", "paperdesk.core.bibtex.citekey",
                 "paperdesk.core.db.edits", "paperdesk.core.importing.file_report",
                 "logging", "tempfile"}


def test_stats_loads_only_what_it_prints(seed_path):
    _loaded("--library", seed_path, "stats")  # the first open records the library (filelock)
    report, modules = _loaded_full("--library", seed_path, "stats", "--json")
    assert json.loads(report["out"])["papers"] > 0
    assert not NOT_FOR_STATS & modules, sorted(NOT_FOR_STATS & modules)
