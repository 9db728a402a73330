"""Build the one-folder bundle with PyInstaller, run its self-test, report its size.

    .venv/bin/python packaging/pyinstaller/build_bundle.py [--out build/bundle]

Needs PyInstaller in the environment (`pip install pyinstaller`). Prints the
build time, the bundle's size and the self-test's line; exits non-zero when
the build or the self-test fails. The bundle is OUT/dist/paperdesk/.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def build(out: Path) -> Path:
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level",
               "WARN", "--distpath", str(out / "dist"), "--workpath", str(out / "work"),
               str(HERE / "paperdesk.spec")]
    subprocess.run(command, check=True, cwd=ROOT)
    return out / "dist" / "paperdesk"


def check(bundle: Path) -> tuple[str, str]:
    exe = bundle / ("paperdesk.exe" if os.name == "nt" else "paperdesk")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERDESK_")}
    env["QT_QPA_PLATFORM"] = "offscreen"
    version = subprocess.run([str(exe), "--version"], capture_output=True, text=True,
                             env=env, timeout=120)
    if version.returncode != 0:
        raise SystemExit(f"bundle --version failed: {version.stderr.strip()}")
    test = subprocess.run([str(exe), "--self-test"], capture_output=True, text=True, env=env,
                          timeout=300)
    if test.returncode != 0:
        raise SystemExit(f"bundle self-test failed: {(test.stderr or test.stdout).strip()}")
    return version.stdout.strip(), test.stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "bundle",
                        help="where the work files and dist/ go")
    parser.add_argument("--skip-build", action="store_true", help="check an existing bundle")
    args = parser.parse_args()
    start = time.perf_counter()
    bundle = args.out / "dist" / "paperdesk" if args.skip_build else build(args.out)
    built = time.perf_counter() - start
    version, result = check(bundle)
    size = folder_size(bundle)
    files = sum(1 for p in bundle.rglob("*") if p.is_file())
    print(f"bundle: {bundle}")
    print(f"build time: {built:.0f} s")
    print(f"size: {size / 2**20:.1f} MiB in {files} files")
    print(f"version: {version}")
    print(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
