#!/usr/bin/env python3
"""Cluster benchmarks (docs/BENCHMARKS.md, "Cluster: cross-node relay latency and the NOTIFY ceiling").

    swift build -c release --product typewire
    eval "$(bash scripts/postgres.sh)"            # PostgreSQL on 127.0.0.1:54329
    python3 scripts/bench_cluster.py latency      # single node vs same cluster node vs cross-node
    python3 scripts/bench_cluster.py notify       # pg_notify throughput with 0, 1, 2, 4 listeners

latency: starts a SQLite node and two cluster nodes on a fresh database, then in interleaved rounds
alice sends `activity` typing/none (each one a change, so each is fanned out) and the time until bob's
socket reads the matching `activity` frame is one sample. Both sockets live in this process and are
timed with one clock (perf_counter_ns); a frame is sent only after the previous one arrived.

notify: pgbench runs `SELECT pg_notify(...)` with a 240-byte payload (an activity slice)
for a few seconds per setting, while listeners (raw protocol, in this process) count what they get.

Needs Python 3.11, websocket-client, PostgreSQL's psql and pgbench. Every child process is stopped at
the end, on error too (and gets SIGTERM if this script dies).
"""
import argparse
import ctypes
import json
import os
import re
import signal
import select
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import websocket

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "Support"))
import typewire_server  # noqa: E402  (the shared harness, found through the path above)
SECRET = "bench-cluster-secret-0123456789abcdef"  # 32+ bytes, shared by every node
CONVERSATION = "direct-alice-bob"

children: list[subprocess.Popen] = []
libc = ctypes.CDLL(None, use_errno=True)


def die_with_parent():
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: the child gets SIGTERM when this script dies


def spawn(args, **options) -> subprocess.Popen:
    process = subprocess.Popen(args, cwd=ROOT, preexec_fn=die_with_parent, **options)
    children.append(process)
    return process


def stop_children():
    for process in children:
        if process.poll() is None:
            process.terminate()
    for process in children:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def psql(args, sql, database="postgres"):
    subprocess.run(["psql", "-h", args.pg_host, "-p", str(args.pg_port), "-U", "postgres", "-d", database,
                    "-qAtc", sql], check=True, capture_output=True, text=True)


def percentile(sorted_values, p):
    return sorted_values[min(len(sorted_values) - 1, int(round(p / 100 * len(sorted_values) + 0.5)) - 1)]


# MARK: latency

class Node:
    """A `typewire serve` process (the shared harness, Tests/Support/typewire_server.py): its output goes to a
    log file, and its port comes from its listening line."""

    def __init__(self, name, binary, logs, *extra, activity_rate="1000"):
        self.name, self.log_path = name, logs / f"{name}.log"
        limit = ["--activity-rate", activity_rate] if activity_rate else []  # None: the server's default
        os.environ["TYPEWIRE_BIN"] = str(binary)
        self.server = typewire_server.start_server(
            ["serve", "--port", "0", "--seed-demo", "--jwt-secret", SECRET, *limit, *extra], self.log_path,
            startup_timeout=120, preexec_fn=die_with_parent,
        )
        self.process, self.port = self.server.process, self.server.port
        children.append(self.process)

    def metric(self, name):
        text = urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=5).read().decode()
        return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name))

    def problems(self):
        return [line.rstrip() for line in open(self.log_path) if re.search(r"\b(error|warning|critical)\b", line)]


def token(binary, user):
    return subprocess.run([binary, "token", "--user", user, "--name", user.title(), "--jwt-secret", SECRET],
                          check=True, capture_output=True, text=True).stdout.strip()


def connect(port, token_text):
    ws = websocket.create_connection(f"ws://127.0.0.1:{port}/v1/socket", timeout=5,
                                     sockopt=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])
    for frame, answer in (({"type": "hello", "token": token_text}, "welcome"),
                          ({"type": "subscribe", "conversation": CONVERSATION}, "subscribed")):
        ws.send(json.dumps(frame))
        while (got := json.loads(ws.recv()))["type"] != answer:
            if got["type"] == "error":
                raise RuntimeError(f"{frame['type']}: {got}")
    return ws


def drain(ws, errors):
    """Reads whatever the socket has without waiting (the sender's own copies of its activity)."""
    while select.select([ws.sock], [], [], 0)[0]:
        frame = json.loads(ws.recv())
        if frame["type"] == "error":
            errors.append(frame["code"])


def run_round(sender_port, receiver_port, tokens, samples, rate, warmup=10):
    """One round: `samples` timed changes (after `warmup` untimed ones) from alice to bob.

    Returns (latencies in ns, drops, error codes seen)."""
    alice, bob = connect(sender_port, tokens["alice"]), connect(receiver_port, tokens["bob"])
    frames = [json.dumps({"type": "activity", "conversation": CONVERSATION, "activity": a}) for a in ("typing", "none")]
    latencies, drops, errors = [], 0, []
    interval = 1e9 / rate
    start = time.perf_counter_ns()
    try:
        for i in range(warmup + samples):  # an even count: alice ends on "none", as she started
            typing = i % 2 == 0
            pause = start + i * interval - time.perf_counter_ns()
            if pause > 0:
                time.sleep(pause / 1e9)
            sent = time.perf_counter_ns()
            alice.send(frames[i % 2])
            arrived = None
            while arrived is None:
                remaining = sent + 2e9 - time.perf_counter_ns()
                if remaining <= 0:
                    break
                bob.settimeout(remaining / 1e9)
                try:
                    text = bob.recv()
                except websocket.WebSocketTimeoutException:
                    break
                now = time.perf_counter_ns()
                frame = json.loads(text)
                if frame["type"] == "error":
                    errors.append(frame["code"])
                if frame["type"] == "activity" and frame["conversation"] == CONVERSATION and typing == any(
                        e["user"] == "alice" and e["activity"] == "typing" for e in frame["entries"]):
                    arrived = now
            drain(alice, errors)
            if arrived is None:
                drops += 1
            elif i >= warmup:
                latencies.append(arrived - sent)
    finally:
        alice.close()
        bob.close()
    return latencies, drops, errors


def latency(args):
    binary = str(ROOT / args.binary)
    database = f"typewire_bench_{int(time.time())}"
    psql(args, f"CREATE DATABASE {database}")
    url = f"postgres://postgres@{args.pg_host}:{args.pg_port}/{database}"
    logs = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
    print(f"database {database}, node logs in {logs}", flush=True)
    try:
        single = Node("single", binary, logs, "--sqlite", str(logs / "single.sqlite"))
        node_a = Node("node-a", binary, logs, "--postgres-url", url)  # seeds the demo first
        node_b = Node("node-b", binary, logs, "--postgres-url", url)
        nodes = [single, node_a, node_b]
        tokens = {user: token(binary, user) for user in ("alice", "bob")}
        configurations = [("single node (SQLite)", single, single),
                          ("cluster, same node", node_a, node_a),
                          ("cluster, cross-node", node_a, node_b)]
        results = {name: {"latencies": [], "drops": 0, "errors": []} for name, _, _ in configurations}
        for repeat in range(args.rounds):
            shift = repeat % len(configurations)  # rotate the order: no configuration always goes first
            for name, sender, receiver in configurations[shift:] + configurations[:shift]:
                got, drops, errors = run_round(sender.port, receiver.port, tokens, args.samples, args.rate)
                result = results[name]
                result["latencies"] += got
                result["drops"] += drops
                result["errors"] += errors
                print(f"round {repeat + 1}/{args.rounds} {name}: p50 {sorted(got)[len(got) // 2] / 1e3:.0f} µs,"
                      f" {drops} dropped", flush=True)
        report(results, nodes)
    finally:
        stop_children()
        psql(args, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


def report(results, nodes):
    print("\n| configuration | samples | dropped | p50 (µs) | p90 (µs) | p99 (µs) | max (µs) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    table = {}
    for name, result in results.items():
        values = sorted(result["latencies"])
        table[name] = {p: percentile(values, p) / 1e3 for p in (50, 90, 99, 100)}
        row = " | ".join(f"{table[name][p]:.0f}" for p in (50, 90, 99, 100))
        print(f"| {name} | {len(values)} | {result['drops']} | {row} |")
    cross = table["cluster, cross-node"]
    print("\n| ratio | p50 | p90 | p99 |")
    print("|---|---:|---:|---:|")
    for base in ("single node (SQLite)", "cluster, same node"):
        print(f"| cross-node / {base} | " + " | ".join(f"{cross[p] / table[base][p]:.2f}" for p in (50, 90, 99)) + " |")
    print()
    for name, result in results.items():
        if result["errors"]:
            print(f"error frames in {name}: {sorted(set(result['errors']))} ({len(result['errors'])})")
    for node in nodes:
        dropped = node.metric("typewire_frames_dropped_total")
        problems = node.problems()
        print(f"{node.name}: {dropped:.0f} frames dropped by rate limits, {len(problems)} warning/error log lines")
        for line in problems[:5]:
            print(f"    {line}")


# MARK: notify

class Listener(threading.Thread):
    """A bare LISTEN connection on PostgreSQL's wire protocol (trust auth) that counts notifications."""

    def __init__(self, args, database, channel):
        super().__init__(daemon=True)
        self.sock = socket.create_connection((args.pg_host, args.pg_port))
        self.buffer = bytearray()
        self.count, self.first, self.last = 0, None, None
        startup = b"user\0postgres\0database\0" + database.encode() + b"\0\0"
        self.sock.sendall(struct.pack("!ii", 8 + len(startup), 196608) + startup)
        self.until_ready()
        query = f"LISTEN {channel}".encode() + b"\0"
        self.sock.sendall(b"Q" + struct.pack("!i", 4 + len(query)) + query)
        self.until_ready()

    def messages(self):
        """Yields the type of every whole message that arrived, reading once."""
        data = self.sock.recv(1 << 20)
        if not data:
            raise EOFError
        self.buffer += data
        position = 0
        while len(self.buffer) - position >= 5:
            length = int.from_bytes(self.buffer[position + 1:position + 5])
            if len(self.buffer) - position < 1 + length:
                break
            kind = self.buffer[position]
            if kind == ord("E"):
                raise RuntimeError(bytes(self.buffer[position:position + 1 + length]))
            yield kind
            position += 1 + length
        del self.buffer[:position]

    def until_ready(self):
        while ord("Z") not in list(self.messages()):
            pass

    def run(self):
        try:
            while True:
                arrived = sum(kind == ord("A") for kind in self.messages())
                if arrived:
                    now = time.perf_counter()
                    self.first = self.first or now
                    self.last = now
                    self.count += arrived
        except (EOFError, OSError):
            pass


def notify(args):
    database = f"typewire_bench_notify_{int(time.time())}"
    psql(args, f"CREATE DATABASE {database}")
    # An activity slice as the cluster bus sends it (ClusterEnvelope), 240 bytes.
    payload = json.dumps({"node": "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "event": {"slice": {
        "conversation": "direct-alice-bob", "entries": [{"user": "alice", "name": "Alice", "activity": "typing",
                                                         "since": 1795305600000, "expiresAt": 1795305604800}],
        "serverTime": 1795305600000}}}, separators=(",", ":"))
    script = Path(tempfile.mkdtemp(prefix="bench-notify-")) / "notify.sql"
    script.write_text(f"SELECT pg_notify('bench', '{payload}');\n")
    print(f"payload {len(payload)} bytes, database {database}", flush=True)
    print("\n| pgbench clients | listeners | NOTIFY/s (pgbench tps) | mean latency (ms) | delivered to each listener | delivery rate /s |")
    print("|---:|---:|---:|---:|---:|---:|")
    try:
        for listeners in args.listeners:
            for clients in args.clients:
                running = [Listener(args, database, "bench") for _ in range(listeners)]
                for listener in running:
                    listener.start()
                out = spawn(["pgbench", "-n", "-M", "extended", "-f", str(script), "-c", str(clients),
                             "-j", str(clients), "-T", str(args.seconds), "-h", args.pg_host, "-p", str(args.pg_port),
                             "-U", "postgres", database], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                text = out.communicate()[0]
                if out.returncode != 0:
                    raise RuntimeError(text)
                sent = int(re.search(r"actually processed: (\d+)", text)[1])
                tps = float(re.search(r"tps = ([\d.]+)", text)[1])
                mean = float(re.search(r"latency average = ([\d.]+) ms", text)[1])
                deadline = time.monotonic() + 60  # let the listeners catch up with the queue
                while any(listener.count < sent for listener in running) and time.monotonic() < deadline:
                    time.sleep(0.1)
                delivered = " / ".join(str(listener.count) for listener in running) or "–"
                rates = " / ".join(f"{(l.count - 1) / (l.last - l.first):.0f}" for l in running if l.count > 1) or "–"
                for listener in running:
                    listener.sock.shutdown(socket.SHUT_RDWR)
                    listener.join()
                    listener.sock.close()
                print(f"| {clients} | {listeners} | {tps:.0f} | {mean:.3f} | {delivered} of {sent} | {rates} |", flush=True)
    finally:
        stop_children()
        psql(args, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pg-host", default="127.0.0.1")
    parser.add_argument("--pg-port", type=int, default=54329)
    commands = parser.add_subparsers(dest="command", required=True)
    lat = commands.add_parser("latency", help="cross-node vs single-node relay latency")
    lat.add_argument("--binary", default=".build/release/typewire")
    lat.add_argument("--rounds", type=int, default=12, help="rounds per configuration, interleaved")
    lat.add_argument("--samples", type=int, default=200, help="timed samples per round (even)")
    lat.add_argument("--rate", type=float, default=50, help="activity frames a second")
    note = commands.add_parser("notify", help="pg_notify throughput, with and without listeners")
    note.add_argument("--seconds", type=int, default=10)
    note.add_argument("--clients", type=int, nargs="+", default=[1, 2, 4])
    note.add_argument("--listeners", type=int, nargs="+", default=[0, 1, 2, 4])
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the finally blocks stop the children
    latency(args) if args.command == "latency" else notify(args)


if __name__ == "__main__":
    main()
