"""pytest plugin for the nbval run: counts the notebook cells whose stored outputs were really
compared, prints the count, and fails the session when it is zero (nbval silently passes a cell
that has no stored output, so "all passed" alone proves nothing)."""

from __future__ import annotations

import pytest

_compared: list[str] = []
_comparable: set[str] = set()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.passed and report.nodeid in _comparable:
        _compared.append(report.nodeid)



def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        cell = getattr(item, "cell", None)
        options = getattr(item, "options", {})
        if cell is not None and cell.get("outputs") and options.get("check") and not options.get("skip"):
            _comparable.add(item.nodeid)


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # noqa: ANN001
    terminalreporter.write_line(
        f"nbval: compared the stored outputs of {len(_compared)} of {len(_comparable)} checkable cells"
    )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if exitstatus == 0 and not _compared:
        session.exitstatus = 1
        print("\nnbval: no cell output was compared; failing (execute the notebooks and commit outputs)")
