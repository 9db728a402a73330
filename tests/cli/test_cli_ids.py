"""Every number the command line takes is checked before it reaches SQLite: a value that
cannot be an id gets one line and a non-zero exit, never a traceback, and the library
file stays byte for byte as it was."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from paperdesk.cli import ids
from paperdesk.cli.main import build_parser, main
from tests.command_line import paperdesk, paperdesk_process

TOO_BIG = "99999999999999999999999"
BAD_IDS = [TOO_BIG, str(2**63), "1" * 5000, "0", "-3", "²", "12a", "0x10"]

# Every command taking an id, number or list of ids; {} is the bad value.
COMMANDS = [
    ("show", "{}"),
    ("show", "{}", "--json"),
    ("tag", "{}", "+x"),
    ("tag", "1", "{}", "-x"),
    ("note", "{}", "text"),
    ("note", "{}"),
    ("note", "--edit", "{}", "text"),
    ("note", "--delete", "{}"),
    ("rate", "{}", "3"),
    ("rate", "1", "{}", "3"),
    ("status", "{}", "read"),
    ("year", "{}", "2020"),
    ("year", "1", "{}"),
    ("reading-list", "move", "{}", "1"),
    ("reading-list", "move", "1", "{}"),
    ("merge", "1", "{}"),
    ("merge", "{}", "2"),
    ("merge", "1", "2", "--take", "title={}"),
    ("unmerge", "{}"),
    ("unmerge", "--paper", "{}"),
    ("not-duplicate", "1", "{}"),
    ("delete", "{}"),
    ("delete", "1", "{}"),
    ("trash", "restore", "{}"),
    ("citekey", "{}"),
    ("citekey", "{}", "newkey2024"),
    ("export", "--ids", "{}"),
    ("export", "--ids", "1,{}", "-o", "out.bib"),
    ("list", "--limit", "{}"),
    ("search", "run", "mine", "--limit", "{}"),
    ("published", "--ids", "{}"),
    ("published", "--forget", "{}"),
    ("published", "--pick", "{}:1"),
    ("published", "--pick", "1:{}"),
    ("pdf", "attach", "{}", "paper.pdf"),
    ("pdf", "remove", "{}"),
    ("pdf", "open", "{}"),
    ("pdf", "locate", "{}", "paper.pdf"),
]


def files(seed_path: Path) -> dict[str, bytes]:
    """The library and its companions, byte for byte."""
    return {p.name: p.read_bytes() for p in seed_path.parent.iterdir()
            if p.name.startswith(seed_path.name)}


def _commands(parser: argparse.ArgumentParser, path=()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, (*path, name))
        else:
            yield path, action


# Arguments that hold ids among other things, read by the command itself.
FREE_FORM = {(("tag",), "items"), (("note",), "args"), (("merge",), "take"),
             (("published",), "pick"),  # ID:N, each part checked by cli/ids.py
             (("pdf", "attach"), "target")}  # [ID] FILE: the id checked by cli/ids.py


def test_every_id_argument_is_checked():
    """No command reads an id or a number with a bare int (the way to OverflowError), and
    every command with an id argument is in COMMANDS."""
    checked = {ids.paper_id, ids.note_id, ids.merge_id, ids.attachment_id, ids.count,
               ids.position, ids.year, ids.paper_id_list}
    with_ids = set()
    for path, action in _commands(build_parser()):
        words = set(re.split(r"[^a-z]+", f"{action.dest} {action.metavar or ''}".lower()))
        if (path, action.dest) in FREE_FORM:
            with_ids.add(path)
            continue
        if action.type is int:
            assert action.choices, (path, action.dest)  # a choice (rate's 0-5) is checked
        elif words & {"id", "ids", "limit", "position", "year"} or action.type in checked:
            assert action.type in checked, (path, action.dest, action.type)
            with_ids.add(path)
    commands = {path[0] for path in with_ids}
    assert commands <= {c[0] for c in COMMANDS}, commands - {c[0] for c in COMMANDS}
    assert len(with_ids) >= 16 and len(commands) >= 15


def _bad_cases(values):
    # For tag, "-3" is not an id but the tag "3" to remove; a --limit of 0 is fine.
    return [pytest.param(c, b, id=f"{' '.join(c)}|{b[:12]}") for c in COMMANDS for b in values
            if not (c[0] == "tag" and b.startswith("-"))
            and not ("--limit" in c and b == "0")]


def _one_line_no_change(seed_path: Path, tmp_path: Path, before: dict, rc: int, err: str):
    assert rc in (1, 2), err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paperdesk"), err
    assert "Traceback" not in err and "Error" not in err
    assert len(lines[0]) < 300
    assert files(seed_path) == before
    assert not (tmp_path / "out.bib").exists()


@pytest.mark.parametrize(("command", "bad"), _bad_cases([TOO_BIG]))
def test_a_number_that_cannot_be_an_id_is_one_line(seed_path, tmp_path, command, bad):
    """In a real process, each command."""
    before = files(seed_path)
    result = paperdesk_process("--library", seed_path, *(part.format(bad) for part in command))
    _one_line_no_change(seed_path, tmp_path, before, result.returncode, result.stderr)


@pytest.mark.parametrize(("command", "bad"), _bad_cases(BAD_IDS[1:]))
def test_every_kind_of_bad_number_is_one_line(seed_path, tmp_path, monkeypatch, capsys,
                                              command, bad):
    """The same checks for many more values, in this process (a real process each would
    take minutes)."""
    monkeypatch.chdir(tmp_path)
    before = files(seed_path)
    try:
        rc = main(["--library", str(seed_path), *(part.format(bad) for part in command)])
    except SystemExit as exc:
        rc = exc.code
    _one_line_no_change(seed_path, tmp_path, before, rc, capsys.readouterr().err)


@pytest.mark.parametrize("command", [("show", "{}"), ("rate", "{}", "3"), ("delete", "{}"),
                                     ("citekey", "{}"), ("export", "--ids", "{}")])
def test_the_largest_id_is_an_unknown_paper(seed_path, command):
    before = files(seed_path)
    result = paperdesk("--library", seed_path, *(p.format(2**63 - 1) for p in command))
    assert result.returncode == 1
    assert result.stderr.strip() == f"paperdesk: no paper with id {2**63 - 1}"
    assert files(seed_path) == before


def test_the_message_says_what_a_paper_id_is(seed_path):
    result = paperdesk("--library", seed_path, "show", TOO_BIG)
    assert result.returncode == 2
    assert result.stderr == (f"paperdesk show: argument ID: '{TOO_BIG}' is not a paper id "
                             f"(a whole number from 1 to {2**63 - 1}); "
                             "see `paperdesk show --help`\n")


def test_good_ids_still_work(seed_path):
    paperdesk("--library", seed_path, "rate", "1", "2", "4", check_rc=0)
    paperdesk("--library", seed_path, "tag", "1", "2", "+read-later", check_rc=0)
    paperdesk("--library", seed_path, "export", "--ids", " 1, 2", check_rc=0)
    assert paperdesk("--library", seed_path, "list", "--limit", "0", check_rc=0).stdout == ""
    assert "read-later" in paperdesk("--library", seed_path, "show", "+2", check_rc=0).stdout
