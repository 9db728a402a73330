"""Every format of the core's list (``core/bibtex/formats.py``) is offered by the
commands and goes through ``export -o``: the file begins as its format says, holds what
standard output gets, is replaced by the next export of its format unasked (and by
another format's only with --overwrite), and reads back as what it is."""

from __future__ import annotations

import argparse
import json

import pytest

from paperdesk.cli.main import build_parser
from paperdesk.core.bibtex.formats import FORMATS, Format
from tests.command_line import paperdesk
from tests.conftest import SEED_PAPERS


def _choices(*command: str) -> dict[str, list[str]]:
    """{option: its choices} of a (sub)command of ``paperdesk``."""
    parser = build_parser(list(command))
    for name in command:
        [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        parser = sub.choices[name]
    return {a.option_strings[-1]: list(a.choices) for a in parser._actions
            if a.option_strings and a.choices}


def test_the_commands_offer_every_format_and_no_other():
    export = _choices("export")
    assert export["--format"] == [f.name for f in FORMATS]
    assert export["--style"] == [f.name for f in FORMATS if f.family == "bibtex"]
    assert _choices("sync", "add")["--style"] == [f.name for f in FORMATS if f.syncable]


def _titles_of_bib(path, tmp_path) -> list[str]:
    """The titles of a .bib file, as a new library imports them."""
    library = tmp_path / f"{path.stem}-back.sqlite"
    paperdesk("--library", library, "import", path, check_rc=0)
    listed = json.loads(paperdesk("--library", library, "list", "--json", check_rc=0).stdout)
    return sorted(p["title"] for p in listed)


def _titles_of_csl(path, tmp_path) -> list[str]:
    return sorted(item["title"] for item in json.loads(path.read_text(encoding="utf-8")))


# How the test reads a file of each kind back: a new kind of file needs a reader here.
READ_BACK = {"BibTeX": _titles_of_bib, "CSL-JSON": _titles_of_csl}


def test_every_kind_of_file_can_be_read_back_here():
    assert {f.kind for f in FORMATS} <= set(READ_BACK)


@pytest.mark.parametrize("chosen", FORMATS, ids=[f.name for f in FORMATS])
def test_each_format_goes_through_export_o(chosen: Format, seed_path, tmp_path):
    target = tmp_path / f"refs{chosen.suffix}"
    done = paperdesk("--library", seed_path, "export", "--format", chosen.name, "-o", target,
                     check_rc=0)
    assert f"exported {SEED_PAPERS} entries to {target}" in done.stderr
    data = target.read_bytes()
    assert data.decode("utf-8").lstrip().startswith(chosen.starts)
    # The same bytes as standard output gets (its keys were frozen by the first export).
    out = paperdesk("--library", seed_path, "export", "--format", chosen.name, check_rc=0)
    assert out.stdout.encode("utf-8") == data
    # A file of its own format is replaced unasked...
    paperdesk("--library", seed_path, "export", "--format", chosen.name, "-o", target,
              check_rc=0)
    assert target.read_bytes() == data
    # ...one of a format that begins otherwise only with --overwrite, and left as it was.
    for other in {f.starts: f for f in FORMATS if f.starts != chosen.starts}.values():
        # (--any-suffix: past the check of the name, refs.json for BibTeX, to this one)
        refused = paperdesk("--library", seed_path, "export", "--format", other.name,
                            "-o", target, "--any-suffix", check_rc=1)
        assert f"holds something other than {other.kind}" in refused.stderr
        assert "--overwrite" in refused.stderr and target.read_bytes() == data
    # It reads back as what it is: one entry a paper, each paper's title.
    library = json.loads(paperdesk("--library", seed_path, "list", "--json",
                                   check_rc=0).stdout)
    assert len(library) == SEED_PAPERS
    assert READ_BACK[chosen.kind](target, tmp_path) == sorted(p["title"] for p in library)


@pytest.mark.parametrize("chosen", FORMATS, ids=[f.name for f in FORMATS])
def test_a_file_named_for_another_format_is_refused_unless_forced(chosen: Format, seed_path,
                                                                  tmp_path):
    """CSL-JSON into all.bib, BibTeX into refs.json: one line, exit 1, nothing written;
    --any-suffix writes it."""
    for other in {f.suffix: f for f in FORMATS if chosen.suffix not in f.suffixes}.values():
        target = tmp_path / f"all{other.suffix}"
        refused = paperdesk("--library", seed_path, "export", "--format", chosen.name,
                            "-o", target, check_rc=1)
        assert not target.exists() and refused.stdout == ""
        [line] = refused.stderr.splitlines()
        assert f"all{other.suffix} is named as a {other.kind} file" in line, line
        assert f"this is a {chosen.kind} export" in line and "--any-suffix" in line
        paperdesk("--library", seed_path, "export", "--format", chosen.name, "-o", target,
                  "--any-suffix", check_rc=0)
        assert target.read_text(encoding="utf-8").lstrip().startswith(chosen.starts)
    # its own suffix, or one no format has, is written unasked
    for name in (f"own{chosen.suffix}", "refs.txt"):
        paperdesk("--library", seed_path, "export", "--format", chosen.name, "-o",
                  tmp_path / name, check_rc=0)
        assert (tmp_path / name).exists()
