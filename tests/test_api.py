"""The one door into the core: ``paperdesk.core.api``."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import paperdesk.core.api as api

SRC = Path(__file__).resolve().parent.parent / "src" / "paperdesk"
DOORS = {"paperdesk.core.api"}


def test_every_name_of_the_api_resolves_to_what_its_module_holds():
    import importlib

    assert sorted(api.__all__) == sorted(api._WHERE)
    for name, (module, attr) in api._WHERE.items():
        value = getattr(api, name)
        owner = importlib.import_module(module)
        expected = getattr(owner, attr, None) or importlib.import_module(f"{module}.{attr}")
        assert value is expected, name


def test_an_unknown_name_is_an_attribute_error():
    try:
        api.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("api.no_such_name did not raise")


def _core_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names]
    return [m for m in found if m.startswith("paperdesk.core") and m not in DOORS]


def test_the_gui_and_the_cli_import_nothing_of_the_core_but_its_doors():
    """Type-checking imports included: the front ends name only the API's types."""
    fronts = [*(SRC / "gui").rglob("*.py"), *(SRC / "cli").rglob("*.py"), SRC / "app.py"]
    found = {f"{p.relative_to(SRC)}: {m}" for p in fronts for m in _core_imports(p)}
    assert found == set()


def test_the_check_finds_an_import_past_the_door(tmp_path):
    path = tmp_path / "front.py"
    path.write_text("def f():\n    from paperdesk.core.db.store import translate\n")
    assert _core_imports(path) == ["paperdesk.core.db.store"]


def test_loading_the_api_loads_none_of_the_core_behind_it():
    probe = ("import sys, paperdesk.core.api; "
             "print(sorted(m for m in sys.modules if m.startswith('paperdesk.core.')))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['paperdesk.core.api']"


def test_the_api_holds_no_module_only_classes_functions_and_constants():
    """A feature is an object on the library (``lib.queue``, ``lib.imports``...), never a
    module the front ends reach into."""
    import types

    modules = [name for name in api.__all__ if isinstance(getattr(api, name), types.ModuleType)]
    assert modules == []


def test_the_features_the_api_no_longer_lends_hang_off_the_library(lib):
    from paperdesk.core.curation.queue import Queue
    from paperdesk.core.curation.triage import Triage

    assert isinstance(lib.queue, Queue) and lib.queue is lib.queue
    assert isinstance(lib.triage, Triage)
    assert lib.imports.record([]).empty
    assert lib.citations.latex_cite(["a", "b"]) == "\\cite{a,b}"
    assert lib.syncs.file_sha256(lib.path.parent / "no-such.bib") is None
