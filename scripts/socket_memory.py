"""Memory per idle socket against a token's size: a release `typewire serve` on a fresh SQLite file, N sockets
that each upgrade, say `hello` with an HS256 token padded by PAD bytes of an extra claim, and wait for `welcome`;
then the server's RSS per socket. Python 3 alone, no package.

    ulimit -n 20000
    python3 scripts/socket_memory.py .build/release/typewire 4000 0      # short tokens
    python3 scripts/socket_memory.py .build/release/typewire 4000 900    # tokens of about 1.3 KB
"""
import base64
import hashlib
import hmac
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

SECRET = "socket-memory-secret-0123456789abcdef0123456789"


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=")


def token(user, pad):
    head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = b64(json.dumps({"sub": user, "exp": int(time.time()) + 3600, "pad": "x" * pad}).encode())
    signature = b64(hmac.new(SECRET.encode(), head + b"." + body, hashlib.sha256).digest())
    return (head + b"." + body + b"." + signature).decode()


def masked_text_frame(text):
    data, mask = text.encode(), os.urandom(4)
    length = bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + len(data).to_bytes(2, "big")
    return bytes([0x81]) + length + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def main():
    binary, count, pad = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    folder = tempfile.mkdtemp(prefix="typewire-socket-memory-")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--sqlite", f"{folder}/t.sqlite",
         "--jwt-secret", SECRET, "--public", f"{folder}/none"],
        stdout=open(f"{folder}/server.log", "w"), stderr=subprocess.STDOUT)
    sockets = []
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(1)
        before = resident_kib(server.pid)
        for index in range(count):
            client = socket.create_connection(("127.0.0.1", port))
            client.sendall(b"GET /v1/socket HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            received = b""
            while b"\r\n\r\n" not in received:
                received += client.recv(4096)
            client.sendall(masked_text_frame(json.dumps({"type": "hello", "token": token(f"user{index}", pad)})))
            received = received.split(b"\r\n\r\n", 1)[1]
            while b"welcome" not in received:
                chunk = client.recv(4096)
                if not chunk:
                    raise SystemExit(f"socket {index} closed before welcome: {received[:200]!r}")
                received += chunk
            sockets.append(client)
        time.sleep(2)
        after = resident_kib(server.pid)
        print(f"tokens of {len(token('user0', pad))} bytes, {count} sockets: {(after - before) / count:.2f} KiB per socket")
    finally:
        for client in sockets:
            client.close()
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
