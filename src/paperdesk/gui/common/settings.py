"""Window state kept between runs: geometry, splitter sizes, the table's columns.

Settings live where Qt keeps them for the organisation and app "PaperDesk";
when PAPERDESK_DATA_DIR moves the data folder (tests, portable installs) they
go into gui.ini inside it instead.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QByteArray, QSettings

from paperdesk.core.api import APP_NAME, ENV_DATA, data_dir


def settings() -> QSettings:
    if os.environ.get(ENV_DATA):
        return QSettings(str(data_dir() / "gui.ini"), QSettings.Format.IniFormat)
    return QSettings(APP_NAME, APP_NAME)


def load_bytes(key: str) -> QByteArray | None:
    value = settings().value(key)
    return value if isinstance(value, QByteArray) and not value.isEmpty() else None


def save(values: dict[str, object]) -> None:
    store = settings()
    for key, value in values.items():
        store.setValue(key, value)
    store.sync()
