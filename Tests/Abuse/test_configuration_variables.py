"""Every TYPEWIRE_* variable in docs/CONFIGURATION.md is read by `typewire serve` under that name, and the
table lists every variable the server reads: each variable is set alone, to a value the server must refuse
(a start that stops and names it) or whose effect a client can see.
"""
import os
import re
import socket
import subprocess
import urllib.request

import pytest

from abusekit import ROOT, SECRET, serve, token
from raw_socket import RawSocket
import typewire_server  # (found through the path abusekit sets)

TABLE = re.compile(r"^\| `(--[a-z-]+)` \| `(TYPEWIRE_[A-Z_]+)")
DOCUMENTED = {variable: flag for flag, variable in
              (TABLE.match(line).groups() for line in (ROOT / "docs/CONFIGURATION.md").read_text().splitlines() if TABLE.match(line))}
READ = set(re.findall(r'"(TYPEWIRE_[A-Z_]+)"', (ROOT / "Sources/typewire/Serve.swift").read_text()))

NUMBERS = {"ACTIVITY_RATE", "ACTIVITY_TTL", "CLOSE_TIMEOUT", "HANDSHAKE_BURST", "HANDSHAKE_RATE", "HEADER_TIMEOUT",
           "IDLE_TIMEOUT", "JWT_MAX_LIFETIME", "MAX_QUEUED_BYTES", "MESSAGE_RATE", "PENDING_CONNECTIONS_PER_ADDRESS",
           "PING_INTERVAL", "PORT", "PRESENCE_GRACE", "REFUSALS_PER_ADDRESS", "REPLY_PART_RATE", "THREADS", "WEBHOOK_MAX_DELAY", "WEBHOOK_MAX_PENDING",
           "WEBHOOK_MAX_PENDING_BYTES", "WEBHOOK_TIMEOUT", "WEBHOOK_UNREAD_AFTER"}
CLUSTER = ["--postgres-url", "postgres://typewire@127.0.0.1:1/typewire", "--nats-url", "tls://127.0.0.1:4222"]
#: A variable, a value the start must refuse, the other arguments it needs, and what the refusal says.
REFUSED = {
    "JWT_SECRET": ("short", [], "32"),
    "JWKS": ("/no/such/keys.json", [], "Cannot read the key set"),
    "SQLITE": ("/no/such/folder/t.sqlite", ["--jwt-secret", SECRET], "Cannot open the SQLite file '/no/such/folder/t.sqlite'"),
    "API_KEY": ("short", ["--jwt-secret", SECRET], "at least 32"),
    "METRICS_KEY": ("short", ["--jwt-secret", SECRET], "at least 32"),
    "CLUSTER_SECRET": ("short", ["--jwt-secret", SECRET], "32"),
    "NATS_URL": ("nats://127.0.0.1:4222", ["--jwt-secret", SECRET], "--nats-url needs --postgres-url"),
    # Read, the NATS address no longer needs one: the next check speaks.
    "POSTGRES_URL": ("postgres://typewire@127.0.0.1:1/typewire",
                     ["--jwt-secret", SECRET, "--nats-url", "tls://127.0.0.1:4222", "--nats-tls-ca", "/no/such.pem"], "--nats-tls-ca"),
    "NATS_TLS_CA": ("/no/such.pem", ["--jwt-secret", SECRET, *CLUSTER], "'/no/such.pem' is not a readable file"),
    "PUBLIC": ("/no/such/folder", ["--demo"], "/no/such/folder"),
    "WEBHOOK_URL": ("ftp://hooks.example", ["--jwt-secret", SECRET, "--webhook-secret", SECRET], "ftp://hooks.example"),
    "WEBHOOK_SECRET": ("short", ["--jwt-secret", SECRET, "--webhook-url", "https://hooks.example"], "32"),
    "WEBHOOK_EVENTS": ("nope", ["--jwt-secret", SECRET], "'nope' is not an event type"),
    "READ_RECEIPTS": ("sometimes", ["--jwt-secret", SECRET], "TYPEWIRE_READ_RECEIPTS: 'sometimes' is not a read receipt policy"),
    **{name: ("x", ["--jwt-secret", SECRET], f"TYPEWIRE_{name}: 'x' is not a") for name in NUMBERS},
}
#: Variables whose effect the last test sees on a running server.
SEEN = {"HOST", "NO_MESSAGES", "STAGE_METRICS", "ALLOWED_ORIGINS", "JWT_ISSUER", "JWT_AUDIENCE"}
#: Not checked here, and why.
UNCHECKED = {
    "COUNT_LOCAL_ADDRESSES": "test_address_refusals.py and bench_flood.py run with the flag",
    "JWT_NAME_CLAIM": "TokenVerifierTests (the claim, not the variable)",
    "JWT_BOT_CLAIM": "TokenVerifierTests (the claim, not the variable)",
}


def test_the_table_lists_every_variable_the_server_reads_and_each_is_checked_below():
    assert set(DOCUMENTED) == READ, f"read, not documented: {READ - set(DOCUMENTED)}; documented, not read: {set(DOCUMENTED) - READ}"
    names = {variable.removeprefix("TYPEWIRE_") for variable in DOCUMENTED}
    assert set(REFUSED) | SEEN | set(UNCHECKED) == names, f"not classified: {names - set(REFUSED) - SEEN - set(UNCHECKED)}"
    for variable, flag in DOCUMENTED.items():
        assert flag == "--" + variable.removeprefix("TYPEWIRE_").lower().replace("_", "-"), f"{variable} beside {flag}"


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_variable_set_alone_to_a_value_the_server_refuses_stops_the_start(tmp_path, name):
    value, arguments, said = REFUSED[name]
    environment = clean_environment(**{f"TYPEWIRE_{name}": value})
    if name != "SQLITE":
        arguments = ["--sqlite", str(tmp_path / "t.sqlite"), *arguments]
    run = subprocess.run([str(typewire_server.BINARY), "serve", *arguments], cwd=ROOT, env=environment,
                         capture_output=True, text=True, timeout=60)
    output = run.stderr + run.stdout
    assert run.returncode != 0, f"it started with TYPEWIRE_{name}={value}: {output[-500:]}"
    assert said in output, f"TYPEWIRE_{name}={value}: {output[-500:]}"


def clean_environment(**variables):
    """This process's environment without its TYPEWIRE_* variables, and `variables`."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("TYPEWIRE_")}
    return {**environment, **variables}


def hello(server, user_token):
    """The server's answer to a `hello`: the welcome frame, or the refusal's error code."""
    ws = RawSocket(server.host, server.port)
    try:
        ws.send_json({"type": "hello", "token": user_token})
        answer = ws.next(lambda frame: frame["type"] in ("welcome", "error"), "an answer to hello")
        return answer if answer["type"] == "welcome" else answer["code"]
    finally:
        ws.close()


def upgrade_status(server, origin):
    """The status of a WebSocket upgrade from a browser at `origin`."""
    request = ("GET /v1/socket HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
               f"Origin: {origin}\r\n\r\n")
    with socket.create_connection((server.host, server.port), timeout=10) as connection:
        connection.sendall(request.encode())
        return int(connection.recv(4096).split(b" ", 2)[1])


def test_variables_whose_effect_a_client_sees(tmp_path):
    variables = {"TYPEWIRE_HOST": "127.0.0.3", "TYPEWIRE_NO_MESSAGES": "1", "TYPEWIRE_STAGE_METRICS": "1",
                 "TYPEWIRE_ALLOWED_ORIGINS": "https://chat.example"}
    with serve(tmp_path, env=clean_environment(**variables)) as server:
        assert server.host == "127.0.0.3", server.host
        welcome = hello(server, token("alice", "Alice"))
        assert welcome["config"]["storesMessages"] is False, welcome
        with urllib.request.urlopen(f"{server.url}/metrics", timeout=5) as answer:
            assert "typewire_stage_seconds" in answer.read().decode()
        assert upgrade_status(server, "https://evil.example") in (400, 403)
        assert upgrade_status(server, "https://chat.example") == 101
    # `typewire token` names no issuer and no audience: with either required, its tokens are refused.
    for variable, value in (("TYPEWIRE_JWT_AUDIENCE", "typewire-tests"), ("TYPEWIRE_JWT_ISSUER", "https://issuer.example")):
        with serve(tmp_path, env=clean_environment(**{variable: value})) as server:
            assert hello(server, token("alice", "Alice")) == "unauthorized", variable


def test_a_sqlite_file_a_newer_release_migrated_stops_the_start_and_is_left_as_it_was(tmp_path):
    """A server does not read a schema newer than its own: it stops, naming both versions, and changes nothing."""
    import sqlite3

    with serve(tmp_path, env=clean_environment()):
        pass  # creates and migrates the file
    path = tmp_path / "t.sqlite"
    with sqlite3.connect(path) as database:
        known = database.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
        database.execute("INSERT INTO schema_version (version) VALUES (?)", (known + 1,))
        messages = database.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
    database.close()
    run = subprocess.run([str(typewire_server.BINARY), "serve", "--jwt-secret", SECRET, "--port", "0", "--sqlite", str(path)],
                         cwd=ROOT, env=clean_environment(), capture_output=True, text=True, timeout=60)
    output = run.stderr + run.stdout
    assert run.returncode != 0, f"it started on a newer schema: {output[-500:]}"
    assert f"schema is version {known + 1}, newer than the {known} this server" in output, output[-500:]
    assert "must exist and be writable" not in output, "the folder is not at fault"
    with sqlite3.connect(path) as database:
        assert database.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == known + 1
        assert database.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == messages
    database.close()
