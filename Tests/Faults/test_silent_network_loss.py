"""A silent network loss: alice's packets stop, with no FIN and no RST, while her process keeps running.

Alice (a child process that keeps typing, a refresh every 2 s like a composer) reaches the server
through a fault of the network; Bob is connected directly. At the freeze, nothing of alice's reaches
the server and nothing reaches her, and neither side's kernel closes anything. Then:

- alice's activity must go for Bob within the ttl: her last refresh arrived before the freeze, and the
  server's expiry sweep drops an entry at its `expiresAt` (or the ping timeout closes her socket first);
- her presence must turn offline within the ping timeout. The server's autoPing (swift-websocket 1.6.2,
  `WebSocketStateMachine.sendPing`) sends a ping every `--ping-interval` P while the previous one was
  answered; when a ping is still unanswered P after it was sent, it closes the socket ("Ping timeout").
  The last answered ping can come just before the freeze, so the close comes at most 2 P after it
  (and at least about P after it).

Two ways to lose the network:

- `proxy`: a TCP proxy in this process that stops forwarding in both directions and keeps both sockets
  open (the server's kernel still acknowledges what it sends to the proxy);
- `veth`: alice runs in a network namespace joined to the server's by a veth pair, and her end of the
  link goes down: the server's packets are dropped by the kernel, unacknowledged, as in a real outage.

Two timings: a ping interval shorter than the ttl (1 s: the ping timeout closes the socket, which clears
the activity with it), and one longer than the ttl (6 s: the ttl expires the activity while alice is
still online, then the ping timeout takes her offline).
"""

import contextlib
import os
import subprocess
import time

import pytest

from faultkit import DIRECT, activity_with, activity_without, cannot, child, freezable_proxy, mint_token, peer, presence, record, running_server

TTL = 4.8
#: Delivery and scheduling on a loaded 2-core machine with a debug build; still short of what a broken
#: mechanism takes (without the expiry sweep, the ping timeout: 12 s at a 6 s ping).
MARGIN = 1.5

CASES = [
    pytest.param("proxy", 1.0, id="proxy-ping1s"),
    pytest.param("veth", 1.0, id="veth-ping1s"),
    pytest.param("proxy", 6.0, id="proxy-ping6s-ttl-first"),
]


@contextlib.contextmanager
def veth_namespace():
    """A network namespace with a veth pair to this one: 10.231.77.1 here, 10.231.77.2 there."""
    tag = os.getpid() % 100000
    namespace, here, there = f"twfault{tag}", f"twf{tag}h", f"twf{tag}c"

    def ip(*arguments, check=True):
        return subprocess.run(["ip", *arguments], capture_output=True, text=True, check=check)

    try:
        ip("netns", "add", namespace)
    except (OSError, subprocess.CalledProcessError) as error:
        cannot(f"no network namespaces here (`ip netns add` failed: {str(getattr(error, 'stderr', error)).strip()})")
    try:
        ip("link", "add", here, "type", "veth", "peer", "name", there)
        ip("link", "set", there, "netns", namespace)
        ip("addr", "add", "10.231.77.1/30", "dev", here)
        ip("link", "set", here, "up")
        ip("-n", namespace, "addr", "add", "10.231.77.2/30", "dev", there)
        ip("-n", namespace, "link", "set", there, "up")
        ip("-n", namespace, "link", "set", "lo", "up")
        yield namespace, there
    finally:
        ip("netns", "del", namespace, check=False)
        ip("link", "del", here, check=False)


@pytest.mark.parametrize(("transport", "ping"), CASES)
def test_silent_network_loss(transport, ping, tmp_path, request):
    alice_token, bob_token = mint_token("alice", "Alice"), mint_token("bob", "Bob")
    with contextlib.ExitStack() as stack:
        host, prefix = "127.0.0.1", ()
        if transport == "veth":
            namespace, link = stack.enter_context(veth_namespace())
            host, prefix = "10.231.77.1", ("ip", "netns", "exec", namespace)
        server = stack.enter_context(running_server(
            request.node.name, tmp_path / "typewire.sqlite", host=host,
            extra=("--ping-interval", int(ping * 1000), "--activity-ttl", int(TTL * 1000)),
        ))
        alice_url = server.socket_url
        if transport == "proxy":
            proxy = stack.enter_context(freezable_proxy(server.port))
            alice_url = f"ws://127.0.0.1:{proxy.port}/v1/socket"
            freeze = proxy.freeze
        else:
            def freeze():
                subprocess.run(["ip", "-n", namespace, "link", "set", link, "down"], check=True)

        bob = stack.enter_context(peer(server.socket_url, bob_token, "bob"))
        bob.subscribe(DIRECT)
        start = bob.mark()
        alice = stack.enter_context(child(alice_url, alice_token, prefix=prefix))
        alice.wait_ready()
        bob.wait_for(activity_with("alice"), 5, "alice typing", since=start)
        bob.wait_for(presence("alice", True), 5, "alice online", since=start)
        # Freeze just after one of alice's refreshes reached Bob (an event, not a timer): her activity then
        # has a whole ttl left, the worst case for the ttl. Her refreshes and the server's pings both start
        # at her connection; with a 1 s ping interval, which divides the 2 s refresh interval, the freeze
        # also falls just after a ping was answered: the worst case for the ping timeout (2 P).
        for _ in range(2):
            bob.wait_for(activity_with("alice"), 5, "alice's refresh", since=bob.mark())

        before = bob.mark()
        frozen = time.monotonic()
        freeze()
        gone, cleared = bob.wait_for(activity_without("alice"), TTL + MARGIN + 2 * ping, "alice's activity gone", since=before)
        offline, _ = bob.wait_for(presence("alice", False), 2 * ping + MARGIN + TTL, "alice offline", since=before)
        indicator, presence_after = gone - frozen, offline - frozen
        last = [f for _, f in bob.frames[start:before] if activity_with("alice")(f)][-1]
        alice_entry = next(e for e in last["entries"] if e["user"] == "alice")
        # How late the clear came after the expiresAt Bob last saw, on the server's clock.
        after_expiry = cleared["serverTime"] - alice_entry["expiresAt"]
        record(
            "silent_network_loss", transport=transport, ping_ms=ping * 1000, ttl_ms=TTL * 1000,
            indicator_ms=indicator * 1000, presence_ms=presence_after * 1000, clear_after_expires_at_ms=after_expiry,
            cleared_by="ttl" if after_expiry >= 0 else "close",
        )
        assert alice.process.poll() is None, "alice's process still runs: only the network failed"
        assert indicator <= TTL + MARGIN, f"alice's activity went {indicator:.2f} s after the freeze (ttl {TTL} s)"
        assert presence_after <= 2 * ping + MARGIN, (
            f"alice went offline {presence_after:.2f} s after the freeze; the ping timeout bounds it by 2 x {ping} s"
        )
        if ping > TTL:
            assert gone < offline, "with a ping interval over the ttl, the ttl clears the activity while alice is online"
            assert after_expiry < MARGIN * 1000, f"the expiry sweep cleared alice {after_expiry} ms after her expiresAt"
        assert server.alive()
