"""What the fault tests share: the real server, WebSocket peers, alice's child process, a freezable proxy.

Everything here starts real processes and sockets and stops them on the way out (context managers),
whatever happens in the test. Times are `time.monotonic()` seconds, taken where a frame arrives.
"""

import contextlib
import json
import math
import os
import pathlib
import select
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.request

import websocket

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "Support"))
import typewire_server  # noqa: E402  (the shared harness, found through the path above)
HERE = pathlib.Path(__file__).resolve().parent
ARTIFACTS = ROOT / ".artifacts" / "faults"
BINARY = typewire_server.BINARY
ALICE_HELPER = HERE / "alice_helper.py"
#: At least 32 bytes, as `serve` and `token` require.
SECRET = "typewire-fault-tests-secret-0123456789abcdef"
DIRECT = "direct-alice-bob"


def cannot(reason):
    """A fault this machine cannot make (no permission to mount, no network namespaces): skipped, saying why;
    under CI=true a failure, so that CI cannot go green without the fault tests."""
    import pytest
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: the fault tests must run, not be skipped)")
    pytest.skip(reason)


def reserved_port():
    """A socket bound to a port of 127.0.0.1 the kernel picked, not listening: a connection to it is refused, as to
    a receiver that is down, and nothing else can take the port until the test listens on this socket or closes it
    (a port handed out free and bound later could be taken in between)."""
    reserved = socket.socket()
    reserved.bind(("127.0.0.1", 0))
    return reserved


def mint_token(user, name):
    """A token from `typewire token` with the tests' secret."""
    result = subprocess.run(
        [str(BINARY), "token", "--user", user, "--name", name, "--jwt-secret", SECRET],
        capture_output=True, text=True, timeout=60, check=True,
    )
    return result.stdout.strip()


@contextlib.contextmanager
def running_server(name, sqlite, *, host="127.0.0.1", extra=()):
    """The built `typewire serve --seed-demo` on a free port of `host`, with the tests' secret and `sqlite` as its
    file; yields a `typewire_server.ServerProcess` and always stops it (SIGTERM, then SIGKILL)."""
    arguments = [
        "serve", "--seed-demo", "--port", "0", "--host", host, "--jwt-secret", SECRET,
        "--sqlite", sqlite, "--public", ROOT / "Public", *extra,
    ]
    with typewire_server.running_server(arguments, ARTIFACTS / f"{name}.log") as server:
        yield server


class Arrivals:
    """What a client received, each with its arrival time, appended by a reader thread, and waited for."""

    def __init__(self, label):
        self.label = label
        self.frames = []  # (arrival, frame)
        self.closed_at = None
        self.close_code = None  # the code of the server's close frame, if one came
        self._changed = threading.Condition()

    def _arrived(self, frame):
        with self._changed:
            self.frames.append((time.monotonic(), frame))
            self._changed.notify_all()

    def _ended(self):
        with self._changed:
            self.closed_at = time.monotonic()
            self._changed.notify_all()

    def mark(self):
        """The number of frames received so far, to wait only for later ones."""
        with self._changed:
            return len(self.frames)

    def wait_for(self, predicate, timeout, what, since=0):
        """The first frame (from index `since`) matching `predicate`, as (arrival, frame); fails after `timeout` s."""
        deadline = time.monotonic() + timeout
        with self._changed:
            index = since
            while True:
                while index < len(self.frames):
                    arrival, frame = self.frames[index]
                    index += 1
                    if predicate(frame):
                        return arrival, frame
                left = deadline - time.monotonic()
                if left <= 0 or self.closed_at is not None:
                    recent = [f for _, f in self.frames[since:]][-8:]
                    state = "it closed" if self.closed_at is not None else f"{timeout} s passed"
                    raise AssertionError(f"{self.label} never got {what}: {state}; last frames: {recent}")
                self._changed.wait(left)


class Peer(Arrivals):
    """A WebSocket client in this process; a thread reads every frame (answering pings) with its arrival time."""

    def __init__(self, url, token, label):
        super().__init__(label)
        self.ws = websocket.create_connection(url, timeout=10)
        self.ws.settimeout(None)
        self._reader = threading.Thread(target=self._read, daemon=True, name=f"peer-{label}")
        self._reader.start()
        self.send({"type": "hello", "token": token})
        self.wait_for(lambda f: f["type"] == "welcome", 10, "welcome")

    def _read(self):
        try:
            while True:
                opcode, frame = self.ws.recv_data_frame(control_frame=False)
                if opcode == websocket.ABNF.OPCODE_CLOSE:
                    if len(frame.data) >= 2:
                        self.close_code = int.from_bytes(frame.data[:2], "big")
                    break
                if opcode == websocket.ABNF.OPCODE_TEXT:
                    self._arrived(json.loads(frame.data.decode()))
        except Exception:  # the socket closed or failed: nothing more will come
            pass
        self._ended()

    def send(self, frame):
        self.ws.send(json.dumps(frame))

    def subscribe(self, conversation):
        self.send({"type": "subscribe", "conversation": conversation})
        _, subscribed = self.wait_for(
            lambda f: f["type"] == "subscribed" and f["conversation"] == conversation, 10, f"subscribed to {conversation}"
        )
        return subscribed

    def close(self):
        with contextlib.suppress(Exception):
            self.ws.close(timeout=2)
        self._reader.join(3)


@contextlib.contextmanager
def peer(url, token, label):
    connection = Peer(url, token, label)
    try:
        yield connection
    finally:
        connection.close()


def typers(frame):
    """The users an `activity` frame shows as typing."""
    return {entry["user"] for entry in frame["entries"] if entry["activity"] == "typing"}


def activity_with(user, conversation=DIRECT):
    return lambda f: f["type"] == "activity" and f["conversation"] == conversation and user in typers(f)


def activity_without(user, conversation=DIRECT):
    return lambda f: f["type"] == "activity" and f["conversation"] == conversation and user not in typers(f)


def presence(user, online, conversation=DIRECT):
    return lambda f: f["type"] == "presence" and f["conversation"] == conversation and f["user"] == user and f["online"] is online


class Child:
    """alice_helper.py in a process of its own: it says hello, subscribes, types (refreshing), and reads."""

    def __init__(self, url, token, conversation=DIRECT, refresh_ms=2000, prefix=()):
        self.process = subprocess.Popen(
            [*prefix, sys.executable, str(ALICE_HELPER), url, token, conversation, str(refresh_ms)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )

    def wait_ready(self, timeout=20):
        """Blocks until the child has subscribed and sent its first `typing`."""
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline() if ready else ""
        if line.strip() != "ready":
            self.stop()
            raise AssertionError(f"alice's process did not get ready: {line!r} {self.process.stderr.read()}")

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        for stream in (self.process.stdout, self.process.stderr):
            stream.close()


@contextlib.contextmanager
def stopped_after(process):
    """Yields a started process (a `Child`, a `SwiftClient`) and always stops it on the way out."""
    try:
        yield process
    finally:
        process.stop()


def child(*args, **kwargs):
    return stopped_after(Child(*args, **kwargs))


class TcpProxy:
    """A TCP proxy on 127.0.0.1 to a server: each connection it accepts gets one to the server, and
    `_connected(client, upstream)` (a subclass's) starts what carries the bytes between them."""

    def __init__(self, target_port):
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.stopped = threading.Event()
        self.sockets = []
        self.connections = 0
        self.threads = []
        self._start(self._accept)

    def _start(self, target, *args):
        thread = threading.Thread(target=target, args=args, daemon=True)
        thread.start()
        self.threads.append(thread)

    def _accept(self):
        self.listener.settimeout(0.1)
        while not self.stopped.is_set():
            try:
                client, _ = self.listener.accept()
            except (TimeoutError, socket.timeout):
                continue
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            for s in (client, upstream):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.sockets += [client, upstream]
            self.connections += 1
            self._connected(client, upstream)

    def close(self):
        self.stopped.set()
        for s in [self.listener, *self.sockets]:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)  # wakes a thread blocked in recv, which close alone may not
            with contextlib.suppress(OSError):
                s.close()
        for thread in self.threads:
            thread.join(2)


class FreezableProxy(TcpProxy):
    """`freeze()` stops forwarding in both directions and keeps both sockets open: no FIN, no RST, no data,
    like a network that silently drops every packet."""

    def __init__(self, target_port):
        self.frozen = threading.Event()
        super().__init__(target_port)

    def _connected(self, client, upstream):
        for source, sink in ((client, upstream), (upstream, client)):
            self._start(self._pump, source, sink)

    def _pump(self, source, sink):
        while not self.stopped.is_set():
            if self.frozen.is_set():
                # Read nothing, send nothing: what arrives stays in the kernel's buffers.
                self.stopped.wait(0.05)
                continue
            ready, _, _ = select.select([source], [], [], 0.05)
            if not ready or self.frozen.is_set():
                continue
            try:
                data = source.recv(65536)
                if not data:
                    sink.shutdown(socket.SHUT_WR)
                    return
                sink.sendall(data)
            except OSError:
                return

    def freeze(self):
        self.frozen.set()


class CuttableProxy(FreezableProxy):
    """`cut()` resets every connection and resets new ones at once until `restore()`: a link that goes down
    (the client sees its connection drop and its reconnects fail) and comes back."""

    def __init__(self, target_port):
        self.down = threading.Event()
        super().__init__(target_port)

    def _connected(self, client, upstream):
        if self.down.is_set():
            for s in (client, upstream):
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # a reset, not a FIN
                s.close()
            return
        super()._connected(client, upstream)

    def cut(self):
        self.down.set()
        for s in self.sockets:
            with contextlib.suppress(OSError):
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                s.shutdown(socket.SHUT_RDWR)

    def restore(self):
        self.down.clear()


@contextlib.contextmanager
def cuttable_proxy(target_port):
    proxy = CuttableProxy(target_port)
    try:
        yield proxy
    finally:
        proxy.close()


@contextlib.contextmanager
def freezable_proxy(target_port):
    proxy = FreezableProxy(target_port)
    try:
        yield proxy
    finally:
        proxy.close()


def stored_texts(server, token, conversation=DIRECT):
    """The texts of a conversation's stored messages (its last 200), through the HTTP API."""
    request = urllib.request.Request(
        f"{server.url}/v1/conversations/{conversation}/messages?limit=200", headers={"Authorization": f"Bearer {token}"}
    )
    return [message["text"] for message in json.load(urllib.request.urlopen(request, timeout=10))["messages"]]


def percentile(values, fraction):
    """The nearest-rank percentile of `values` (fraction in 0…1)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def record(name, **figures):
    """Appends one measurement (JSON line) to .artifacts/faults/measurements.jsonl for docs/RELIABILITY.md."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with open(ARTIFACTS / "measurements.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps({"test": name, "at": time.time(), **figures}) + "\n")


class SwiftClient(Arrivals):
    """`typewire client` (the Swift SDK's client) in a process of its own, following one conversation: commands
    go to its standard input; its events (JSON lines: `state`, `acked`, `typing`) are read on a thread."""

    def __init__(self, url, token, conversation=DIRECT, outbox=None, prefix=()):
        super().__init__("the Swift client")
        arguments = [*prefix, str(BINARY), "client", "--url", url, "--token", token, "--conversation", conversation]
        if outbox is not None:
            arguments += ["--outbox", str(outbox)]
        self.process = subprocess.Popen(arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.process.stdout:
            self._arrived(json.loads(line))
        self._ended()

    def command(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        self._reader.join(5)
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                stream.close()


def connected(event):
    return event.get("state") == "connected"


def swift_client(*args, **kwargs):
    return stopped_after(SwiftClient(*args, **kwargs))
