"""Long explorations as a designer runs them (issue 26): a progress line while the work goes on,
``--quiet`` without it, and Ctrl-C that stops every process within 2 s with the report so far."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: Long enough on any machine that the interruption comes while it works (18 s alone on one core).
LONG = "scenarios/counter_of_counter_of_counter.yaml"
ENV = {**os.environ, "FSM_LANG": "en", "PYTHONPATH": str(REPO), "COLUMNS": "120"}


def _as_from_a_terminal() -> None:
    """Give the child Ctrl-C as a terminal's foreground job has it.  A suite started as a
    background job (``.ci/run &``) passes SIGINT on as ignored, and Python then never raises
    KeyboardInterrupt, so the interruption would not reach the command at all."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _explore(*args: str, **kw: object) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "fsm", "explore", LONG, *args]
    return subprocess.Popen(  # type: ignore[call-overload]
        cmd, cwd=REPO, env=ENV, text=True, preexec_fn=_as_from_a_terminal, **kw
    )


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def test_ctrl_c_stops_jobs_2_within_2_s_with_a_partial_report_and_no_worker_left() -> None:
    """SIGINT to `fsm explore --jobs 2`: exit 130 within 2 s, the report so far (marked as cut by
    the interruption), no traceback, and neither worker process still running."""
    proc = _explore("--jobs", "2", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline:  # the pool is up: the split is done
        time.sleep(0.2)
        workers = _children(proc.pid)
    assert len(workers) >= 2, "the pool's workers never started"
    _wait_for(lambda: min(_cpu_seconds(w) for w in workers) > 1.0)  # both workers are exploring
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    took = time.monotonic() - sent
    assert proc.returncode == 130, (proc.returncode, err)
    assert took <= 2.0, f"{took:.2f} s after Ctrl-C"
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "cut short by the interruption (Ctrl-C): a partial report" in out, out
    states = int(out.split("states visited")[1].split()[0].replace(",", ""))
    assert states > 100, out  # what the workers found before the interruption is in the report
    assert [w for w in workers if _alive(w)] == []


def test_ctrl_c_on_one_process_prints_the_partial_report_not_a_traceback() -> None:
    proc = _explore("--quiet", "--json", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait_for(lambda: _cpu_seconds(proc.pid) > 3.0)  # past its imports, exploring
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "Traceback" not in err, err
    import json

    report = json.loads(out)
    assert report["cut_by"] == "interrupted" and report["truncated"] and not report["complete"]
    assert report["states"] > 10


def _cpu_seconds(pid: int) -> float:
    """The CPU time a process has used: on a busy machine wall-clock time says little about how
    far it got, its own CPU time does."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().split(") ")[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_for(condition: Callable[[], bool], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition never came"
        time.sleep(0.05)


def _on_a_pty(*args: str, until: bytes | None = None) -> str:
    """What `fsm explore` writes on a pseudo-terminal until it shows ``until`` (or, with ``until``
    None, until it has explored for a CPU-second past its imports), then Ctrl-C."""
    main, secondary = pty.openpty()
    proc = _explore(*args, stdin=secondary, stdout=secondary, stderr=secondary)
    os.close(secondary)
    seen = b""
    deadline = time.monotonic() + 120

    def ready_to_interrupt() -> bool:
        if until is not None:
            return until in seen
        return _cpu_seconds(proc.pid) > 3.0

    while not ready_to_interrupt() and time.monotonic() < deadline:
        ready, _w, _x = select.select([main], [], [], 0.1)
        if ready:
            try:
                seen += os.read(main, 65536)
            except OSError:
                break
    assert proc.poll() is None, "it ended before the interruption: " + seen.decode("utf-8", "replace")
    proc.send_signal(signal.SIGINT)
    try:
        while select.select([main], [], [], 5)[0]:
            chunk = os.read(main, 65536)
            if not chunk:
                break
            seen += chunk
    except OSError:  # the other side closed: the process has ended
        pass
    proc.wait(timeout=30)
    os.close(main)
    assert proc.returncode == 130
    return seen.decode("utf-8", "replace")


def test_progress_on_a_terminal_is_one_live_line_with_tables_rate_depth_memory_time() -> None:
    text = _on_a_pty(until=" MB · ".encode())
    live = [chunk for chunk in text.split("\r") if " tables · " in chunk]
    assert live, text[:2000]
    line = live[-1]
    for part in ("/s", "depth", "MB", " s"):
        assert part in line, line
    assert "\x1b[" in text  # redrawn in place (rich's cursor movements), not printed line after line
    assert "cut short by the interruption" in text


def test_quiet_shows_no_progress_on_a_terminal() -> None:
    text = _on_a_pty("--quiet")
    assert " tables · " not in text
    assert "cut short by the interruption" in text  # the report still comes


def test_progress_off_a_terminal_is_a_log_line_every_few_seconds() -> None:
    proc = _explore("--jobs", "2", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    first = proc.stderr.readline()  # blocks until the first log line (2 s into the work)
    time.sleep(5.5)  # the log's period is wall-clock time: one more line is due
    proc.send_signal(signal.SIGINT)
    _out, rest = proc.communicate(timeout=30)
    err = first + rest
    lines = [line for line in err.splitlines() if line.startswith("fsm: ") and " tables · " in line]
    assert 1 <= len(lines) <= 3, err  # from 2 s on, one every 5 s
    assert "\x1b[" not in err  # plain text for a log
    counts = [int(line.split()[1].replace(",", "")) for line in lines]
    assert counts == sorted(counts) and counts[-1] > 0


@pytest.mark.notebooks
def test_progress_in_a_notebook_is_a_widget() -> None:
    """In a Jupyter kernel the explorer shows its progress as rich's live widget, by itself."""
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            # shown from the start, so the test does not hang on how fast this machine explores
            "import fsm.explore.progress\n"
            "fsm.explore.progress.QUIET_FOR = 0.0\n"
            "from fsm.explore.explorer import explore_file\n"
            f"report = explore_file({LONG!r}, max_states=5000)\n"
            "print('states', report.states)"
        )
    ]
    specs = KernelSpecManager(kernel_dirs=[str(Path(sys.prefix) / "share" / "jupyter" / "kernels")])
    km = KernelManager(kernel_name="python3", kernel_spec_manager=specs)
    client = NotebookClient(nb, km=km, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(REPO)}})
    try:
        client.execute()
    finally:
        if km.has_kernel:
            km.shutdown_kernel(now=True)
    outputs = nb.cells[0].outputs
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert int(text.split("states")[1].split()[0]) > 0, text
    widgets = [o for o in outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert widgets, outputs


def test_a_workers_count_only_grows_from_one_task_to_the_next() -> None:
    """A pool worker runs task after task; each task's search counts its tables from 0, and the
    shared count the progress line shows must add them, never fall back (it did: 2,304 then 88)."""
    import multiprocessing

    from fsm.explore.progress import Tally

    shared, stop = multiprocessing.Value("q", 0), multiprocessing.Value("b", 0)
    tally = Tally(shared, stop)
    seen = []
    for task_tables in ([10, 500, 2304], [40, 88]):
        tally.new_task()
        for n in task_tables:
            tally.tick(n)
            seen.append(shared.value)
    assert seen == sorted(seen) and seen[-1] == 2304 + 88


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        kids = _children(todo.pop())
        out += kids
        todo += kids
    return out


def test_ctrl_c_stops_dask_local_2_quickly_with_a_partial_report_and_no_process_left() -> None:
    """Ctrl-C to `fsm explore --dask local:2` while its shares explore, sent as a terminal sends it
    (to the command's every process, the cluster's workers too): exit 130 within 10 s (the
    LocalCluster is shut down on the way out), the report so far, no traceback from any process
    (the workers ignore it: this process stops them), and nothing of the run still running."""
    pytest.importorskip("distributed", reason="Dask is installed by the test extra (fsm[dask])")
    proc = _explore("--dask", "local:2", stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    assert proc.stderr is not None
    first = proc.stderr.readline()  # off a terminal, the first progress line: the shares explore
    assert "tables" in first, first
    spawned = _descendants(proc.pid)
    assert len(spawned) >= 2, "the LocalCluster's workers are not this run's children"
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal sends it: to every process of the command
    out, err = proc.communicate(timeout=60)
    took = time.monotonic() - sent
    assert proc.returncode == 130, (proc.returncode, err[-2000:])
    assert took <= 10.0, f"{took:.2f} s after Ctrl-C"
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-2000:]
    assert "cut short by the interruption (Ctrl-C): a partial report" in out, out
    time.sleep(1)  # a worker's last exit
    assert [p for p in spawned if _alive(p)] == []
