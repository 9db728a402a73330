"""Before Qt starts: can the platform plugin it will use load here?

When Qt cannot load its platform plugin (on a desktop without `libxcb-cursor0`,
say) it prints a paragraph and aborts the process: exit 134 and, on some systems,
a core dump. This module asks the question first, without loading Qt: it finds
the plugin files Qt would try, lists the shared libraries each one cannot load
(`ldd`, or where `ldd` is absent the dynamic loader Python itself runs under,
named in its executable's ELF header, asked to `--list` them, as `ldd` does; both
in a child process, nothing is loaded here) and turns the answer
into one line that names each missing library and the package that provides it
on Debian/Ubuntu and Fedora.

Only Linux is checked; elsewhere Qt's plugins come with the wheel.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

# Libraries Qt's xcb and wayland plugins need that a minimal desktop may lack,
# with the packages that provide them: (Debian/Ubuntu, Fedora).
PACKAGES: dict[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libwayland-client.so.0": ("libwayland-client0", "libwayland-client"),
    "libwayland-cursor.so.0": ("libwayland-cursor0", "libwayland-cursor"),
    "libwayland-egl.so.1": ("libwayland-egl1", "libwayland-egl"),
}
# libxcb-shape.so.0, libxcb-randr.so.0...: Debian ships each in libxcb-NAME0
# (or 1), Fedora all of them in libxcb.
_XCB_PART = re.compile(r"^libxcb-([a-z0-9-]+)\.so\.(\d+)$")
_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)


@dataclass
class Problem:
    """Why the window cannot start: a sentence, and the libraries that are missing."""

    reason: str
    missing: list[str] = field(default_factory=list)

    def line(self, env: Mapping[str, str] | None = None) -> str:
        env = os.environ if env is None else env
        text = f"PaperDesk cannot open its window: {self.reason}"
        if self.missing:
            text += f" ({install_hint(self.missing)})"
        wayland = env.get("WAYLAND_DISPLAY") and "wayland" not in self.reason
        if wayland and "QT_QPA_PLATFORM=wayland" not in text:
            text += "; in this Wayland session, QT_QPA_PLATFORM=wayland paperdesk may work"
        return text


def package_for(library: str) -> tuple[str, str] | None:
    if library in PACKAGES:
        return PACKAGES[library]
    part = _XCB_PART.match(library)
    if part:
        return f"libxcb-{part.group(1)}{part.group(2)}", "libxcb"
    return None


def install_hint(missing: list[str]) -> str:
    known = [p for p in (package_for(lib) for lib in missing) if p is not None]
    if not known:
        return "install the package that provides it"
    debian = " ".join(dict.fromkeys(p[0] for p in known))
    fedora = " ".join(dict.fromkeys(p[1] for p in known))
    return f"Debian/Ubuntu: apt install {debian}; Fedora: dnf install {fedora}"


def candidates(env: Mapping[str, str]) -> list[str]:
    """The platform plugins Qt will try, in its order (QT_QPA_PLATFORM, else the session)."""
    spec = env.get("QT_QPA_PLATFORM", "").strip()
    if spec:
        return [p.split(":")[0].strip() for p in spec.split(";") if p.strip()]
    if env.get("XDG_SESSION_TYPE") == "wayland":
        return ["wayland", "xcb"]
    return ["xcb"]


def plugin_dirs(env: Mapping[str, str]) -> list[Path]:
    """Where Qt looks for plugins: QT_PLUGIN_PATH first, then PySide6's own."""
    dirs = [Path(p) for p in env.get("QT_PLUGIN_PATH", "").split(os.pathsep) if p]
    spec = importlib.util.find_spec("PySide6")
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            dirs.append(Path(location) / "Qt" / "plugins")
    return dirs


def plugin_file(name: str, env: Mapping[str, str]) -> Path | None:
    for folder in plugin_dirs(env):
        candidate = folder / "platforms" / f"libq{name}.so"
        if candidate.is_file():
            return candidate
    return None


def missing_libraries(plugin: Path, env: Mapping[str, str] | None = None) -> list[str]:
    """The shared libraries ``plugin`` needs that the dynamic loader cannot find."""
    env = dict(os.environ if env is None else env)
    ldd = shutil.which("ldd", path=env.get("PATH"))
    loader = program_interpreter(sys.executable)
    for command, extra in (([ldd], {}) if ldd else ([], {}), _ask_loader(loader)):
        if not command:
            continue
        try:
            done = subprocess.run([*command, str(plugin)], capture_output=True, text=True,
                                  env={**env, **extra}, timeout=20)
        except (OSError, subprocess.SubprocessError):
            continue
        found = _NOT_FOUND.findall(done.stdout) + _MUSL_MISSING.findall(done.stderr)
        return list(dict.fromkeys(found))
    return []  # nothing here can tell: Qt will say


def _ask_loader(loader: str | None) -> tuple[list[str], dict[str, str]]:
    """How to ask the dynamic loader what a library needs, as ``ldd`` does: glibc's
    lists when LD_TRACE_LOADED_OBJECTS is set, musl's with --list."""
    if loader is None:
        return [], {}
    if "musl" in os.path.basename(loader):
        return [loader, "--list"], {}
    return [loader], {"LD_TRACE_LOADED_OBJECTS": "1"}


_MUSL_MISSING = re.compile(r"^Error loading shared library (\S+): No such file", re.MULTILINE)
_PT_INTERP = 3


def program_interpreter(executable: str) -> str | None:
    """The dynamic loader an ELF executable names (its PT_INTERP header), or None."""
    try:
        with open(executable, "rb") as binary:
            head = binary.read(64)
            if head[:4] != b"\x7fELF":
                return None
            wide, order = head[4] == 2, "<" if head[5] == 1 else ">"
            if wide:
                (table,), (size, count) = (struct.unpack_from(order + "Q", head, 32),
                                           struct.unpack_from(order + "HH", head, 54))
            else:
                (table,), (size, count) = (struct.unpack_from(order + "I", head, 28),
                                           struct.unpack_from(order + "HH", head, 42))
            for n in range(count):
                binary.seek(table + n * size)
                entry = binary.read(size)
                if struct.unpack_from(order + "I", entry)[0] != _PT_INTERP:
                    continue
                at, length = (struct.unpack_from(order + "QQQQ", entry, 8)[::3] if wide
                              else struct.unpack_from(order + "IIII", entry, 4)[::3])
                binary.seek(at)
                return os.fsdecode(binary.read(length).rstrip(b"\0")) or None
    except (OSError, struct.error):
        return None
    return None


def _display_problem(name: str, env: Mapping[str, str]) -> Problem | None:
    if name == "xcb" and not env.get("DISPLAY"):
        return Problem("no X display to show it on ($DISPLAY is not set)")
    if name == "wayland" and not env.get("WAYLAND_DISPLAY"):
        return Problem("no Wayland display ($WAYLAND_DISPLAY is not set)")
    return None


def check_platform(name: str, env: Mapping[str, str], *, display: bool = True) -> Problem | None:
    """Why Qt's ``name`` platform plugin would not start here, or None."""
    plugin = plugin_file(name, env)
    if plugin is None:
        return Problem(f"Qt has no '{name}' platform plugin in this installation")
    missing = missing_libraries(plugin, env)
    if missing:
        verb = "is" if len(missing) == 1 else "are"
        return Problem(f"Qt's {name} platform plugin needs {', '.join(missing)}, "
                       f"which {verb} not installed", missing)
    return _display_problem(name, env) if display else None


def check(env: Mapping[str, str] | None = None, *, display: bool = True) -> Problem | None:
    """Why the window cannot start here, or None when a platform Qt will try can.

    With ``display=False`` only the libraries count (the self-test draws offscreen).
    """
    env = os.environ if env is None else env
    if not sys.platform.startswith("linux"):
        return None
    first: Problem | None = None
    for name in candidates(env):
        problem = check_platform(name, env, display=display)
        if problem is None:
            return None
        first = first or problem
    return first
