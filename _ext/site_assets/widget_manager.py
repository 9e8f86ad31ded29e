"""The esbuild bundle: the slider pages' widget manager, built from the pinned npm packages."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from sphinx.errors import ExtensionError

NODE_MODULES = Path(__file__).resolve().parents[2] / "node_modules"

# The widget manager the slider pages load (nb_ipywidgets_js in _config.yml names its output): built by
# esbuild (a pinned devDependency) from @jupyter-widgets/html-manager's own AMD embed entry, without the
# ipywidgets controls, ipywidgets 7 and output widgets that its dist/embed-amd.js bundles (0.92 MB of
# its gzipped size; the book's widget state holds only anywidget models and base layouts).
WIDGET_MANAGER = Path(__file__).resolve().parents[1] / "vendor" / "widget-manager" / "build.mjs"
WIDGET_MANAGER_OUT = "html-manager/embed-amd.js"  # under _vendor/

def build_widget_manager(outfile: Path, node_modules: Path = NODE_MODULES) -> list[Path]:
    """Bundle the slider pages' widget manager into ``outfile`` (``WIDGET_MANAGER``, run with node);
    return the files written (the bundle and the licences of the code it holds).

    Raises ``ExtensionError`` naming the command to run if node or esbuild is missing or the build fails.
    """
    if not (node_modules / "esbuild" / "package.json").is_file():
        raise ExtensionError(f"esbuild not found in {node_modules}: the site builds its own widget manager; "
                             "run 'make book' (or 'npm ci') first")
    node = shutil.which("node")
    if node is None:
        raise ExtensionError("node not found on PATH: the site builds its own widget manager with it (see README)")
    outfile.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([node, str(WIDGET_MANAGER), str(outfile)], capture_output=True, text=True, check=False)
    if done.returncode != 0 or not outfile.is_file():
        raise ExtensionError(f"building the widget manager failed ({WIDGET_MANAGER}):\n{done.stderr}{done.stdout}")
    return [outfile, *sorted(outfile.parent.glob(outfile.name + ".LEGAL.txt"))]


