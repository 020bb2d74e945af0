"""The SQLite file's disk fails under a running server: full, or gone read-only.

Each test puts the server's SQLite file on a file system of its own (mounted here, as root), breaks it
while alice and bob are connected, and checks that:

- alice's `send` gets an `error` frame (code `unavailable`, `ref` her clientMessageId) and nobody gets
  a message that was not stored;
- typing between alice and bob still works both ways, and a socket that connects during the fault can
  subscribe and see it (a reconnecting client is not locked out);
- the process keeps running and answers /healthz.

Disk full: a 1 MiB tmpfs filled by a file until ENOSPC; freeing the space lets the same send through.
Read-only: an ext4 image on a loop device mounted with errors=remount-ro; the kernel's own error path
(`/sys/fs/ext4/<dev>/trigger_fs_error`, the same as on a failing disk) turns it read-only at runtime.
A plain `mount -o remount,ro` cannot do that: the kernel refuses it (EBUSY) while the server holds the
SQLite file open for writing.
"""

import contextlib
import errno
import os
import pathlib
import shutil
import subprocess
import time

import pytest

from faultkit import DIRECT, activity_with, activity_without, cannot, mint_token, peer, record, running_server


def run(*command):
    return subprocess.run(command, capture_output=True, text=True)


@contextlib.contextmanager
def mounted(tmp_path, source, options, fstype):
    """Mounts `source` on a fresh folder; always unmounts it."""
    point = tmp_path / "mnt"
    point.mkdir()
    result = run("mount", "-t", fstype, "-o", options, str(source), str(point))
    if result.returncode != 0:
        cannot(f"cannot mount {fstype} here (needs root and the permission to mount): {result.stderr.strip()}")
    try:
        yield point
    finally:
        if run("umount", str(point)).returncode != 0:
            run("umount", "-l", str(point))


@contextlib.contextmanager
def small_tmpfs(tmp_path):
    with mounted(tmp_path, "tmpfs", "size=1M,mode=0755", "tmpfs") as point:
        yield point


@contextlib.contextmanager
def ext4_on_loop(tmp_path):
    """An 8 MiB ext4 on a loop device, errors=remount-ro; yields (mount point, sysfs error trigger)."""
    for tool in ("losetup", "mkfs.ext4"):
        if shutil.which(tool) is None:
            cannot(f"{tool} is not installed (util-linux, e2fsprogs)")
    image = tmp_path / "disk.img"
    with open(image, "wb") as out:
        out.truncate(8 << 20)
    if (made := run("mkfs.ext4", "-q", "-F", str(image))).returncode != 0:
        cannot(f"mkfs.ext4 failed: {made.stderr.strip()}")
    attached = run("losetup", "--find", "--show", str(image))
    if attached.returncode != 0:
        cannot(f"no loop device here: {attached.stderr.strip()}")
    device = attached.stdout.strip()
    try:
        with mounted(tmp_path, device, "errors=remount-ro", "ext4") as point:
            trigger = pathlib.Path("/sys/fs/ext4") / pathlib.Path(device).name / "trigger_fs_error"
            if not trigger.exists():
                cannot(f"{trigger} does not exist: this kernel cannot raise an ext4 error on demand")
            yield point, trigger
    finally:
        run("losetup", "-d", device)


def fill(folder):
    """Writes a file until the file system is full (ENOSPC); returns its path and size."""
    filler = folder / "filler"
    written = 0
    with open(filler, "wb", buffering=0) as out:
        for size in (1 << 16, 1 << 12, 1 << 9, 1):
            chunk = b"\0" * size
            while True:
                try:
                    written += out.write(chunk)
                except OSError as error:
                    assert error.errno == errno.ENOSPC, error
                    break
    return filler, written


def send(sender, text, client_message_id):
    sender.send({"type": "send", "conversation": DIRECT, "clientMessageId": client_message_id, "text": text})


def answer_to(client_message_id):
    return lambda f: (f["type"] == "ack" and f["clientMessageId"] == client_message_id) or (
        f["type"] == "error" and f.get("ref") == client_message_id
    )


def message(client_message_id):
    return lambda f: f["type"] == "message" and f.get("clientMessageId") == client_message_id


def stored(alice, bob, text, client_message_id):
    """Alice sends; asserts the ack and Bob's copy."""
    since_a, since_b = alice.mark(), bob.mark()
    send(alice, text, client_message_id)
    _, answer = alice.wait_for(answer_to(client_message_id), 10, f"an answer to {client_message_id}", since=since_a)
    assert answer["type"] == "ack", f"the send was not stored: {answer}"
    bob.wait_for(message(client_message_id), 5, f"the message {client_message_id}", since=since_b)


def refused(alice, client_message_id):
    """Alice sends during the fault; returns the error frame she gets (and how long it took)."""
    since = alice.mark()
    sent = time.monotonic()
    send(alice, "Sent while the disk is broken", client_message_id)
    arrival, answer = alice.wait_for(answer_to(client_message_id), 10, f"an answer to {client_message_id}", since=since)
    assert answer["type"] == "error", f"a send on a broken disk was acknowledged: {answer}"
    assert answer["code"] == "unavailable", answer
    assert answer["message"], answer
    return answer, (arrival - sent) * 1000


def typing_still_works(alice, bob, url, bob_token):
    """Typing both ways, and a fresh socket of Bob's (a reconnect) that subscribes and sees it."""
    since = bob.mark()
    started = time.monotonic()
    alice.send({"type": "activity", "conversation": DIRECT, "activity": "typing"})
    seen, _ = bob.wait_for(activity_with("alice"), 2, "alice typing during the fault", since=since)
    with peer(url, bob_token, "bob-reconnected") as again:
        subscribed = again.subscribe(DIRECT)
        assert "alice" in {e["user"] for e in subscribed["activity"]["entries"]}, subscribed
        since_again = again.mark()
        alice.send({"type": "activity", "conversation": DIRECT, "activity": "none"})
        bob.wait_for(activity_without("alice"), 2, "alice's stop during the fault", since=since)
        again.wait_for(activity_without("alice"), 2, "alice's stop on the new socket", since=since_again)
    since = alice.mark()
    bob.send({"type": "activity", "conversation": DIRECT, "activity": "typing"})
    alice.wait_for(activity_with("bob"), 2, "bob typing during the fault", since=since)
    bob.send({"type": "activity", "conversation": DIRECT, "activity": "none"})
    alice.wait_for(activity_without("bob"), 2, "bob's stop during the fault", since=since)
    return (seen - started) * 1000


def connected(server):
    alice_token, bob_token = mint_token("alice", "Alice"), mint_token("bob", "Bob")
    stack = contextlib.ExitStack()
    alice = stack.enter_context(peer(server.socket_url, alice_token, "alice"))
    bob = stack.enter_context(peer(server.socket_url, bob_token, "bob"))
    for person in (alice, bob):
        person.subscribe(DIRECT)
    return stack, alice, bob, bob_token


def test_disk_full(tmp_path, request):
    with small_tmpfs(tmp_path) as disk, running_server(request.node.name, disk / "typewire.sqlite") as server:
        stack, alice, bob, bob_token = connected(server)
        with stack:
            stored(alice, bob, "Before the disk fills", "before-full")
            filler, size = fill(disk)
            assert os.statvfs(disk).f_bavail == 0

            since_bob = bob.mark()
            error, answer_ms = refused(alice, "during-full")
            typing_ms = typing_still_works(alice, bob, server.socket_url, bob_token)
            assert not any(message("during-full")(f) for _, f in bob.frames[since_bob:]), "a message that was not stored went out"
            assert server.alive(), f"the server died when the disk filled; see {server.log_path}"
            logged = [line.strip() for line in server.log.splitlines() if "storing a message failed" in line]
            assert logged, f"the server logged nothing about the failed write; see {server.log_path}"

            filler.unlink()
            stored(alice, bob, "Sent while the disk is broken", "during-full")  # the client's retry, once space is back
            record("disk_full", filler_bytes=size, error=error, answer_ms=answer_ms, typing_ms=typing_ms, log=logged[0])


def test_read_only(tmp_path, request):
    with ext4_on_loop(tmp_path) as (disk, trigger), running_server(request.node.name, disk / "typewire.sqlite") as server:
        stack, alice, bob, bob_token = connected(server)
        with stack:
            stored(alice, bob, "Before the disk fails", "before-ro")
            trigger.write_text("typewire fault test: the disk goes read-only\n")
            with pytest.raises(OSError) as probe:
                (disk / "probe").write_bytes(b"x")
            assert probe.value.errno == errno.EROFS, "the file system turned read-only"

            since_bob = bob.mark()
            error, answer_ms = refused(alice, "during-ro")
            typing_ms = typing_still_works(alice, bob, server.socket_url, bob_token)
            assert not any(message("during-ro")(f) for _, f in bob.frames[since_bob:]), "a message that was not stored went out"
            assert server.alive(), f"the server died when its disk went read-only; see {server.log_path}"
            logged = [line.strip() for line in server.log.splitlines() if "storing a message failed" in line]
            assert logged, f"the server logged nothing about the failed write; see {server.log_path}"
            # The messages stored before the fault can still be read: a fresh subscription lists them.
            with peer(server.socket_url, bob_token, "bob-history") as reader:
                recent = reader.subscribe(DIRECT)["recentMessages"]
                assert "before-ro" in {m.get("clientMessageId") for m in recent}
            record("read_only", error=error, answer_ms=answer_ms, typing_ms=typing_ms, log=logged[0])
