"""A WebSocket client at the level of bytes, as an attacker's script is: frames of any opcode, masked or not,
with reserved bits set, fragments and control frames; a receive buffer of any size; a socket that never reads.
The abuse tests drive the built server with it (a client library would refuse to send most of this).

    from raw_socket import RawSocket
    ws = RawSocket(server.host, server.port)
    ws.send_json({"type": "hello", "token": token})
    ws.next(lambda frame: frame["type"] == "welcome")
"""
import base64
import json
import os
import socket
import struct

TEXT, BINARY, CONTINUATION, CLOSE, PING, PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA

#: TCP states of Linux's TCP_INFO (`tcpi_state`, the first byte).
TCP_ESTABLISHED, TCP_CLOSE, TCP_CLOSE_WAIT = 1, 7, 8


class Refused(Exception):
    """The server closed the connection before the upgrade was answered."""


class RawSocket:
    """One upgraded WebSocket on a plain TCP socket."""

    def __init__(self, host, port, *, source=None, receive_buffer=None, timeout=10, path="/v1/socket"):
        self.connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer:  # before connecting, so that the window the server sees is small from the start
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        if source:
            self.connection.bind((source, 0))
        self.connection.settimeout(timeout)
        self.buffer = b""
        key = base64.b64encode(os.urandom(16)).decode()
        try:
            self.connection.connect((host, port))
            self.connection.sendall(
                f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            while b"\r\n\r\n" not in self.buffer:
                chunk = self.connection.recv(4096)
                if not chunk:
                    raise Refused()
                self.buffer += chunk
        except (ConnectionResetError, BrokenPipeError):
            self.connection.close()
            raise Refused()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            self.connection.close()
            raise AssertionError(f"not upgraded: {head[:120]!r}")

    # Sending

    @staticmethod
    def encode(opcode, payload=b"", *, fin=True, mask=True, rsv1=False):
        """A frame's bytes: masked with a zero key unless `mask` is False (a server must refuse that)."""
        first = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode
        length = len(payload)
        masked = 0x80 if mask else 0
        if length < 126:
            header = bytes([first, masked | length])
        elif length < 65536:
            header = bytes([first, masked | 126]) + struct.pack("!H", length)
        else:
            header = bytes([first, masked | 127]) + struct.pack("!Q", length)
        return header + (b"\0\0\0\0" if mask else b"") + payload

    def send_frame(self, opcode, payload=b"", **options):
        self.connection.sendall(self.encode(opcode, payload, **options))

    def send_json(self, frame):
        self.send_frame(TEXT, json.dumps(frame).encode())

    def send_raw(self, data):
        self.connection.sendall(data)

    # Receiving

    def frame(self):
        """The server's next frame as (opcode, payload); None once the connection closed or was reset.
        Raises TimeoutError when nothing came within the socket's timeout: a silent server is not a close."""
        while True:
            if len(self.buffer) >= 2:
                length, start = self.buffer[1] & 0x7F, 2
                if length >= 126:
                    start = 4 if length == 126 else 10
                    length = int.from_bytes(self.buffer[2:start], "big")
                if len(self.buffer) >= start + length:
                    opcode, payload = self.buffer[0] & 0x0F, self.buffer[start:start + length]
                    self.buffer = self.buffer[start + length:]
                    return opcode, payload
            try:
                chunk = self.connection.recv(65536)
            except TimeoutError:
                raise
            except OSError:  # reset, or closed by this side
                return None
            if not chunk:
                return None
            self.buffer += chunk

    def next(self, matches, what="the frame"):
        """The next text frame whose JSON `matches`."""
        while (frame := self.frame()) is not None:
            if frame[0] == TEXT and matches(answer := json.loads(frame[1])):
                return answer
            if frame[0] == CLOSE:
                raise AssertionError(f"closed ({close_code(frame[1])}) before {what} came")
        raise AssertionError(f"the connection ended before {what} came")

    def until_closed(self):
        """Reads to the server's close frame: (its code, the text frames before it); code None if the
        connection ended without one. The close frame's reason is kept as `close_reason`."""
        texts = []
        while (frame := self.frame()) is not None:
            if frame[0] == CLOSE:
                self.close_reason = frame[1][2:].decode(errors="replace")
                return close_code(frame[1]), texts
            if frame[0] == TEXT:
                texts.append(json.loads(frame[1]))
        return None, texts

    def tcp_state(self):
        """The connection's TCP state as this end sees it (TCP_ESTABLISHED, TCP_CLOSE_WAIT once the server
        closed, TCP_CLOSE once it reset the connection)."""
        return self.connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0]

    def close(self):
        self.connection.close()


def close_code(payload):
    """The status code of a close frame's payload; None if it carries none."""
    return int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None
