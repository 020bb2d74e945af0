"""A bot's reply to a member who reads slowly, against the built server: Bob's phone (a 4 KiB receive
buffer) stops reading while a backlog waits for it (his own `subscribe`s, each answered with 64 KiB of
history, until the server holds 128 KiB for him and reads him no more), and Clawd streams a reply of 30 parts. The
parts that find an earlier part of the reply still waiting for Bob merge into it (docs/PROTOCOL.md, "Bot
turns"): when Bob reads again he gets the reply whole, in a few frames, not a backlog of 30; Alice, who
reads, gets every part.
"""
import json
import threading
import time

from abusekit import rest, serve, subscribed, token, welcomed
from raw_socket import TEXT, RawSocket

PARTS = 30


def test_a_slow_reader_gets_a_replys_parts_merged_and_a_reader_gets_every_part(tmp_path):
    with serve(tmp_path) as server:
        status, created = rest(server, "POST", "/v1/conversations",
                               {"kind": "group", "title": "Ask Clawd", "members": ["bob", "clawd"]}, user="alice")
        assert status == 201, created
        group = created["id"]
        alice = welcomed(server, token("alice", "Alice"), timeout=120)
        subscribed(alice, group)
        bob = welcomed(server, token("bob", "Bob"), receive_buffer=4096)
        subscribed(bob, group)
        clawd = welcomed(server, token("clawd", "Clawd", "--bot"))
        subscribed(clawd, group)
        alice_frames = []

        def read_alice():
            while (frame := alice.frame()) is not None:
                if frame[0] == TEXT:
                    alice_frames.append(json.loads(frame[1]))

        threading.Thread(target=read_alice, daemon=True).start()

        # A history of 200 000 characters: each `subscribed` carries 64 KiB of it.
        for index in range(20):
            alice.send_json({"type": "send", "conversation": group, "clientMessageId": f"m{index}", "text": "x" * 10_000})
        deadline = time.monotonic() + 30
        while sum(f.get("type") == "ack" for f in alice_frames) < 20:
            assert time.monotonic() < deadline, "the history was not stored"
            time.sleep(0.05)
        # Bob stops reading, and asks for the history again and again.
        subscribe = RawSocket.encode(TEXT, json.dumps({"type": "subscribe", "conversation": group}).encode())

        def pile_up():
            try:
                bob.send_raw(subscribe * 200)  # blocks once the server reads him no more
            except OSError:
                pass

        threading.Thread(target=pile_up, daemon=True).start()
        series = 'typewire_frames_in_total{type="subscribe"}'
        deadline, last, stable_since = time.monotonic() + 20, -1, time.monotonic()
        while time.monotonic() < deadline:  # until the server has stopped reading him for 1 s
            count = server.metric(series)
            if count != last:
                last, stable_since = count, time.monotonic()
            elif time.monotonic() - stable_since > 1:
                break
            time.sleep(0.1)

        words = [f"word{index} " for index in range(PARTS)]
        for index, word in enumerate(words):  # within the reply-part burst (40)
            clawd.send_json({"type": "stream", "conversation": group, "messageId": "r1", "delta": word,
                             "final": index == PARTS - 1})
            time.sleep(0.02)
        deadline = time.monotonic() + 30
        while not any(f.get("type") == "stream" and f.get("final") for f in alice_frames):
            assert time.monotonic() < deadline, f"Alice did not get the reply's end: {[f for f in alice_frames if f.get('type') != 'message'][-5:]}"
            time.sleep(0.05)
        time.sleep(1)  # Bob still reads nothing

        bob_parts = []
        while True:
            frame = bob.next(lambda f: f["type"] in ("stream", "message"), "the reply")
            if frame["type"] == "stream":
                bob_parts.append(frame)
                if frame["final"]:
                    break
        alice_parts = [f for f in alice_frames if f.get("type") == "stream"]
        assert len(alice_parts) == PARTS, "a reader gets every part as it comes"
        assert "".join(part["delta"] for part in bob_parts) == "".join(words), "Bob's text is the whole reply: no hole, no repeat"
        assert len(bob_parts) <= 3, f"the parts that waited for Bob were merged: {len(bob_parts)} frames for {PARTS} parts"
        assert bob_parts[-1]["seq"] == PARTS and bob_parts[-1]["end"] == "finished"
        print(f"Bob, reading slowly, got {PARTS} parts in {len(bob_parts)} frames")
        for ws in (alice, bob, clawd):
            ws.close()
