"""The previous release itself, holding a library open, keeps this PaperDesk from upgrading
it: its markers are found in the layout it wrote (by the library's path; markers moved to
the file's identity in the next commit), and the open is refused in one line, the file
left as it was. The old code is the repository's own, taken with ``git archive``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tests.command_line import ROOT
from tests.reliability.helpers import cli, file_digest

# The last commit before markers moved from the library's path to the file's identity
# (bb7600f): what a library held by the release before this one looks like.
PATH_MARKERS = "cbf3491"

HOLDER = """
import sys
from paperdesk.core.library import Library
lib = Library.open(sys.argv[1])
lib.import_paths([sys.argv[2]])
lib.curation.add_tags([1], ["held by the older release"])
print("ready", flush=True)
sys.stdin.readline()
lib.curation.add_tags([2], ["still the old schema"])
lib.close()
print("closed", flush=True)
"""


@pytest.fixture(scope="module")
def older_release(tmp_path_factory) -> Path:
    """The source tree of PaperDesk at ``PATH_MARKERS``."""
    if not shutil.which("git") or not (ROOT / ".git").exists():
        pytest.skip("needs the repository's history (git)")
    tree = tmp_path_factory.mktemp("older-release")
    archive = tree / "src.tar"
    made = subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive),
                           PATH_MARKERS, "src"], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"commit {PATH_MARKERS} is not in this clone: {made.stderr.strip()}")
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree / "src"


def test_a_library_the_previous_release_holds_open_is_not_upgraded(
        older_release, tmp_path, seeds, _isolated_data):
    library = tmp_path / "library.sqlite"
    env = {**os.environ, "PYTHONPATH": str(older_release)}
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(library), str(seeds[0])],
                              env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready", holder.stderr.read()
        before = file_digest(library)
        for args in (("stats",), ("tag", 1, "+new"), ("list",)):
            refused = cli("--library", library, *args)
            assert refused.returncode == 1, refused.stdout
            assert refused.stderr.count("\n") == 1, refused.stderr
            assert "an older PaperDesk has this library open" in refused.stderr
            assert f"process {holder.pid}" in refused.stderr
        assert file_digest(library) == before
        out, err = holder.communicate("\n", timeout=60)
        assert out.strip() == "closed", err  # the old program went on, on its own schema
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    upgraded = cli("--library", library, "show", 2)  # that program gone: upgraded now
    assert upgraded.returncode == 0, upgraded.stderr
    assert "still the old schema" in upgraded.stdout
