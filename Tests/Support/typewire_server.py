"""Starts the built `typewire` server and reads its port: the one harness of the Python tests and scripts.

`typewire serve` (and `typewire relay`) print one machine-readable line once they listen:

    typewire listening http://127.0.0.1:PORT

(`ListeningLine` in Sources/TypewireServer writes it; the Swift tests read it with the same type.)
Everything the process prints goes to a log file as it comes, so the server never blocks on a full pipe.

    from typewire_server import running_server
    with running_server(["serve", "--demo", "--port", "0"], log_path) as server:
        server.url      # http://127.0.0.1:PORT
"""
import contextlib
import os
import pathlib
import re
import signal
import subprocess
import threading
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]


def binary():
    """The executable: $TYPEWIRE_BIN as it is now (a release build, say), else the one `swift build` made."""
    return pathlib.Path(os.environ.get("TYPEWIRE_BIN", ROOT / ".build" / "debug" / "typewire"))


#: The executable as the environment named it when this module was imported.
BINARY = binary()
LISTENING = re.compile(r"^typewire listening http://(\S+):(\d+)$")


class ServerProcess:
    """A running `typewire` server: its process, host, port and everything it printed."""

    def __init__(self, process, host, port, log_path, lines, reader):
        self.process = process
        self.host = host
        self.port = port
        self.log_path = log_path
        self._lines = lines
        self._reader = reader

    @property
    def url(self):
        """The HTTP base URL, e.g. http://127.0.0.1:8080."""
        return f"http://{self.host}:{self.port}"

    @property
    def socket_url(self):
        """The WebSocket's URL."""
        return f"ws://{self.host}:{self.port}/v1/socket"

    @property
    def log(self):
        """Everything the process printed so far."""
        return "".join(self._lines)

    def alive(self):
        """The process runs and answers /healthz."""
        if self.process.poll() is not None:
            return False
        with urllib.request.urlopen(f"{self.url}/healthz", timeout=5) as response:
            return response.status == 200 and response.read() == b"ok"

    def metric(self, name):
        """The sum of a `/metrics` series' values over its labels (0 if it is not there); a name with labels
        (`typewire_frames_in_total{type="subscribe"}`) is that series alone."""
        with urllib.request.urlopen(f"{self.url}/metrics", timeout=5) as response:
            text = response.read().decode()
        return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                   if line.startswith(name + " ") or ("{" not in name and line.startswith(name + "{")))

    def cpu_seconds(self):
        """The process's CPU time so far (user and system), in seconds."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kib(self):
        """The process's resident memory, in KiB."""
        with open(f"/proc/{self.process.pid}/status") as status:
            return int(re.search(r"VmRSS:\s+(\d+) kB", status.read()).group(1))

    def stop(self, timeout=15):
        """SIGTERM, then SIGKILL if it has not exited within `timeout` seconds."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(5)


def start_server(arguments, log_path, *, startup_timeout=60, executable=None, **popen_options):
    """Starts `typewire ARGUMENTS` and waits for its listening line; returns a `ServerProcess`.

    `executable` runs something else that ends in `typewire serve` (a shell running a documented command).

    Raises RuntimeError, with what it printed, if the binary is missing or the process ends or stays
    silent for `startup_timeout` seconds.
    """
    executable = pathlib.Path(executable) if executable else binary()
    if not executable.exists():
        raise RuntimeError(f"{executable} does not exist: run `swift build` first (scripts/test.sh does).")
    log_path = pathlib.Path(log_path)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = open(log_path, "w", encoding="utf-8")
    command = [str(executable), *map(str, arguments)]
    log.write("$ " + " ".join(command) + "\n")
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **popen_options
    )
    lines = []
    address = {}
    started = threading.Event()

    def pump():
        for line in process.stdout:
            lines.append(line)
            log.write(line)
            log.flush()
            match = LISTENING.match(line.rstrip("\n"))
            if match and not started.is_set():
                address["host"], address["port"] = match[1].strip("[]"), int(match[2])
                started.set()
        started.set()  # the process ended
        log.close()

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    if not started.wait(startup_timeout) or "port" not in address:
        if process.poll() is None:
            process.kill()
        process.wait()
        reader.join(5)
        raise RuntimeError(f"`{' '.join(command)}` did not start; see {log_path}:\n{''.join(lines)[-4000:]}")
    return ServerProcess(process, address["host"], address["port"], log_path, lines, reader)


@contextlib.contextmanager
def running_server(arguments, log_path, **options):
    """`start_server` as a context manager: the server is always stopped at the end."""
    server = start_server(arguments, log_path, **options)
    try:
        yield server
    finally:
        server.stop()
