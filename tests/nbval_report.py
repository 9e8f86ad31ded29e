"""pytest plugin for the nbval run: counts the notebook cells whose stored outputs were really
compared, prints the count, and fails the session when it is zero (nbval silently passes a cell
that has no stored output, so "all passed" alone proves nothing).

It also compares what nbval leaves out: the figures. nbval skips ``image/png``; here every figure a
checked cell draws must equal the stored one byte for byte (the site shows the stored figures, and
a figure is as much a result as a printed number). Done on nbval's own execution, so no chapter is
executed a second time for it.

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


def _figures(outputs: list) -> list[str]:
    """The base64 PNG of every figure in ``outputs``, whitespace removed (nbformat may wrap it)."""
    return ["".join(out["data"]["image/png"].split()) for out in outputs
            if out.get("output_type") in ("display_data", "execute_result") and "image/png" in out.get("data", {})]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    result = yield
    if _checkable(item) and getattr(item, "test_outputs", None) is not None:
        stored, fresh = _figures(item.cell["outputs"]), _figures(item.test_outputs)
        if stored != fresh:
            changed = sum(a != b for a, b in zip(stored, fresh)) + abs(len(stored) - len(fresh))
            raise AssertionError(
                f"{item.name}: {changed} figure(s) differ from the stored ones ({len(stored)} stored, "
                f"{len(fresh)} drawn now); re-execute the chapter (make execute NB=...) if the change is meant")
    return result


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
