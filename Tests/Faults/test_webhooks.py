"""Webhooks under faults, against the built server: a SIGKILL between storing messages and delivering their
events, and a receiver that is down for a minute. The receiver is a real HTTP server on loopback that checks
every delivery's signature as docs/PROTOCOL.md tells a backend to, and deduplicates by event id."""

import contextlib
import hashlib
import hmac
import http.server
import json
import os
import threading
import time

import pytest

import faultkit

WEBHOOK_SECRET = "fault-tests-webhook-secret-0123456789abcdef"
REPLAY_WINDOW = 300


def signature_is_valid(header, body, now):
    """The check docs/PROTOCOL.md gives a receiver: HMAC-SHA256 over `t.body`, and a recent `t`."""
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    timestamp, given = int(fields["t"]), fields["v1"]
    expected = hmac.new(WEBHOOK_SECRET.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, given) and abs(now - timestamp) <= REPLAY_WINDOW


class Receiver:
    """An app's backend listening on `reserved` (a `faultkit.reserved_port()`): records every delivery, refuses a bad
    signature (401)."""

    def __init__(self, reserved, status=200):
        self.deliveries = []  # (event document, signature valid, status answered)
        self.status = status  # what it answers a valid delivery: 200, or 503 while "down"
        self.lock = threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                valid = signature_is_valid(self.headers["Typewire-Signature"], body, time.time())
                with receiver.lock:
                    status = receiver.status if valid else 401
                    receiver.deliveries.append((json.loads(body), valid, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(reserved.getsockname(), Handler, bind_and_activate=False)
        self.server.socket.close()
        self.server.socket = reserved
        self.server.server_activate()
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def events(self, kind):
        """The events of a type the receiver took, each once (deduplicated by id, as a backend does)."""
        with self.lock:
            seen = {}
            for document, valid, status in self.deliveries:
                if valid and status == 200 and document["type"] == kind:
                    seen.setdefault(document["id"], document)
            return list(seen.values())

    def wait_for(self, kind, count, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.events(kind)) >= count:
                return self.events(kind)
            time.sleep(0.05)
        raise AssertionError(f"{len(self.events(kind))} of {count} {kind} events within {timeout} s")

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@contextlib.contextmanager
def receiving(reserved, status=200):
    receiver = Receiver(reserved, status)
    try:
        yield receiver
    finally:
        receiver.close()


@pytest.fixture
def reserve():
    """Makes `faultkit.reserved_port()`s for a test, each closed after it; a test gives the server the port number."""
    reserved = []

    def reserve():
        reserved.append(faultkit.reserved_port())
        return reserved[-1]

    yield reserve
    for held in reserved:
        held.close()


def port_of(reserved):
    return reserved.getsockname()[1]


def webhook_arguments(port, max_delay_ms):
    """Attempts time out after 2 s: a delivery under way when the server is killed is claimed again at most
    9 s later (the lease: twice the timeout and 5 s)."""
    return ["--webhook-url", f"http://127.0.0.1:{port}/hook", "--webhook-secret", WEBHOOK_SECRET,
            "--webhook-max-delay", str(max_delay_ms), "--webhook-timeout", "2000"]


def send_messages(alice, texts):
    """Sends each text and waits for its ack: each is stored, so its event must not be lost."""
    for index, text in enumerate(texts):
        alice.send({"type": "send", "conversation": faultkit.DIRECT, "clientMessageId": f"m-{text}", "text": text})
    for text in texts:
        alice.wait_for(lambda f, text=text: f["type"] == "ack" and f["clientMessageId"] == f"m-{text}", 20, f"the ack of {text}")


def test_a_sigkill_between_storing_messages_and_delivering_their_events_loses_none(tmp_path, reserve):
    held = reserve()  # nothing listens there yet: every attempt fails
    sqlite = str(tmp_path / "typewire.sqlite")
    arguments = webhook_arguments(port_of(held), 500)
    texts = [f"stored before the kill {index}" for index in range(20)]
    with faultkit.running_server("webhooks-before-kill", sqlite, extra=arguments) as server:
        with faultkit.peer(server.socket_url, faultkit.mint_token("alice", "Alice"), "alice") as alice:
            send_messages(alice, texts)
        assert server.metric("typewire_webhook_delivered_total") == 0
        server.process.kill()  # SIGKILL: no shutdown, the outbox is what the file holds
        server.process.wait(10)
    with receiving(held) as receiver, faultkit.running_server("webhooks-after-kill", sqlite, extra=arguments):
        created = receiver.wait_for("message.created", len(texts), 30)
        assert sorted(event["data"]["message"]["text"] for event in created) == sorted(texts)
        assert all(event["data"]["offline"] == ["bob"] for event in created)
        assert all(valid for _, valid, _ in receiver.deliveries), "every delivery was signed with the secret"


def test_a_receiver_down_for_a_minute_gets_every_event_once_after_dedupe(tmp_path, reserve):
    held = reserve()
    sqlite = str(tmp_path / "typewire.sqlite")
    outage = 60
    with faultkit.running_server("webhooks-receiver-down", sqlite, extra=webhook_arguments(port_of(held), 2000)) as server:
        texts = []
        with faultkit.peer(server.socket_url, faultkit.mint_token("alice", "Alice"), "alice") as alice:
            started = time.monotonic()
            index = 0
            while time.monotonic() - started < outage:
                text = f"while the receiver is down {index}"
                send_messages(alice, [text])
                texts.append(text)
                index += 1
                time.sleep(2)
            assert server.metric("typewire_webhook_delivered_total") == 0
            assert server.metric("typewire_webhook_retried_total") > 0
            with receiving(held) as receiver:
                created = receiver.wait_for("message.created", len(texts), 30)
                assert sorted(event["data"]["message"]["text"] for event in created) == sorted(texts)
                per_message = {}
                for event in created:
                    per_message.setdefault(event["data"]["message"]["id"], set()).add(event["id"])
                assert all(len(ids) == 1 for ids in per_message.values()), "one event per message, whatever the retries"
                # The gauge is read from the outbox once a second, or up to ten seconds apart while counts are
                # slow (a loaded machine): it comes down to nothing left.
                deadline = time.monotonic() + 25
                while server.metric("typewire_webhook_pending") > 0 and time.monotonic() < deadline:
                    time.sleep(0.2)
                assert server.metric("typewire_webhook_pending") == 0
                assert server.metric("typewire_webhook_failed_total") == 0


def sent_by_peers(server, peers, per_peer, length):
    """`per_peer` messages of `length` characters from each of `peers` sockets of Alice (each within its socket's
    burst); yields the peers and the stored messages' ids."""
    ids = []
    for index, alice in enumerate(peers):
        for number in range(per_peer):
            text = f"{index}-{number} " + "x" * length
            alice.send({"type": "send", "conversation": faultkit.DIRECT, "clientMessageId": f"m-{index}-{number}", "text": text})
    for index, alice in enumerate(peers):
        for number in range(per_peer):
            _, ack = alice.wait_for(lambda f, c=f"m-{index}-{number}": f["type"] == "ack" and f["clientMessageId"] == c, 20, "an ack")
            ids.append((alice, ack["messageId"]))
    return ids


def outbox_rows(sqlite):
    """The outbox as the file holds it, read beside the server (WAL): (type, endpoint, message id, body bytes)."""
    import sqlite3
    with contextlib.closing(sqlite3.connect(f"file:{sqlite}?mode=ro", uri=True, timeout=10)) as database:
        rows = database.execute("SELECT type, endpoint, body, length(CAST(body AS BLOB)) FROM webhook_outbox").fetchall()
    return [(kind, endpoint, json.loads(body)["data"].get("message", {}).get("id"), size) for kind, endpoint, body, size in rows]


def file_bytes(sqlite):
    return sum(os.path.getsize(path) for path in (sqlite, sqlite + "-wal") if os.path.exists(path))


def test_edits_while_receivers_are_down_keep_one_delivery_per_message_and_the_outbox_within_its_caps(tmp_path, reserve):
    ports = [port_of(reserve()), port_of(reserve())]  # two endpoints, both down: every attempt fails
    sqlite = str(tmp_path / "typewire.sqlite")
    cap = 300_000
    arguments = webhook_arguments(ports[0], 2000) + [
        "--webhook-url", f"http://127.0.0.1:{ports[1]}/hook", "--webhook-max-pending-bytes", str(cap)]
    with faultkit.running_server("webhooks-bounded-outbox", sqlite, extra=arguments) as server, contextlib.ExitStack() as stack:
        peers = [stack.enter_context(faultkit.peer(server.socket_url, faultkit.mint_token("alice", "Alice"), f"alice-{i}"))
                 for i in range(10)]
        messages = sent_by_peers(server, peers, 4, 3000)
        before = file_bytes(sqlite)
        # Each socket edits its messages at its messages budget (5 a second after a burst), for about 8 s.
        edits = 0
        started = time.monotonic()
        while time.monotonic() - started < 8:
            for alice, message in messages:
                alice.send({"type": "edit", "conversation": faultkit.DIRECT, "messageId": message,
                            "text": f"edit {edits} " + "y" * 3000})
                edits += 1
            time.sleep(1)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and server.metric("typewire_webhook_discarded_total") == 0:
            time.sleep(0.2)
        time.sleep(2.5)  # a count after the last write
        rows = outbox_rows(sqlite)
        edited = [(endpoint, message) for kind, endpoint, message, _ in rows if kind == "message.edited"]
        stored = sum(size for *_, size in rows)
        faultkit.record("webhook_bounded_outbox", edits_sent=edits, rows=len(rows), edit_rows=len(edited), outbox_bytes=stored,
                        cap=cap, file_bytes_before_edits=before, file_bytes_after=file_bytes(sqlite),
                        over_budget=server.metric("typewire_webhook_over_budget_total"),
                        discarded=server.metric("typewire_webhook_discarded_total"))
        assert edits >= 40 * 8, "the edits were sent"
        assert len(edited) == len(set(edited)), "at most one waiting edit per message and endpoint"
        assert stored <= cap, f"the outbox holds {stored} bytes of bodies, over its cap of {cap}"
        assert server.metric("typewire_webhook_pending_bytes") <= cap
        assert server.metric("typewire_webhook_over_budget_total") > 0, "past the user's edit budget, edits' events are not sent"
        assert server.metric("typewire_webhook_discarded_total") > 0, "the oldest past the cap were given up, and counted"
        assert "Webhook deliveries were given up unsent" in server.log


def test_a_failing_receiver_gets_probes_not_every_delivery_and_all_once_it_is_back(tmp_path, reserve):
    held = reserve()
    sqlite = str(tmp_path / "typewire.sqlite")
    with receiving(held, status=503) as receiver, \
            faultkit.running_server("webhooks-circuit", sqlite, extra=webhook_arguments(port_of(held), 2000)) as server, \
            contextlib.ExitStack() as stack:
        peers = [stack.enter_context(faultkit.peer(server.socket_url, faultkit.mint_token("alice", "Alice"), f"alice-{i}"))
                 for i in range(10)]
        messages = sent_by_peers(server, peers, 5, 10)
        time.sleep(2)
        first = len(receiver.deliveries)
        time.sleep(8)
        during = len(receiver.deliveries) - first
        faultkit.record("webhook_circuit", messages=len(messages), attempts_first_2_s=first, attempts_next_8_s=during)
        # Without the circuit each of the 50 deliveries is tried every 1-2 s (about 250 attempts in 8 s); with
        # it, one probe at a time, the waits between them doubling from 1 s up to --webhook-max-delay (2 s).
        assert during <= 10, f"{during} attempts in 8 s to a receiver answering 503"
        assert server.metric("typewire_webhook_failing_endpoints") == 1
        receiver.status = 200
        created = receiver.wait_for("message.created", len(messages), 20)
        assert sorted(event["data"]["message"]["id"] for event in created) == sorted(message for _, message in messages)
        deadline = time.monotonic() + 5
        while server.metric("typewire_webhook_failing_endpoints") != 0 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert server.metric("typewire_webhook_failing_endpoints") == 0


def test_deliveries_for_an_endpoint_no_longer_configured_are_given_up_at_start_and_never_sent(tmp_path, reserve):
    old, new = reserve(), reserve()
    sqlite = str(tmp_path / "typewire.sqlite")
    with faultkit.running_server("webhooks-old-endpoint", sqlite, extra=webhook_arguments(port_of(old), 2000)) as server:
        with faultkit.peer(server.socket_url, faultkit.mint_token("alice", "Alice"), "alice") as alice:
            send_messages(alice, [f"for the old endpoint {index}" for index in range(5)])
    with receiving(old) as removed, receiving(new) as kept, \
            faultkit.running_server("webhooks-new-endpoint", sqlite, extra=webhook_arguments(port_of(new), 2000)) as server:
        with faultkit.peer(server.socket_url, faultkit.mint_token("alice", "Alice"), "alice") as alice:
            send_messages(alice, ["for the new endpoint"])
        kept.wait_for("message.created", 1, 20)
        discarded = int(server.metric("typewire_webhook_discarded_total"))
        assert discarded >= 5, "the five messages' events, and the presence events, were given up"
        assert f"endpoint_no_longer_configured={discarded}" in server.log, "and said at start"
        time.sleep(2)  # past a poll: the old endpoint's rows would have been claimed by now
        assert removed.deliveries == [], "an endpoint removed from --webhook-url is sent nothing"
        assert [event["data"]["message"]["text"] for event in kept.events("message.created")] == ["for the new endpoint"]


def test_a_receiver_that_hangs_costs_others_typing_nothing(tmp_path, reserve):
    """A receiver that takes connections and never answers (the kernel accepts them into a backlog nobody
    reads): each attempt waits out its 2 s timeout, 20 at once. Meanwhile Alice's typing reaches Bob at once:
    a delivery's wait is the sender's, never the hub's."""
    held = reserve()
    held.listen(256)
    sqlite = str(tmp_path / "typewire.sqlite")
    with faultkit.running_server("webhooks-hanging", sqlite, extra=webhook_arguments(port_of(held), 2000)) as server, \
            faultkit.peer(server.socket_url, faultkit.mint_token("alice", "Alice"), "alice") as alice, \
            faultkit.peer(server.socket_url, faultkit.mint_token("bob", "Bob"), "bob") as bob:
        alice.subscribe(faultkit.DIRECT)
        bob.subscribe(faultkit.DIRECT)
        send_messages(alice, [f"for a receiver that hangs {index}" for index in range(20)])
        started = time.monotonic()
        delays = []
        while time.monotonic() - started < 6:  # past the attempts' 2 s timeout and their retries
            since = bob.mark()
            sent = time.monotonic()
            alice.send({"type": "activity", "conversation": faultkit.DIRECT, "activity": "typing"})
            # A liveness bound a loaded machine meets; a hub waiting on the receiver would take its 2 s timeout.
            arrival, _ = bob.wait_for(faultkit.activity_with("alice"), 1, "alice typing", since=since)
            delays.append(arrival - sent)
            alice.send({"type": "activity", "conversation": faultkit.DIRECT, "activity": "none"})
            bob.wait_for(faultkit.activity_without("alice"), 1, "alice's stop", since=since)
            time.sleep(0.2)
        delays.sort()
        faultkit.record("webhook_receiver_hangs", rounds=len(delays), typing_p50_ms=round(delays[len(delays) // 2] * 1000, 1),
                        typing_max_ms=round(delays[-1] * 1000, 1))
        assert server.metric("typewire_webhook_delivered_total") == 0, "the receiver answered nothing"
        assert server.metric("typewire_webhook_retried_total") >= 1, "attempts timed out while Bob was typed to"
