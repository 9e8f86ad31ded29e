"""What the benchmark scripts share: progress lines and publishing the final report."""

from __future__ import annotations

from pathlib import Path


def say(text: str = "") -> None:
    """Print a progress line at once (the scripts run for minutes)."""
    print(text, flush=True)


def publish(report: str, out: Path | None) -> None:
    """Print the Markdown report and, with ``out``, write it to that file."""
    say()
    say(report)
    if out:
        out.write_text(report + "\n", encoding="utf-8")
        say(f"(written to {out})")
