#!/usr/bin/env python3
"""The cost of a flood on everyone else (docs/RELIABILITY.md, "A flood from one socket").

    swift build -c release --product typewire
    TYPEWIRE_BIN=.build/release/typewire python3 scripts/bench_flood.py   # about 12 minutes

One SQLite node with the default limits (10 activity frames a second per socket). Alice and Bob
measure relay latency as in bench_cluster.py (alice toggles typing in their direct chat at 16 changes a
second, under her own limit; each sample is the time until bob's socket reads the change).
In interleaved rounds, a separate process floods the server from one socket of Carol's at 10 000 frames
a second (it reads its answers, like a real client), of one of these kinds:

- baseline:  no flood (measured in the same run);
- activity:  `activity typing` frames in the group: the rate limit drops them, and after 500 refused
             in a row the server closes the socket; the flooder reconnects and goes on;
- garbage:   frames that are not JSON: answered within their budget, then dropped, then closed;
- none:      `activity none` frames (stops) to random conversation ids: no budget of their own, only the
             socket's frame budget, and no store lookup;
- reconnect: Carol's sockets opened, greeted with `hello` and closed again, as fast as four threads go;
- prehello:  1 MiB frames before `hello`, each on a new socket, from two threads;
- bloat:     three sockets of Carol's that never read, each sending 100 `subscribe` for the group, which
             holds 50 messages of 10 000 characters (seeded first); reconnected every second.
- block:     Erin, who follows 3 000 conversations with Frank (made through the server API first, and
             subscribed by 30 sockets of hers before the round), blocks and unblocks Frank through REST as
             fast as one keep-alive connection goes: past the REST budget (10 a second) each gets 429.
- ping:      ping frames with a 100-byte payload (each owed a pong), on a socket that reads its answers;
- pong:      pongs nobody asked for;
- continuation: a text frame that never ends: empty continuation frames, none of them the last;
- nonreading: 40 sockets of Carol's with a 4 KiB receive buffer that never read: each asks for the large
             group's `subscribed` (64 KiB of history) 100 times and pings 20 times a second, so the server's
             queue for it passes its bound; a socket the server closes (reset or closed, seen in its TCP
             state) is opened again.

Besides latency it reports the server's resident memory at the end of each kind's rounds (the most seen)
and the CPU the flooder itself used (it shares the machine's cores with the server and the victims; in
production it would be someone else's machine). The flooder writes raw WebSocket frames with a zero
masking key (valid framing; the key need not be secret for a test), prepared once per batch, and drops
what it reads unparsed, so that its own CPU stays small next to the server's: a client library that
masks each byte in Python took most of a core here and so measured itself as much as the server.

Reports p50/p90/p99 per kind and the ratio to the baseline. The server runs with the default limits (and an API key, for the block flood's set-up).

The flooder connects from its own address, 127.0.0.2 (the victims from 127.0.0.1), and the server counts
refusals of loopback addresses too (`--count-local-addresses`): on this one machine 127.0.0.2 stands for an
attacker's public address, whose refused sockets (`--refusals-per-address`, default 20, then one a second)
get its connections closed at accept.
"""
import argparse
import base64
import json
import multiprocessing
import os
import socket
import struct
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "Support"))
import bench_cluster as bench  # noqa: E402  (Node, token, connect, run_round, percentile, stop_children)
from raw_socket import RawSocket as Frames  # noqa: E402  (frames of any opcode, masked with a zero key)
import websocket  # noqa: E402

#: The flooder's own address: connections to the server on 127.0.0.1 come from it.
FLOODER_ADDRESS = "127.0.0.2"

#: Linux's IP_BIND_ADDRESS_NO_PORT (Python's socket module names it from 3.12 only).
IP_BIND_ADDRESS_NO_PORT = getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24)

#: The server API's key (the block flood makes its conversations through it).
API_KEY = "bench-flood-api-key-0123456789abcdef0123"


class RawSocket:
    """A WebSocket client on a plain TCP socket: the upgrade, then text frames with a zero masking key."""

    def __init__(self, port, timeout=5, receive_buffer=None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        # The port is picked at connect, for the whole address pair, as without a bind: a bind to port 0 picks
        # one for the address alone, and with thousands of the flooder's sockets in TIME_WAIT its search
        # took more CPU than the server's work (measured: the flooder at 144 % of a core, others' p99 7x).
        self.sock.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
        self.sock.bind((FLOODER_ADDRESS, 0))
        try:
            self.sock.connect(("127.0.0.1", port))
        except OSError:
            self.sock.close()
            raise
        if receive_buffer:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /v1/socket HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise OSError("closed during the upgrade")
            head += chunk
        if not head.startswith(b"HTTP/1.1 101"):
            raise OSError(f"upgrade refused: {head[:40]!r}")
        self.rest = head.split(b"\r\n\r\n", 1)[1]

    @staticmethod
    def frame(text):
        """A masked text frame (key 0, so the payload goes as is)."""
        payload = text.encode() if isinstance(text, str) else text
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", 0x81, 0x80 | length)
        elif length < 1 << 16:
            header = struct.pack("!BBH", 0x81, 0x80 | 126, length)
        else:
            header = struct.pack("!BBQ", 0x81, 0x80 | 127, length)
        return header + b"\0\0\0\0" + payload

    def send(self, data):
        self.sock.sendall(data)

    def is_open(self):
        """Whether the server has neither closed nor reset the connection (its TCP state, without reading)."""
        return self.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0] == 1  # TCP_ESTABLISHED

    @staticmethod
    def split_frame(data):
        """The first whole server frame in `data` as (opcode, payload, the bytes after it), or None if
        `data` does not hold one yet. Server frames are not masked."""
        if len(data) < 2:
            return None
        length, start = data[1] & 0x7F, 2
        if length >= 126:
            start = 4 if length == 126 else 10
            if len(data) < start:
                return None
            length = int.from_bytes(data[2:start], "big")
        if len(data) < start + length:
            return None
        return data[0] & 0x0F, data[start:start + length], data[start + length:]

    def next_frame(self):
        """The server's next frame as (opcode, payload); OSError once the server closed."""
        while (frame := self.split_frame(self.rest)) is None:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise OSError("closed")
            self.rest += chunk
        opcode, payload, self.rest = frame
        return opcode, payload

    def first_frame_text(self):
        """The first server frame's payload (an unfragmented text frame, as `welcome` is)."""
        return self.next_frame()[1].decode(errors="replace")

    def drain(self):
        """Reads and drops the server's frames until it closes; its close frame ends the connection at once
        (as a client library would answer it), so that the flooder reconnects and goes on."""
        try:
            while self.next_frame()[0] != 0x8:
                pass
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def flood(port, token_text, kind, rate, stop, counters, ready):
    """Sends `rate` frames a second of one kind until told to stop, reconnecting when the server closes.

    A reader thread consumes the server's answers, as a real client would. `ready` is set once the flood
    begins (the block flood subscribes its conversations first)."""
    import threading
    if kind != "block":
        ready.set()
    if kind == "reconnect":
        return reconnect(port, token_text, stop, counters)
    if kind == "prehello":
        return prehello(port, stop, counters)
    if kind == "bloat":
        return bloat(port, token_text, stop, counters)
    if kind == "block":
        return block(port, token_text, stop, counters, ready)
    if kind == "nonreading":
        return nonreading(port, token_text, stop, counters)
    fixed = {"activity": RawSocket.frame(json.dumps({"type": "activity", "conversation": "group-six", "activity": "typing"})),
             "garbage": RawSocket.frame("this is not JSON " * 4),
             "ping": Frames.encode(0x9, b"p" * 100),
             "pong": Frames.encode(0xA),
             "continuation": Frames.encode(0x0, fin=False),
             "none": None}[kind]
    sent = closes = 0
    batch = 100
    fixed_batch = fixed * batch if fixed else None
    while not stop.is_set():
        ws = None
        try:
            ws = RawSocket(port)
            ws.send(RawSocket.frame(json.dumps({"type": "hello", "token": token_text})))
            if kind == "continuation":
                ws.send(Frames.encode(0x1, b'{"type":', fin=False))  # the message the continuations continue
            threading.Thread(target=ws.drain, daemon=True).start()
            start, count = time.perf_counter(), 0
            while not stop.is_set():
                ws.send(fixed_batch or b"".join(
                    RawSocket.frame(f'{{"type":"activity","conversation":"flood-{sent + index}","activity":"none"}}')
                    for index in range(batch)))
                sent += batch
                count += batch
                ahead = start + count / rate - time.perf_counter()
                if ahead > 0:
                    time.sleep(ahead)
        except OSError:
            closes += 1  # closed for abuse (activity): connect again
        finally:
            if ws:
                ws.close()
    counters["sent"], counters["closes"] = sent, closes
    counters["cpu"] = time.process_time()


def reconnect(port, token_text, stop, counters, threads=4):
    """Opens a socket, says hello, waits for its answer and closes it, again and again, from `threads` threads."""
    import threading
    opened, refused = [0] * threads, [0] * threads
    hello = RawSocket.frame(json.dumps({"type": "hello", "token": token_text}))

    def loop(index):
        while not stop.is_set():
            try:
                ws = RawSocket(port)
                ws.send(hello)
                if '"welcome"' not in ws.first_frame_text():
                    refused[index] += 1
                ws.close()
                opened[index] += 1
            except (OSError, ValueError):
                refused[index] += 1

    workers = [threading.Thread(target=loop, args=(index,), daemon=True) for index in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    counters["sent"], counters["closes"] = sum(opened), sum(refused)
    counters["cpu"] = time.process_time()


def prehello(port, stop, counters, threads=2):
    """Sends a 1 MiB frame on a new socket before any `hello`, again and again."""
    import threading
    big = RawSocket.frame(b"x" * (1 << 20))
    sent = [0] * threads

    def loop(index):
        while not stop.is_set():
            ws = None
            try:
                ws = RawSocket(port)
                sent[index] += 1
                ws.send(big)
                ws.drain()
            except OSError:
                pass
            finally:
                if ws:
                    ws.close()

    workers = [threading.Thread(target=loop, args=(index,), daemon=True) for index in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    counters["sent"], counters["closes"] = sum(sent), 0
    counters["cpu"] = time.process_time()


def bloat(port, token_text, stop, counters, sockets=3, subscribes=100):
    """Sockets that never read, each asking for the large group's `subscribed` again and again."""
    sent = rounds = 0
    subscribe = RawSocket.frame(json.dumps({"type": "subscribe", "conversation": "group-six"}))
    while not stop.is_set():
        opened = []
        for _ in range(sockets):
            try:
                ws = RawSocket(port, receive_buffer=4096)
                ws.send(RawSocket.frame(json.dumps({"type": "hello", "token": token_text})) + subscribe * subscribes)
                sent += subscribes
                opened.append(ws)
            except OSError:
                pass
        stop.wait(1)
        for ws in opened:
            ws.close()
        rounds += 1
    counters["sent"], counters["closes"] = sent, rounds
    counters["cpu"] = time.process_time()


def nonreading(port, token_text, stop, counters, sockets=40, subscribes=100, pings=20):
    """Sockets that never read, asking for more than the server may queue for them, reopened once closed."""
    greeting = RawSocket.frame(json.dumps({"type": "hello", "token": token_text}))
    asks = RawSocket.frame(json.dumps({"type": "subscribe", "conversation": "group-six"})) * subscribes
    ping = Frames.encode(0x9, b"p" * 100)
    open_, sent, reopened = [], 0, 0
    while not stop.is_set():
        for ws in [ws for ws in open_ if not ws.is_open()]:
            ws.close()
            open_.remove(ws)
            reopened += 1
        while len(open_) < sockets and not stop.is_set():
            try:
                ws = RawSocket(port, receive_buffer=4096)
                ws.send(greeting + asks)
                sent += subscribes
                open_.append(ws)
            except OSError:
                break  # refused (the handshake budget, the address's refusals): again on the next turn
        for ws in open_:
            try:
                ws.send(ping * (pings // 10))
                sent += pings // 10
            except OSError:
                pass
        stop.wait(0.1)
    for ws in open_:
        ws.close()
    counters["sent"], counters["closes"] = sent, reopened
    counters["cpu"] = time.process_time()


def block(port, token_text, stop, counters, ready, sockets=30):
    """Erin's sockets follow the 3 000 conversations (100 each, within the subscribe burst); then Frank is
    blocked and unblocked through REST, again and again, on one keep-alive connection."""
    import http.client
    opened = []
    for index in range(sockets):
        ws = websocket.create_connection(f"ws://127.0.0.1:{port}/v1/socket", timeout=30, source_address=(FLOODER_ADDRESS, 0))
        ws.send(json.dumps({"type": "hello", "token": token_text}))
        for number in range(index * 100, (index + 1) * 100):
            ws.send(json.dumps({"type": "subscribe", "conversation": f"block-flood-{number}"}))
        answered = 0
        while answered < 100:
            frame = json.loads(ws.recv())
            if frame["type"] == "subscribed":
                answered += 1
            elif frame["type"] == "error":
                raise RuntimeError(f"erin's subscribe: {frame}")
        opened.append(ws)
    ready.set()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(FLOODER_ADDRESS, 0))
    headers = {"Authorization": f"Bearer {token_text}"}
    sent = limited = 0
    while not stop.is_set():
        connection.request("PUT" if sent % 2 == 0 else "DELETE", "/v1/blocks/frank", headers=headers)
        response = connection.getresponse()
        response.read()
        limited += response.status == 429
        sent += 1
    connection.close()
    for ws in opened:
        ws.close()
    counters["sent"], counters["closes"] = sent, limited
    counters["cpu"] = time.process_time()


def seed_block_conversations(port, count=3_000):
    """3 000 groups of Erin and Frank, made through the server API (a user may create 30 a minute; the server
    API takes 100 requests a second after a burst of 500: about 25 s)."""
    import http.client
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
    body = json.dumps({"kind": "group", "members": ["erin", "frank"]})
    number = 0
    while number < count:
        connection.request("PUT", f"/v1/server/conversations/block-flood-{number}", body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        if response.status == 429:
            time.sleep(0.1)  # past the server API's budget: again shortly
            continue
        assert response.status in (200, 201), response.status
        number += 1
    connection.close()


def seed_large_messages(port, token_text, count=50, length=10_000):
    """Fills the group with `count` messages of `length` characters, within the message rate limit."""
    ws = websocket.create_connection(f"ws://127.0.0.1:{port}/v1/socket", timeout=10)
    ws.send(json.dumps({"type": "hello", "token": token_text}))
    for index in range(count):
        ws.send(json.dumps({"type": "send", "conversation": "group-six", "clientMessageId": f"seed-{index}", "text": "x" * length}))
        while json.loads(ws.recv())["type"] != "ack":
            pass
        time.sleep(0.25)
    ws.close()


def server_rss_mib(process):
    with open(f"/proc/{process.pid}/status") as status:
        return int(next(line for line in status if line.startswith("VmRSS:")).split()[1]) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/typewire")
    parser.add_argument("--rounds", type=int, default=6, help="rounds per kind, interleaved")
    parser.add_argument("--samples", type=int, default=200, help="timed samples per round (even)")
    parser.add_argument("--flood-rate", type=float, default=10_000)
    parser.add_argument("--rate", type=float, default=16, help="the victims' changes a second (under 10 typing frames a second)")
    parser.add_argument("--kinds", default="activity,garbage,none,reconnect,prehello,bloat,block,ping,pong,continuation,nonreading",
                        help="the floods to run, comma-separated (the baseline always runs)")
    parser.add_argument("--serve-arguments", default="",
                        help="more arguments for `typewire serve`, e.g. '--refusals-per-address 0' to compare without that budget")
    args = parser.parse_args()
    binary = str(bench.ROOT / args.binary)
    logs = Path(tempfile.mkdtemp(prefix="bench-flood-"))
    kinds = ["baseline"] + [kind for kind in args.kinds.split(",") if kind and kind != "baseline"]
    results = {kind: {"latencies": [], "drops": 0, "errors": [], "sent": 0, "seconds": 0.0, "closes": 0, "received": 0.0, "rss": 0.0, "cpu": 0.0}
               for kind in kinds}
    try:
        node = bench.Node("single", binary, logs, "--sqlite", str(logs / "flood.sqlite"), "--api-key", API_KEY,
                          "--count-local-addresses", *args.serve_arguments.split(), activity_rate=None)
        tokens = {user: bench.token(binary, user) for user in ("alice", "bob", "carol", "erin", "frank")}
        seed_large_messages(node.port, tokens["frank"])
        if "block" in kinds:
            seed_block_conversations(node.port)
        for repeat in range(args.rounds):
            order = kinds[repeat % len(kinds):] + kinds[:repeat % len(kinds)]
            for kind in order:
                stop, manager = multiprocessing.Event(), multiprocessing.Manager()
                counters = manager.dict()
                flooder = None
                if kind != "baseline":
                    ready = multiprocessing.Event()
                    flooder = multiprocessing.Process(target=flood, args=(
                        node.port, tokens["erin" if kind == "block" else "carol"], kind, args.flood_rate, stop, counters, ready))
                    flooder.start()
                    ready.wait(120)
                    time.sleep(0.5)  # let the flood reach its rate before measuring
                began, received_before = time.perf_counter(), node.metric("typewire_frames_in_total")
                got, drops, errors = bench.run_round(node.port, node.port, {"alice": tokens["alice"], "bob": tokens["bob"]}, args.samples, args.rate)
                seconds = time.perf_counter() - began
                rss = server_rss_mib(node.process)
                stop.set()
                if flooder:
                    flooder.join(10)
                result = results[kind]
                result["latencies"] += got
                result["drops"] += drops
                result["errors"] += errors
                result["sent"] += counters.get("sent", 0)
                result["closes"] += counters.get("closes", 0)
                result["seconds"] += seconds + (0.5 if flooder else 0)
                result["received"] += node.metric("typewire_frames_in_total") - received_before
                result["rss"] = max(result["rss"], rss)
                result["cpu"] += counters.get("cpu", 0.0)
                manager.shutdown()
                print(f"round {repeat + 1}/{args.rounds} {kind}: p50 {sorted(got)[len(got) // 2] / 1e3:.0f} µs,"
                      f" p99 {bench.percentile(sorted(got), 99) / 1e3:.0f} µs", flush=True)
        print("\n| flood | frames/s sent by the flooder (reconnect, prehello: sockets/s; block: requests/s) | frames/s the server read (all sockets) | flooder reconnects (block: requests answered 429) | samples | dropped | p50 (µs) | p90 (µs) | p99 (µs) | p99 / baseline p99 | server RSS (MiB, most seen) | flooder CPU (% of one core) |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        base = sorted(results["baseline"]["latencies"])
        for kind in kinds:
            values = sorted(results[kind]["latencies"])
            rate = results[kind]["sent"] / results[kind]["seconds"] if kind != "baseline" else 0
            cells = " | ".join(f"{bench.percentile(values, p) / 1e3:.0f}" for p in (50, 90, 99))
            ratio = bench.percentile(values, 99) / bench.percentile(base, 99)
            read = results[kind]["received"] / (results[kind]["seconds"] - (0.5 if kind != "baseline" else 0))
            print(f"| {kind} | {rate:.0f} | {read:.0f} | {results[kind]['closes']} | {len(values)} | {results[kind]['drops']} | {cells} | {ratio:.2f} | {results[kind]['rss']:.0f} | {100 * results[kind]['cpu'] / results[kind]['seconds']:.0f} |")
        print(f"\nserver log: {node.log_path}; problems logged: {len(node.problems())}")
    finally:
        bench.stop_children()


if __name__ == "__main__":
    main()
