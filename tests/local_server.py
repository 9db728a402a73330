"""What the tests' local HTTP stand-ins share (``fake_hub``, ``fake_services``,
``fake_scholarly``): a threaded server on a loopback port that hands every GET to the
stand-in's ``_serve(handler)``, started and stopped as a context manager; the faults
set for a path's prefix (``Fault``, ``take_fault``); and ``send``, one answer as the stand-ins
write them, whole, cut short or a byte at a time.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


@dataclass
class Fault:
    """An answer set for the paths under ``prefix``, ``times`` times: after ``delay``
    seconds; ``cut`` and ``trickle`` as ``send`` takes them."""

    prefix: str
    status: int
    body: bytes
    headers: dict[str, str]
    times: int
    delay: float = 0.0
    cut: int | None = None
    trickle: float | None = None


class LocalServer:
    """A server on ``host`` (``127.0.0.2``: a second loopback host) and a free port;
    ``quiet_errors``: a client that hung up is not news (no traceback on stderr)."""

    def __init__(self, host: str = "127.0.0.1", *, quiet_errors: bool = False) -> None:
        self.host = host
        self.faults: list[Any] = []  # each with a path ``prefix`` and ``times`` left
        self.lock = threading.Lock()
        served = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out in two writes: without this, Nagle's algorithm
            # and the client's delayed ACK hold each kept-alive answer for 40 ms.
            disable_nagle_algorithm = True

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                served._serve(self)

        self.server = ThreadingHTTPServer((host, 0), Handler)
        self.server.daemon_threads = True
        if quiet_errors:
            self.server.handle_error = lambda *_a: None  # type: ignore[method-assign]
        # Checks for shutdown every 20 ms: the default half second added half a
        # second to the end of every test with a stand-in.
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,),
                                       daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.server.server_address[1]}"

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        raise NotImplementedError

    def take_fault(self, path: str) -> Any | None:
        """The first fault set for a prefix of ``path`` with times left, one time fewer."""
        with self.lock:
            for fault in self.faults:
                if path.startswith(fault.prefix) and fault.times > 0:
                    fault.times -= 1
                    return fault
        return None


def send(handler: BaseHTTPRequestHandler, status: int, body: bytes,
         headers: dict[str, str] | None = None, cut: int | None = None,
         trickle: float | None = None) -> None:
    """One answer: JSON unless ``headers`` give another Content-Type, its Content-Length
    the body's (``"Content-Length": ""``: none, the body ends when the connection
    closes); ``cut``: only that many bytes, then the connection closes; ``trickle``: a
    byte every so many seconds. A client that hung up ends it. ``handler.sent_at``:
    the moment just before the body's last bytes were written, which no client can
    have read the answer before (a log of when answers ended uses it: a stamp taken
    after the write can come late on a busy machine, after the client has read on)."""
    headers = headers or {}
    try:
        handler.send_response(status)
        unsized = headers.get("Content-Length") == ""
        for key, value in {"Content-Type": "application/json", **headers}.items():
            if key != "Content-Length":
                handler.send_header(key, value)
        if unsized:
            handler.send_header("Connection", "close")
            handler.close_connection = True
        else:
            handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.sent_at = time.monotonic()
        if trickle:
            for n in range(len(body)):
                handler.sent_at = time.monotonic()
                handler.wfile.write(body[n:n + 1])
                handler.wfile.flush()
                time.sleep(trickle)
        elif cut is not None:
            handler.wfile.write(body[:cut])
            handler.wfile.flush()
            handler.close_connection = True
        else:
            handler.wfile.write(body)
    except (BrokenPipeError, ConnectionResetError):
        pass
