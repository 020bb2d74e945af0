"""The cluster on NATS when a NATS server fails (docs/CLUSTER.md, "Failures"; docs/RELIABILITY.md).

Three nats-servers routed to each other (one NATS cluster) and three `typewire serve` nodes on one PostgreSQL
database, node i given only NATS server i (it learns the others from that server's INFO). Alice is on node
1, whose NATS server fails; Bob is on node 2 and Carol on node 3, all in group-six.

- killed: NATS server 1 gets SIGKILL. Node 1's connection is reset; it connects to another server at once,
  subscribes again and resyncs. Alice keeps changing what she does (every 100 ms). Required: Bob sees her
  again within 2 s of the kill.
- cut: node 2 reaches NATS through a proxy that cuts its link for 1.8 s (connections reset, reconnects
  refused) while Frank, on node 2, is removed from the group through node 1. The removal's event is lost to
  node 2; once its link is back it reads its conversations' participants from PostgreSQL again, so Frank's
  subscription there ends and his typing stops reaching Bob. Required: within 2 s of the link's return (a
  liveness bound: the NATS client's reconnect waits up to 2 s).
- stalled: NATS server 1 gets SIGSTOP: its sockets stay open and nothing answers. Node 1 notices by its own
  pings (every 2 s; two unanswered) and moves to another server. Meanwhile Carol leaves, and node 3 says so
  on the bus, which node 1 cannot hear: after the move, node 1's resync reads presence from PostgreSQL
  again, so Alice is told that Carol is offline. Required: Bob sees Alice again, and Alice sees Carol
  offline, within 2 ping intervals plus the ping and a margin (8 s) of the stall.

Needs nats-server and PostgreSQL (TYPEWIRE_TEST_POSTGRES_URL, as `.ci/run` sets it); without them the test is
skipped (a failure under CI=true).
"""

import contextlib
import glob
import os
import re
import shutil
import signal
import subprocess
import threading
import time
import urllib.request
import uuid

import pytest

from faultkit import (ARTIFACTS, SECRET, activity_with, cannot, cuttable_proxy, mint_token, peer, presence, record,
                      typers)
import typewire_server

GROUP = "group-six"
#: Scheduling on a loaded 2-core machine with a debug build: a liveness margin, not a measure.
MARGIN = 2.0


def psql_binary():
    found = shutil.which("psql") or next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))[-1:]), None)
    if not found:
        cannot("psql is not installed (PostgreSQL's client)")
    return found


@contextlib.contextmanager
def database():
    """A new database on the test server, dropped at the end."""
    server = os.environ.get("TYPEWIRE_TEST_POSTGRES_URL")
    if not server:
        cannot("TYPEWIRE_TEST_POSTGRES_URL is not set (bash scripts/postgres.sh starts a server and prints it)")
    name = "typewire_fault_" + uuid.uuid4().hex[:12]
    psql = psql_binary()
    subprocess.run([psql, server, "-qc", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    try:
        yield server.rsplit("/", 1)[0] + "/" + name
    finally:
        subprocess.run([psql, server, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], capture_output=True)


@contextlib.contextmanager
def nats_cluster(count, name):
    """`count` nats-servers routed to each other; yields their (process, client URL). Each takes ports the kernel
    picks (`-1`) and says them in its log, so no port is handed out free and bound later by someone else; the first
    is the others' seed, and routes to the rest are gossiped."""
    binary = shutil.which("nats-server") or ("/usr/sbin/nats-server" if os.path.exists("/usr/sbin/nats-server") else None)
    if not binary:
        cannot("nats-server is not installed (apt-get install nats-server)")
    servers, processes = [], []
    try:
        seed = None
        for index in range(count):
            log = ARTIFACTS / f"{name}-nats-{index + 1}.log"
            log.parent.mkdir(parents=True, exist_ok=True)
            log.unlink(missing_ok=True)
            routes = ["--routes", seed] if seed else []
            process = subprocess.Popen([binary, "-a", "127.0.0.1", "-p", "-1", "--cluster_name", "faults",
                                        "--cluster", "nats://127.0.0.1:-1", *routes, "-l", str(log)])
            processes.append(process)
            deadline = time.monotonic() + 10
            while not (log.exists() and (ports := re.findall(r"Listening for (client|route) connections on 127\.0\.0\.1:(\d+)",
                                                             log.read_text()))
                       and len(ports) == 2):
                assert process.poll() is None and time.monotonic() < deadline, f"nats-server {index + 1} did not start: {log}"
                time.sleep(0.02)
            ports = dict(ports)
            servers.append((process, f"nats://127.0.0.1:{ports['client']}"))
            seed = seed or f"nats://127.0.0.1:{ports['route']}"
        # The routes: every server has the two others before the nodes come.
        deadline = time.monotonic() + 10
        while not all((ARTIFACTS / f"{name}-nats-{i + 1}.log").read_text().count("Route connection created") >= count - 1
                      for i in range(count)):
            assert time.monotonic() < deadline, "the NATS servers did not route to each other"
            time.sleep(0.05)
        yield servers
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGCONT)
                process.kill()
            process.wait()


@contextlib.contextmanager
def cluster(name):
    """NATS servers, a database and three nodes; yields (nats servers, nodes)."""
    with nats_cluster(3, name) as servers, database() as url, contextlib.ExitStack() as stack:
        nodes = []
        for index, (_, nats_url) in enumerate(servers):
            arguments = ["serve", "--port", "0", "--host", "127.0.0.1", "--seed-demo", "--jwt-secret", SECRET,
                         "--postgres-url", url, "--nats-url", nats_url, "--activity-rate", "1000"]
            nodes.append(stack.enter_context(typewire_server.running_server(arguments, ARTIFACTS / f"{name}-node-{index + 1}.log")))
        yield servers, nodes


def typing_again(bob, since):
    """When Bob got the first `activity` showing alice typing after one without her, both after frame `since`."""
    absent = False
    for arrival, frame in list(bob.frames[since:]):
        if frame["type"] != "activity" or frame["conversation"] != GROUP:
            continue
        if "alice" not in typers(frame):
            absent = True
        elif absent:
            return arrival
    return None


def keep_changing(alice, until):
    """Alice types and stops by turns, every 100 ms, until `until()` holds or 30 s pass."""
    deadline = time.monotonic() + 30
    typing = True
    while not until() and time.monotonic() < deadline:
        alice.send({"type": "activity", "conversation": GROUP, "activity": "typing" if typing else "none"})
        typing = not typing
        time.sleep(0.1)


def test_a_killed_nats_server_is_left_for_another_and_typing_crosses_again_within_2_s():
    with cluster("nats-killed") as (servers, nodes), \
            peer(nodes[0].socket_url, mint_token("alice", "Alice"), "alice") as alice, \
            peer(nodes[1].socket_url, mint_token("bob", "Bob"), "bob") as bob:
        alice.subscribe(GROUP)
        bob.subscribe(GROUP)
        alice.send({"type": "activity", "conversation": GROUP, "activity": "typing"})
        bob.wait_for(activity_with("alice", GROUP), 10, "alice typing before the kill")
        servers[0][0].kill()
        killed = time.monotonic()
        since = bob.mark()
        keep_changing(alice, lambda: typing_again(bob, since) is not None)
        arrival = typing_again(bob, since)
        assert arrival is not None, "alice's typing never crossed again after the NATS server was killed"
        resumed = arrival - killed
        record("nats_server_killed", resumed_s=round(resumed, 3))
        assert resumed < 2.0, f"typing crossed again {resumed:.2f} s after the NATS server was killed"
        assert "resyncing" in nodes[0].log


def test_a_stalled_nats_server_is_left_by_its_pings_and_the_resync_brings_presence_back():
    with cluster("nats-stalled") as (servers, nodes), \
            peer(nodes[0].socket_url, mint_token("alice", "Alice"), "alice") as alice, \
            peer(nodes[1].socket_url, mint_token("bob", "Bob"), "bob") as bob:
        alice.subscribe(GROUP)
        bob.subscribe(GROUP)
        with peer(nodes[2].socket_url, mint_token("carol", "Carol"), "carol") as carol:
            carol.subscribe(GROUP)
            alice.wait_for(presence("carol", True, GROUP), 10, "carol online")
            servers[0][0].send_signal(signal.SIGSTOP)
            stalled = time.monotonic()
            since = alice.mark()
        # Carol has left; node 3 said so on the bus, which node 1 does not hear while its server is stalled.
        bob_since = bob.mark()
        keep_changing(alice, lambda: typing_again(bob, bob_since) is not None)
        crossed = typing_again(bob, bob_since)
        assert crossed is not None, "alice's typing never crossed again after the NATS server stalled"
        told, _ = alice.wait_for(presence("carol", False, GROUP), 8 + MARGIN, "carol offline after the resync", since=since)
        record("nats_server_stalled", typing_again_s=round(crossed - stalled, 3), presence_resynced_s=round(told - stalled, 3))
        assert crossed - stalled < 8 + MARGIN
        assert "resyncing" in nodes[0].log


def removed(frame):
    return frame["type"] == "error" and frame.get("code") == "unknown_conversation" and frame.get("ref") == GROUP


def nats_nodes(stack, url, nats_urls, name):
    """A node on the database `url` for each NATS address, in `stack`."""
    nodes = []
    for index, nats_url in enumerate(nats_urls):
        arguments = ["serve", "--port", "0", "--host", "127.0.0.1", "--seed-demo", "--jwt-secret", SECRET,
                     "--postgres-url", url, "--nats-url", nats_url]
        nodes.append(stack.enter_context(typewire_server.running_server(arguments, ARTIFACTS / f"{name}-node-{index + 1}.log")))
    return nodes


# Either way a block hides Dave from Erin: her node reads whom she blocked, or who blocked her.
@pytest.mark.parametrize("blocker, blocked", [("erin", "dave"), ("dave", "erin")])
def test_a_removal_and_a_block_lost_while_a_nodes_nats_link_is_cut_are_applied_when_the_link_is_back(blocker, blocked):
    with nats_cluster(1, "nats-cut") as servers, database() as url, contextlib.ExitStack() as stack:
        nats_port = int(servers[0][1].rsplit(":", 1)[1])
        proxy = stack.enter_context(cuttable_proxy(nats_port))
        nodes = nats_nodes(stack, url, [servers[0][1], f"nats://127.0.0.1:{proxy.port}"], "nats-cut")
        bob = stack.enter_context(peer(nodes[0].socket_url, mint_token("bob", "Bob"), "bob"))
        dave = stack.enter_context(peer(nodes[0].socket_url, mint_token("dave", "Dave"), "dave"))
        frank = stack.enter_context(peer(nodes[1].socket_url, mint_token("frank", "Frank"), "frank"))
        erin = stack.enter_context(peer(nodes[1].socket_url, mint_token("erin", "Erin"), "erin"))
        for member in (bob, dave, frank, erin):
            member.subscribe(GROUP)
        frank.send({"type": "activity", "conversation": GROUP, "activity": "typing"})
        bob.wait_for(activity_with("frank", GROUP), 10, "frank typing, across the nodes")
        # Dave keeps typing (a refresh a second) all along: only the block can take him out of Erin's view.
        typing = threading.Event()

        def keep_typing():
            while not typing.wait(1):
                dave.send({"type": "activity", "conversation": GROUP, "activity": "typing"})

        dave.send({"type": "activity", "conversation": GROUP, "activity": "typing"})
        refresher = threading.Thread(target=keep_typing, daemon=True)
        refresher.start()
        stack.callback(refresher.join, 5)
        stack.callback(typing.set)
        erin.wait_for(activity_with("dave", GROUP), 10, "dave typing, seen by erin on the other node")
        proxy.cut()
        request = urllib.request.Request(f"{nodes[0].url}/v1/conversations/{GROUP}/participants/frank", method="DELETE",
                                         headers={"Authorization": f"Bearer {mint_token('alice', 'Alice')}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 204
        block = urllib.request.Request(f"{nodes[0].url}/v1/blocks/{blocked}", method="PUT",
                                       headers={"Authorization": f"Bearer {mint_token(blocker, blocker.title())}"})
        with urllib.request.urlopen(block, timeout=10) as answer:
            assert answer.status == 204
        bob.wait_for(lambda f: f["type"] == "activity" and "frank" not in typers(f), 10, "frank's typing gone on his removal")
        time.sleep(1.8)
        since, erin_since = frank.mark(), erin.mark()
        assert any(frame["type"] == "activity" and "dave" in typers(frame) for _, frame in erin.frames[-20:]), \
            "while the link is cut, erin's node does not know of the block"
        proxy.restore()
        restored = time.monotonic()
        told, _ = frank.wait_for(removed, 2 + MARGIN, "frank told he is no longer a participant on node 2", since=since)
        hidden, _ = erin.wait_for(lambda f: f["type"] == "activity" and f.get("conversation") == GROUP and "dave" not in typers(f),
                                  2 + MARGIN, "dave out of erin's view once her node reads her blocks again", since=erin_since)
        record("nats_link_cut", blocker=blocker, removal_applied_s=round(told - restored, 3), block_applied_s=round(hidden - restored, 3))
        bob_since = bob.mark()
        bob.wait_for(activity_with("dave", GROUP), 5, "dave still typing, for bob", since=bob_since)
        # His node knows it now: his typing is refused there, and never reaches Bob again.
        since, bob_since = frank.mark(), bob.mark()
        frank.send({"type": "activity", "conversation": GROUP, "activity": "typing"})
        frank.wait_for(lambda f: f["type"] == "error" and f.get("code") == "unknown_conversation" and f.get("request") == "activity",
                       10, "frank's typing refused", since=since)
        assert not any(frame["type"] == "activity" and "frank" in typers(frame) for _, frame in bob.frames[bob_since:])


def wait_closed(connection, timeout, what):
    deadline = time.monotonic() + timeout
    while connection.closed_at is None:
        assert time.monotonic() < deadline, f"{connection.label}'s socket was not closed: {what}"
        time.sleep(0.02)


def test_a_node_that_loses_its_listen_connection_closes_its_sockets_with_1001_and_its_clients_resync():
    """Events sent while nobody listened are lost, so the node closes its sockets once it listens again
    (docs/CLUSTER.md, Failures: about 1 s), and a client that reconnects sees the others again."""
    with database() as url, contextlib.ExitStack() as stack:
        arguments = ["serve", "--port", "0", "--host", "127.0.0.1", "--seed-demo", "--jwt-secret", SECRET, "--postgres-url", url]
        nodes = [stack.enter_context(typewire_server.running_server(arguments, ARTIFACTS / f"listen-lost-node-{index + 1}.log"))
                 for index in range(2)]
        bob = stack.enter_context(peer(nodes[0].socket_url, mint_token("bob", "Bob"), "bob"))
        bob.subscribe(GROUP)
        database_name = url.rsplit("/", 1)[1]
        listening = f"FROM pg_stat_activity WHERE datname = '{database_name}' AND query ILIKE 'LISTEN%'"

        def sql(query):
            return subprocess.run([psql_binary(), url, "-tAc", query], capture_output=True, text=True, check=True).stdout.strip()

        deadline = time.monotonic() + 10
        while int(sql(f"SELECT count(*) {listening}")) < 2:  # both nodes listen
            assert time.monotonic() < deadline, "the two nodes' LISTEN connections did not show"
            time.sleep(0.1)
        terminated = sql(f"SELECT count(pg_terminate_backend(pid)) {listening}")
        assert int(terminated) == 2, f"the two nodes' LISTEN connections: {terminated!r}"
        cut = time.monotonic()
        wait_closed(bob, 1 + 2 + MARGIN, "its node lost LISTEN (listened again after 1 s)")
        closed_after = bob.closed_at - cut
        record("listen_lost", closed_after_s=round(closed_after, 3))
        assert bob.close_code == 1001, f"closed with {bob.close_code}"
        # Both nodes listen again: a client that reconnects sees another node's typing.
        again = stack.enter_context(peer(nodes[0].socket_url, mint_token("bob", "Bob"), "bob again"))
        again.subscribe(GROUP)
        frank = stack.enter_context(peer(nodes[1].socket_url, mint_token("frank", "Frank"), "frank"))
        frank.subscribe(GROUP)
        frank.send({"type": "activity", "conversation": GROUP, "activity": "typing"})
        again.wait_for(activity_with("frank", GROUP), 5, "frank's typing across the nodes, after the resync")


def test_with_every_nats_server_down_typing_within_a_node_goes_on_and_crosses_again_when_one_is_back():
    with nats_cluster(1, "nats-down") as servers, database() as url, contextlib.ExitStack() as stack:
        process, nats_url = servers[0]
        nodes = nats_nodes(stack, url, [nats_url, nats_url], "nats-down")
        alice = stack.enter_context(peer(nodes[0].socket_url, mint_token("alice", "Alice"), "alice"))
        bob = stack.enter_context(peer(nodes[0].socket_url, mint_token("bob", "Bob"), "bob"))
        frank = stack.enter_context(peer(nodes[1].socket_url, mint_token("frank", "Frank"), "frank"))
        for member in (alice, bob, frank):
            member.subscribe(GROUP)
        alice.send({"type": "activity", "conversation": GROUP, "activity": "typing"})
        frank.wait_for(activity_with("alice", GROUP), 10, "alice typing, across the nodes")
        alice.send({"type": "activity", "conversation": GROUP, "activity": "none"})
        frank.wait_for(lambda f: f["type"] == "activity" and "alice" not in typers(f), 10, "alice's stop, across the nodes")
        process.kill()
        process.wait()
        time.sleep(0.5)  # the nodes' links are gone
        bob_since, frank_since = bob.mark(), frank.mark()
        alice.send({"type": "activity", "conversation": GROUP, "activity": "typing"})
        bob.wait_for(activity_with("alice", GROUP), 2 + MARGIN, "alice typing on their own node, NATS down", since=bob_since)
        time.sleep(1)
        assert not any(frame["type"] == "activity" and "alice" in typers(frame) for _, frame in frank.frames[frank_since:]), \
            "nothing crosses nodes with NATS down"
        # One is back on the same address: the nodes find it (a wait of at most 2 s between rounds) and resync.
        port = nats_url.rsplit(":", 1)[1]
        log = ARTIFACTS / "nats-down-nats-again.log"
        log.unlink(missing_ok=True)
        binary = shutil.which("nats-server") or "/usr/sbin/nats-server"
        back = subprocess.Popen([binary, "-a", "127.0.0.1", "-p", port, "-l", str(log)])
        stack.callback(back.wait)
        stack.callback(back.kill)
        frank_since = frank.mark()

        def keep_typing():
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                alice.send({"type": "activity", "conversation": GROUP, "activity": "typing"})
                if any(frame["type"] == "activity" and "alice" in typers(frame) for _, frame in frank.frames[frank_since:]):
                    return
                time.sleep(0.5)

        keep_typing()
        frank.wait_for(activity_with("alice", GROUP), 0.1, "alice typing, across the nodes again", since=frank_since)
