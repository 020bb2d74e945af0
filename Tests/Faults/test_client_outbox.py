"""The Swift client killed mid-send (SIGKILL) and launched again on the same outbox file.

Alice's `typewire client` (the SDK's `TypewireClient`) is asked to send 80 messages at once to a server that
takes 20 a second from a socket (past a burst of 20), so that the kill, at her 25th `ack`, finds some
stored, some on their way and some refused for now, waiting to be sent again. The rate decides how many can
be stored by the kill, not the clock: for all 80 to be stored first, the kill would have to come 3 s after
the 25th ack (with 40, 0.75 s sufficed on a loaded machine, and nothing was left to test). What the outbox file holds then was not acknowledged; a new
process on the same file must send it again, and the server must end up with every message the client
took (stored before the kill, or in the file) exactly once.
"""

import json
import os
import signal
import time

from faultkit import connected, mint_token, record, running_server, stored_texts, swift_client

COUNT = 80


def unsent(outbox):
    return [message["text"] for message in json.loads(outbox.read_text())["messages"]] if outbox.exists() else []


def test_the_swift_client_killed_mid_send_sends_its_outbox_once_when_launched_again(tmp_path, request):
    alice_token = mint_token("alice", "Alice")
    outbox = tmp_path / "outbox.json"
    texts = [f"message {index}" for index in range(COUNT)]
    with running_server(request.node.name, tmp_path / "typewire.sqlite", extra=("--message-rate", 20)) as server:
        others = server.metric("typewire_sockets")  # the demo's bot
        with swift_client(server.socket_url, alice_token, outbox=outbox) as first:
            first.wait_for(connected, 20, "connection")
            for text in texts:
                first.command(f"send {text}")
            first.wait_for(lambda _: sum("acked" in event for _, event in first.frames) >= 25, 20, "25 acks")
            os.kill(first.process.pid, signal.SIGKILL)
            assert first.process.wait(10) == -signal.SIGKILL
        # The server has handled what reached it from the killed socket once it has forgotten the connection.
        deadline = time.monotonic() + 10
        while server.metric("typewire_sockets") > others and time.monotonic() < deadline:
            time.sleep(0.01)
        stored_at_kill, waiting_at_kill = stored_texts(server, alice_token), unsent(outbox)
        assert set(waiting_at_kill) - set(stored_at_kill), "nothing waited unstored at the kill: nothing was tested"

        relaunched = time.monotonic()
        with swift_client(server.socket_url, alice_token, outbox=outbox) as second:
            second.wait_for(connected, 20, "connection after the relaunch")
            deadline = time.monotonic() + 30
            while unsent(outbox) and time.monotonic() < deadline:
                time.sleep(0.05)
            drained = time.monotonic() - relaunched
            assert not unsent(outbox), f"the relaunched client left {len(unsent(outbox))} messages in its outbox"

        stored = stored_texts(server, alice_token)
        taken = set(stored_at_kill) | set(waiting_at_kill)
        record(
            "client_outbox_sigkill", messages=COUNT, stored_at_kill=len(stored_at_kill), waiting_at_kill=len(waiting_at_kill),
            stored=len(stored), drained_ms=drained * 1000,
        )
        assert len(stored) == len(set(stored)), f"a message was stored twice: {sorted(stored)}"
        assert set(stored) == taken, f"lost: {sorted(taken - set(stored))}; unexpected: {sorted(set(stored) - taken)}"
        assert set(stored) <= set(texts)
        assert server.alive()
