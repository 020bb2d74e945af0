"""A server pinned to fewer CPUs than the machine has (taskset, numactl, systemd's CPUAffinity=) runs one
event loop per CPU it may use, not one per core of the machine (`EventLoopCount`).

Runs the built `typewire serve --demo` (Tests/Support/typewire_server.py starts it) with an affinity mask of
one CPU, and counts the threads of NIO's loop group by their names.
"""
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "Support"))
import typewire_server  # noqa: E402  (the shared harness, found through the path above)


def loop_threads(pid):
    names = [(task / "comm").read_text().strip() for task in pathlib.Path(f"/proc/{pid}/task").iterdir()]
    return sorted(name for name in names if name.startswith("NIO-SGLTN-"))


def serve(tmp_path, name, **options):
    arguments = ["serve", "--demo", "--port", "0", "--sqlite", tmp_path / "typewire.sqlite"]
    return typewire_server.running_server(arguments, ROOT / ".artifacts" / "faults" / f"{name}.log", **options)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs a machine with two CPUs or more to pin to one")
def test_a_server_pinned_to_one_cpu_runs_one_event_loop(tmp_path):
    one = min(os.sched_getaffinity(0))
    with serve(tmp_path, "cpu-affinity-one", preexec_fn=lambda: os.sched_setaffinity(0, {one})) as server:
        assert len(loop_threads(server.process.pid)) == 1, loop_threads(server.process.pid)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs a machine with two CPUs or more")
def test_an_unpinned_server_runs_a_loop_per_cpu(tmp_path):
    with serve(tmp_path, "cpu-affinity-all") as server:
        assert len(loop_threads(server.process.pid)) == min(len(os.sched_getaffinity(0)), os.cpu_count())
