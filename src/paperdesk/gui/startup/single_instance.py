"""One window per library: a second `paperdesk [FILE...]` on a library that a window
has open hands its files (and its search) to that window and ends.

The window listens on a local socket (``QLocalServer``) named after the library
file's identity: its device and inode when it exists (a link or another spelling
of the path is the same library), else its resolved path; and the user's id.
A starting program first tries to reach that socket; when a window answers, it
sends one JSON line (``{"files": [...], "search": ...}``), waits for ``ok`` and
exits 0. A socket left behind by a window that crashed answers nobody: it is
removed and the new window listens in its place.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QDir, QObject, Signal

# PySide6.QtNetwork loads only when a window may be there (a socket file exists) and
# once the window is up: the start of a lone window does not wait for it.

CONNECT_MS = 500   # a window that is there answers in a few milliseconds
ANSWER_MS = 2000
MAX_MESSAGE = 1 << 20


def server_name(library: Path) -> str:
    """The socket's name for ``library``: the same for every spelling of its path."""
    try:
        st = os.stat(library)
        identity = f"{st.st_dev}:{st.st_ino}"
    except OSError:
        identity = os.path.realpath(library)
    uid = os.getuid() if hasattr(os, "getuid") else 0
    digest = hashlib.sha256(identity.encode()).hexdigest()[:16]
    return f"paperdesk-{uid}-{digest}"


def hand_over(name: str, message: dict[str, Any]) -> bool:
    """Give ``message`` to the window listening as ``name``; False when none answered."""
    if os.name == "posix" and not Path(QDir.tempPath(), name).exists():
        return False  # where QLocalServer puts its socket: no window ever listened
    from PySide6.QtNetwork import QLocalSocket

    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(CONNECT_MS):
        return False  # nobody there, or a socket left by a crash
    socket.write(json.dumps(message).encode() + b"\n")
    socket.flush()
    answered = b""  # a window busy for a while reads it once it is free: handed over
    while b"\n" not in answered and socket.waitForReadyRead(ANSWER_MS):
        answered += bytes(socket.readAll().data())
    socket.disconnectFromServer()
    return answered.strip() in (b"ok", b"")


def _answers(name: str) -> bool:
    from PySide6.QtNetwork import QLocalSocket

    socket = QLocalSocket()
    socket.connectToServer(name)
    live = socket.waitForConnected(CONNECT_MS)
    socket.abort()
    return live


class Listener(QObject):
    """The window's end: ``received(message)`` for each program that handed over."""

    received = Signal(dict)

    def __init__(self, name: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.server: Any = None
        self.name: str | None = None
        self._buffers: dict[Any, bytes] = {}  # QLocalSocket -> what it sent so far
        if name is not None:
            self.listen(name)

    def listen(self, name: str) -> None:
        """Listen as ``name`` (again, when the window opened another library)."""
        if self.server is None:
            from PySide6.QtNetwork import QLocalServer

            self.server = QLocalServer(self)
            self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
            self.server.newConnection.connect(self._connection)
        self.server.close()
        self.name = name
        if not self.server.listen(name) and not _answers(name):
            self.server.removeServer(name)  # a socket file left by a window that crashed
            self.server.listen(name)

    @property
    def listening(self) -> bool:
        return self.server is not None and self.server.isListening()

    def _connection(self) -> None:
        while (socket := self.server.nextPendingConnection()) is not None:
            self._buffers[socket] = b""
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(lambda s=socket: self._forget(s))

    def _read(self, socket) -> None:
        data = self._buffers.get(socket, b"") + bytes(socket.readAll().data())
        if b"\n" not in data and len(data) < MAX_MESSAGE:
            self._buffers[socket] = data
            return
        self._buffers[socket] = b""
        try:
            message = json.loads(data.split(b"\n", 1)[0])
        except ValueError:
            message = None
        if not isinstance(message, dict):
            socket.write(b"refused\n")  # not one of ours: nothing happens
            return
        socket.write(b"ok\n")
        socket.flush()
        self.received.emit(message)

    def _forget(self, socket) -> None:
        self._buffers.pop(socket, None)
        socket.deleteLater()

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


def deliver(window, message: dict[str, Any]) -> None:
    """What a second `paperdesk` handed over: its files imported as a drop is, its
    search shown; the window comes to the front."""
    files = [Path(f) for f in message.get("files") or [] if isinstance(f, str)]
    if files:
        window.context.importer.start(files)
    search = message.get("search")
    if isinstance(search, str):
        window.search_bar.edit.setText(search)
        window.search_bar.fire()
    if window.isMinimized():
        window.showNormal()
    window.raise_()
    window.activateWindow()
