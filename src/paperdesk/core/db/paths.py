"""Where things live: the library file, the demo library, the bundled seeds."""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "PaperDesk"
ENV_LIBRARY = "PAPERDESK_LIBRARY"
ENV_DATA = "PAPERDESK_DATA_DIR"  # moves every default file (tests, portable installs)


def data_dir() -> Path:
    """The user data folder: ~/.local/share/PaperDesk on Linux."""
    override = os.environ.get(ENV_DATA)
    if override:
        return Path(override)
    import platformdirs  # loaded only when the default folder is wanted

    return Path(platformdirs.user_data_dir(APP_NAME, False))


def library_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``--library PATH``, else $PAPERDESK_LIBRARY, else library.sqlite in the data folder."""
    if explicit:
        return Path(explicit).expanduser()
    if os.environ.get(ENV_LIBRARY):
        return Path(os.environ[ENV_LIBRARY]).expanduser()
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)  # PaperDesk's own folder: made on first use
    return folder / "library.sqlite"


def demo_library_path() -> Path:
    return data_dir() / "demo.sqlite"


def seed_files() -> list[Path]:
    """The sample digests shipped with PaperDesk (seeds/ in the repository)."""
    from importlib import resources  # loads tempfile: only when a resource is wanted

    folder = resources.files("paperdesk.seeds")
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".txt"))


def resource(name: str) -> Path:
    """A file from resources/ (icons, style sheets)."""
    from importlib import resources

    return Path(str(resources.files("paperdesk.resources").joinpath(name)))
