#!/usr/bin/env python3
"""Cluster benchmarks (docs/BENCHMARKS.md, "Cluster: cross-node relay latency and the NOTIFY ceiling").

    swift build -c release --product typewire
    eval "$(bash scripts/postgres.sh)"            # PostgreSQL on 127.0.0.1:54329
    python3 scripts/bench_cluster.py latency      # single node vs same cluster node vs cross-node
    python3 scripts/bench_cluster.py notify       # pg_notify throughput with 0, 1, 2, 4 listeners
    python3 scripts/bench_cluster.py buses        # the cluster on LISTEN/NOTIFY, then on NATS, side by side
    python3 scripts/bench_cluster.py stop         # a member's Stop to the bot's socket: one node, across nodes

latency: starts a SQLite node, two cluster nodes on LISTEN/NOTIFY and two on NATS (three nats-servers), each
cluster on a fresh database, then in interleaved rounds
alice sends `activity` typing/none (each one a change, so each is fanned out) and the time until bob's
socket reads the matching `activity` frame is one sample. Both sockets live in this process and are
timed with one clock (perf_counter_ns); a frame is sent only after the previous one arrived.

stop: a SQLite node and two cluster nodes on LISTEN/NOTIFY and two on NATS; in interleaved rounds clawd (a
bot's socket) streams a part of a new reply answering alice, and once alice's socket has it, alice sends
`cancel`; one sample is the time until clawd's socket reads the server's `cancel` (then clawd ends the reply
as cancelled). On the cluster the bot is on node A and alice on node B, so the stop crosses the bus.

notify: pgbench runs `SELECT pg_notify(...)` with a 240-byte payload (an activity slice)
for a few seconds per setting, while listeners (raw protocol, in this process) count what they get.

buses: for each bus, a new database and three nodes A, B and C (`--nats-url`: three nats-servers routed
to each other, A on the first, B on the second, C on the third); `typewire bench --scenario tail` puts each
conversation's publisher on A and its subscriber on B (`--publisher-url`), so that every update crosses the
bus, and steps its rate up, open loop; C follows one conversation of its own and none of the load's. Per
step: cross-node p50/p99, lost updates, and the CPU of A and B per update; then what C heard of the load
and the CPU it spent meanwhile, and the highest step of each bus under 50 ms at p99. A window at the first
step's rate runs first and is not counted. `--rounds N` runs both buses N times in turns and reports the
median ceiling of each (one window spoilt by the machine's neighbours otherwise decides a run).

Needs Python 3.11, websocket-client, PostgreSQL's psql and pgbench (nats-server for buses). Every child process is stopped at
the end, on error too (and gets SIGTERM if this script dies).
"""
import argparse
import contextlib
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
        self.process.bench_name = name
        children.append(self.process)

    def metric(self, name):
        text = urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=5).read().decode()
        return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name))

    def problems(self):
        return [line.rstrip() for line in open(self.log_path) if re.search(r"\b(error|warning|critical)\b", line)]


def token(binary, user, bot=False):
    return subprocess.run([binary, "token", "--user", user, "--name", user.title(), "--jwt-secret", SECRET]
                          + (["--bot"] if bot else []), check=True, capture_output=True, text=True).stdout.strip()


@contextlib.contextmanager
def five_nodes(args, name):
    """A single node on SQLite, two nodes on NOTIFY and two on NATS, each pair on a database of its own (made
    here, dropped at the end), with three NATS servers: yields (binary, logs, [single, a, b, nats a, nats b])."""
    binary = str(ROOT / args.binary)
    stamp = int(time.time())
    database, nats_database = f"typewire_{name}_{stamp}", f"typewire_{name}_nats_{stamp}"
    psql(args, f"CREATE DATABASE {database}")
    psql(args, f"CREATE DATABASE {nats_database}")
    url = f"postgres://postgres@{args.pg_host}:{args.pg_port}/{database}"
    nats_url = f"postgres://postgres@{args.pg_host}:{args.pg_port}/{nats_database}"
    logs = Path(tempfile.mkdtemp(prefix=f"{name}-"))
    print(f"databases {database} and {nats_database}, node logs in {logs}", flush=True)
    try:
        nats_servers = start_nats(3, logs)
        yield binary, logs, [
            Node("single", binary, logs, "--sqlite", str(logs / "single.sqlite")),
            Node("node-a", binary, logs, "--postgres-url", url),  # seeds the demo first
            Node("node-b", binary, logs, "--postgres-url", url),
            Node("nats-a", binary, logs, "--postgres-url", nats_url, "--nats-url", nats_servers[0]),
            Node("nats-b", binary, logs, "--postgres-url", nats_url, "--nats-url", nats_servers[1]),
        ]
    finally:
        stop_children()
        psql(args, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        psql(args, f"DROP DATABASE IF EXISTS {nats_database} WITH (FORCE)")


def connect(port, token_text, conversation=CONVERSATION):
    ws = websocket.create_connection(f"ws://127.0.0.1:{port}/v1/socket", timeout=5,
                                     sockopt=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])
    for frame, answer in (({"type": "hello", "token": token_text}, "welcome"),
                          ({"type": "subscribe", "conversation": conversation}, "subscribed")):
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
    with five_nodes(args, "bench") as (binary, logs, nodes):
        single, node_a, node_b, nats_a, nats_b = nodes
        tokens = {user: token(binary, user) for user in ("alice", "bob")}
        configurations = [("single node (SQLite)", single, single),
                          ("cluster, same node", node_a, node_a),
                          ("cluster, cross-node", node_a, node_b),
                          ("cluster on NATS, cross-node", nats_a, nats_b)]
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


def stop_round(bot_port, member_port, tokens, samples):
    """One round of `samples` stops: the time from alice's `cancel` to clawd's socket reading it (ns each)."""
    clawd = connect(bot_port, tokens["clawd"], "bot-clawd")
    alice = connect(member_port, tokens["alice"], "bot-clawd")
    latencies = []
    try:
        for index in range(samples):
            reply = f"stop-{time.time_ns()}-{index}"
            clawd.send(json.dumps({"type": "stream", "conversation": "bot-clawd", "messageId": reply, "delta": "Once",
                                   "asker": "alice"}))
            while not ((frame := json.loads(alice.recv()))["type"] == "stream" and frame["messageId"] == reply):
                pass
            sent = time.perf_counter_ns()
            alice.send(json.dumps({"type": "cancel", "conversation": "bot-clawd", "messageId": reply}))
            while not ((frame := json.loads(clawd.recv()))["type"] == "cancel" and frame["messageId"] == reply):
                if frame["type"] == "error":
                    raise RuntimeError(f"clawd: {frame}")
            latencies.append(time.perf_counter_ns() - sent)
            clawd.send(json.dumps({"type": "stream", "conversation": "bot-clawd", "messageId": reply, "delta": "",
                                   "final": True, "end": "cancelled"}))
            time.sleep(0.21)  # within the bot's message budget (5 final parts a second)
    finally:
        clawd.close()
        alice.close()
    return latencies


def stop(args):
    with five_nodes(args, "bench_stop") as (binary, logs, nodes):
        single, node_a, node_b, nats_a, nats_b = nodes
        tokens = {"alice": token(binary, "alice"), "clawd": token(binary, "clawd", bot=True)}
        configurations = [("single node (SQLite)", single, single), ("cluster on NOTIFY, across nodes", node_a, node_b),
                          ("cluster on NATS, across nodes", nats_a, nats_b)]
        results = {name: [] for name, _, _ in configurations}
        for repeat in range(args.rounds):
            shift = repeat % len(configurations)
            for name, bot_node, member_node in configurations[shift:] + configurations[:shift]:
                results[name] += stop_round(bot_node.port, member_node.port, tokens, args.samples)
        print("\n| configuration | stops | p50 (ms) | p99 (ms) | max (ms) |")
        print("|---|---:|---:|---:|---:|")
        for name, values in results.items():
            values.sort()
            print(f"| {name} | {len(values)} | {percentile(values, 50) / 1e6:.2f} | {percentile(values, 99) / 1e6:.2f} |"
                  f" {values[-1] / 1e6:.2f} |")


def report(results, nodes):
    print("\n| configuration | samples | dropped | p50 (µs) | p90 (µs) | p99 (µs) | max (µs) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    table = {}
    for name, result in results.items():
        values = sorted(result["latencies"])
        table[name] = {p: percentile(values, p) / 1e3 for p in (50, 90, 99, 100)}
        row = " | ".join(f"{table[name][p]:.0f}" for p in (50, 90, 99, 100))
        print(f"| {name} | {len(values)} | {result['drops']} | {row} |")
    print("\n| ratio | p50 | p90 | p99 |")
    print("|---|---:|---:|---:|")
    for name in ("cluster, cross-node", "cluster on NATS, cross-node"):
        cross = table[name]
        for base in ("single node (SQLite)", "cluster, same node"):
            print(f"| {name} / {base} | " + " | ".join(f"{cross[p] / table[base][p]:.2f}" for p in (50, 90, 99)) + " |")
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


# MARK: buses

def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_nats(count, logs):
    """`count` nats-servers on 127.0.0.1 routed to each other; returns their client URLs."""
    ports = [(free_port(), free_port()) for _ in range(count)]
    routes = ",".join(f"nats://127.0.0.1:{cluster}" for _, cluster in ports)
    urls = []
    for index, (client, cluster) in enumerate(ports):
        log = logs / f"nats-{index}.log"
        spawn(["nats-server", "-a", "127.0.0.1", "-p", str(client), "--cluster_name", "bench",
               "--cluster", f"nats://127.0.0.1:{cluster}", "--routes", routes, "-l", str(log)])
        deadline = time.monotonic() + 10
        while not (log.exists() and "Server is ready" in log.read_text()):
            if time.monotonic() > deadline:
                raise RuntimeError(f"nats-server {index} did not start: {log}")
            time.sleep(0.05)
        urls.append(f"nats://127.0.0.1:{client}")
    return urls


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_bus(args, binary, bus, nats_urls, logs):
    database = f"typewire_bench_{bus}_{int(time.time())}"
    psql(args, f"CREATE DATABASE {database}")
    url = f"postgres://postgres@{args.pg_host}:{args.pg_port}/{database}"
    try:
        nodes = []
        for index, name in enumerate(("a", "b", "c")):
            extra = ["--nats-url", nats_urls[index]] if bus == "nats" else []
            nodes.append(Node(f"{bus}-{name}", binary, logs, "--postgres-url", url, "--message-rate", "1000", *extra))
        node_a, node_b, node_c = nodes
        elsewhere = connect(node_c.port, token(binary, "carol"), "bot-clawd-carol")  # C follows a conversation of its own
        c_cpu, c_heard = cpu_seconds(node_c.process.pid), node_c.metric("typewire_cluster_events_unfollowed_total")
        command = [binary, "bench", "--scenario", "tail", "--target", "typewire", "--json",
                   "--url", f"ws://127.0.0.1:{node_b.port}/v1/socket", "--publisher-url", f"ws://127.0.0.1:{node_a.port}/v1/socket",
                   "--server-pid", f"{node_a.process.pid},{node_b.process.pid}", "--jwt-secret", SECRET,
                   "--seed-postgres", url, "--conversations", str(args.conversations), "--members", "2",
                   "--steps", ",".join(str(step) for step in windows_of(args, bus)), "--warmup", "1s", "--duration", f"{args.seconds}s",
                   "--message-every", "1000000"]
        started = time.monotonic()
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        elapsed = time.monotonic() - started
        c_cpu, c_heard = cpu_seconds(node_c.process.pid) - c_cpu, node_c.metric("typewire_cluster_events_unfollowed_total") - c_heard
        elsewhere.close()
        if not result.stdout.strip():
            raise RuntimeError(f"typewire bench failed: {result.stderr[-2000:]}")
        report = json.loads(result.stdout)
        if args.warmup_window:
            report["results"] = report["results"][1:]  # the warm-up window, not counted
        return {"report": report, "c_cpu": c_cpu, "c_heard": c_heard, "elapsed": elapsed,
                "problems": [line for node in nodes for line in node.problems()], "stderr": result.stderr[-500:]}
    finally:
        stop_children_named(f"{bus}-")
        psql(args, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


def steps_of(args, bus):
    """The steps a bus is run at: `--notify-steps` for NOTIFY if given, else `--steps`."""
    return args.notify_steps if bus == "notify" and args.notify_steps else args.steps


def windows_of(args, bus):
    """The windows `typewire bench` runs: the steps, after one uncounted window at the first step's rate
    (the first window after the seeding paid for it: NOTIFY's first step was over 50 ms in runs whose
    next, higher step held)."""
    steps = steps_of(args, bus)
    return ([steps[0]] if args.warmup_window else []) + steps


def ceiling(rows, limit_ms=50):
    """The highest offered rate of the steps under `limit_ms` at p99 with nothing lost, and whether a step
    below it went over (a ceiling with a gap under it is reported, not hidden)."""
    held = [row for row in rows if row["latencyP99"] / 1e3 < limit_ms and not row.get("lost")]
    if not held:
        return None, False
    top = max(row["offeredDeliveriesPerSecond"] for row in held)
    gap = any(row["offeredDeliveriesPerSecond"] < top and row not in held for row in rows)
    return top, gap


def stop_children_named(prefix):
    """Stops the nodes of one bus (their `Node` objects put them in `children`)."""
    for process in list(children):
        if getattr(process, "bench_name", "").startswith(prefix) and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


def buses(args):
    binary = str(ROOT / args.binary)
    logs = Path(tempfile.mkdtemp(prefix="bench-buses-"))
    print(f"logs in {logs}", flush=True)
    try:
        nats_urls = start_nats(3, logs)
        rounds = []
        for number in range(1, args.rounds + 1):
            results = {}
            for bus in ("notify", "nats"):
                print(f"round {number}, bus {bus}: {args.conversations} conversations, steps {steps_of(args, bus)}", flush=True)
                results[bus] = run_bus(args, binary, bus, nats_urls, logs)
            rounds.append(results)
        print("\n| round | bus | updates/s offered | received | lost | p50 (ms) | p99 (ms) | max (ms) | CPU of A and B per update (µs) |")
        print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
        for number, results in enumerate(rounds, 1):
            for bus, result in results.items():
                for row in result["report"]["results"]:
                    print(f"| {number} | {bus} | {row['offeredDeliveriesPerSecond']:.0f} | {row['samples']} | {row.get('lost') or 0} |"
                          f" {row['latencyP50'] / 1e3:.2f} | {row['latencyP99'] / 1e3:.2f} | {row['latencyMax'] / 1e3:.2f} |"
                          f" {row['serverCPUMicrosPerDeliveredFrame']:.1f} |")
        print("\n| round | bus | node C: events of the load heard | node C: CPU seconds meanwhile | bench wall time (s) |")
        print("|---:|---|---:|---:|---:|")
        for number, results in enumerate(rounds, 1):
            for bus, result in results.items():
                print(f"| {number} | {bus} | {result['c_heard']:.0f} | {result['c_cpu']:.2f} | {result['elapsed']:.0f} |")
        print("\nthe highest step under 50 ms at p99 with nothing lost (a ceiling at the highest step run is a floor of the real one):")
        tops = {"notify": [], "nats": []}
        for number, results in enumerate(rounds, 1):
            ceilings = {bus: ceiling(result["report"]["results"]) for bus, result in results.items()}
            for bus, (top, _) in ceilings.items():
                tops[bus].append(top or 0)
            ratio = f"{ceilings['nats'][0] / ceilings['notify'][0]:.1f}x" if all(top for top, _ in ceilings.values()) else "-"
            gaps = [bus for bus, (_, gap) in ceilings.items() if gap]
            print(f"  round {number}: NOTIFY {ceilings['notify'][0] or 'none'}, NATS {ceilings['nats'][0] or 'none'}, NATS over NOTIFY {ratio}"
                  + (f" (a lower step of {', '.join(gaps)} did not hold)" if gaps else ""))
        if len(rounds) > 1:
            medians = {bus: sorted(values)[len(values) // 2] for bus, values in tops.items()}
            ratio = f"{medians['nats'] / medians['notify']:.1f}x" if medians["notify"] else "-"
            print(f"  median of {len(rounds)} rounds (none counts as 0): NOTIFY {medians['notify']}, NATS {medians['nats']}, NATS over NOTIFY {ratio}")
        for number, results in enumerate(rounds, 1):
            for bus, result in results.items():
                if result["problems"]:
                    print(f"round {number}, {bus}: {len(result['problems'])} warning/error lines, e.g. {result['problems'][:3]}")
    finally:
        stop_children()


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
    both = commands.add_parser("buses", help="the cluster on LISTEN/NOTIFY, then on NATS: latency and ceiling")
    both.add_argument("--binary", default=".build/release/typewire")
    both.add_argument("--conversations", type=int, default=1000, help="each a publisher on A and a subscriber on B")
    both.add_argument("--steps", type=int, nargs="+", default=[1000, 5000, 10000, 20000, 40000],
                      help="updates a second crossing the bus, one window each")
    both.add_argument("--notify-steps", type=int, nargs="+",
                      help="NOTIFY's own steps, to spare windows far past its ceiling (default: --steps)")
    both.add_argument("--seconds", type=int, default=5, help="each step's window")
    both.add_argument("--rounds", type=int, default=1,
                      help="rounds, each NOTIFY then NATS on fresh nodes; with more than one, the median ceilings' ratio too")
    both.add_argument("--no-warmup-window", dest="warmup_window", action="store_false",
                      help="count the first window too (by default a window at the first step's rate runs first, uncounted)")
    halt = commands.add_parser("stop", help="a member's Stop to the bot's socket, on one node and across nodes")
    halt.add_argument("--binary", default=".build/release/typewire")
    halt.add_argument("--rounds", type=int, default=5, help="rounds per configuration, interleaved")
    halt.add_argument("--samples", type=int, default=40, help="stops per round")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the finally blocks stop the children
    {"latency": latency, "notify": notify, "buses": buses, "stop": stop}[args.command](args)


if __name__ == "__main__":
    main()
