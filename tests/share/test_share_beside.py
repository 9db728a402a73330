"""A window-like process writes through several connections while `paperdesk share
--now` runs beside it, one exchange killed with kill -9 half way: every write that
reported success reaches the other computer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from tests.command_line import ROOT, paperdesk_process
from tests.share.killing import killed_mid_exchange
from tests.share.sharing import digest, library, uid_ids


@pytest.mark.slow
def test_every_write_beside_the_exchanges_and_a_kill_reaches_the_other(tmp_path):
    folder = tmp_path / "Sync"
    folder.mkdir()
    path = tmp_path / "a" / "a.sqlite"
    a, b = library(path), library(tmp_path / "b" / "b.sqlite")
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    b.share.start(folder)
    uid_of = {pid: uid for uid, pid in uid_ids(a).items()}
    a.close()
    log, stop = tmp_path / "written.jsonl", tmp_path / "stop"
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"}
    writer = subprocess.Popen([sys.executable, "-m", "tests.share.window_writer", str(path),
                               str(log), str(stop)], env=env, cwd=ROOT,
                              stderr=subprocess.PIPE)
    try:
        for round_ in range(6):
            while not log.exists() or len(log.read_text().splitlines()) < 10 * (round_ + 1):
                assert writer.poll() is None, writer.stderr.read().decode()
                time.sleep(0.05)
            if round_ == 3:
                killed_mid_exchange(path, tmp_path / "marker")
            else:
                paperdesk_process("--library", path, "share", "--now", check_rc=0)
            b.share.now()
    finally:
        stop.write_text("stop")
        writer.wait(timeout=120)
    assert writer.returncode == 0, writer.stderr.read().decode() if writer.stderr else ""
    paperdesk_process("--library", path, "share", "--now", check_rc=0)
    b.share.now()
    ratings: dict[int, int] = {}
    tags: dict[int, set[str]] = {}
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    for line in lines:
        if "rating" in line:
            ratings[line["paper"]] = line["rating"]
        else:
            tags.setdefault(line["paper"], set()).add(line["tag"])
    got = uid_ids(b)
    for pid, rating in ratings.items():
        assert b.paper(got[uid_of[pid]])["rating"] == rating
    for pid, names in tags.items():
        assert names <= set(b.paper(got[uid_of[pid]])["tags"])
    print(f"\nwrites that reported success: {len(lines)}, all on the other computer")
    b.close()
