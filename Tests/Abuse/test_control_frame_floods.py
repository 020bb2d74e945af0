"""Floods of frames that carry nothing for the hub, against the built server: pings, unsolicited pongs, and
empty fragments of a message that never ends. Each counts against the socket's frame budget (100 a second,
bursts of 400), so a flood of any of them is cut off like a flood of data frames: 500 dropped within a second
close the socket with 1008, after the answers already on their way. A message may come in at most 64
frames, however small. Others' service goes on.
"""
import time

import pytest

from abusekit import serve, subscribed, token, welcomed
from raw_socket import CONTINUATION, PING, PONG, TEXT, RawSocket

FLOOD = 200_000  # frames, sent as fast as the connection takes them


def flood(ws, frame):
    """Sends `FLOOD` copies of `frame`; the server may close the connection before it has read them all."""
    try:
        ws.send_raw(frame * FLOOD)
    except (BrokenPipeError, ConnectionResetError):
        pass


@pytest.mark.parametrize("kind", ["ping", "pong", "empty fragments"])
def test_a_flood_of_frames_that_carry_nothing_closes_the_socket(tmp_path, kind):
    with serve(tmp_path) as server:
        bob = welcomed(server, token("bob", "Bob"))
        subscribed(bob, "group-six")
        mallory = welcomed(server, token("erin", "Erin"))
        cpu_before, rss_before, started = server.cpu_seconds(), server.rss_kib(), time.monotonic()
        if kind == "ping":
            flood(mallory, RawSocket.encode(PING, b"x" * 100))
        elif kind == "pong":
            flood(mallory, RawSocket.encode(PONG))
        else:
            mallory.send_frame(TEXT, b'{"type":', fin=False)
            flood(mallory, RawSocket.encode(CONTINUATION, fin=False))
        code, _ = mallory.until_closed()
        closed_after = time.monotonic() - started
        cpu = server.cpu_seconds() - cpu_before
        print(f"{kind}: {FLOOD} frames sent, closed with {code} after {closed_after:.2f} s; server CPU {cpu:.2f} s, "
              f"RSS +{server.rss_kib() - rss_before} KiB")
        assert code == 1008, f"a {kind} flood ended with {code}"
        # Bob is served as before.
        alice = welcomed(server, token("alice", "Alice"))
        alice.send_json({"type": "activity", "conversation": "group-six", "activity": "typing"})
        bob.next(lambda f: f["type"] == "activity" and any(e["user"] == "alice" for e in f["entries"]), "alice typing")
        assert server.alive()


def test_a_message_in_more_than_64_frames_closes_the_socket(tmp_path):
    with serve(tmp_path) as server:
        ws = welcomed(server, token("erin", "Erin"))
        ws.send_frame(TEXT, b"{", fin=False)
        for _ in range(62):
            ws.send_frame(CONTINUATION, b" ", fin=False)
        ws.send_frame(CONTINUATION, b"}", fin=True)  # the 64th: a whole message (an unknown frame, answered)
        answer = ws.next(lambda f: True, "the answer to a message of 64 frames")
        assert answer["type"] == "error" and answer["code"] == "malformed_frame", answer
        ws.send_frame(TEXT, b"{", fin=False)
        for _ in range(64):
            ws.send_frame(CONTINUATION, b" ", fin=False)
        code, texts = ws.until_closed()
        assert code == 1008 and texts == [], (code, texts)
