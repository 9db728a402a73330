"""The check that runs before Qt: which platform plugins Qt will try, and what stops them."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from paperdesk.gui.startup import platform_check as pc

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the platform check is for Linux")


def test_qt_tries_what_qt_qpa_platform_names_else_the_session():
    assert pc.candidates({"QT_QPA_PLATFORM": "wayland;xcb"}) == ["wayland", "xcb"]
    assert pc.candidates({"QT_QPA_PLATFORM": "vnc:size=800x600"}) == ["vnc"]
    assert pc.candidates({"XDG_SESSION_TYPE": "wayland"}) == ["wayland", "xcb"]
    assert pc.candidates({"XDG_SESSION_TYPE": "x11"}) == ["xcb"]
    assert pc.candidates({}) == ["xcb"]


def test_install_hint_names_debian_and_fedora_packages():
    hint = pc.install_hint(["libxcb-cursor.so.0", "libxcb-shape.so.0"])
    assert hint == ("Debian/Ubuntu: apt install libxcb-cursor0 libxcb-shape0; "
                    "Fedora: dnf install xcb-util-cursor libxcb")
    assert pc.install_hint(["libunheard-of.so.3"]) == "install the package that provides it"


def test_the_offscreen_plugin_loads_here():
    # The test suite itself draws offscreen, so this plugin's libraries are present.
    assert pc.check({**os.environ, "QT_QPA_PLATFORM": "offscreen"}) is None


def test_a_plugin_that_is_not_there_is_one_line_and_exit_1(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "nosuchplatform"}
    problem = pc.check(env)
    assert problem is not None
    assert "no 'nosuchplatform' platform plugin" in problem.reason
    result = subprocess.run([sys.executable, "-m", "paperdesk", "--library",
                             str(tmp_path / "lib.sqlite")],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 1  # Qt alone would abort (134) here
    assert result.stderr.strip().splitlines() == [f"paperdesk: {problem.line(env)}"]
    assert not (tmp_path / "lib.sqlite").exists()


def test_xcb_without_a_display_is_named():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["QT_QPA_PLATFORM"] = "xcb"
    problem = pc.check(env)
    assert problem is not None
    # Either libraries are missing here (they are named) or, with all of them
    # present, the display is what is missing.
    if problem.missing:
        assert all(lib in problem.reason for lib in problem.missing)
    else:
        assert "$DISPLAY is not set" in problem.reason
        assert pc.check(env, display=False) is None


def test_a_plugin_on_qt_plugin_path_comes_first(tmp_path):
    platforms = tmp_path / "platforms"
    platforms.mkdir()
    (platforms / "libqoffscreen.so").write_bytes(b"not a shared library")
    env = {**os.environ, "QT_PLUGIN_PATH": str(tmp_path), "QT_QPA_PLATFORM": "offscreen"}
    assert pc.plugin_file("offscreen", env) == platforms / "libqoffscreen.so"


def a_plugin_needing(tmp_path, absent: str):
    """A copy of Qt's offscreen plugin whose list of needed libraries names ``absent``
    (libxkbcommon.so.0 renamed, same length) beside Qt's own libraries."""
    real = pc.plugin_file("offscreen", os.environ)
    assert real is not None
    data = real.read_bytes()
    assert data.count(b"libxkbcommon.so.0\0") >= 1 and len(absent) == len("libxkbcommon.so.0")
    copy = tmp_path / "platforms" / "libqoffscreen.so"
    copy.parent.mkdir()
    copy.write_bytes(data.replace(b"libxkbcommon.so.0\0", absent.encode() + b"\0"))
    return copy, real.parents[2] / "lib"  # Qt's own libraries (Qt/plugins/platforms/..)


@pytest.mark.parametrize("ldd", [True, False], ids=["ldd", "the dynamic loader"])
def test_a_library_the_plugin_needs_and_cannot_find_is_named(tmp_path, ldd):
    plugin, qt_libraries = a_plugin_needing(tmp_path, "libxkbcommzz.so.0")
    env = {**os.environ, "LD_LIBRARY_PATH": str(qt_libraries)}
    if not ldd:  # where there is no ldd (Alpine, some minimal images)
        env["PATH"] = str(tmp_path)
        assert pc.program_interpreter(sys.executable) is not None
    assert pc.missing_libraries(plugin, env) == ["libxkbcommzz.so.0"]
    real = pc.plugin_file("offscreen", os.environ)
    assert pc.missing_libraries(real, env) == []
