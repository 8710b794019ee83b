"""The autouse offline fixture: loopback servers work, the outside world does not."""

from __future__ import annotations

import os
import socket
import threading

import pytest


def test_dummy_api_key() -> None:
    assert os.environ["OPENAI_API_KEY"] == "sk-test-dummy"


def test_loopback_server_reachable() -> None:
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]

    def serve() -> None:
        conn, _ = srv.accept()
        conn.sendall(b"ok")
        conn.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as c:
        assert c.recv(2) == b"ok"
    t.join(5)
    srv.close()


def test_outside_connections_blocked() -> None:
    with pytest.raises(RuntimeError, match="network access blocked"):
        socket.create_connection(("203.0.113.1", 80), timeout=1)
    s = socket.socket()
    try:
        with pytest.raises(RuntimeError, match="network access blocked"):
            s.connect(("203.0.113.1", 80))
    finally:
        s.close()
