"""``rlm_gym/RLM-v0``: the sandbox candidates measured, and the env's own cost.

1. Candidates (issue 36): the subprocess worker (rlimits, nobody, import allow-list, audit
   hook), the same in a network namespace (``unshare --net``), pydantic's Monty
   (``pydantic-monty``, when installed) and bubblewrap (when ``bwrap`` exists): start-up,
   loading a 1M-character context, one trivial step, and which escape attempts each stops
   and which RLM code each runs.
2. The env with its default sandbox: overhead per step beside the code's own time and the
   sub-calls (a warm sandbox; ``env.step`` wall time minus the time the code ran in the
   worker), and ``reset`` with a 1M-character context (task generation and loading).

Wall-clock medians (the work is in two processes, so process time would miss half of it).
Goals: step overhead <= 5 ms, reset with 1M characters <= 100 ms.

Run: ``.venv/bin/python benchmarks/rlm_env.py [--repetitions 200]`` (Monty is measured when
``pydantic-monty`` is importable, e.g. from a venv with the ``rlm`` extra and it installed).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from time import perf_counter
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _common import print_table, save_results

from rlm_gym.envs.rlm import BwrapSandbox, NetnsSandbox, RLMEnv, SubprocessSandbox
from rlm_gym.envs.rlm.tasks import generate_task

GOAL_STEP_MS = 5.0
GOAL_RESET_MS = 100.0
MILLION = 2**20
# (name, code, stopped when) — "stopped" means an error came back and nothing escaped.
ATTEMPTS = [
    ("read /etc/hostname", "open('/etc/hostname').read()"),
    ("write outside", "open(OUTSIDE, 'w').write('x')"),
    ("socket", "import socket\nsocket.create_connection(('127.0.0.1', 9))"),
    ("subprocess", "import subprocess\nsubprocess.run(['true'])"),
    ("import os", "import os\nos.listdir('/')"),
    ("memory 4 GB", "block = ' ' * (4 * 2**30)"),
    ("CPU loop", "n = 0\nwhile True:\n    n += 1"),
    ("infinite output", "while True:\n    print('x' * 1000)"),
]
# What RLM code needs: regular expressions, JSON, state across steps, a sub-call; and two
# everyday parts of the language (a class, a bytearray).
WORKLOAD = [
    ("class", "class Row:\n    pass\nrow = Row()"),
    ("bytearray", "buffer = bytearray(16)"),
    ("re", "import re\nfound = re.findall(r'\\d+', context[:1000])"),
    ("json", "import json\nrows = json.loads('[[1, \"a\"]]')"),
    ("state", "print(len(found) >= 0)"),
    ("llm_query", "print(llm_query('hi'))"),
]


class MontyCandidate:
    """pydantic-monty behind the same start / load / run calls (measurement only)."""

    name = "monty"

    def __init__(self, timeout_s: float) -> None:
        import pydantic_monty

        self.monty = pydantic_monty
        self.timeout_s = timeout_s
        self.pool = None
        self.session = None
        self.context = ""

    def start(self) -> None:
        self.pool = self.monty.Monty(min_processes=1)
        self.pool.__enter__()
        limits = {"max_feed_duration_secs": self.timeout_s, "max_memory": 512 * 2**20}
        self.session = self.pool.checkout(limits=limits)
        self.session.__enter__()

    def load(self, context: str) -> None:
        self.session.feed_run("0", inputs={"context": context})

    def run(self, code: str) -> tuple[str, str | None]:
        collect = self.monty.CollectString()
        try:
            self.session.feed_run(
                code,
                external_lookup={"llm_query": lambda prompt: "ok"},
                print_callback=collect,
            )
        except Exception as exc:  # every refusal is a result here
            return collect.output, f"{type(exc).__name__}: {exc}"[:200]
        return collect.output, None

    def stop(self) -> None:
        if self.session is not None:
            self.session.__exit__(None, None, None)
        if self.pool is not None:
            self.pool.__exit__(None, None, None)


class WorkerCandidate:
    """The rlm_gym sandboxes under the same calls."""

    def __init__(self, cls: type, timeout_s: float) -> None:
        self.box = cls(timeout_s=timeout_s, memory_mb=512, on_llm=lambda ps: ["ok"] * len(ps))
        self.name = cls.name

    def start(self) -> None:
        self.box.start()

    def load(self, context: str) -> None:
        self.box.load(context)

    def run(self, code: str) -> tuple[str, str | None]:
        result = self.box.run(code)
        return result.output, result.error

    def stop(self) -> None:
        self.box.stop()


def measure_candidate(make, repetitions: int) -> dict[str, Any]:
    starts = []
    for _ in range(3):
        candidate = make()
        began = perf_counter()
        candidate.start()
        starts.append((perf_counter() - began) * 1000)
        candidate.stop()
    candidate = make()
    candidate.start()
    context = generate_task("aggregation", MILLION, seed=0).context
    loads = []
    for _ in range(3):
        began = perf_counter()
        candidate.load(context)
        loads.append((perf_counter() - began) * 1000)
    steps = []
    for _ in range(repetitions):
        began = perf_counter()
        candidate.run("x = 1")
        steps.append((perf_counter() - began) * 1000)
    outside = Path(tempfile.mkdtemp(prefix="rlm-bench-outside-")) / "target.txt"
    stopped = {}
    for name, code in ATTEMPTS:
        candidate.run(f"OUTSIDE = {str(outside)!r}")
        _, error = candidate.run(code)
        stopped[name] = error is not None and not outside.exists()
    shutil.rmtree(outside.parent, ignore_errors=True)
    runs = {}
    for name, code in WORKLOAD:
        _, error = candidate.run(code)
        runs[name] = error is None
    candidate.stop()
    return {
        "start_ms": statistics.median(starts),
        "load_1m_ms": statistics.median(loads),
        "step_ms": statistics.median(steps),
        "stops": stopped,
        "runs": runs,
    }


def candidates(timeout_s: float) -> dict[str, Any]:
    makers = {
        "subprocess": lambda: WorkerCandidate(SubprocessSandbox, timeout_s),
        "netns": lambda: WorkerCandidate(NetnsSandbox, timeout_s),
    }
    skipped = {}
    try:
        import pydantic_monty

        makers["monty"] = lambda: MontyCandidate(timeout_s)
        monty_version = pydantic_monty.__version__
    except ImportError:
        monty_version = None
        skipped["monty"] = "pydantic-monty is not installed in this interpreter"
    if shutil.which("bwrap") is None:
        skipped["bwrap"] = "no `bwrap` on this machine"
    else:
        makers["bwrap"] = lambda: WorkerCandidate(BwrapSandbox, timeout_s)
    return makers, skipped, monty_version


def env_costs(repetitions: int) -> dict[str, Any]:
    env = RLMEnv(family="aggregation", length=MILLION)
    env.reset(seed=0)
    overheads, walls = [], []
    for index in range(repetitions):
        began = perf_counter()
        _, _, _, _, info = env.step("```repl\nx = 1\n```")
        wall = (perf_counter() - began) * 1000
        walls.append(wall)
        overheads.append(wall - info["action_result"].duration_ms)
        if index % (env.max_steps - 1) == env.max_steps - 2:
            env.reset(seed=0)  # within the step budget, outside the timed step
    resets = []
    for seed in range(max(10, repetitions // 20)):
        began = perf_counter()
        env.reset(seed=seed)
        resets.append((perf_counter() - began) * 1000)
    env.close()
    return {
        "step_wall_ms": statistics.median(walls),
        "step_overhead_ms": statistics.median(overheads),
        "reset_1m_ms": statistics.median(resets),
        "reset_1m_max_ms": max(resets),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=2.0)
    args = parser.parse_args(argv)
    makers, skipped, monty_version = candidates(args.timeout)
    measured = {name: measure_candidate(make, args.repetitions) for name, make in makers.items()}
    rows = [
        [
            name,
            f"{m['start_ms']:.0f}",
            f"{m['load_1m_ms']:.1f}",
            f"{m['step_ms']:.2f}",
            f"{sum(m['stops'].values())}/{len(m['stops'])}",
            f"{sum(m['runs'].values())}/{len(m['runs'])}",
        ]
        for name, m in measured.items()
    ]
    print_table(["sandbox", "start ms", "load 1M ms", "step ms", "stops", "runs"], rows)
    for name, reason in skipped.items():
        print(f"{name}: not measured ({reason})")
    env = env_costs(args.repetitions)
    print(
        f"env step overhead {env['step_overhead_ms']:.2f} ms (goal <= {GOAL_STEP_MS}); "
        f"reset with 1M characters {env['reset_1m_ms']:.1f} ms (goal <= {GOAL_RESET_MS})"
    )
    save_results(
        "rlm_env",
        {
            "candidates": measured,
            "skipped": skipped,
            "monty_version": monty_version,
            "default": "subprocess",
            "env": env,
            "goals": {"step_overhead_ms": GOAL_STEP_MS, "reset_1m_ms": GOAL_RESET_MS},
            "repetitions": args.repetitions,
            # Wall-clock figures on a shared machine: what else ran says how to read them.
            "load_average_1min": os.getloadavg()[0],
            "cores": os.cpu_count(),
        },
    )


if __name__ == "__main__":
    main()
