"""One listener hears every kind of write the CLI makes, as the GUI's views do."""

from __future__ import annotations

from paperdesk.cli.main import main
from paperdesk.core.db import changes as ch
from paperdesk.core.library import Library
from tests.core.test_duplicates import add_copy, by_title


def test_one_listener_hears_every_kind_of_cli_write(tmp_path, seeds, capsys):
    path = tmp_path / "feed.sqlite"
    heard: list[ch.Changes] = []

    def cli(*args: object) -> int:
        return main(["--library", str(path), *map(str, args)], listeners=[heard.append])

    assert cli("import", *seeds) == 0
    imports = list(heard)
    assert len(imports) == 5 and all({ch.PAPER_SET, ch.DIGESTS} <= c.kinds for c in imports)
    with Library.open(path) as lib:  # another program adds a certain repeat
        original = by_title(lib, "Serverless Cold Starts")[0]
        copy = add_copy(lib, original)

    heard.clear()
    assert cli("rate", original, 4) == 0
    [edit] = heard
    assert edit.kinds == {ch.PAPERS} and edit.paper_ids == {original} and edit.undo is not None
    assert edit.how == ch.DONE and ch.TABLE_ROWS in edit.views

    heard.clear()
    assert cli("duplicates") == 0
    [scan] = heard
    assert scan.kinds == {ch.CANDIDATES} and {original, copy} <= scan.paper_ids

    heard.clear()
    assert cli("merge", "--all-certain") == 0
    [merge_all] = heard
    assert ch.DUPLICATES in merge_all.kinds and merge_all.result.groups == 1
    assert {original, copy} <= merge_all.paper_ids and ch.TABLE_SET in merge_all.views
    merge_id = merge_all.result.merge_ids[0]

    heard.clear()
    assert cli("unmerge", merge_id) == 0  # the CLI's undo: a merge taken apart
    [unmerge] = heard
    assert unmerge.result.restored_ids == [copy] and ch.PAPER_SET in unmerge.kinds

    # The CLI has no general undo command; its edits' Changes carry the undo
    # data, and undoing or redoing it is announced to the same listener.
    heard.clear()
    with Library.open(path) as lib:
        lib.add_listener(heard.append)
        lib.undo(edit.undo)
        lib.redo(edit.undo)
        assert lib.paper(original)["rating"] == 4
    assert [c.how for c in heard] == [ch.UNDONE, ch.REDONE]
    assert all(c.paper_ids == {original} for c in heard)
    capsys.readouterr()
