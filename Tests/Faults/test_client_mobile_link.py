"""Typing over a phone's link: delay, jitter, stalls and a 5 s outage between the Swift client and the server.

Alice's `typewire client` (the SDK's `TypewireClient` and `Composer`) reaches the server through a
`LossyLink` (150 ms RTT with 30 ms of jitter, a 0.2-1 s stall on 2 % of the chunks, one 5 s outage); Bob's
is on loopback. They take turns typing in their conversation, so the phone is the sender in one turn and
the receiver in the next; each turn ends by sending, by clearing the field, or by falling silent (the
composer's idle stop). The next turn begins once the link has nothing on its way, so that each turn's first
keystroke meets the link as a user's would after a pause. Required:

- the receiver's indicator shows the typist within RTT/2 + 300 ms of the first keystroke (p95);
- it never stays up longer than the server's activity ttl after typing ended (the send, the clear, or the
  last keystroke), and after a send or a clear it goes within 2.5 s: by the stop, since the composer's idle
  stop would come 3 s after the last keystroke (2.9 s after the send or clear);
- every message is stored once and reaches the other client once.

The outage falls in one of Bob's turns, once Alice's indicator shows him typing; he clears his field at
once and both send a message across the outage. His stop cannot reach the phone before the outage ends,
after the ttl has run out: Alice's client must take him off by itself, at the ttl, and both messages arrive once
when the link is back.
"""

import time

from faultkit import connected, mint_token, percentile, record, running_server, stored_texts, swift_client
from lossy_link import lossy_link

RTT = 0.150
#: The server's default activity ttl (`--activity-ttl`, 4 800 ms).
TTL = 4.8
TURNS = 80
#: Every SILENT_EVERY-th turn the typist types for LONG_TYPING s (past the 2 s refresh) and then falls silent.
SILENT_EVERY = 20
LONG_TYPING = 2.2
OUTAGE_TURN = 41  # one of Bob's, typing for KEYSTROKE * 4 s
OUTAGE = 5.0
KEYSTROKE = 0.08


def indicator(client):
    """The receiver's indicator text now (the last `typing` event)."""
    shown = [event["typing"] for _, event in client.frames if "typing" in event]
    return shown[-1] if shown else ""


def last_cleared(client, since):
    """When the indicator last went from showing someone to empty, among the events from `since`."""
    cleared, showing = None, False
    for arrival, event in client.frames[since:]:
        if "typing" in event:
            if showing and not event["typing"]:
                cleared = arrival
            showing = bool(event["typing"])
    return cleared


def settle(link, receiver, timeout=20):
    """Waits until nothing is on its way through the link and the receiver shows nobody typing."""
    deadline = time.monotonic() + timeout
    quiet_since = None
    while time.monotonic() < deadline:
        if link.idle() and not indicator(receiver):
            quiet_since = quiet_since or time.monotonic()
            if time.monotonic() - quiet_since >= 0.05:
                return
        else:
            quiet_since = None
        time.sleep(0.01)
    raise AssertionError(f"the link or the indicator never settled: idle {link.idle()}, indicator {indicator(receiver)!r}")


def test_typing_over_a_phones_link_is_prompt_never_stuck_and_loses_no_message(tmp_path, request):
    tokens = {"alice": mint_token("alice", "Alice"), "bob": mint_token("bob", "Bob")}
    with running_server(request.node.name, tmp_path / "typewire.sqlite") as server, lossy_link(server.port) as link, \
            swift_client(f"ws://127.0.0.1:{link.port}/v1/socket", tokens["alice"]) as alice, \
            swift_client(server.socket_url, tokens["bob"]) as bob:
        alice.wait_for(connected, 20, "connection")
        bob.wait_for(connected, 20, "connection")
        clients = {"alice": alice, "bob": bob}
        shown = {"alice": [], "bob": []}  # the typist's name → seconds from first keystroke to the other's indicator
        stays = []  # seconds from the end of typing to the indicator going off
        sent = {"alice": [], "bob": []}
        stopped = []  # after a send or a clear, outside the outage
        for turn in range(TURNS):
            typist, receiver = ("alice", "bob") if turn % 2 == 0 else ("bob", "alice")
            settle(link, clients[receiver])
            since = clients[receiver].mark()
            silent = turn % SILENT_EVERY == SILENT_EVERY - 1
            ending = "silence" if silent else ("send" if turn % 4 < 2 and turn != OUTAGE_TURN else "clear")
            typing_for = LONG_TYPING if silent else KEYSTROKE * (2 + turn % 3)
            text = f"{typist} {turn}"

            first_keystroke = time.monotonic()
            while (last_keystroke := time.monotonic()) - first_keystroke < typing_for:
                clients[typist].command(f"type {text[: 1 + int((last_keystroke - first_keystroke) / KEYSTROKE)]}")
                time.sleep(KEYSTROKE)
            arrival, _ = clients[receiver].wait_for(lambda event: event.get("typing"), 15, f"{typist} typing in turn {turn}", since=since)
            shown[typist].append(arrival - first_keystroke)
            outage_started = None
            if turn == OUTAGE_TURN:
                # The stop must come 0.3 s after the start reached Alice, so that her expiry (the start's
                # arrival + the ttl) falls well inside both the ttl after the stop and the outage.
                time.sleep(max(0.0, arrival + 0.3 - time.monotonic()))
                link.outage(OUTAGE)
                outage_started = time.monotonic()
            if ending == "send":
                clients[typist].command(f"send {text}")
                sent[typist].append(text)
            elif ending == "clear":
                clients[typist].command("clear")
            ended = time.monotonic() if ending != "silence" else last_keystroke
            if outage_started is not None:
                for name in clients:
                    clients[name].command(f"send {name} during the outage")
                    sent[name].append(f"{name} during the outage")
            if outage_started is not None:
                while time.monotonic() < outage_started + OUTAGE:
                    time.sleep(0.05)
            settle(link, clients[receiver])
            cleared = last_cleared(clients[receiver], since)
            assert cleared is not None, f"turn {turn}: {receiver}'s indicator never went off"
            stays.append(cleared - ended)
            if ending != "silence" and turn != OUTAGE_TURN:
                stopped.append(cleared - ended)

        for name, client in clients.items():
            other = "bob" if name == "alice" else "alice"
            for text in sent[name]:
                client.wait_for(lambda event, text=text: event.get("acked") == text, 20, f"the ack of {text!r}")
            for text in sent[other]:
                client.wait_for(lambda event, text=text: event.get("message") == text and event.get("from") == other, 20, f"{text!r}")
        stored = stored_texts(server, tokens["alice"])
        received = {name: [e["message"] for _, e in client.frames if "message" in e] for name, client in clients.items()}

    latencies = shown["alice"] + shown["bob"]
    bound = RTT / 2 + 0.3
    record(
        "client_mobile_link", turns=TURNS, stalls=len(link.stalls), stalled_s=round(sum(link.stalls), 2), chunks=link.chunks,
        connections=link.connections,
        shown_p50_ms=percentile(latencies, 0.5) * 1000, shown_p95_ms=percentile(latencies, 0.95) * 1000,
        shown_max_ms=max(latencies) * 1000, over_bound=sum(latency > bound for latency in latencies),
        over_bound_ms=sorted(round(latency * 1000) for latency in latencies if latency > bound),
        phone_sending_p95_ms=percentile(shown["alice"], 0.95) * 1000, phone_receiving_p95_ms=percentile(shown["bob"], 0.95) * 1000,
        stays_max_ms=max(stays) * 1000, stopped_max_ms=max(stopped) * 1000, stays_in_outage_ms=stays[OUTAGE_TURN] * 1000, messages=len(sent["alice"]) + len(sent["bob"]),
    )
    assert link.stalls, "the link never stalled: nothing was tested"
    assert percentile(latencies, 0.95) <= bound, f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms from the first keystroke to the indicator (bound {bound * 1000:.0f} ms): {sorted(latencies)[-8:]}"
    assert max(stays) <= TTL, f"an indicator stayed {max(stays):.2f} s after typing ended (the ttl is {TTL} s)"
    assert max(stopped) <= 2.5, f"an indicator stayed {max(stopped):.2f} s after a send or a clear: not by its stop"
    everything = sent["alice"] + sent["bob"]
    assert sorted(stored) == sorted(everything), f"stored {len(stored)} for {len(everything)} sent; lost {set(everything) - set(stored)}"
    for name, other in (("alice", "bob"), ("bob", "alice")):
        mine = [text for text in received[name] if text in sent[other]]
        assert sorted(mine) == sorted(sent[other]), f"{name} received {len(mine)} of {other}'s {len(sent[other])} messages (or one twice)"
