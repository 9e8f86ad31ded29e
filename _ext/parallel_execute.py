"""Execute the notebooks a build is about to read in parallel, into myst-nb's jupyter-cache.

myst-nb executes notebooks one after the other while Sphinx reads them, and most of each
execution is a fixed cost (starting a kernel, importing torch and matplotlib) that leaves the other
core idle. Just before Sphinx reads the changed documents, this extension finds the notebooks among
them that the cache does not hold yet and executes them with jupyter-cache's parallel executor
(one process per core), into the same cache. myst-nb then finds every notebook in the cache and
only renders it. Nothing else changes: a notebook that fails here is not cached, so myst-nb
executes it again itself and reports the error as it always does; a no-op build reads no document
and does nothing here. ``ATTNBOOK_SERIAL_EXECUTION=1`` switches it off. Registered in
``_config.yml``; ``benchmarks/bench_build.py`` measures the build with and without it.
"""

from __future__ import annotations

import fnmatch
import logging as pylogging
import os
import time
from pathlib import Path
from typing import Any

from sphinx.util import logging

logger = logging.getLogger(__name__)


def _missing_from_cache(cache: Any, paths: list[Path]) -> list[Path]:
    import nbformat

    missing = []
    for path in paths:
        try:
            cache.match_cache_notebook(nbformat.read(path, as_version=4))
        except KeyError:
            missing.append(path)
    return missing


def execute_in_parallel(app: Any, env: Any, docnames: list[str]) -> None:
    if os.environ.get("ATTNBOOK_SERIAL_EXECUTION"):  # leave all execution to myst-nb (for comparison)
        return
    cfg = getattr(env, "mystnb_config", None)  # myst-nb's resolved settings, cache path included
    if cfg is None or cfg.execution_mode != "cache" or not cfg.execution_cache_path:
        return
    excluded = list(cfg.execution_excludepatterns or [])
    paths = [Path(env.doc2path(d)) for d in sorted(docnames)]
    paths = [p for p in paths if p.suffix == ".ipynb" and not any(fnmatch.fnmatch(str(p), pat) for pat in excluded)]
    if len(paths) < 2:
        return
    from jupyter_cache import get_cache
    from jupyter_cache.executors import load_executor

    cache = get_cache(cfg.execution_cache_path)
    missing = _missing_from_cache(cache, paths)
    if len(missing) < 2:  # nothing to gain over myst-nb's own execution
        return
    records = [cache.add_nb_to_project(str(p)) for p in missing]
    t0 = time.perf_counter()
    quiet = pylogging.getLogger("attnbook.parallel_execute")  # jupyter-cache logs every step at INFO
    quiet.setLevel(pylogging.WARNING)
    executor = load_executor("local-parallel", cache=cache, logger=quiet)
    result = executor.run_and_cache(filter_pks=[r.pk for r in records], timeout=cfg.execution_timeout,
                                    allow_errors=cfg.execution_allow_errors)
    logger.info(f"[parallel_execute] executed {len(missing)} notebooks in parallel in "
                f"{time.perf_counter() - t0:.1f} s; {len(result.succeeded)} cached, "
                f"{len(result.excepted) + len(result.errored)} left for myst-nb to execute and report")


def setup(app: Any) -> dict[str, Any]:
    app.connect("env-before-read-docs", execute_in_parallel)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
