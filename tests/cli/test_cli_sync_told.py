"""What the sync commands print is true and cannot be forged: a file's name is printed
with its control characters escaped (it cannot make a line of its own nor drive the
terminal), and a person's edit that landed while a synced file was written, moved to a
conflict file, is said where it happens and by ``sync list`` after, naming that file."""

from __future__ import annotations

import json
import re

from paperdesk.core.db import files
from tests.command_line import paperdesk

# A name that would forge a line of `sync list` and send terminal escapes.
FORGED = ("x\nup to date                   192  bibtex    thesis.bib  (the whole library)"
          "\r\x1b]0;owned\x07\x1b[2J.bib")
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # any control character but \t and \n


def esc(text) -> str:
    """``text`` as PaperDesk prints it: its control characters escaped."""
    return "".join(repr(c)[1:-1] if RAW.match(c) or c == "\n" else c for c in str(text))


def _clean(result, lines: int | None = None, stream: str = "stdout") -> list[str]:
    """No raw control character in either stream; ``stream``'s lines (so many)."""
    for text in (result.stdout, result.stderr):
        assert not RAW.search(text), repr(text)
    said = getattr(result, stream).splitlines()
    if lines is not None:
        assert len(said) == lines, said
    return said


def test_a_crafted_file_name_is_printed_escaped_by_every_command(seed_path, tmp_path):
    synced = tmp_path / FORGED
    shown = esc(synced)
    added = paperdesk("--library", seed_path, "sync", "add", synced, check_rc=0)
    said = _clean(added, 2, "stderr")
    assert said[0].startswith(f"keeping {shown} in sync") and shown in said[1], said
    assert not added.stdout
    [row] = _clean(paperdesk("--library", seed_path, "sync", "list", check_rc=0), 1)
    assert row.startswith("up to date") and shown in row
    _clean(paperdesk("--library", seed_path, "sync", "now", check_rc=0), 0)
    tagged = paperdesk("--library", seed_path, "tag", "5", "+forged", check_rc=0)
    assert any(line.startswith(f"updated {shown} (") for line in _clean(tagged, 2, "stderr"))
    listed = json.loads(paperdesk("--library", seed_path, "sync", "list", "--json",
                                  check_rc=0).stdout)
    assert listed[0]["path"] == str(synced)  # JSON keeps the name exactly (escaped by JSON)

    backup = paperdesk("--library", seed_path, "backup", tmp_path / f"b{FORGED}.sqlite",
                       check_rc=0)
    assert _clean(backup, 1) == [esc(tmp_path / f"b{FORGED}.sqlite")]
    exported = paperdesk("--library", seed_path, "export", "-o", tmp_path / f"e{FORGED}",
                         check_rc=0)
    _clean(exported, 1, "stderr")
    removed = paperdesk("--library", seed_path, "sync", "remove", synced, check_rc=0)
    assert _clean(removed, 1, "stderr")[0].startswith(f"stopped keeping {shown} in sync")


def _save_while_written(monkeypatch, synced, theirs: bytes) -> None:
    """A person saves the synced file after PaperDesk checked it and before its rename
    (the moment the new bytes are flushed to disk), once."""
    real_fsync = files.fsync_path

    def save_then_fsync(where):
        person = synced.with_name("person.tmp")
        if not person.exists() and where != synced.parent:
            person.write_bytes(theirs)
            person.replace(synced)
            person.write_bytes(b"")  # (done: not again)
        real_fsync(where)

    monkeypatch.setattr(files, "fsync_path", save_then_fsync)


def test_an_edit_saved_while_the_file_is_written_is_told_with_its_conflict_file(
        seed_path, tmp_path, monkeypatch):
    synced = tmp_path / "refs.bib"
    paperdesk("--library", seed_path, "sync", "add", synced, check_rc=0)
    theirs = b"% my edit, saved at the worst moment\n"
    _save_while_written(monkeypatch, synced, theirs)
    tagged = paperdesk("--library", seed_path, "tag", "5", "+to-cite", check_rc=0)
    monkeypatch.undo()
    [kept] = tmp_path.glob("refs.conflict-*.bib")
    assert kept.read_bytes() == theirs
    assert f"updated {synced}" in tagged.stderr and f"kept as {kept}" in tagged.stderr, \
        tagged.stderr

    [row] = paperdesk("--library", seed_path, "sync", "list", check_rc=0).stdout.splitlines()
    assert str(kept) in row and "saved while PaperDesk wrote the file" in row, row
    [listed] = json.loads(paperdesk("--library", seed_path, "sync", "list", "--json",
                                    check_rc=0).stdout)
    assert listed["kept"] == str(kept) and listed["state"] == "up to date"

    # Said until the conflict file is dealt with; the file itself is PaperDesk's.
    paperdesk("--library", seed_path, "tag", "6", "+to-cite", check_rc=0)
    assert str(kept) in paperdesk("--library", seed_path, "sync", "list", check_rc=0).stdout
    kept.unlink()
    [row] = paperdesk("--library", seed_path, "sync", "list", check_rc=0).stdout.splitlines()
    assert row.startswith("up to date ") and "kept" not in row


def test_sync_now_names_the_conflict_file_too(seed_path, tmp_path, monkeypatch):
    synced = tmp_path / "refs.bib"
    paperdesk("--library", seed_path, "sync", "add", synced, "--tag", "to-cite", check_rc=0)
    paperdesk("--library", seed_path, "tag", "5", "+to-cite", check_rc=0)
    _save_while_written(monkeypatch, synced, b"% theirs\n")
    synced.unlink()  # missing: `sync now` writes it whole
    now = paperdesk("--library", seed_path, "sync", "now", check_rc=0)
    monkeypatch.undo()
    [kept] = tmp_path.glob("refs.conflict-*.bib")
    assert f"kept as {kept}" in now.stderr and "while it was written" in now.stderr, now.stderr
