"""A client that reads too slowly to follow: the server must not buffer for it without limit.

Erin's socket says hello, subscribes to the group and then reads 10 frames a second (a small receive
buffer, so the kernel holds little for her), answering pings as it goes, so the ping timeout never
ends it. Alice sends large messages to the group from sockets of her own (each under the
limit of 5 messages a second): 32 sockets each send 4 messages of 8 000 characters a second, so about
1 MB a second goes to every subscriber. Once the kernel's socket buffers are full (a few MB), Erin's queue on the server
(`maxQueuedBytes`, 4 MiB of memory) fills up within seconds, and the server cuts her off: she reads the
close frame (1001) once she has read what was already on its way, which she does at full speed from then
on (had she not within the close timeout, 3 s, her connection would be reset). The others do not wait for
that: she goes offline for them when she is cut off. Bob, who
reads, keeps getting every update. The server's memory stays bounded meanwhile.
"""

import contextlib
import json
import socket
import threading
import time

import websocket

from faultkit import mint_token, peer, record, running_server

GROUP = "group-six"


class SlowReader:
    """A WebSocket that says hello, subscribes, then reads one frame every `pause` seconds until closed."""

    def __init__(self, url, token, pause=0.1):
        self.ws = websocket.WebSocket(sockopt=[(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)])
        self.ws.connect(url, timeout=10)
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.ws.send(json.dumps({"type": "subscribe", "conversation": GROUP}))
        self.pause = pause
        self.read = 0
        self.close_code = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            while True:
                opcode, frame = self.ws.recv_data_frame(control_frame=False)  # answers pings
                if opcode == websocket.ABNF.OPCODE_CLOSE:
                    self.close_code = int.from_bytes(frame.data[:2], "big") if len(frame.data) >= 2 else 0
                    return
                self.read += 1
                time.sleep(self.pause)
        except Exception:
            return


def drain(ws):
    """Reads a socket's answers (acks) until it closes."""
    try:
        while ws.recv():
            pass
    except Exception:  # closed
        pass


def stored_alice_messages(sqlite):
    """Alice's messages in the group as the file holds them (read beside the server)."""
    import sqlite3
    with contextlib.closing(sqlite3.connect(f"file:{sqlite}?mode=ro", uri=True, timeout=10)) as database:
        return database.execute("SELECT COUNT(*) FROM messages WHERE conversation = ? AND sender = 'alice'", (GROUP,)).fetchone()[0]


def bob_messages(bob, start):
    """The distinct messages (by id) Bob's socket got since `start`."""
    return {frame["id"] for _, frame in bob.frames[start:] if frame["type"] == "message"}


def test_a_client_that_reads_too_slowly_is_cut_off(tmp_path, request):
    tokens = {user: mint_token(user, user.capitalize()) for user in ("alice", "bob", "erin")}
    with running_server(request.node.name, tmp_path / "typewire.sqlite") as server:
        with peer(server.socket_url, tokens["bob"], "bob") as bob:
            bob.subscribe(GROUP)
            connections_before = server.metric("typewire_connections")  # Bob's, and the demo bot's
            erin = SlowReader(server.socket_url, tokens["erin"])
            bob.wait_for(lambda f: f["type"] == "presence" and f["user"] == "erin" and f["online"], 5, "erin online")
            rss_before = server.rss_kib()
            start = bob.mark()
            stored_before = stored_alice_messages(tmp_path / "typewire.sqlite")

            # Alice sends 128 messages of 8 000 characters a second, from 32 sockets.
            stop = threading.Event()
            sent = [0]

            alices = []

            def type_from_one_socket():
                ws = websocket.create_connection(server.socket_url, timeout=10)
                alices.append(ws)
                ws.send(json.dumps({"type": "hello", "token": tokens["alice"]}))
                threading.Thread(target=drain, args=(ws,), daemon=True).start()
                try:
                    while not stop.is_set():
                        sent[0] += 1
                        ws.send(json.dumps({"type": "send", "conversation": GROUP, "clientMessageId": f"m{sent[0]}", "text": "x" * 8_000}))
                        time.sleep(0.25)
                finally:
                    ws.close()

            typers = [threading.Thread(target=type_from_one_socket, daemon=True) for _ in range(32)]
            for typer in typers:
                typer.start()
            try:
                offline, _ = bob.wait_for(
                    lambda f: f["type"] == "presence" and f["user"] == "erin" and not f["online"], 30, "erin offline within 30 s (the cut-off, not her reading through the backlog)", since=start
                )
                erin_read_at_cut_off = erin.read
                erin.pause = 0  # she catches up with what was on its way, and finds the close frame
                peak_rss = server.rss_kib()
                received = sum(1 for _, f in bob.frames[start:] if f["type"] == "message")
            finally:
                stop.set()
                for typer in typers:
                    typer.join(5)
                # A typer still sending (its socket full while the server works through what it read) is cut
                # off here, so that each of Alice's sockets is surely closed by its client below.
                stuck = sum(typer.is_alive() for typer in typers)
                for ws in alices:
                    ws.abort()
            erin.thread.join(10)
            erin.ws.close()

            record("slow_consumer", seconds_to_cut_off=offline - bob.frames[start][0], updates_sent=sent[0],
                   bob_messages=received, erin_read_at_cut_off=erin_read_at_cut_off, erin_read=erin.read,
                   erin_close_code=erin.close_code,
                   rss_before_kib=rss_before, rss_at_cut_off_kib=peak_rss)
            assert erin.close_code == 1001, f"erin's socket ended with {erin.close_code}"
            # The bound is 4 MiB of the server's memory: each waiting message is its frame (the text and about
            # 150 bytes of JSON) and 160 bytes of bookkeeping (SentBytes), and the kernel holds at most 128 KiB
            # more unsent (TCP_NOTSENT_LOWAT), so a little under 4 MiB of text waits at the cut-off, not less.
            waited = (received - erin_read_at_cut_off) * 8_000
            assert waited > 0.85 * 4 * 1024 * 1024, f"cut off before 4 MiB waited for her ({received} messages, she read {erin_read_at_cut_off})"
            # What the server may hold for Erin: 4 MiB of frames, plus what NIO holds.
            assert peak_rss - rss_before < 64 * 1024, f"the server grew by {peak_rss - rss_before} KiB"
            # Erin's and Alice's 32 sockets are gone: each closed by its client just now (Erin's had been cut
            # off long before). A liveness bound for a loaded machine: a close is read after the frames queued
            # before it, and before the close the server stores what the typers' sockets sent; alone this takes
            # about 2 ms, in fresh-clone CI runs just over 5 s and once over 15 s (the browser lane beside it).
            closing = time.monotonic()
            while server.metric("typewire_connections") != connections_before:
                assert time.monotonic() < closing + 30, f"{server.metric('typewire_connections')} sockets are still open ({stuck} typers were still sending at the stop)"
                time.sleep(0.05)
            record("slow_consumer_closed", seconds=time.monotonic() - closing, typers_still_sending=stuck)
            assert server.alive()
            # Bob, who reads, got every message that was stored, each once, while Erin was cut off.
            stored = stored_alice_messages(tmp_path / "typewire.sqlite") - stored_before
            deadline = time.monotonic() + 15
            while len(bob_messages(bob, start)) < stored and time.monotonic() < deadline:
                time.sleep(0.1)
            got = bob_messages(bob, start)
            record("slow_consumer_bob", stored=stored, bob_distinct=len(got))
            assert stored > 0 and len(got) == stored, f"Bob got {len(got)} of the {stored} messages stored"
