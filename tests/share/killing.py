"""kill -9 an exchange half way (``exchange_child``), for the sharing tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.command_line import ROOT


def killed_mid_exchange(library: Path, marker: Path) -> None:
    """Run an exchange of ``library`` in a process of its own and kill -9 it once its
    update file is written and the folder read, before its commit."""
    marker.unlink(missing_ok=True)
    killed_when_marked("tests.share.exchange_child", [str(library), str(marker)], marker)


def killed_when_marked(module: str, args: list[str], marker: Path) -> None:
    """Run ``python -m module args`` and kill -9 it once it writes ``marker`` (it must)."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"}
    proc = subprocess.Popen([sys.executable, "-m", module, *args], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(1200):  # polls, not a clock: the child says when it is there
            if marker.exists() or proc.poll() is not None:
                break
            time.sleep(0.05)
        assert marker.exists(), proc.stderr.read().decode() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        if proc.stderr:
            proc.stderr.close()
