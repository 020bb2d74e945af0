"""A graceful shutdown (SIGTERM) with a peer that never reads: the server stops listening first (a new
connection is refused while the old sockets close), closes every socket with 1001 and exits; it does not wait
for a close frame from a peer that will never send one.

Before this was fixed, one such peer held `typewire serve` on SIGTERM until the supervisor's SIGKILL
(over 40 s here): every deploy waited on the slowest phone.
"""

import json
import signal
import socket
import time

import pytest

import websocket

from faultkit import mint_token, peer, record, running_server


def test_a_peer_that_never_reads_does_not_hold_the_shutdown(tmp_path, request):
    with running_server(request.node.name, tmp_path / "t.sqlite") as server:
        url = f"ws://{server.host}:{server.port}/v1/socket"
        silent = websocket.create_connection(url, timeout=10)
        silent.send(json.dumps({"type": "hello", "token": mint_token("alice", "Alice")}))
        silent.recv()  # welcome; then it never reads again
        with peer(url, mint_token("bob", "Bob"), "bob") as bob:
            bob.wait_for(lambda frame: frame.get("type") == "welcome", 10, "bob's welcome")
            with socket.create_connection((server.host, server.port), timeout=5):
                pass  # before the shutdown a connection is taken: the check below would see it
            started = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 10
            while bob.closed_at is None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert bob.closed_at is not None, "the reading peer's socket was closed"
            assert bob.close_code == 1001, f"closed with {bob.close_code}, not 1001 (going away)"
            assert bob.closed_at - started < 3, "the reader's close came at once, not after the silent one's timeout"
            # The silent peer still holds the exit (for up to the close timeout), and the listener is gone.
            assert server.process.poll() is None, "the server exited before the silent peer's close timeout"
            with pytest.raises(ConnectionRefusedError):
                socket.create_connection((server.host, server.port), timeout=5).close()
            assert server.process.poll() is None, "the refusal came while the server was still closing its sockets"
            server.process.wait(timeout=30)  # a liveness bound
            took = time.monotonic() - started
            record(request.node.name, shutdown_seconds=round(took, 2))
            assert server.process.returncode == 0, f"the server exited with {server.process.returncode}"
            # The silent peer holds the exit for the close timeout (3 s, the default), no longer: 3 s more
            # is the margin of a loaded machine, well short of the 40 s a supervisor's SIGKILL came after.
            assert took < 6, f"the shutdown took {took:.1f} s, past the 3 s close timeout"
        silent.close()
