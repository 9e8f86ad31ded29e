"""Kernels for nbval forked from a process that has already imported the chapters' libraries.

Every chapter starts with the same imports (torch, numpy, matplotlib, attnlib, IPython's kernel):
about 4 s of CPU (the imports 3.4 s, ipykernel's start 0.8 s) in each of the 32 notebooks that
``make test``'s nbval runs, a quarter of nbval's time. Here one process per pytest worker, the
*zygote*, imports them once and then only forks: each kernel is a child of it that runs ipykernel
from there, a process no notebook ran in before, with the notebook's folder as its working
directory and the environment Jupyter gives a kernel.
Names a chapter uses must still be imported by its own cells (the modules are loaded, nothing is
in the notebook's namespace), and the chapters' stored outputs are made by ``make execute`` with
ordinary kernels, so that nbval comparing them with these kernels' outputs also checks that the
two start the same.

:func:`forked` makes Jupyter start the kernels of a kernel spec this way (tests/nbval_report.py
applies it to the spec of nbval's kernels, and to no other): a kernel provisioner,
:class:`ForkedProvisioner`, that asks the zygote for a child where Jupyter's own provisioner would
start ``python -m ipykernel_launcher``. The zygote is started at the first kernel and ends with
the process that started it; a kernel ends with the zygote.

Run as ``python -m bookdev.kernel_fork`` it is the zygote: it reads one request a line on stdin
(JSON: the kernel's command, working directory and environment) and answers each with the child's
pid on stdout.
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import subprocess
import sys
import time
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

from jupyter_client.provisioning import KernelProvisionerFactory, LocalProvisioner

ROOT = Path(__file__).resolve().parents[1]
NAME = "bookdev-forked-kernel"
#: What the zygote imports before it forks: what (almost) every chapter imports, the heavy part of a
#: kernel's start. Not the widget libraries: ipywidgets registers itself with the kernel it is
#: imported in, so it must be imported in the kernel.
PRELOAD = ("numpy", "torch", "matplotlib", "matplotlib.pyplot", "attnlib", "ipykernel.kernelapp")
#: The command Jupyter's kernel spec for this Python gives a kernel (after the interpreter).
_LAUNCHER = ["-m", "ipykernel_launcher"]
#: The backend ipykernel sets before matplotlib is first imported (matplotlib reads it at import).
_INLINE = "module://matplotlib_inline.backend_inline"


class _Child:
    """What Jupyter's provisioner keeps of a kernel process (``poll``, ``wait``, signals) for a child
    of the zygote: not our child, so it is watched by its pid (the zygote reaps it)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                self.returncode = 0
        return self.returncode

    def wait(self) -> int:  # Jupyter's provisioner waits once poll() has seen the end, with no timeout
        while self.poll() is None:
            time.sleep(0.02)
        return self.returncode  # type: ignore[return-value]

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


class _Zygote:
    """The zygote of this process, started on first use."""

    proc: subprocess.Popen | None = None

    @classmethod
    def fork(cls, argv: list[str], cwd: str, env: dict[str, str]) -> int:
        if cls.proc is None or cls.proc.poll() is not None:
            cls.proc = subprocess.Popen(
                [sys.executable, "-m", "bookdev.kernel_fork"], cwd=ROOT, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, text=True, env={**os.environ, "MPLBACKEND": _INLINE},
            )
            atexit.register(cls.proc.kill)
        assert cls.proc.stdin and cls.proc.stdout
        cls.proc.stdin.write(json.dumps({"argv": argv, "cwd": cwd, "env": env}) + "\n")
        cls.proc.stdin.flush()
        answer = cls.proc.stdout.readline()
        if not answer:
            raise RuntimeError("the kernel zygote (python -m bookdev.kernel_fork) ended; see its output above")
        return int(answer)


class ForkedProvisioner(LocalProvisioner):
    """Jupyter's local provisioner, but an ipykernel for this Python is a child of the zygote."""

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> Any:
        if cmd[0] != sys.executable or cmd[1:3] != _LAUNCHER:
            return await super().launch_kernel(cmd, **kwargs)
        cwd = str(kwargs.get("cwd") or os.getcwd())
        env = kwargs.get("env") or dict(os.environ)
        self.process = _Child(_Zygote.fork(cmd, cwd, env))
        self.pid = self.pgid = self.process.pid  # the child leads a session of its own, as Jupyter's kernels do
        self.cwd = cwd
        return self.connection_info


def forked(spec: Any) -> Any:
    """``spec``, a Jupyter kernel spec, changed so that the kernels started from it are children of
    the zygote (:class:`ForkedProvisioner`, made known to Jupyter in this process here)."""
    factory = KernelProvisionerFactory.instance()
    factory.provisioners[NAME] = EntryPoint(NAME, f"{__name__}:ForkedProvisioner", KernelProvisionerFactory.GROUP_NAME)
    spec.metadata["kernel_provisioner"] = {"provisioner_name": NAME, "config": {}}
    return spec


def _become_kernel(request: dict[str, Any]) -> None:
    """In the forked child: become ``python -m ipykernel_launcher ARGS`` started in ``cwd`` with ``env``."""
    os.setsid()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    # ipykernel ends when its parent does: the zygote, which ends with the process that started it
    os.environ["JPY_PARENT_PID"] = str(os.getppid())
    # sys.path as `python -m ipykernel_launcher` has it in cwd, without the zygote's folder (the
    # repository's root, where bookdev, tools and tests would be importable as they are not in a kernel)
    sys.path[:] = [os.getcwd()] + [p for p in sys.path if p not in (str(ROOT), "")]
    for name in [m for m in sys.modules if m == "bookdev" or m.startswith("bookdev.")]:
        del sys.modules[name]
    import ipykernel_launcher
    from ipykernel import kernelapp

    sys.argv = [ipykernel_launcher.__file__, *request["argv"][3:]]
    kernelapp.launch_new_instance()


def _serve() -> None:
    for module in PRELOAD:
        __import__(module)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel's parent is us: reap it when it ends
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                _become_kernel(request)
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            finally:
                os._exit(code)
        sys.stdout.write(f"{pid}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    _serve()
