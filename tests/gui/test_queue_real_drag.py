"""A real mouse drag inside the reading queue: Xvfb, xdotool and a real QDrag.

The offscreen platform has no drag and drop (QDrag.exec returns at once), so this
runs ``real_drag_script.py`` under an X server of its own, where xdotool presses
a row, moves the pointer two rows up and lets go. Skipped, saying so, where
Xvfb or xdotool is not installed (apt-get install xvfb xdotool), or where Qt's xcb
platform plugin cannot load (its libraries, named by ``gui/startup/platform_check.py``:
the window would abort at start, which is no finding about the drag).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import SEED_PAPERS, SEEDS

SCRIPT = Path(__file__).with_name("real_drag_script.py")


def _xcb_problem() -> str | None:
    """Why Qt's xcb platform would not start here (its missing libraries), or None."""
    from paperdesk.gui.startup.platform_check import check_platform

    problem = check_platform("xcb", {**os.environ, "DISPLAY": ":0"}, display=False)
    return problem.line() if problem is not None else None


@pytest.mark.slow  # an X server of its own and a real pointer: seconds
@pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xdotool")),
                    reason="needs Xvfb and xdotool (apt-get install xvfb xdotool)")
@pytest.mark.skipif(_xcb_problem() is not None, reason=str(_xcb_problem()))
def test_a_real_mouse_drag_reorders_the_queue(tmp_path):
    display = f":{90 + os.getpid() % 800}"
    server = subprocess.Popen(["Xvfb", display, "-screen", "0", "1600x1000x24", "-nolisten",
                               "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.5)
        seeds = tmp_path / "seeds"
        seeds.mkdir()
        for seed in SEEDS:
            shutil.copy(seed, seeds / seed.name)
        env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb",
               "PAPERDESK_DATA_DIR": str(tmp_path / "data")}
        out = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "lib.sqlite"),
                              str(seeds)], env=env, capture_output=True, text=True,
                             timeout=120, check=True)
    finally:
        server.terminate()
        server.wait(10)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    a, b, c, d, e, f = result["before"]
    assert result["after"] == result["queue"] == [a, e, b, c, d, f]  # moved, in the library
    assert result["papers"] == SEED_PAPERS  # the drag imported nothing
