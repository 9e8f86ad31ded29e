"""nbval's kernels, forked from a process that imported the chapters' libraries once
(bookdev/kernel_fork.py), start as a kernel Jupyter starts itself would: in the notebook's folder,
with the environment Jupyter gives a kernel, nothing in the notebook's namespace, and no module of
the repository's own tooling importable; they are interrupted and shut down as Jupyter's own are.
(That they compute every chapter's stored outputs is ``make test``'s nbval run itself; the outputs
were stored by ``make execute`` with ordinary kernels.)"""

from __future__ import annotations

import os
import time
from pathlib import Path
from queue import Empty

import pytest
from jupyter_client.manager import KernelManager

from bookdev import kernel_fork
from tests._project import ROOT


def _run(kc, code: str, timeout: float = 30) -> tuple[str, str | None]:  # noqa: ANN001
    """Execute ``code``; return (its printed text, the error's name or None)."""
    msg_id = kc.execute(code)
    out, error = [], None
    while True:
        msg = kc.get_iopub_msg(timeout=timeout)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            out.append(content["text"])
        elif kind == "error":
            error = content["ename"]
        elif kind == "status" and content["execution_state"] == "idle":
            return "".join(out), error


@pytest.fixture(scope="module")
def kernel():
    """One forked kernel, started in book/ as nbval starts a chapter's, with one variable of our own
    in its environment. Yields ``(manager, client)``."""
    km = KernelManager(kernel_name="python3")
    kernel_fork.forked(km.kernel_spec)  # the manager's own spec, changed in place
    km.start_kernel(cwd=str(ROOT / "book"), env={**os.environ, "BOOK_FORK_PROBE": "probe-17"})
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    yield km, kc
    kc.stop_channels()
    if km.is_alive():
        km.shutdown_kernel(now=True)


def test_the_kernel_is_a_child_of_the_zygote(kernel) -> None:  # noqa: ANN001
    km, kc = kernel
    assert isinstance(km.provisioner, kernel_fork.ForkedProvisioner)
    out, error = _run(kc, "import os; print(os.getppid(), os.getpid())")
    assert error is None
    parent, pid = map(int, out.split())
    assert parent == kernel_fork._Zygote.proc.pid and pid == km.provisioner.pid


def test_it_starts_where_and_as_jupyter_starts_a_kernel(kernel) -> None:  # noqa: ANN001
    _, kc = kernel
    out, error = _run(kc, "import os, sys; print(os.getcwd()); print(os.environ.get('BOOK_FORK_PROBE')); "
                          "print(sys.modules['matplotlib'].get_backend())")
    assert error is None
    cwd, probe, backend = out.split("\n")[:3]
    assert Path(cwd) == ROOT / "book"
    assert probe == "probe-17"
    assert backend == "module://matplotlib_inline.backend_inline"


def test_nothing_is_in_the_namespace_and_the_tooling_is_not_importable(kernel) -> None:  # noqa: ANN001
    _, kc = kernel
    assert _run(kc, "torch")[1] == "NameError"  # loaded in the zygote, yet not imported by the notebook
    for module in ("bookdev", "tools", "tests"):
        assert _run(kc, f"import {module}")[1] == "ModuleNotFoundError", module
    out, error = _run(kc, "import torch, attnlib; print(torch.ones(2).sum().item())")
    assert (out.strip(), error) == ("2.0", None)


def test_interrupt_and_shutdown_reach_the_forked_kernel(kernel) -> None:  # noqa: ANN001
    km, kc = kernel
    msg_id = kc.execute("import time; time.sleep(60)")
    time.sleep(0.5)
    km.interrupt_kernel()
    error = None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            msg = kc.get_iopub_msg(timeout=1)
        except Empty:
            continue
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "error":
            error = msg["content"]["ename"]
            break
    assert error == "KeyboardInterrupt"
    pid = km.provisioner.pid
    km.shutdown_kernel(now=True)
    with pytest.raises(ProcessLookupError):
        for _ in range(100):
            os.kill(pid, 0)
            time.sleep(0.05)
