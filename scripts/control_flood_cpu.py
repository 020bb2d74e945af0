#!/usr/bin/env python3
"""The server's CPU for one socket's flood of pings, pongs or empty fragments (docs/RELIABILITY.md), for
comparing builds: each kind floods 2 000 000 frames (as fast as the socket takes them, in batches) from one
welcomed socket that reads its answers, for at most `--seconds`; reports how long the socket lived and the
server's CPU time meanwhile (user + system, from /proc).

    python3 scripts/control_flood_cpu.py --binary .build/debug/typewire
"""
import argparse
import pathlib
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "Support"))
import typewire_server  # noqa: E402
from raw_socket import CONTINUATION, PING, PONG, TCP_ESTABLISHED, TEXT, RawSocket  # noqa: E402

SECRET = "control-flood-secret-0123456789abcdefghij"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "typewire"))
    parser.add_argument("--frames", type=int, default=2_000_000)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    token = subprocess.run([args.binary, "token", "--user", "carol", "--name", "Carol", "--jwt-secret", SECRET],
                           check=True, capture_output=True, text=True).stdout.strip()
    kinds = {"ping": RawSocket.encode(PING, b"p" * 100), "pong": RawSocket.encode(PONG),
             "empty fragments": RawSocket.encode(CONTINUATION, fin=False)}
    log = ROOT / ".artifacts" / "control_flood_cpu.log"
    arguments = ["serve", "--seed-demo", "--port", "0", "--jwt-secret", SECRET, "--sqlite", f"/tmp/control-flood-{time.time_ns()}.sqlite"]
    with typewire_server.running_server(arguments, log, executable=args.binary) as server:
        for kind, frame in kinds.items():
            ws = RawSocket(server.host, server.port)
            ws.send_json({"type": "hello", "token": token})
            ws.next(lambda f: f["type"] == "welcome")
            if kind == "empty fragments":
                ws.send_frame(TEXT, b'{"type":', fin=False)
            threading.Thread(target=ws.until_closed, daemon=True).start()  # reads its answers
            before, started, sent = server.cpu_seconds(), time.monotonic(), 0
            batch = frame * 10_000
            try:
                while sent < args.frames and time.monotonic() - started < args.seconds and ws.tcp_state() == TCP_ESTABLISHED:
                    ws.send_raw(batch)
                    sent += 10_000
            except OSError:
                pass
            while ws.tcp_state() == TCP_ESTABLISHED and time.monotonic() - started < args.seconds:
                time.sleep(0.01)
            lived = time.monotonic() - started
            closed = ws.tcp_state() != TCP_ESTABLISHED
            print(f"{kind}: {sent} frames sent in {lived:.2f} s, socket {'closed' if closed else 'still open'}; "
                  f"server CPU {server.cpu_seconds() - before:.2f} s", flush=True)
            ws.close()
            time.sleep(1)


if __name__ == "__main__":
    main()
