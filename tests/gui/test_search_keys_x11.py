"""The window's keys from the search box under X11, where a line edit also takes Emacs
moves (Ctrl+E: to the line's end): Ctrl+E there exported nothing. Runs
``x_search_keys_script.py`` under an X server of its own; skipped, saying so, without
Xvfb or Qt's xcb libraries (as ``test_queue_real_drag.py``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .test_queue_real_drag import _xcb_problem

SCRIPT = Path(__file__).with_name("x_search_keys_script.py")


@pytest.mark.slow  # an X server of its own: seconds
@pytest.mark.skipif(not shutil.which("Xvfb"), reason="needs Xvfb (apt-get install xvfb)")
@pytest.mark.skipif(_xcb_problem() is not None, reason=str(_xcb_problem()))
def test_ctrl_e_in_the_search_box_is_the_window_s_export():
    display = f":{900 + os.getpid() % 800}"
    server = subprocess.Popen(["Xvfb", display, "-screen", "0", "800x600x24", "-nolisten",
                               "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.5)
        env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}
        out = subprocess.run([sys.executable, str(SCRIPT)], env=env, capture_output=True,
                             text=True, timeout=60, check=True)
    finally:
        server.terminate()
        server.wait(10)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["emacs"]  # X11's key scheme: the clash is there to be had
    assert result["fired"] == ["export"]
    assert result["text"] == "pdf:"  # Ctrl+K, no window key: the box's own move
