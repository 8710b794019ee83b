"""Write the brief's files safely: never onto an input, atomically, and only once everything is ready.

``check_targets`` refuses any output that resolves (through symbolic links, ``..`` or hard links) to
a file inside the KB root, to the manifest, or to a file the run read, and two outputs on one path.
``write_all`` writes every file to a temporary file beside its target, fsyncs it, and renames all of
them only when all were written: a run killed half-way leaves the previous files whole.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError


@dataclass(frozen=True)
class Target:
    """One output: what the user typed (for messages), and the option it came from."""

    path: str
    option: str


def _real(path: str | Path) -> Path:
    """The path with every symbolic link and ``..`` resolved; never raises on loops or long names.

    A link to something without a name (``/dev/stderr`` or ``/dev/fd/N`` onto a pipe or a socket:
    ``/proc/self/fd/N`` reads ``pipe:[123]``) is kept as written: it opens, its target does not.
    """
    try:
        real = os.path.realpath(path)
    except (OSError, RuntimeError, ValueError):
        return Path(os.path.abspath(path))
    if not os.path.lexists(real) and os.path.exists(path):
        return Path(os.path.abspath(path))
    return Path(real)


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def check_targets(
    targets: Sequence[Target],
    *,
    kb_root: str | Path | None,
    inputs: Iterable[str | Path] = (),
) -> None:
    """Raise ``InputError`` (one line, naming the option and the path) for an output that is unsafe.

    ``kb_root``: no output may resolve inside it. ``inputs``: files the run reads (the manifest, the
    materials); no output may be one of them, by path or by inode (a hard link).
    """
    root = _real(kb_root) if kb_root is not None else None
    input_paths = {_real(p) for p in inputs}
    input_ids = {i for p in inputs if (i := _identity(Path(p))) is not None}
    seen: dict[Path, Target] = {}
    for t in targets:
        if not t.path:
            raise InputError(None, f"{t.option}: empty path")
        real = _real(t.path)
        if real in seen:
            other = seen[real]
            raise InputError(t.path, f"{t.option} and {other.option} name the same file; give them different paths")
        seen[real] = t
        if real in input_paths or _identity(real) in input_ids:
            raise InputError(t.path, f"{t.option} would overwrite an input of this run; choose another path")
        if root is not None and (real == root or real.is_relative_to(root)):
            raise InputError(t.path, f"{t.option} resolves inside the KB root {root}; the KB is never written")
        try:
            st = os.stat(real)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            raise InputError(t.path, f"{t.option}: cannot be used ({exc.strerror})") from None
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise InputError(t.path, f"{t.option} is a folder; give a file path")
        if st is None or stat.S_ISREG(st.st_mode):
            parent = real.parent
            if not parent.is_dir():
                raise InputError(t.path, f"{t.option}: the folder {parent} does not exist")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise InputError(t.path, f"{t.option}: the folder {parent} is not writable")


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_all(files: Sequence[tuple[Target, str]]) -> None:
    """Write every (target, text) atomically; on any failure nothing is replaced and ``InputError`` is raised.

    A target that exists and is not a regular file (``/dev/null``, a terminal, a FIFO) is written
    directly: it cannot be replaced by a rename.
    """
    staged: list[tuple[str, Path, Target]] = []
    direct: list[tuple[Target, Path, str]] = []
    current = files[0][0] if files else Target("", "")
    try:
        for target, text in files:
            current = target
            real = _real(target.path)
            try:
                st = os.stat(real)
            except OSError:
                st = None
            if st is not None and not stat.S_ISREG(st.st_mode):
                direct.append((target, real, text))
                continue
            fd, tmp = tempfile.mkstemp(prefix=f".{real.name[:100]}.", suffix=".tmp", dir=real.parent)
            staged.append((tmp, real, target))
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()
            os.chmod(tmp, mode)
        for target, real, text in direct:
            current = target
            with open(real, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        for tmp, real, target in staged:
            current = target
            os.replace(tmp, real)
        for folder in {real.parent for _tmp, real, _t in staged}:
            _fsync_dir(folder)
    except OSError as exc:
        raise _write_error(current, exc) from None
    finally:
        for tmp, _real_path, _target in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _write_error(target: Target, exc: OSError) -> InputError:
    return InputError(target.path, f"{target.option}: cannot be written ({exc.strerror or exc}); nothing was replaced")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
