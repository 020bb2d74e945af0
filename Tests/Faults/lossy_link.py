"""A phone's link in a TCP proxy: delay with jitter, stalls, an outage, each direction's bytes kept in order.

These machines' kernel has no `netem` qdisc, so the link is made here, between the client and the server,
both on loopback. Every chunk read from one side is written to the other after

- a one-way delay of `one_way` ± `jitter` seconds (uniform): 150 ms RTT with 30 ms of jitter by default;
- with probability `stall_chance` (2 %), a stall of `stall` seconds (uniform, 0.2-1 s): what a lost segment
  does to a TCP stream, the bytes behind it waiting until its retransmission arrives;
- never before the bytes read before it (a chunk's release is at least the previous one's): the stream's
  order, as TCP keeps it, so a stall holds up everything behind it;
- never during an outage (`outage(seconds)`): nothing passes either way, both connections stay open (no
  FIN, no RST), and what waited goes out as soon as the outage ends, in order. A real stack resumes at
  its next retransmission, up to a few seconds later; this link is kinder there and no kinder elsewhere.

The stall draws come from one seeded generator per connection and direction, so a run's link is the same
from one run to the next as long as the chunks are (each frame of these tests is one chunk: they are
written tens of milliseconds apart).
"""

import collections
import contextlib
import random
import socket
import threading
import time

from faultkit import TcpProxy


class LossyLink(TcpProxy):
    def __init__(self, target_port, *, one_way=0.075, jitter=0.015, stall_chance=0.02, stall=(0.2, 1.0), seed=29):
        self.one_way, self.jitter, self.stall_chance, self.stall, self.seed = one_way, jitter, stall_chance, stall, seed
        self._lock = threading.Condition()
        self._outage = (0.0, 0.0)  # [start, end) in time.monotonic() seconds
        self._queued = 0
        self.chunks = 0
        self.stalls = []  # seconds, one per stall
        super().__init__(target_port)

    def outage(self, seconds):
        """Nothing passes either way for `seconds` from now."""
        now = time.monotonic()
        with self._lock:
            self._outage = (now, now + seconds)
            self._lock.notify_all()

    def idle(self):
        """Whether no byte is on its way through the link."""
        with self._lock:
            return self._queued == 0

    def _connected(self, client, upstream):
        for direction, (source, sink) in enumerate(((client, upstream), (upstream, client))):
            chunks = collections.deque()
            draws = random.Random(f"{self.seed}/{self.connections}/{direction}")
            self._start(self._read, source, chunks, draws)
            self._start(self._write, sink, chunks)

    def _read(self, source, chunks, draws):
        """Reads chunks as they come and gives each its release time."""
        last_release = 0.0
        while not self.stopped.is_set():
            try:
                data = source.recv(65536)
            except OSError:
                data = b""
            now = time.monotonic()
            release = now + self.one_way + draws.uniform(-self.jitter, self.jitter)
            if data and draws.random() < self.stall_chance:
                stall = draws.uniform(*self.stall)
                self.stalls.append(stall)
                release += stall
            release = max(release, last_release)
            last_release = release
            with self._lock:
                chunks.append((release, data))
                self._queued += 1
                self.chunks += bool(data)
                self._lock.notify_all()
            if not data:
                return

    def _write(self, sink, chunks):
        """Writes each chunk at its release time, outside any outage; an empty chunk is the end of the stream."""
        while True:
            with self._lock:
                while True:
                    if self.stopped.is_set():
                        return
                    now = time.monotonic()
                    start, end = self._outage
                    if chunks and chunks[0][0] <= now and not start <= now < end:
                        _, data = chunks.popleft()
                        break
                    waits = [end - now] if start <= now < end else []
                    if chunks:
                        waits.append(chunks[0][0] - now)
                    self._lock.wait(max(0.001, min(waits)) if waits else 0.1)
            try:
                if data:
                    sink.sendall(data)
                else:
                    sink.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            finally:
                with self._lock:
                    self._queued -= 1
            if not data:
                return

    def close(self):
        self.stopped.set()
        with self._lock:
            self._lock.notify_all()
        super().close()


@contextlib.contextmanager
def lossy_link(target_port, **options):
    link = LossyLink(target_port, **options)
    try:
        yield link
    finally:
        link.close()
