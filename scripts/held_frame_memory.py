#!/usr/bin/env python3
"""The memory a small frame costs the server while it waits for a socket that reads nothing: the measure
behind `SentBytes.overheadPerWrite` (docs/RELIABILITY.md, "Sockets that never read").

    swift build -c release --product typewire
    python3 scripts/held_frame_memory.py --binary .build/release/typewire

Against `typewire relay` (the bare broadcast server, which answers every ping with a pong and has no frame
budget): a socket with a 4 KiB receive buffer sends pings and reads nothing. Once the kernel's buffers are
full, each pong (2 bytes on the wire) waits in NIO's queue, until the socket's outbox cuts it off at its
bound (4 MiB by `SentBytes`'s count: each frame's bytes plus `overheadPerWrite`) and the relay closes it.
A relay of its own per run; its resident memory is sampled every 5 ms; its growth at the peak, over the number of pongs the
bound lets wait, is what one waiting pong really costs. Each run is one socket; runs are repeated.
"""
import argparse
import pathlib
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "Support"))
import typewire_server  # noqa: E402
from raw_socket import PING, TCP_ESTABLISHED, RawSocket  # noqa: E402

BOUND = 4 << 20  # the relay's outbox bound, bytes as SentBytes counts them


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(next(line for line in status if line.startswith("VmRSS:")).split()[1])


def one_run(server, pings, overhead):
    pid = server.process.pid
    ws = RawSocket(server.host, server.port, receive_buffer=4096)
    before = rss_kib(pid)
    peak, sent, stop = before, [0], threading.Event()

    def sample():
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, rss_kib(pid))
            time.sleep(0.005)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    frame = RawSocket.encode(PING) * 1_000
    try:
        while sent[0] < pings and ws.tcp_state() == TCP_ESTABLISHED:
            ws.send_raw(frame)
            sent[0] += 1_000
    except OSError:
        pass
    deadline = time.monotonic() + 10
    while ws.tcp_state() == TCP_ESTABLISHED and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    sampler.join()
    cut_off = ws.tcp_state() != TCP_ESTABLISHED
    ws.close()
    held = BOUND // (2 + overhead)  # pongs waiting when the bound is reached, by SentBytes's count
    return before, peak, sent[0], cut_off, (peak - before) * 1024 / held


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "typewire"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pings", type=int, default=6_000_000, help="pings per run at most (the kernel takes about 2 million first)")
    parser.add_argument("--overhead", type=int, default=160, help="SentBytes.overheadPerWrite of the build")
    args = parser.parse_args()
    log = ROOT / ".artifacts" / "held_frame_memory.log"
    for run in range(args.runs):  # a relay of its own each: memory freed by a run is kept by the allocator
        with typewire_server.running_server(["relay", "--port", "0"], log, executable=args.binary) as server:
            before, peak, sent, cut_off, per_pong = one_run(server, args.pings, args.overhead)
        print(f"run {run + 1}: RSS {before} KiB before, {peak} KiB at most; {sent} pings sent; "
              f"{'cut off' if cut_off else 'NOT cut off'}; {per_pong:.0f} bytes of memory per waiting pong", flush=True)


if __name__ == "__main__":
    main()
