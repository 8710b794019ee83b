"""Files that ship inside the package (prompts, published schemas), found with ``importlib.resources``.

The code never walks up from ``__file__``: an installed wheel has no checkout around it.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .errors import ConfigError


def package_dir(name: str) -> Path:
    """The folder ``e1prep/<name>`` of the installed package as a filesystem path.

    Raises ``ConfigError`` when the package is not installed as files (e.g. imported from a zip).
    """
    folder = resources.files("e1prep").joinpath(name)
    if not isinstance(folder, Path) or not folder.is_dir():
        raise ConfigError(f"e1prep/{name} is not a folder of the installed package ({folder}); reinstall e1prep")
    return folder


def package_root() -> Path | None:
    """The folder of the installed ``e1prep`` package, or None when it is not installed as files.

    Outputs are never written inside it (``brief.outputs``): ``--out src/e1prep/render.py`` would
    replace the program's own source.
    """
    folder = resources.files("e1prep")
    return folder if isinstance(folder, Path) and folder.is_dir() else None
