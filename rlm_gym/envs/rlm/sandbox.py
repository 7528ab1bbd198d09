"""Where the RLM env's code actions run: one :class:`Sandbox` protocol, one class per isolation.

:class:`SubprocessSandbox` (the default, chosen by ``benchmarks/rlm_sandbox.py``) runs user
code in a worker process of its own (``_worker.py``, stdlib only) inside a temporary folder,
with resource limits, an import allow-list, an audit hook and a per-step time-out; the REPL's
state is kept across steps. :class:`NetnsSandbox` is the same worker inside a network namespace
of its own (``unshare --net``): no network exists for it at all. :class:`BwrapSandbox` runs it
inside bubblewrap where ``bwrap`` is installed. Sub-model calls made by the
code (``llm_query`` / ``llm_query_batched``) come back to the parent over the worker's pipe
and are answered by the ``on_llm`` callable the env passes.

This is isolation for a model's *mistakes and curiosity*, measured by the escape suite in
``tests/envs/rlm/test_escapes.py``; it is not a boundary for code written to attack the host
(use a container or a VM for that).

Example:
    >>> with SubprocessSandbox() as box:
    ...     box.load("hello world")
    ...     box.run("words = context.split()").error
    ...     box.run("print(len(words))").output
    '2\\n'
"""

from __future__ import annotations

import json
import os
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "ALLOWED_MODULES",
    "RunResult",
    "Sandbox",
    "SubprocessSandbox",
    "NetnsSandbox",
    "BwrapSandbox",
    "SANDBOXES",
    "make_sandbox",
]

_HEADER = struct.Struct("!Q")
_WORKER = Path(__file__).with_name("_worker.py")
# What user code may import: text, numbers and data structures; nothing that reaches the
# operating system, the network or other processes.
ALLOWED_MODULES = (
    "re",
    "json",
    "math",
    "statistics",
    "collections",
    "itertools",
    "functools",
    "operator",
    "string",
    "textwrap",
    "heapq",
    "bisect",
    "random",
    "datetime",
    "difflib",
    "unicodedata",
    "dataclasses",
    "typing",
    "fractions",
    "decimal",
    "copy",
    "pprint",
)
NOBODY = 65534


@dataclass
class RunResult:
    """What one ``run`` did: printed output, the error text (None on success), a final answer
    set with ``FINAL`` / ``FINAL_VAR`` in the code (None if not), the time the code ran in the
    worker (``duration_ms``, sub-model calls excluded), the round trip seen from the parent
    (``wall_ms``, sub-model calls excluded) and the sub-model time."""

    output: str = ""
    error: str | None = None
    final: dict[str, Any] | None = None
    duration_ms: float = 0.0
    wall_ms: float = 0.0
    llm_ms: float = 0.0
    restarted: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Sandbox(Protocol):
    """Start, load a context, run code with a time and memory limit, read variables, stop."""

    def start(self) -> None: ...

    def load(self, context: str) -> None: ...

    def run(self, code: str) -> RunResult: ...

    def get(self, name: str) -> tuple[bool, str]: ...

    def stop(self) -> None: ...


class SandboxError(RuntimeError):
    """The worker died or answered out of protocol (the sandbox restarts it)."""


class SubprocessSandbox:
    """User code in a resource-limited worker process with a temporary folder of its own.

    Args:
        timeout_s: Per-step wall-clock limit on the user code (sub-model calls excluded).
        memory_mb: Address-space limit of the worker.
        cpu_s: Total CPU seconds of one worker (a backstop; the time-out acts first).
        max_output_chars: Characters one step may print before it is stopped.
        file_size_mb: Largest file the code may write (inside its folder).
        allowed_modules: What ``import`` may load.
        on_llm: ``on_llm(prompts) -> answers`` for ``llm_query``; None refuses sub-calls.
    """

    name = "subprocess"

    def __init__(
        self,
        timeout_s: float = 10.0,
        memory_mb: int = 1024,
        cpu_s: int = 600,
        max_output_chars: int = 100_000,
        file_size_mb: int = 16,
        allowed_modules: tuple[str, ...] = ALLOWED_MODULES,
        on_llm: Callable[[list[str]], list[str]] | None = None,
    ) -> None:
        if not timeout_s > 0:
            raise ValueError(f"Expected `timeout_s` > 0, got {timeout_s!r}")
        if int(memory_mb) < 64:
            raise ValueError(f"Expected `memory_mb` >= 64, got {memory_mb!r}")
        self.config = {
            "timeout_s": float(timeout_s),
            "memory_mb": int(memory_mb),
            "cpu_s": int(cpu_s),
            "max_output_chars": int(max_output_chars),
            "file_size_mb": int(file_size_mb),
            "allowed_modules": list(allowed_modules),
        }
        self.on_llm = on_llm
        self.folder: str | None = None
        self.process: subprocess.Popen | None = None
        self._context = ""
        self._buffer = b""

    # -- lifecycle ----------------------------------------------------------------------------
    def command(self) -> list[str]:
        """The worker's command line (subclasses wrap it)."""
        return [sys.executable, "-I", str(_WORKER), json.dumps(self.config)]

    def start(self) -> None:
        """Start the worker (a no-op when it runs)."""
        if self.process is not None and self.process.poll() is None:
            return
        if self.folder is None:
            self.folder = tempfile.mkdtemp(prefix="rlm_gym-sandbox-")
            if os.geteuid() == 0:
                os.chown(self.folder, NOBODY, NOBODY)
        self._buffer = b""
        self.process = subprocess.Popen(
            self.command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=self.folder,
            close_fds=True,
            start_new_session=True,
        )
        ready = self._receive(deadline=time.monotonic() + 30.0)
        if ready.get("op") != "ready":
            raise SandboxError(f"The sandbox worker did not start: {ready!r}")

    def stop(self) -> None:
        """Stop the worker and remove the folder: nothing is left behind."""
        process, self.process = self.process, None
        if process is not None:
            if process.poll() is None:
                try:
                    self._send_to(process, {"op": "stop"})
                    process.wait(timeout=1.0)
                except (OSError, subprocess.TimeoutExpired):
                    pass
            if process.poll() is None:
                process.kill()
            process.wait()
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    stream.close()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def __enter__(self) -> SubprocessSandbox:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __del__(self) -> None:
        if getattr(self, "process", None) is not None or getattr(self, "folder", None):
            self.stop()

    # -- operations ---------------------------------------------------------------------------
    def load(self, context: str) -> None:
        """A fresh REPL whose ``context`` is ``context`` (earlier variables are dropped)."""
        self.start()
        self._context = context
        self._send_context(context)

    def run(self, code: str) -> RunResult:
        """Run ``code`` in the REPL; every failure comes back as ``RunResult.error``."""
        self.start()
        start = time.perf_counter()
        llm_s = 0.0
        # The worker's own timer stops the code; this deadline catches code that swallows
        # the timer's exception or blocks in C, and is pushed back by sub-model time.
        grace = self.config["timeout_s"] + 2.0
        deadline = time.monotonic() + grace
        self._send({"op": "run", "code": code})
        while True:
            try:
                message = self._receive(deadline)
            except SandboxError as exc:
                return self._restart(str(exc), start, llm_s)
            if message.get("op") == "llm":
                began = time.monotonic()
                reply = self._answer(message["prompts"])
                self._send(reply)
                spent = time.monotonic() - began
                llm_s += spent
                deadline += spent
                continue
            if message.get("op") != "done":
                return self._restart(f"unexpected message {message.get('op')!r}", start, llm_s)
            return RunResult(
                output=message["output"],
                error=message["error"],
                final=message["final"],
                duration_ms=message["exec_ms"],
                wall_ms=(time.perf_counter() - start - llm_s) * 1000.0,
                llm_ms=llm_s * 1000.0,
            )

    def get(self, name: str) -> tuple[bool, str]:
        """``(found, text)`` of a REPL variable (``str`` values as they are, others ``repr``)."""
        self.start()
        self._send({"op": "get", "name": name})
        message = self._expect("value", time.monotonic() + 30.0)
        return bool(message["found"]), message["value"]

    # -- internals ----------------------------------------------------------------------------
    def _answer(self, prompts: list[str]) -> dict[str, Any]:
        if self.on_llm is None:
            return {"error": "no sub-model is configured for llm_query"}
        try:
            answers = [str(answer) for answer in self.on_llm(list(prompts))]
        except Exception as exc:
            return {"error": f"{type(exc).__name__}: {exc}"}
        return {"answers": answers}

    def _restart(self, reason: str, start: float, llm_s: float) -> RunResult:
        timeout = self.config["timeout_s"]
        process = self.process
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
        self.process = None
        self.start()
        self._send_context(self._context)
        return RunResult(
            error=(
                f"Execution timed out after {timeout:g} s or the sandbox worker died ({reason}); "
                "the sandbox was restarted and the REPL's variables were lost"
            ),
            duration_ms=(time.perf_counter() - start - llm_s) * 1000.0,
            wall_ms=(time.perf_counter() - start - llm_s) * 1000.0,
            llm_ms=llm_s * 1000.0,
            restarted=True,
        )

    def _send_context(self, context: str) -> None:
        data = context.encode("utf-8")
        header = json.dumps({"op": "load", "nbytes": len(data)}).encode("utf-8")
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write(_HEADER.pack(len(header)) + header)
            self.process.stdin.write(data)
            self.process.stdin.flush()
        except OSError as exc:
            raise SandboxError(f"cannot write to the sandbox worker: {exc}") from exc
        self._expect("loaded", time.monotonic() + 30.0)

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process is not None
        try:
            self._send_to(self.process, message)
        except OSError as exc:
            raise SandboxError(f"cannot write to the sandbox worker: {exc}") from exc

    @staticmethod
    def _send_to(process: subprocess.Popen, message: dict[str, Any]) -> None:
        data = json.dumps(message).encode("utf-8")
        process.stdin.write(_HEADER.pack(len(data)) + data)  # type: ignore[union-attr]
        process.stdin.flush()  # type: ignore[union-attr]

    def _expect(self, op: str, deadline: float) -> dict[str, Any]:
        message = self._receive(deadline)
        if message.get("op") != op:
            raise SandboxError(f"expected {op!r} from the sandbox worker, got {message!r}")
        return message

    def _read(self, size: int, deadline: float) -> bytes:
        assert self.process is not None and self.process.stdout is not None
        fd = self.process.stdout.fileno()
        while len(self._buffer) < size:
            left = deadline - time.monotonic()
            if left <= 0:
                raise SandboxError("time-out waiting for the sandbox worker")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, max(size - len(self._buffer), 1 << 16))
            if not chunk:
                raise SandboxError("the sandbox worker exited")
            self._buffer += chunk
        data, self._buffer = self._buffer[:size], self._buffer[size:]
        return data

    def _receive(self, deadline: float) -> dict[str, Any]:
        (size,) = _HEADER.unpack(self._read(_HEADER.size, deadline))
        return json.loads(self._read(size, deadline).decode("utf-8"))


class NetnsSandbox(SubprocessSandbox):
    """:class:`SubprocessSandbox` in a network namespace of its own (``unshare --net``).

    Needs ``unshare`` (util-linux) and either root or unprivileged user namespaces.
    """

    name = "netns"

    def command(self) -> list[str]:
        unshare = shutil.which("unshare")
        if unshare is None:
            raise RuntimeError("NetnsSandbox needs the `unshare` command (util-linux)")
        # As root the worker then drops to nobody itself; otherwise map the user to root in
        # a user namespace, which is what lets an unprivileged user create the namespace.
        prefix = [unshare, "--net"] if os.geteuid() == 0 else [unshare, "--net", "--map-root-user"]
        return [*prefix, *super().command()]


class BwrapSandbox(SubprocessSandbox):
    """:class:`SubprocessSandbox` inside bubblewrap (``bwrap``): the file system read-only but
    for the sandbox's folder, an empty ``/tmp``, and no network, processes or IPC of the host.

    Needs the ``bwrap`` command (the ``bubblewrap`` package).
    """

    name = "bwrap"

    def command(self) -> list[str]:
        bwrap = shutil.which("bwrap")
        if bwrap is None:
            raise RuntimeError("BwrapSandbox needs the `bwrap` command (package bubblewrap)")
        assert self.folder is not None
        isolation = [
            bwrap,
            "--ro-bind", "/", "/",
            "--dev", "/dev",
            "--proc", "/proc",
            "--tmpfs", "/tmp",
            *_rebind_under_tmp(),
            "--bind", self.folder, self.folder,
            "--chdir", self.folder,
            "--unshare-net", "--unshare-pid", "--unshare-ipc",
            "--die-with-parent",
        ]  # fmt: skip
        return [*isolation, *super().command()]


def _rebind_under_tmp() -> list[str]:
    """``--ro-bind`` arguments for what the worker runs from that lies under ``/tmp`` (a venv or
    a checkout made with ``mktemp -d``), which the empty ``/tmp`` would otherwise hide."""
    import rlm_gym

    needed = {sys.prefix, sys.base_prefix, os.path.dirname(os.path.dirname(rlm_gym.__file__))}
    needed.update(entry for entry in sys.path if entry and os.path.isdir(entry))
    paths = sorted(os.path.realpath(path) for path in needed)
    under_tmp = [path for path in paths if path == "/tmp" or path.startswith("/tmp/")]
    kept = [p for p in under_tmp if not any(p.startswith(q + "/") for q in under_tmp if q != p)]
    return [argument for path in kept if path != "/tmp" for argument in ("--ro-bind", path, path)]


SANDBOXES: dict[str, type[SubprocessSandbox]] = {
    "subprocess": SubprocessSandbox,
    "netns": NetnsSandbox,
    "bwrap": BwrapSandbox,
}


def make_sandbox(name: str | Sandbox, **kwargs: Any) -> Sandbox:
    """A sandbox by name (``"subprocess"``, ``"netns"``, ``"bwrap"``) or the instance given.

    Raises:
        ValueError: For an unknown name, with the closest one.
    """
    if not isinstance(name, str):
        return name
    if name not in SANDBOXES:
        import difflib

        close = difflib.get_close_matches(name, SANDBOXES, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"Unknown sandbox {name!r}.{hint} Available: {', '.join(SANDBOXES)}")
    return SANDBOXES[name](**kwargs)
