"""HTTP as an attacker would use it: huge request heads, connections that never finish their head, and a
process short of file descriptors; and a demo that would hand out tokens signed with a real secret.

Runs against the built `typewire` (Tests/Support/typewire_server.py starts it).
"""
import resource
import socket
import subprocess
import time
import urllib.request

from abusekit import ROOT, SECRET, serve
import typewire_server  # (found through the path abusekit sets)


def read_until_closed(connection, limit=30):
    """Everything the server sends until it closes the connection (within `limit` seconds)."""
    connection.settimeout(limit)
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    return received


def healthz(server):
    with urllib.request.urlopen(f"{server.url}/healthz", timeout=5) as response:
        return response.status


def test_a_huge_request_head_is_answered_431_and_closed(tmp_path):
    with serve(tmp_path) as server:
        connection = socket.create_connection((server.host, server.port), timeout=10)
        head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"a" * 90_000 + b"\r\n\r\n"
        try:
            connection.sendall(head)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may close before it has read everything
        answer = read_until_closed(connection)
        assert answer.startswith(b"HTTP/1.1 431"), answer[:200]
        assert healthz(server) == 200


def test_half_sent_heads_that_took_every_descriptor_are_closed_and_the_server_answers_again(tmp_path):
    """300 connections that never finish their head, on a process allowed 256 descriptors in all: the head
    timeout closes them, and the server answers others again. (Others served while such an attack holds,
    from another address: test_address_refusals.py, per-address bound.)"""

    def few_descriptors():
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    with serve(tmp_path, "--header-timeout", "1000", preexec_fn=few_descriptors) as server:
        assert "Open-file limit 256" in server.log, server.log
        idle = []
        for _ in range(300):
            connection = socket.create_connection((server.host, server.port), timeout=10)
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # no blank line: the head never ends
            idle.append(connection)
        # The first one is closed by the server once its head timeout passed.
        assert read_until_closed(idle[0]) == b""
        deadline = time.monotonic() + 30
        while True:
            try:
                assert healthz(server) == 200
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
        for connection in idle:
            connection.close()


def test_demo_refuses_a_secret_of_ones_own(tmp_path):
    run = subprocess.run(
        [str(typewire_server.BINARY), "serve", "--demo", "--jwt-secret", SECRET, "--port", "0", "--sqlite", str(tmp_path / "t.sqlite")],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert run.returncode != 0
    assert "--seed-demo" in run.stderr + run.stdout, run.stderr + run.stdout
    assert not (tmp_path / "t.sqlite").exists(), "refused before touching the store"


def refused_start(tmp_path, *arguments):
    """`typewire serve ARGUMENTS` must refuse to start; returns what it said."""
    run = subprocess.run(
        [str(typewire_server.BINARY), "serve", "--port", "0", "--sqlite", str(tmp_path / "t.sqlite"), *arguments],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert run.returncode != 0, f"it started with {arguments}"
    return run.stderr + run.stdout


def test_a_nats_bus_without_postgres_or_with_a_url_it_cannot_use_stops_the_start(tmp_path):
    said = refused_start(tmp_path, "--jwt-secret", SECRET, "--nats-url", "nats://127.0.0.1:4222")
    assert "--nats-url needs --postgres-url" in said, said
    said = refused_start(tmp_path, "--jwt-secret", SECRET, "--postgres-url", "postgres://typewire@127.0.0.1:1/typewire",
                         "--nats-url", "http://127.0.0.1:4222")
    assert "the scheme is nats:// or tls://" in said, said
    said = refused_start(tmp_path, "--jwt-secret", SECRET, "--postgres-url", "postgres://typewire@127.0.0.1:1/typewire",
                         "--nats-url", "tls://127.0.0.1:4222", "--nats-tls-ca", str(tmp_path / "missing.pem"))
    assert "--nats-tls-ca" in said and "is not a readable file" in said, said
    assert not (tmp_path / "t.sqlite").exists(), "refused before touching a store"


def test_unsafe_or_broken_token_and_key_settings_stop_the_start(tmp_path):
    # A key set over plain http off loopback: anyone on the way could swap the keys.
    assert "use https" in refused_start(tmp_path, "--jwks", "http://keys.example.com/jwks.json")
    # A key-set file that is not there, or not a key set.
    assert "Cannot read the key set" in refused_start(tmp_path, "--jwks", str(tmp_path / "missing.json"))
    (tmp_path / "empty.json").write_text('{"keys": []}')
    assert "no RSA or EC key" in refused_start(tmp_path, "--jwks", str(tmp_path / "empty.json"))
    # A short server-API key.
    assert "at least 32" in refused_start(tmp_path, "--jwt-secret", SECRET, "--api-key", "short")
    # Nothing to verify tokens with.
    assert "--jwks" in refused_start(tmp_path)


def upgrade_answer(server, origin):
    """The status line and headers the server answers a WebSocket upgrade from `origin` with."""
    request = (
        "GET /v1/socket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: {origin}\r\n\r\n"
    )
    with socket.create_connection((server.host, server.port), timeout=10) as connection:
        connection.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = connection.recv(4096)
            if not chunk:
                break
            head += chunk
    return head.split(b"\r\n\r\n", 1)[0].decode(errors="replace")


def test_a_browser_origin_outside_the_allowed_ones_is_refused_at_the_upgrade(tmp_path):
    with serve(tmp_path, "--allowed-origins", "https://chat.example") as server:
        refused = upgrade_answer(server, "https://evil.example")
        assert refused.split("\r\n")[0].split(" ")[1] in ("400", "403"), refused
        allowed = upgrade_answer(server, "https://chat.example")
        assert allowed.startswith("HTTP/1.1 101"), allowed
