"""Webhooks under faults, against the built server: a SIGKILL between storing messages and delivering their
events, and a receiver that is down for a minute. The receiver is a real HTTP server on loopback that checks
every delivery's signature as docs/PROTOCOL.md tells a backend to, and deduplicates by event id."""

import contextlib
import hashlib
import hmac
import http.server
import json
import threading
import time

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
    """An app's backend on 127.0.0.1:`port`: records every delivery, refuses a bad signature (401)."""

    def __init__(self, port):
        self.deliveries = []  # (event document, signature valid)
        self.lock = threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                valid = signature_is_valid(self.headers["Typewire-Signature"], body, time.time())
                with receiver.lock:
                    receiver.deliveries.append((json.loads(body), valid))
                self.send_response(200 if valid else 401)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def events(self, kind):
        """The events of a type the receiver took, each once (deduplicated by id, as a backend does)."""
        with self.lock:
            seen = {}
            for document, valid in self.deliveries:
                if valid and document["type"] == kind:
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
def receiving(port):
    receiver = Receiver(port)
    try:
        yield receiver
    finally:
        receiver.close()


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


def test_a_sigkill_between_storing_messages_and_delivering_their_events_loses_none(tmp_path):
    port = faultkit.free_port()  # nothing listens there yet: every attempt fails
    sqlite = str(tmp_path / "typewire.sqlite")
    arguments = webhook_arguments(port, 500)
    texts = [f"stored before the kill {index}" for index in range(20)]
    with faultkit.running_server("webhooks-before-kill", sqlite, extra=arguments) as server:
        with faultkit.peer(server.socket_url, faultkit.mint_token("alice", "Alice"), "alice") as alice:
            send_messages(alice, texts)
        assert server.metric("typewire_webhook_delivered_total") == 0
        server.process.kill()  # SIGKILL: no shutdown, the outbox is what the file holds
        server.process.wait(10)
    with receiving(port) as receiver, faultkit.running_server("webhooks-after-kill", sqlite, extra=arguments):
        created = receiver.wait_for("message.created", len(texts), 30)
        assert sorted(event["data"]["message"]["text"] for event in created) == sorted(texts)
        assert all(event["data"]["offline"] == ["bob"] for event in created)
        assert all(valid for _, valid in receiver.deliveries), "every delivery was signed with the secret"


def test_a_receiver_down_for_a_minute_gets_every_event_once_after_dedupe(tmp_path):
    port = faultkit.free_port()
    sqlite = str(tmp_path / "typewire.sqlite")
    outage = 60
    with faultkit.running_server("webhooks-receiver-down", sqlite, extra=webhook_arguments(port, 2000)) as server:
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
            with receiving(port) as receiver:
                created = receiver.wait_for("message.created", len(texts), 30)
                assert sorted(event["data"]["message"]["text"] for event in created) == sorted(texts)
                per_message = {}
                for event in created:
                    per_message.setdefault(event["data"]["message"]["id"], set()).add(event["id"])
                assert all(len(ids) == 1 for ids in per_message.values()), "one event per message, whatever the retries"
                # The gauge is read from the outbox once a second: it comes down to nothing left.
                deadline = time.monotonic() + 10
                while server.metric("typewire_webhook_pending") > 0 and time.monotonic() < deadline:
                    time.sleep(0.2)
                assert server.metric("typewire_webhook_pending") == 0
                assert server.metric("typewire_webhook_failed_total") == 0
