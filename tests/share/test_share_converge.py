"""The convergence test: three real libraries, each with its own copy of the shared
folder that a sync tool fills late, partly, out of order, twice, or as conflict copies;
random edits on all three, exchanges killed with kill -9. After a full exchange the
commands print the same `list --json` (without local ids and stamps), `reading-list
--json` and `tags --json` everywhere, and every edit that reported success is there
unless another edit of the same field may have replaced it.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from paperdesk.core.library import Library
from paperdesk.core.model.errors import CitekeyError
from tests.command_line import paperdesk_process
from tests.share.killing import killed_mid_exchange
from tests.share.sharing import digest, library, uid_ids

N = 3
PAPERS = 6
TAGS = ("ml", "nlp", "vision")
libs_ = st.integers(0, N - 1)
papers_ = st.integers(0, PAPERS - 1)


def printed(path: Path) -> tuple:
    """What the commands print, in processes of their own, with local ids taken out."""
    def run(*args: str):
        return json.loads(paperdesk_process("--library", path, *args, check_rc=0).stdout)

    # A note's id and its times are each computer's (the note arrives when it arrives):
    # its text is what travels, as tests/share/sharing.py compares it.
    listed = sorted(({**{k: v for k, v in p.items() if k not in ("id", "modified", "digests")},
                      "notes": sorted(n["text"] for n in p.get("notes", []))}
                     for p in run("list", "--json")), key=lambda p: p["uid"])
    queue = [p["uid"] for p in run("reading-list", "--json")]
    return listed, queue, run("tags", "--json")


class Sharing(RuleBasedStateMachine):
    git = False  # through one bare git repository instead of folders
    # Examples checked and edits found surviving, over a run (printed with ``-s``).
    counted: ClassVar[dict[str, int]] = {"examples": 0, "edits": 0, "kills": 0}

    @initialize()
    def start(self) -> None:
        import subprocess
        import tempfile

        self.root = Path(tempfile.mkdtemp(prefix="share-converge-"))
        self.paths = [self.root / f"c{n}" / "lib.sqlite" for n in range(N)]
        self.folders = [self.root / f"sync{n}" for n in range(N)]
        bare = self.root / "library.git"
        if self.git:
            subprocess.run(["git", "init", "--quiet", "--bare", str(bare)], check=True)
            self.folders = [p.with_name(p.name + ".share") for p in self.paths]
        self.libs: list[Library] = []
        source = digest(self.root / "digests", papers=range(1, PAPERS + 1))
        for path, folder in zip(self.paths, self.folders, strict=True):
            lib = library(path)
            lib.import_paths([source])  # the same digest on each: the same papers
            if self.git:
                lib.share.start(bare)
            else:
                folder.mkdir()
                lib.share.start(folder)
            self.libs.append(lib)
        self.uids = sorted(uid_ids(self.libs[0]))
        self.written: dict[tuple[str, str], list] = {}  # (paper, field) -> values edited
        self.tags_added: dict[tuple[str, str], int] = {}
        self.tags_removed: dict[tuple[str, str], int] = {}
        self.kills = 0

    def _pid(self, n: int, p: int) -> int:
        return uid_ids(self.libs[n])[self.uids[p]]

    def _wrote(self, p: int, name: str, value) -> None:
        self.written.setdefault((self.uids[p], name), []).append(value)

    @rule(n=libs_, p=papers_, rating=st.integers(0, 5))
    def rate(self, n: int, p: int, rating: int) -> None:
        self.libs[n].curation.set_rating([self._pid(n, p)], rating)
        self._wrote(p, "rating", rating)

    @rule(n=libs_, p=papers_, status=st.sampled_from(["unread", "to-read", "read"]))
    def status(self, n: int, p: int, status: str) -> None:
        self.libs[n].curation.set_status([self._pid(n, p)], status)
        self._wrote(p, "status", status)

    @rule(n=libs_, p=papers_, tag=st.sampled_from(TAGS))
    def tag(self, n: int, p: int, tag: str) -> None:
        self.libs[n].curation.add_tags([self._pid(n, p)], tag)
        key = (self.uids[p], tag)
        self.tags_added[key] = self.tags_added.get(key, 0) + 1

    @rule(n=libs_, p=papers_, tag=st.sampled_from(TAGS))
    def untag(self, n: int, p: int, tag: str) -> None:
        lib = self.libs[n]
        if tag in lib.paper(self._pid(n, p))["tags"]:
            lib.curation.remove_tags([self._pid(n, p)], tag)
            key = (self.uids[p], tag)
            self.tags_removed[key] = self.tags_removed.get(key, 0) + 1

    @rule(n=libs_, p=papers_, text=st.sampled_from(["see fig 2", "weak baseline", "cite"]))
    def note(self, n: int, p: int, text: str) -> None:
        self.libs[n].curation.add_note(self._pid(n, p), f"{text} ({n})")

    @rule(n=libs_, p=papers_, key=st.sampled_from(["smith2025", "lee2024"]))
    def cite(self, n: int, p: int, key: str) -> None:
        """A key chosen and cited (it leaves PaperDesk, frozen): when two computers do so
        for two papers with one key, both keep it."""
        lib = self.libs[n]
        pid = self._pid(n, p)
        if lib.bibtex.key_status(pid)["frozen"]:
            return  # a key that left never changes
        try:
            lib.bibtex.set_citekey(pid, key)
        except CitekeyError:  # another paper here holds it
            return
        lib.bibtex.freeze([pid])
        self._wrote(p, "citekey", key)

    @rule(n=libs_, p=papers_)
    def trash(self, n: int, p: int) -> None:
        self.libs[n].trash.delete([self._pid(n, p)])
        self._wrote(p, "deleted", True)

    @rule(n=libs_, p=papers_)
    def restore(self, n: int, p: int) -> None:
        self.libs[n].trash.restore([self._pid(n, p)])
        self._wrote(p, "deleted", False)

    @rule(n=libs_, index=st.integers(0, PAPERS))
    def move_first_to(self, n: int, index: int) -> None:
        queue = self.libs[n].curation.reading_list()
        if len(queue) > 1:
            self.libs[n].queue.move_to([queue[0]], index)

    @rule(n=libs_)
    def exchange(self, n: int) -> None:
        self.libs[n].share.now()

    @rule(src=libs_, dst=libs_, data=st.data())
    def deliver(self, src: int, dst: int, data: st.DataObject) -> None:
        """The sync tool brings some of one folder's files to another, in any order,
        some as conflict copies, some twice."""
        if src == dst or self.git:  # git brings everything at each pull
            return
        names = sorted(os.listdir(self.folders[src]))
        if not names:
            return
        chosen = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names)))
        for name in chosen:
            how = data.draw(st.sampled_from(["plain", "conflict", "both"]))
            target = self.folders[dst]
            if how in ("plain", "both"):
                shutil.copyfile(self.folders[src] / name, target / name)
            if how in ("conflict", "both"):
                stem, _, ext = name.rpartition(".")
                shutil.copyfile(self.folders[src] / name,
                                target / f"{stem}.sync-conflict-20260101-000000-X{dst}.{ext}")

    @rule(n=libs_)
    def killed_exchange(self, n: int) -> None:
        if self.kills >= 2:  # each a process: two an example are plenty
            return
        self.kills += 1
        self.libs[n].close()
        killed_mid_exchange(self.paths[n], self.root / "marker")
        self.libs[n] = Library.open(self.paths[n])

    @invariant()
    def every_library_opens_its_papers(self) -> None:
        for lib in getattr(self, "libs", []):
            assert lib.stats()["papers"] + lib.stats()["trash"] == PAPERS

    def teardown(self) -> None:
        if not getattr(self, "libs", None):
            return
        try:
            self._full_exchange()
            self._check()
        finally:
            for lib in self.libs:
                lib.close()
            shutil.rmtree(self.root, ignore_errors=True)

    def _full_exchange(self) -> None:
        for _ in range(2):
            for n in range(N):
                self.libs[n].share.now()
                for m in range(N):  # the sync tool catches up
                    if m != n and not self.git:
                        for name in os.listdir(self.folders[n]):
                            if not (self.folders[m] / name).exists():
                                shutil.copyfile(self.folders[n] / name, self.folders[m] / name)
        for lib in self.libs:
            lib.share.now()

    def _check(self) -> None:
        for lib in self.libs:
            lib.close()
        seen = [printed(path) for path in self.paths]
        self.libs = [Library.open(path) for path in self.paths]
        assert seen[0] == seen[1] == seen[2]
        lib = self.libs[0]
        survived = 0
        for (uid, name), values in self.written.items():
            paper = lib.paper(uid_ids(lib)[uid])
            assert paper[name] in values, (uid, name, paper[name], values)
            survived += 1
        for uid, tag in self.tags_added:
            tags = lib.paper(uid_ids(lib)[uid])["tags"]
            if not self.tags_removed.get((uid, tag)):
                assert tag in tags, (uid, tag)
                survived += 1
        for (uid, tag) in self.tags_removed:
            if not self.tags_added.get((uid, tag)):
                assert tag not in lib.paper(uid_ids(lib)[uid])["tags"]
                survived += 1
        self.counted["examples"] += 1
        self.counted["edits"] += survived
        self.counted["kills"] += self.kills


@pytest.mark.slow
def test_three_libraries_converge_whatever_the_folder_does(_isolated_data):
    run = Sharing.TestCase
    run.settings = settings(max_examples=int(os.environ.get("SHARE_EXAMPLES", "6")),
                            stateful_step_count=25, deadline=None,
                            suppress_health_check=list(HealthCheck))
    run().runTest()
    print(f"\nfolders: {Sharing.counted}")
    assert Sharing.counted["examples"] > 0


class SharingThroughGit(Sharing):
    git = True
    counted: ClassVar[dict[str, int]] = {"examples": 0, "edits": 0, "kills": 0}


@pytest.mark.slow
def test_three_clones_of_one_bare_repository_converge(_isolated_data):
    run = SharingThroughGit.TestCase
    run.settings = settings(max_examples=int(os.environ.get("SHARE_EXAMPLES", "4")),
                            stateful_step_count=20, deadline=None,
                            suppress_health_check=list(HealthCheck))
    run().runTest()
    print(f"\ngit: {SharingThroughGit.counted}")
    assert SharingThroughGit.counted["examples"] > 0
