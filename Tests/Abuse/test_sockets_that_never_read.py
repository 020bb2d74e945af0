"""Sockets that stop reading, against the built server: one user opens 100 sockets (the cap), subscribes each
to a group, and never reads again, with a 4 KiB receive buffer, while the group gets large messages. Each
socket's queue passes its bound, and the server cuts it off: the others see the user offline at once, the
socket is gone within the close timeout whatever its peer does (reset if its close frame cannot leave), it
counts against its user until then (a 101st `hello` is refused), and the server's memory stays bounded.
"""
import json
import threading
import time

from abusekit import serve, subscribed, token, welcomed
from raw_socket import PING, TCP_ESTABLISHED, TEXT, RawSocket

GROUP = "group-six"
CAP = 100  # sockets per user, the default
CLOSE_TIMEOUT = 8  # seconds (--close-timeout): long enough that every cut-off socket is still held below
MARGIN = 4  # seconds: a loaded 2-core machine's scheduling, on top of the close timeout


def test_sockets_that_never_read_are_cut_off_closed_in_time_and_counted_until_gone(tmp_path):
    with serve(tmp_path, "--handshake-burst", "400", "--close-timeout", CLOSE_TIMEOUT * 1000) as server:
        erin, alice = token("erin", "Erin"), token("alice", "Alice")
        sockets_before = server.metric("typewire_sockets")  # the demo bot's
        sockets = []
        for _ in range(CAP):
            ws = welcomed(server, erin, receive_buffer=4096)
            subscribed(ws, GROUP)
            sockets.append(ws)  # from now on never read
        refused = RawSocket(server.host, server.port)
        refused.send_json({"type": "hello", "token": erin})
        assert refused.next(lambda frame: True)["code"] == "forbidden", "the cap holds before the attack"
        refused.close()
        rss_before = server.rss_kib()

        # Alice's messages of 10 000 characters, 20 a socket (the message burst), from 60 sockets, as long as it takes.
        stop = threading.Event()

        def send_messages(index):
            ws = welcomed(server, alice)
            reader = threading.Thread(target=ws.until_closed, daemon=True)  # her acks
            reader.start()
            sent = 0
            while not stop.is_set():
                ws.send_json({"type": "send", "conversation": GROUP, "clientMessageId": f"{index}-{sent}", "text": "x" * 10_000})
                sent += 1
                time.sleep(0.2 if sent >= 20 else 0)
            ws.close()

        senders = [threading.Thread(target=send_messages, args=(index,), daemon=True) for index in range(60)]
        started = time.monotonic()
        for sender in senders:
            sender.start()
        peak_rss = rss_before
        try:
            while server.metric("typewire_sockets_cut_off_total") < CAP:
                assert time.monotonic() - started < 60, f"{server.metric('typewire_sockets_cut_off_total')} of {CAP} cut off in 60 s"
                peak_rss = max(peak_rss, server.rss_kib())
                time.sleep(0.1)
            all_cut_off = time.monotonic()

            # Cut off, not gone: a 101st socket is still refused.
            assert sum(ws.tcp_state() == TCP_ESTABLISHED for ws in sockets) == CAP, "none is gone before the close timeout"
            refused = RawSocket(server.host, server.port)
            refused.send_json({"type": "hello", "token": erin})
            answer = refused.next(lambda frame: True)
            assert answer.get("code") == "forbidden", f"a cut-off socket no longer counted against its user: {answer}"
            refused.close()
        finally:
            stop.set()
            for sender in senders:
                sender.join(10)

        # Each is gone within the close timeout: reset, since its peer reads nothing.
        while open_ := [ws for ws in sockets if ws.tcp_state() == TCP_ESTABLISHED]:
            assert time.monotonic() - all_cut_off < CLOSE_TIMEOUT + MARGIN, f"{len(open_)} cut-off sockets still open"
            time.sleep(0.1)
        gone_after = time.monotonic() - all_cut_off
        print(f"{CAP} sockets cut off {all_cut_off - started:.1f} s into the attack, all gone {gone_after:.1f} s later; "
              f"server RSS {rss_before} KiB before, {peak_rss} KiB at most")
        while server.metric("typewire_sockets") > sockets_before:  # the server's side agrees (Alice's are gone too)
            assert time.monotonic() - all_cut_off < CLOSE_TIMEOUT + MARGIN
            time.sleep(0.1)
        welcomed(server, erin).close()  # her count is free again
        for ws in sockets:
            ws.close()
        # What the server holds for 100 cut-off sockets: frames shared by all of them, at most 4 MiB each.
        assert peak_rss - rss_before < 96 * 1024, f"the server grew by {peak_rss - rss_before} KiB"
        assert server.alive()


def test_a_socket_that_reads_nothing_is_read_no_more_once_its_answers_pile_up(tmp_path):
    """Its `subscribe` frames each cost the server a store read and a `subscribed` of 64 KiB: once NIO holds
    128 KiB it has not read, the server stops reading it (before: it read every frame, and answered each)."""
    with serve(tmp_path) as server:
        alice = welcomed(server, token("alice", "Alice"))
        for index in range(20):  # a history of 200 000 characters: each `subscribed` carries 64 KiB of it
            alice.send_json({"type": "send", "conversation": GROUP, "clientMessageId": f"h{index}", "text": "x" * 10_000})
        for _ in range(20):
            alice.next(lambda f: f["type"] == "ack", "ack")
        erin = welcomed(server, token("erin", "Erin"), receive_buffer=4096)
        subscribe = RawSocket.encode(TEXT, json.dumps({"type": "subscribe", "conversation": GROUP}).encode())
        series = 'typewire_frames_in_total{type="subscribe"}'
        before = server.metric(series)

        def send():
            try:
                erin.send_raw(subscribe * 3_000)  # blocks once the server reads no more
            except OSError:
                pass

        threading.Thread(target=send, daemon=True).start()
        deadline, last, stable_since = time.monotonic() + 20, -1, time.monotonic()
        while time.monotonic() < deadline:  # until the count has not moved for 2 s
            count = server.metric(series) - before
            if count != last:
                last, stable_since = count, time.monotonic()
            elif time.monotonic() - stable_since > 2:
                break
            time.sleep(0.1)
        print(f"the server read {last:.0f} of 3 000 subscribes from a socket that reads nothing")
        assert last < 1_000, f"the server read {last:.0f} subscribes from a socket that reads none of its answers"
        assert server.alive()
        erin.close()



def rounds_until_cut_off(server, ws, rounds, *, subscribe):
    """Sends `rounds` rounds of 20 pings of 125 bytes (after a `subscribe`, whose answer carries 64 KiB, if
    `subscribe`), 4 rounds a second (within the frame budget); returns how many rounds went out before the
    server cut the socket off, or None if it never did."""
    before = server.metric("typewire_sockets_cut_off_total")
    frames = RawSocket.encode(PING, b"p" * 125) * 20
    if subscribe:
        frames = RawSocket.encode(TEXT, json.dumps({"type": "subscribe", "conversation": GROUP}).encode()) + frames
    for sent in range(rounds):
        if server.metric("typewire_sockets_cut_off_total") > before:
            return sent
        try:
            ws.send_raw(frames)
        except OSError:
            return sent
        time.sleep(0.25)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if server.metric("typewire_sockets_cut_off_total") > before:
            return rounds
        time.sleep(0.1)
    return None


def test_a_socket_that_pings_while_its_pongs_cannot_leave_is_cut_off_after_16(tmp_path):
    """A pong owed is a frame the server holds for a socket that reads nothing. Erin reads nothing and
    subscribes again and again (each answer 64 KiB), 20 pings after each: once the kernel's buffers are full
    and an answer is left behind, at most 16 more pings are answered, then she is cut off. (Before: her
    pings were answered until the server held 128 KiB for her, then it stopped reading her and she was held
    open, answers piling up.) Pings alone, whose pongs leave, are never cut off."""
    with serve(tmp_path) as server:
        alice = welcomed(server, token("alice", "Alice"))
        for index in range(20):  # each `subscribed` below carries 64 KiB of this history
            alice.send_json({"type": "send", "conversation": GROUP, "clientMessageId": f"h{index}", "text": "x" * 10_000})
        for _ in range(20):
            alice.next(lambda f: f["type"] == "ack", "ack")
        bob = welcomed(server, token("bob", "Bob"), receive_buffer=4096)
        assert rounds_until_cut_off(server, bob, 20, subscribe=False) is None, "a socket whose pongs leave was cut off"
        erin = welcomed(server, token("erin", "Erin"), receive_buffer=4096)
        rounds = rounds_until_cut_off(server, erin, 160, subscribe=True)
        print(f"cut off after {rounds} rounds")
        assert rounds is not None, "a socket that pinged while its answers could not leave was never cut off"
        assert server.alive()
        bob.close()
        erin.close()


def test_a_socket_that_reads_nothing_gets_a_few_subscribed_made_not_every_one_it_asked_for(tmp_path):
    """One read of 100 `subscribe` for a group whose `subscribed` is about 64 KiB, from a socket that never
    reads (a 4 KiB receive buffer): the server makes `subscribed` frames only while the socket takes what it
    was sent, so a few are made, not 100 (6.4 MB of encoding and writing for 5 KB sent; before, every one of
    the 100 was made in one run on the socket's loop, the others' typing on that loop waiting). A socket that
    reads gets an answer to each of its 100."""
    with serve(tmp_path, "--message-rate", "1000") as server:
        frank = welcomed(server, token("frank", "Frank"))
        for index in range(8):
            frank.send_json({"type": "send", "conversation": GROUP, "clientMessageId": f"m{index}", "text": "x" * 9_000})
            frank.next(lambda frame: frame["type"] == "ack", "ack")
        carol = welcomed(server, token("carol", "Carol"), receive_buffer=4096)
        before = server.metric('typewire_frames_out_total{type="subscribed"}')
        carol.send_raw(b"".join(RawSocket.encode(TEXT, json.dumps({"type": "subscribe", "conversation": GROUP}).encode())
                                for _ in range(100)))
        time.sleep(3)  # a liveness bound: what the server makes for her, it makes at once
        made = server.metric('typewire_frames_out_total{type="subscribed"}') - before
        assert 1 <= made <= 20, f"{made} subscribed made for a socket that read none"
        bob = welcomed(server, token("bob", "Bob"))
        bob.send_raw(b"".join(RawSocket.encode(TEXT, json.dumps({"type": "subscribe", "conversation": GROUP}).encode())
                              for _ in range(100)))
        answered = 0
        while answered < 100:
            frame = bob.next(lambda f: f["type"] in ("subscribed", "error"), "subscribed")
            assert frame["type"] == "subscribed", frame
            answered += 1
        for ws in (carol, bob, frank):
            ws.close()
        assert server.alive()
