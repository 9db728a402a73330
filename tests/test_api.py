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


API = SRC / "core" / "api.py"


def written(path: Path) -> dict[str, int]:
    """How often each word is written in the code of ``path`` (its docstring aside)."""
    import re
    from collections import Counter

    tree = ast.parse(path.read_text())
    doc = ast.get_docstring(tree, clean=False)
    words: Counter[str] = Counter()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value != doc:
            words.update(re.findall(r"\w+", node.value))
        elif isinstance(node, ast.Name):
            words[node.id] += 1
        elif isinstance(node, ast.alias):
            words.update(re.findall(r"\w+", node.name + " " + (node.asname or "")))
    return dict(words)


def test_each_name_of_the_door_is_written_once():
    """Not once to import it, once in ``__all__`` and once to say where it lives: one
    list, from which the rest is made."""
    words = written(API)
    assert {name: words.get(name, 0) for name in api.__all__ if words.get(name) != 1} == {}
    tree = ast.parse(API.read_text())
    imports = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)
               for a in n.names}
    assert imports <= {"annotations", "importlib", "Any"}  # no import of what it lends


def test_the_count_of_writings_sees_each_way_of_naming(tmp_path):
    path = tmp_path / "door.py"
    path.write_text('"""Library, Library."""\nif X:\n    from m import Library\n'
                    '__all__ = ["Library"]\nWHERE = {"Library": ("m", "Library")}\n')
    assert written(path)["Library"] == 4


# Helpers the front ends may call: paths, text, errors' translation, the demo, the
# environment child processes start with. Anything
# else the door lends is a value type or a constant; machinery is a method of the
# library's areas (``lib.browse.search``, ``lib.sync_feed``, ``lib.bibtex.write``...).
HELPERS = {"backups_folder", "check_backup", "data_dir", "default_backup_path",
           "demo_library_path", "describe", "library_path", "no_progress", "open_demo",
           "author_line", "naming_papers", "paper_links", "plain_text", "plural", "resource",
           "restore", "seed_files", "translate", "held", "restore_files", "tune_children"}
MOVED = {"compile_query", "Pending", "catch_up", "AfterCommand", "merged_row", "assemble",
         "foreign_file", "key_status", "hint", "empty_message", "fetch_today",
         "EXPORT_STYLES", "SYNC_STYLES"}


def test_the_door_lends_no_machinery():
    import inspect

    functions = {n for n in api.__all__ if inspect.isfunction(getattr(api, n))}
    assert functions - HELPERS == set()
    assert MOVED & set(api.__all__) == set()
    takes_library = []
    for name in api.__all__:
        value = getattr(api, name)
        if inspect.isclass(value) and name != "Library" and "__init__" in vars(value):
            params = inspect.signature(value.__init__).parameters.values()
            if any(p.name == "lib" or "Library" in str(p.annotation) for p in params):
                takes_library.append(name)  # a class made on a library is an area's
    assert takes_library == []


def test_the_machinery_is_on_the_library(seed_lib, tmp_path):
    import json

    lib = seed_lib
    assert lib.browse.ranks("attention") and not lib.browse.ranks("tag:x")
    assert not lib.browse.ranks('tag:"')  # no query at all
    assert lib.browse.hint("status:raed") is not None
    # The syncs' feed: hears a write, and catching up writes the file it concerns.
    synced = tmp_path / "all.json"
    lib.syncs.add(synced, "all", "", style="csl-json")
    pending = lib.sync_feed.pending()
    lib.add_listener(pending.hear)
    first = lib.search("").ids[0]
    lib.curation.set_rating([first], 4)
    assert pending.dirty
    (out,) = lib.sync_feed.catch_up(pending)
    assert out.written and len(json.loads(synced.read_text())) == len(lib.search("").ids)
    assert lib.sync_feed.catch_up(pending) == []  # nothing new to catch up with
    # An export written out part by part, as the command writes it to its output.
    parts: list[str] = []
    assert lib.bibtex.write(parts.append, [first], style="csl-json") == 1
    assert json.loads("".join(parts))[0]["id"] == lib.paper(first)["citekey"]
    (tmp_path / "x.bib").write_text("not bibtex\n")
    assert "something other than BibTeX" in lib.bibtex.foreign(tmp_path / "x.bib", "bibtex")
    assert lib.bibtex.foreign(synced, "csl-json") is None
    assert lib.bibtex.key_status(first)["frozen"]  # exported, so frozen


def test_the_pdfs_hang_off_the_library(lib, tmp_path):
    from paperdesk.core.pdf.attach import Pdfs

    assert isinstance(lib.pdf, Pdfs) and lib.pdf is lib.pdf
    assert lib.pdf.listing() == [] and lib.pdf.sweep() == []
    assert api.held(tmp_path / "no-such.sqlite") is None  # a backup without PDFs
