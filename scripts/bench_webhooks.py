#!/usr/bin/env python3
"""Webhook benchmarks (docs/BENCHMARKS.md, "Webhooks").

    swift build -c release --product typewire
    python3 scripts/bench_webhooks.py drain     # deliveries a second one node sends to a local receiver
    python3 scripts/bench_webhooks.py typing    # others' typing p99 while the receiver is up, down or slow

drain: a backlog of `--events` message.created deliveries is written into a new SQLite file's outbox
(the server migrates the file first, then stops), then the node starts with the receiver up and the time
until `typewire_webhook_delivered_total` reaches the backlog is measured, with the node's CPU. The
receiver is an asyncio HTTP/1.1 server in a process of its own that answers every POST with 200 (keep-alive);
the node and the receiver share the machine's two cores.

typing: four SQLite nodes at once, in interleaved rounds: one without webhooks, one whose receiver is up,
one whose receiver is down (nothing listens on its port: each attempt is refused at once and tried
again by the retry policy), and one whose receiver is slow (it answers
after 5 s). On each node, in the background for the whole run, carol sends a message to the group twice a
second and dave's socket reconnects twice a second (message.created and presence.changed events), so the
outbox of the down and slow receivers grows and every delivery is retried. Each round measures alice's
typing changes as bob's socket reads them (bench_cluster.py's run_round). Prints p50/p90/p99 per node and
the ratio to the node without webhooks, and each node's webhook counters at the end.

Needs Python 3.11 and websocket-client. Every child process is stopped at the end.
"""
import argparse
import asyncio
import json
import multiprocessing
import signal
import socket
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_cluster as bench  # noqa: E402  (Node, token, connect, run_round, percentile, stop_children)

WEBHOOK_SECRET = "bench-webhooks-secret-0123456789abcdef"
GROUP = "group-six"


def serve_receiver(port, delay, ready):
    """An app's backend: answers each POST with 200 after `delay` seconds, on keep-alive connections."""

    async def handle(reader, writer):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":", 1)[1])
                await reader.readexactly(length)
                if delay:
                    await asyncio.sleep(delay)
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            writer.close()

    async def main():
        server = await asyncio.start_server(handle, "127.0.0.1", port, backlog=1024)
        ready.set()
        async with server:
            await server.serve_forever()

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    asyncio.run(main())


def start_receiver(port, delay=0.0):
    ready = multiprocessing.Event()
    process = multiprocessing.Process(target=serve_receiver, args=(port, delay, ready), daemon=True)
    process.start()
    if not ready.wait(10):
        raise RuntimeError("the receiver did not start")
    return process  # a daemon: it ends with this script


def webhook_arguments(port):
    return ["--webhook-url", f"http://127.0.0.1:{port}/hook", "--webhook-secret", WEBHOOK_SECRET]


# MARK: drain

def fill_outbox(path, events, endpoint):
    body = json.dumps({"id": "evt_x", "type": "message.created", "createdAt": 0, "data": {
        "message": {"conversation": GROUP, "id": "1", "sender": "alice", "senderName": "Alice", "text": "x" * 200,
                    "sentAt": 0, "clientMessageId": "c"}, "offline": ["bob", "carol"]}})
    now = int(time.time() * 1000)
    with sqlite3.connect(path) as database:
        database.executemany(
            "INSERT INTO webhook_outbox (event_id, type, endpoint, body, created_at, attempts, due_at) VALUES (?, ?, ?, ?, ?, 0, ?)",
            ((f"evt_{index:032x}", "message.created", endpoint, body, now, now) for index in range(events)))


def drain(args):
    binary = str(Path(bench.ROOT) / args.binary)
    logs = Path(tempfile.mkdtemp(prefix="bench-webhooks-"))
    port = bench.free_port()
    print(f"logs in {logs}", flush=True)
    rows = []
    try:
        receiver = start_receiver(port)
        for run in range(args.runs):
            sqlite = str(logs / f"drain-{run}.sqlite")
            bench.Node(f"migrate-{run}", binary, logs, "--sqlite", sqlite).process.terminate()
            bench.children[-1].wait(10)
            fill_outbox(sqlite, args.events, f"http://127.0.0.1:{port}/hook")
            started = time.monotonic()
            receiver_cpu = bench.cpu_seconds(receiver.pid)
            node = bench.Node(f"drain-{run}", binary, logs, "--sqlite", sqlite, *webhook_arguments(port))
            listening = time.monotonic()
            node_cpu = bench.cpu_seconds(node.process.pid)  # its start-up; the backlog's first deliveries too
            while node.metric("typewire_webhook_delivered_total") < args.events:
                if time.monotonic() - started > 600:
                    raise RuntimeError("the backlog did not drain within 10 minutes")
                time.sleep(0.02)
            elapsed = time.monotonic() - listening
            node_cpu = bench.cpu_seconds(node.process.pid) - node_cpu
            receiver_cpu = bench.cpu_seconds(receiver.pid) - receiver_cpu
            rows.append(args.events / elapsed)
            print(f"run {run + 1}: {args.events} deliveries in {elapsed:.2f} s from the node's listening line:"
                  f" {args.events / elapsed:.0f} a second; CPU meanwhile: node {node_cpu:.2f} s"
                  f" ({node_cpu * 1e6 / args.events:.0f} µs a delivery), receiver {receiver_cpu:.2f} s", flush=True)
            node.process.terminate()
            node.process.wait(10)
        rates = sorted(rows)
        print(f"\nmedian of {len(rows)} runs: {rates[len(rates) // 2]:.0f} deliveries a second")
    finally:
        bench.stop_children()


# MARK: typing

class Background(threading.Thread):
    """Carol's messages to the group and dave's reconnecting socket on one node, until stopped."""

    def __init__(self, node, tokens):
        super().__init__(daemon=True)
        self.node, self.tokens, self.stopped, self.sent = node, tokens, threading.Event(), 0

    def run(self):
        carol = bench.connect(self.node.port, self.tokens["carol"], GROUP)
        errors = []
        while not self.stopped.wait(0.5):
            self.sent += 1
            carol.send(json.dumps({"type": "send", "conversation": GROUP, "clientMessageId": f"bg-{self.sent}",
                                   "text": f"background message {self.sent}"}))
            bench.drain(carol, errors)
            dave = bench.connect(self.node.port, self.tokens["dave"], GROUP)
            dave.close()
        carol.close()


def typing(args):
    binary = str(Path(bench.ROOT) / args.binary)
    logs = Path(tempfile.mkdtemp(prefix="bench-webhooks-"))
    print(f"logs in {logs}", flush=True)
    up, down, slow = bench.free_port(), bench.free_port(), bench.free_port()
    background = []
    try:
        start_receiver(up)
        start_receiver(slow, delay=5.0)
        nodes = {
            "no webhooks": bench.Node("none", binary, logs, "--sqlite", str(logs / "none.sqlite")),
            "receiver up": bench.Node("up", binary, logs, "--sqlite", str(logs / "up.sqlite"), *webhook_arguments(up)),
            "receiver down": bench.Node("down", binary, logs, "--sqlite", str(logs / "down.sqlite"), *webhook_arguments(down)),
            "receiver slow (5 s)": bench.Node("slow", binary, logs, "--sqlite", str(logs / "slow.sqlite"), *webhook_arguments(slow)),
        }
        tokens = {user: bench.token(binary, user) for user in ("alice", "bob", "carol", "dave")}
        for node in nodes.values():
            thread = Background(node, tokens)
            thread.start()
            background.append(thread)
        time.sleep(args.settle)  # the down and slow outboxes fill and their attempts start timing out
        names = list(nodes)
        results = {name: {"latencies": [], "drops": 0, "errors": []} for name in names}
        for repeat in range(args.rounds):
            shift = repeat % len(names)
            for name in names[shift:] + names[:shift]:
                node = nodes[name]
                got, drops, errors = bench.run_round(node.port, node.port, tokens, args.samples, args.rate)
                results[name]["latencies"] += got
                results[name]["drops"] += drops
                results[name]["errors"] += errors
            print(f"round {repeat + 1}/{args.rounds} done", flush=True)
        print("\n| receiver | samples | dropped | p50 (µs) | p90 (µs) | p99 (µs) | p99 / no webhooks |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        base = None
        for name in names:
            values = sorted(results[name]["latencies"])
            p = {q: bench.percentile(values, q) / 1e3 for q in (50, 90, 99)}
            base = base or p[99]
            print(f"| {name} | {len(values)} | {results[name]['drops']} | {p[50]:.0f} | {p[90]:.0f} | {p[99]:.0f} |"
                  f" {p[99] / base:.2f} |")
        print("\n| receiver | pending | delivered | retried | failed | background messages |")
        print("|---|---:|---:|---:|---:|---:|")
        for name, thread in zip(names, background):
            node = nodes[name]
            counts = [node.metric(f"typewire_webhook_{kind}") for kind in ("pending", "delivered_total", "retried_total", "failed_total")]
            print(f"| {name} | " + " | ".join(f"{count:.0f}" for count in counts) + f" | {thread.sent} |")
    finally:
        for thread in background:
            thread.stopped.set()
        for thread in background:
            thread.join(5)
        bench.stop_children()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    rate = commands.add_parser("drain", help="deliveries a second to a local receiver")
    rate.add_argument("--binary", default=".build/release/typewire")
    rate.add_argument("--events", type=int, default=20000)
    rate.add_argument("--runs", type=int, default=3)
    others = commands.add_parser("typing", help="others' typing p99 with the receiver up, down or slow")
    others.add_argument("--binary", default=".build/release/typewire")
    others.add_argument("--rounds", type=int, default=8, help="rounds per node, interleaved")
    others.add_argument("--samples", type=int, default=200, help="timed samples per round (even)")
    others.add_argument("--rate", type=float, default=50, help="activity frames a second")
    others.add_argument("--settle", type=float, default=15, help="seconds of background load before the first round")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    {"drain": drain, "typing": typing}[args.command](args)


if __name__ == "__main__":
    main()
