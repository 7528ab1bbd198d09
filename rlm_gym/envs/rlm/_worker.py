"""The sandbox's worker process: runs user code for rlm_gym's RLM env (stdlib only).

Started by :class:`rlm_gym.envs.rlm.sandbox.SubprocessSandbox` as ``python -I _worker.py
CONFIG`` with its temporary folder as the working directory. It speaks length-prefixed JSON
frames on the file descriptors it was given as stdin / stdout (then points 0, 1 and 2 at
/dev/null so nothing user code writes at the C level can corrupt a frame).

Layers, each stopping what the others may miss: resource limits (address space, CPU seconds,
file size, open files, processes), the user id ``nobody`` when started as root (file
permissions then apply), an import allow-list, a refusal of attributes that start with an
underscore and of dunder names (the ``().__class__.__subclasses__()`` family of escapes), an
audit hook that refuses opening files outside the folder, sockets, processes and the other ``os``
events, a per-step wall-clock timer that pauses during sub-model calls, and a cap on output.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import io
import json
import os
import resource
import signal
import struct
import sys
import time
import traceback

_HEADER = struct.Struct("!Q")
# Audit events refused while user code runs (prefixes); "open" is checked by path instead.
_BLOCKED_EVENTS = (
    "os.",
    "socket.",
    "subprocess.",
    "ctypes.",
    "shutil.",
    "pty.",
    "glob.",
    "signal.",
    "resource.",
    "fcntl.",
    "mmap.",
    "sqlite3.",
    "urllib.",
    "http.",
    "ftplib.",
    "smtplib.",
    "webbrowser.",
    "sys._getframe",
    "sys.settrace",
    "sys.setprofile",
    "code.__new__",
    "function.__new__",
    "object.__delattr__",
    "_posixsubprocess",
    "cpython.",
)


class SandboxViolation(PermissionError):
    """What the sandbox refused (an escape attempt or a forbidden import)."""


class OutputLimitExceeded(RuntimeError):
    """The step printed more than the configured number of characters."""


class StepTimeout(TimeoutError):
    """The step ran longer than its time-out (sub-model calls excluded)."""


class _CappedOutput(io.TextIOBase):
    def __init__(self, limit: int) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text = str(text)
        room = self.limit - self.size
        if len(text) > room:
            self.parts.append(text[: max(room, 0)])
            self.size = self.limit
            raise OutputLimitExceeded(
                f"Output limit exceeded: the step printed more than {self.limit:,} characters"
            )
        self.parts.append(text)
        self.size += len(text)
        return len(text)

    def getvalue(self) -> str:
        return "".join(self.parts)


class Worker:
    def __init__(self, config: dict, reader, writer) -> None:
        self.config = config
        self.reader, self.writer = reader, writer
        self.root = os.path.realpath(os.getcwd())
        self.allowed = frozenset(config["allowed_modules"])
        self.active = False
        self.timeout = float(config["timeout_s"])
        self.namespace: dict = {}
        self.final: dict | None = None
        self.llm_s = 0.0

    # -- frames ------------------------------------------------------------------------------
    def send(self, message: dict) -> None:
        data = json.dumps(message, default=repr).encode("utf-8")
        self.writer.write(_HEADER.pack(len(data)) + data)
        self.writer.flush()

    def receive(self) -> dict:
        header = self.reader.read(_HEADER.size)
        if len(header) < _HEADER.size:
            raise EOFError
        (size,) = _HEADER.unpack(header)
        return json.loads(self.reader.read(size).decode("utf-8"))

    # -- guards ------------------------------------------------------------------------------
    def audit(self, event: str, args: tuple) -> None:
        if not self.active:
            return
        if event == "open":
            path = args[0]
            if isinstance(path, int):
                return
            if isinstance(path, bytes):
                path = os.fsdecode(path)
            self.active = False
            try:
                real = os.path.realpath(os.path.join(self.root, str(path)))
            finally:
                self.active = True
            if real != self.root and not real.startswith(self.root + os.sep):
                raise SandboxViolation(
                    f"Sandbox: opening {str(path)!r} is not allowed (only files inside the "
                    "sandbox's own folder can be opened)"
                )
            return
        if event.startswith(_BLOCKED_EVENTS):
            raise SandboxViolation(f"Sandbox: {event!r} is not allowed inside the sandbox")

    def guarded_import(self, name, globals=None, locals=None, fromlist=(), level=0):
        top = name.partition(".")[0]
        if level != 0 or top not in self.allowed:
            raise SandboxViolation(
                f"Sandbox: import of {name!r} is not allowed; allowed modules: "
                f"{', '.join(sorted(self.allowed))}"
            )
        self.active = False
        try:
            return importlib.__import__(name, globals, locals, fromlist, level)
        finally:
            self.active = True

    def check_source(self, code: str) -> ast.AST:
        tree = ast.parse(code, "<repl>", "exec")
        for node in ast.walk(tree):
            # Attributes starting with "_" reach internals (``random._os``); plain names only
            # when they are dunders (``__import__``): ``for _, x in rows`` stays allowed.
            name = None
            if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
                name = node.attr
            elif isinstance(node, ast.Name) and node.id.startswith("__"):
                name = node.id
            if name is not None:
                raise SandboxViolation(
                    f"Sandbox: names starting with an underscore ({name!r}) are not allowed"
                )
        return tree

    def on_timer(self, signum, frame) -> None:
        raise StepTimeout(f"Execution timed out after {self.timeout:g} s")

    # -- the REPL's helpers ------------------------------------------------------------------
    def llm_query(self, prompt, model=None):
        return self.llm_query_batched([prompt], model)[0]

    def llm_query_batched(self, prompts, model=None):
        prompts = [str(prompt) for prompt in prompts]
        # Sub-model time is not the user code's time: the timer pauses while the parent works.
        remaining, _ = signal.setitimer(signal.ITIMER_REAL, 0)
        self.active = False
        began = time.perf_counter()
        try:
            self.send({"op": "llm", "prompts": prompts, "model": model})
            reply = self.receive()
        finally:
            self.llm_s += time.perf_counter() - began
            self.active = True
            if remaining > 0:
                signal.setitimer(signal.ITIMER_REAL, remaining)
        if reply.get("error"):
            raise RuntimeError(f"llm_query failed: {reply['error']}")
        return reply["answers"]

    def set_final(self, value) -> None:
        self.final = {"answer": value if isinstance(value, str) else repr(value)}

    def set_final_var(self, name) -> None:
        name = str(name).strip().strip("'\"")
        if name not in self.namespace:
            raise NameError(f"FINAL_VAR: no variable named {name!r}; see SHOW_VARS()")
        value = self.namespace[name]
        self.final = {"answer": value if isinstance(value, str) else repr(value), "var": name}

    def show_vars(self) -> str:
        rows = [
            f"{name}: {type(value).__name__}"
            for name, value in self.namespace.items()
            if not name.startswith("_") and name not in self.helpers()
        ]
        text = "\n".join(rows) if rows else "(no variables)"
        print(text)
        return text

    def helpers(self) -> dict:
        return {
            "llm_query": self.llm_query,
            "llm_query_batched": self.llm_query_batched,
            "FINAL": self.set_final,
            "FINAL_VAR": self.set_final_var,
            "SHOW_VARS": self.show_vars,
        }

    def fresh_namespace(self, context: str) -> None:
        builtins = dict(vars(__builtins__) if not isinstance(__builtins__, dict) else __builtins__)
        for name in ("input", "breakpoint", "exit", "quit", "help", "copyright", "credits"):
            builtins.pop(name, None)
        builtins["__import__"] = self.guarded_import
        # getattr("x", "_name") would walk around the source check: the same rule applies.
        for name in ("getattr", "setattr", "delattr", "hasattr"):
            builtins[name] = _no_underscore(builtins[name])
        self.namespace = {"__builtins__": builtins, "__name__": "__repl__", "context": context}
        self.namespace.update(self.helpers())

    # -- operations --------------------------------------------------------------------------
    def run(self, code: str) -> dict:
        self.final = None
        self.llm_s = 0.0
        started = time.perf_counter()
        output = _CappedOutput(int(self.config["max_output_chars"]))
        error = None
        stdout, stderr = sys.stdout, sys.stderr
        try:
            tree = self.check_source(code)
            compiled = compile(tree, "<repl>", "exec")
            sys.stdout = sys.stderr = output
            self.active = True
            signal.setitimer(signal.ITIMER_REAL, self.timeout)
            try:
                exec(compiled, self.namespace)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                self.active = False
        except BaseException as exc:
            # (SIGINT is ignored here, so this is user code: SystemExit, MemoryError, ...)
            self.active = False
            error = self.describe(exc)
        finally:
            sys.stdout, sys.stderr = stdout, stderr
        exec_ms = (time.perf_counter() - started - self.llm_s) * 1000.0
        return {
            "output": output.getvalue(),
            "error": error,
            "final": self.final,
            "exec_ms": exec_ms,
        }

    @staticmethod
    def describe(exc: BaseException) -> str:
        lines = traceback.format_exception_only(type(exc), exc)
        return "".join(lines).strip()[:2000]

    def serve(self) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGALRM, self.on_timer)
        sys.addaudithook(self.audit)
        self.fresh_namespace("")
        self.send({"op": "ready", "pid": os.getpid()})
        while True:
            try:
                message = self.receive()
            except EOFError:
                return
            op = message["op"]
            if op == "load":
                # The context follows as raw UTF-8: JSON-escaping megabytes costs more.
                self.fresh_namespace(self.reader.read(message["nbytes"]).decode("utf-8"))
                self.send({"op": "loaded"})
            elif op == "run":
                self.send({"op": "done", **self.run(message["code"])})
            elif op == "get":
                name = message["name"]
                found = name in self.namespace and name not in self.helpers()
                value = self.namespace.get(name) if found else None
                text = value if isinstance(value, str) else repr(value)
                self.send({"op": "value", "found": found, "value": text})
            elif op == "stop":
                self.send({"op": "stopped"})
                return


def _no_underscore(function):
    def guarded(obj, name, *rest):
        if isinstance(name, str) and name.startswith("_"):
            raise SandboxViolation(
                f"Sandbox: names starting with an underscore ({name!r}) are not allowed"
            )
        return function(obj, name, *rest)

    guarded.__name__ = function.__name__
    return guarded


def _limit(kind: int, value: int) -> None:
    _soft, hard = resource.getrlimit(kind)
    value = value if hard == resource.RLIM_INFINITY else min(value, hard)
    resource.setrlimit(kind, (value, value))


def main() -> None:
    config = json.loads(sys.argv[1])
    reader = os.fdopen(os.dup(0), "rb")
    writer = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    for name in config["allowed_modules"]:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    if os.geteuid() == 0 and config.get("drop_to_nobody", True):
        # As root, file permissions stop nothing: run as nobody (the parent made the folder
        # nobody's), so writes elsewhere fail in the kernel too, and RLIMIT_NPROC applies.
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)
    memory = int(config["memory_mb"]) * 1024 * 1024
    _limit(resource.RLIMIT_AS, memory)
    _limit(resource.RLIMIT_CPU, int(config["cpu_s"]))
    _limit(resource.RLIMIT_FSIZE, int(config["file_size_mb"]) * 1024 * 1024)
    _limit(resource.RLIMIT_NOFILE, 64)
    _limit(resource.RLIMIT_NPROC, 0)
    # A write past the file-size limit then fails with an OSError instead of killing us.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    Worker(config, reader, writer).serve()


if __name__ == "__main__":
    main()
