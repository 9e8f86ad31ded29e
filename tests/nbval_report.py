"""pytest plugin for the nbval run: counts the notebook cells whose stored outputs were really
compared, prints the count, and fails the session when it is zero (nbval silently passes a cell
that has no stored output, so "all passed" alone proves nothing).

Works with pytest-xdist (``make test`` runs unit tests and nbval on two workers): a worker tags the
report of each checkable cell, and the controller, which sees every report, counts the tags.
"""

from __future__ import annotations

import pytest

_TAG = "nbval_checkable"
_compared: set[str] = set()
_comparable: set[str] = set()


def _checkable(item: pytest.Item) -> bool:
    cell = getattr(item, "cell", None)
    options = getattr(item, "options", {})
    return cell is not None and bool(cell.get("outputs")) and bool(options.get("check")) and not options.get("skip")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    outcome = yield
    if _checkable(item):
        outcome.get_result().user_properties.append((_TAG, True))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if not any(prop[0] == _TAG for prop in report.user_properties):
        return
    _comparable.add(report.nodeid)
    if report.when == "call" and report.passed:
        _compared.add(report.nodeid)


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # noqa: ANN001
    terminalreporter.write_line(
        f"nbval: compared the stored outputs of {len(_compared)} of {len(_comparable)} checkable cells"
    )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _is_worker(session.config):  # a worker sees only its share; the controller decides
        return
    if exitstatus == 0 and not _compared:
        session.exitstatus = 1
        print("\nnbval: no cell output was compared; failing (execute the notebooks and commit outputs)")
