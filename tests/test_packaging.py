"""Packaging: the desktop entry, the AppStream metainfo, the icon, the wheel, the bundle.

The validators (desktop-file-validate, appstreamcli) are skipped where they are
not installed, except in CI (CI=true), where a missing tool is a failure.
The wheel test builds the wheel, installs it with its dependencies into a fresh
venv and runs the installed `paperdesk` from outside the source tree.
"""

from __future__ import annotations

import configparser
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from paperdesk import __version__
from paperdesk.app import _files_to_open
from paperdesk.cli.main import build_parser
from tests.conftest import SEED_PAPERS

ROOT = Path(__file__).resolve().parent.parent
LINUX = ROOT / "packaging" / "linux"
APP_ID = "org.paperdesk.PaperDesk"
DESKTOP = LINUX / f"{APP_ID}.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"
ICON = ROOT / "resources" / "paperdesk.svg"
MAIN_CATEGORIES = {"AudioVideo", "Audio", "Video", "Development", "Education", "Game",
                   "Graphics", "Network", "Office", "Science", "Settings", "System", "Utility"}
IN_CI = os.environ.get("CI") == "true"


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if IN_CI:
            pytest.fail(f"{name} is not installed (CI installs it through .ci/dev.py)")
        pytest.skip(f"{name} is not installed")
    return path


def desktop_entry(path: Path = DESKTOP) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return dict(parser["Desktop Entry"])


def run(command: list[str | Path], **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in command], capture_output=True, text=True, **kwargs)


# -- the desktop entry, the metainfo, the icon ---------------------------------------------

def test_desktop_entry_validates():
    result = run([tool("desktop-file-validate"), DESKTOP])
    assert result.returncode == 0, result.stdout + result.stderr
    # Hints count too: more than one main category is only a hint to the tool.
    assert result.stdout.strip() == "", result.stdout


def test_desktop_entry_opens_files_with_one_main_category():
    entry = desktop_entry()
    assert entry["Exec"] == "paperdesk %F"
    assert entry["Icon"] == APP_ID
    assert entry["StartupWMClass"] == "PaperDesk"  # Qt's window class: the application name
    categories = [c for c in entry["Categories"].split(";") if c]
    assert len(set(categories) & MAIN_CATEGORIES) == 1, categories


def test_metainfo_validates():
    result = run([tool("appstreamcli"), "validate", "--no-net", METAINFO])
    assert result.returncode == 0, result.stdout + result.stderr


def test_metainfo_validates_with_its_links_checked():
    # Without --no-net appstreamcli fetches every URL the file names: a placeholder
    # address (or an unreachable screenshot) is a warning and fails validation.
    result = run([tool("appstreamcli"), "validate", METAINFO])
    assert result.returncode == 0, result.stdout + result.stderr


def test_metainfo_names_the_desktop_entry_and_no_placeholder():
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == APP_ID
    assert root.find("launchable").text == DESKTOP.name
    assert root.find("provides/binary").text == "paperdesk"
    assert len(root.find("description").findtext("p").split()) > 20
    # PaperDesk has no web site of its own: the metainfo names no address at all
    # rather than one that leads nowhere.
    assert root.find("url") is None and root.find("screenshots") is None
    for path in LINUX.iterdir():
        assert "example.org" not in path.read_text(encoding="utf-8"), path
    versions = [r.get("version") for r in root.iter("release")]
    assert __version__ in versions


def test_icon_is_a_square_svg_qt_can_draw(qapp):
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    root = ET.parse(ICON).getroot()
    assert root.tag.endswith("svg")
    _, _, width, height = (float(v) for v in root.get("viewBox").split())
    assert width == height
    renderer = QSvgRenderer(str(ICON))
    assert renderer.isValid()
    image = QImage(64, 64, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    opaque = sum(image.pixelColor(x, y).alpha() > 0 for x in range(64) for y in range(64))
    assert opaque > 64 * 64 // 2  # a drawn tile, not an empty canvas


def test_install_script_puts_the_files_in_the_hicolor_theme(tmp_path):
    env = {**os.environ, "DESTDIR": str(tmp_path / "stage")}
    result = run(["sh", LINUX / "install.sh", "/usr"], env=env)
    assert result.returncode == 0, result.stderr
    share = tmp_path / "stage" / "usr" / "share"
    assert (share / "applications" / DESKTOP.name).read_bytes() == DESKTOP.read_bytes()
    assert (share / "metainfo" / METAINFO.name).read_bytes() == METAINFO.read_bytes()
    icon = share / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"
    assert icon.read_bytes() == ICON.read_bytes()
    result = run(["sh", LINUX / "install.sh", "--uninstall", "/usr"], env=env)
    assert result.returncode == 0, result.stderr
    assert not icon.exists()
    assert not (share / "applications" / DESKTOP.name).exists()


# -- `paperdesk FILE...` and the self-test -----------------------------------------------

def test_files_on_the_command_line_are_files_to_open(tmp_path, seeds):
    parser = build_parser()
    files = [str(p) for p in seeds[:2]]
    assert _files_to_open(parser, files) == files
    assert _files_to_open(parser, ["--library", str(seeds[0]), *files]) == files
    # Commands, options and missing paths are not files to open.
    assert _files_to_open(parser, ["import", *files]) == []
    assert _files_to_open(parser, ["--library", str(seeds[0])]) == []
    assert _files_to_open(parser, [str(tmp_path / "missing.txt")]) == []


def test_self_test_passes_and_leaves_the_data_folder_alone(_isolated_data):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = run([sys.executable, "-m", "paperdesk", "--self-test"], env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert f"self-test passed: demo library of {SEED_PAPERS} papers" in result.stdout
    assert f"window showed {SEED_PAPERS} rows" in result.stdout
    assert "a PDF opened (1 page, 612x792 drawn by PDFium)" in result.stdout  # pypdfium2
    assert list(_isolated_data.iterdir()) == []  # it worked in a folder of its own


# -- the wheel -----------------------------------------------------------------------------

# What the wheel is made from. It is built from a copy of them: setuptools works in the
# source tree's build/ folder, and two test processes building there at once (the
# module's fixture runs once per xdist worker) took each other's files away.
WHEEL_SOURCES = ("pyproject.toml", "README.md", "src", "seeds", "resources")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    tree = tmp_path_factory.mktemp("tree")
    for name in WHEEL_SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, tree / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.egg-info"))
        else:
            shutil.copy2(ROOT / name, tree / name)
    result = run([sys.executable, "-m", "build", "--wheel", "--outdir", out, tree], timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    # setuptools warns (a "!!" banner, a SetuptoolsWarning, "WARNING Package ... is absent")
    # about configuration it will stop accepting; the build must give none.
    output = result.stdout + result.stderr
    warnings = [line for line in output.splitlines()
                if re.search(r"Warning|WARNING|^!!", line)]
    assert not warnings, "\n".join(warnings)
    [built] = out.glob("paperdesk-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """The wheel installed with its dependencies into a fresh venv: its bin folder."""
    venv = tmp_path_factory.mktemp("installed") / "venv"
    result = run([sys.executable, "-m", "venv", venv], timeout=300)
    assert result.returncode == 0, result.stderr
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    # The wheel with its dependencies, as a user installs it (pip's cache is reused).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = run([bindir / "python", "-m", "pip", "install", "-q", wheel], env=env,
                 timeout=1800)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return bindir


def installed_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PAPERDESK_LIBRARY")}
    env.update(QT_QPA_PLATFORM="offscreen", PAPERDESK_DATA_DIR=str(tmp_path / "data"))
    return env


@pytest.mark.slow
def test_wheel_carries_the_seeds_and_resources(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    seeds = sorted(n for n in names if n.startswith("paperdesk/seeds/") and n.endswith(".txt"))
    assert [Path(n).name for n in seeds] == sorted(p.name for p in (ROOT / "seeds").glob("*.txt"))
    assert "paperdesk/resources/paperdesk.svg" in names
    icons = {Path(n).name for n in names if n.startswith("paperdesk/resources/icons/")}
    assert icons == {p.name for p in (ROOT / "resources" / "icons").glob("*.svg")}
    assert not any(n.startswith(("tests/", "bench/")) for n in names)


@pytest.mark.slow
def test_wheel_installs_into_a_fresh_venv_and_runs(installed, tmp_path):
    bindir = installed
    paperdesk = bindir / "paperdesk"
    env = installed_env(tmp_path)
    where = run([bindir / "python", "-c", "import paperdesk; print(paperdesk.__file__)"],
                env=env, cwd=tmp_path)
    assert str(bindir.parent) in where.stdout, where.stdout  # the installed copy, not the source

    version = run([paperdesk, "--version"], env=env, cwd=tmp_path, timeout=120)
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"PaperDesk {__version__}"

    stats = run([paperdesk, "--demo", "stats", "--json"], env=env, cwd=tmp_path, timeout=300)
    assert stats.returncode == 0, stats.stderr
    assert f'"papers": {SEED_PAPERS}' in stats.stdout

    check = run([paperdesk, "--self-test"], env=env, cwd=tmp_path, timeout=300)
    assert check.returncode == 0, check.stderr
    assert f"self-test passed: demo library of {SEED_PAPERS} papers" in check.stdout
    assert "a PDF opened" in check.stdout  # pypdfium2 came with the wheel's dependencies


@pytest.mark.slow
def test_installed_app_names_a_missing_xcb_library_instead_of_aborting(installed, tmp_path):
    bindir = installed
    env = installed_env(tmp_path)
    del env["QT_QPA_PLATFORM"]  # the desktop's platform, as a user starts it: xcb
    env.update(DISPLAY=":99", TMPDIR=str(tmp_path))
    for key in ("WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "QT_PLUGIN_PATH"):
        env.pop(key, None)
    library = tmp_path / "library.sqlite"

    # Qt itself, in that place, aborts: the check guards a real failure.
    qt = without_xcb_cursor([bindir / "python", "-c",
                             "from PySide6.QtWidgets import QApplication; QApplication([])"], env)
    assert qt.returncode in (-6, 134), qt.returncode
    assert "xcb-cursor0" in qt.stderr

    result = without_xcb_cursor([bindir / "paperdesk", "--library", library], env)
    assert result.returncode == 1, result.stderr
    [line] = result.stderr.strip().splitlines()
    assert "libxcb-cursor.so.0" in line
    assert "apt install" in line and "libxcb-cursor0" in line
    assert "dnf install" in line and "xcb-util-cursor" in line
    assert "wayland" not in line.lower()  # no Wayland session here
    assert not library.exists()  # refused before anything was opened

    env["WAYLAND_DISPLAY"] = "wayland-0"
    result = without_xcb_cursor([bindir / "paperdesk", "--library", library], env)
    assert result.returncode == 1, result.stderr
    [line] = result.stderr.strip().splitlines()
    assert "QT_QPA_PLATFORM=wayland" in line

    del env["WAYLAND_DISPLAY"]
    check = without_xcb_cursor([bindir / "paperdesk", "--self-test"], env)
    assert check.returncode == 1
    assert "self-test FAILED" in check.stderr
    assert ("missing library: libxcb-cursor.so.0 (Debian/Ubuntu: libxcb-cursor0; "
            "Fedora: xcb-util-cursor)") in check.stderr.splitlines()


def without_xcb_cursor(command: list, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``command`` where the loader cannot find libxcb-cursor.so.0, as on a desktop
    without that package: hidden in a private mount namespace if it is installed here."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the platform check is for Linux")
    installed_here = "libxcb-cursor.so.0 " in run(["ldconfig", "-p"]).stdout
    if installed_here:
        probe = run(["unshare", "-m", "true"]) if shutil.which("unshare") else None
        if probe is None or probe.returncode != 0:
            if IN_CI:
                pytest.fail("cannot hide libxcb-cursor.so.0 (unshare -m needs root)")
            pytest.skip("libxcb-cursor.so.0 is installed and cannot be hidden without root")
        command = ["unshare", "-m", sys.executable, ROOT / "tests" / "hide_library.py",
                   "libxcb-cursor.so.0", "--", *command]
    return run(command, env=env, timeout=300)


# -- the PyInstaller bundle ----------------------------------------------------------------

@pytest.mark.slow
def test_bundle_builds_and_passes_its_self_test(tmp_path):
    """About 1.5 minutes on two cores; the bundle is about 200 MiB."""
    if importlib.util.find_spec("PyInstaller") is None:
        if IN_CI:
            pytest.fail("PyInstaller is not installed (it is in the test extra)")
        pytest.skip("PyInstaller is not installed")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERDESK_")}
    script = ROOT / "packaging" / "pyinstaller" / "build_bundle.py"
    result = run([sys.executable, script, "--out", tmp_path / "bundle"], env=env, timeout=1800)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert f"version: PaperDesk {__version__}" in result.stdout
    assert f"self-test passed: demo library of {SEED_PAPERS} papers" in result.stdout
    assert "a PDF opened" in result.stdout  # PDFium in the bundle, its sandbox spawned
    bundle = tmp_path / "bundle" / "dist" / "paperdesk"
    files = {p.relative_to(bundle).as_posix() for p in bundle.rglob("*") if p.is_file()}
    assert sum(f.endswith(".txt") and "/paperdesk/seeds/" in f"/{f}" for f in files) == 5
    assert any(f.endswith("paperdesk/resources/paperdesk.svg") for f in files)
    left_out = ("Qt6Qml", "Qt6Quick", "Qt6Network", "Qt6Pdf", "QtQml.abi3", "QtNetwork.abi3")
    assert not [f for f in files if any(part in f for part in left_out)]
