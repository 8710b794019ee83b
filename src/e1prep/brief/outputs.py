"""Write the brief's files safely: never onto anything e1prep reads or owns, atomically, only when all is ready.

``check_targets`` refuses any output that resolves (through symbolic links, ``..`` or hard links) to
a file inside the KB root, inside another guarded folder (the golden cases being evaluated, the
installed e1prep package), to a file the run reads (the manifest, the materials, a cassette and its
``MANIFEST.json``, the thresholds), to a FIFO, socket or device (a FIFO would block the run for ever),
and two outputs on one path. The null device and the run's own standard output or error stay usable.

``write_all`` writes every file to an anonymous file in its target's folder (``O_TMPFILE``; a named
``.X.*.tmp`` where the file system has none), fsyncs it, and names it only when all were written, each
by one rename over its target: a run killed half-way leaves the previous files whole, and no temporary
file. A temporary name is removed on any exit Python sees (an error, Ctrl-C, SIGTERM through the CLI).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import signal
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .._resources import package_root
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


_SPECIAL_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _own_stream(st: os.stat_result) -> bool:
    """``st`` is this process's standard output or error (``/dev/stdout``, ``/dev/fd/2``): writing there is
    what the user asked for when they named it, and a reader is already there."""
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            own = os.fstat(fd)
            if (own.st_dev, own.st_ino) == (st.st_dev, st.st_ino):
                return True
    return False


def _null_device(st: os.stat_result) -> bool:
    """``st`` is the null device (``/dev/null``): it takes anything at once and keeps nothing."""
    try:
        null = os.stat(os.devnull)
    except OSError:
        return False
    return stat.S_ISCHR(st.st_mode) and stat.S_ISCHR(null.st_mode) and st.st_rdev == null.st_rdev


def special_kind(st: os.stat_result, *, inherited: bool = False) -> str | None:
    """What a file that is not a regular file is, when an output may not go there; None when it may
    (a regular file, the null device, the run's own stdout or stderr, or a pipe this process was handed
    open: ``>(jq .)``'s ``/dev/fd/N``). A FIFO nobody reads would block the run for ever, and a device
    is not a file to keep a brief in."""
    if stat.S_ISREG(st.st_mode) or _null_device(st) or _own_stream(st):
        return None
    if inherited and (stat.S_ISFIFO(st.st_mode) or stat.S_ISSOCK(st.st_mode)):
        return None
    return next((name for test, name in _SPECIAL_KINDS if test(st.st_mode)), "not a regular file")


def _guarded_folders(
    kb_root: str | Path | None, folders: Iterable[tuple[str | Path, str]]
) -> list[tuple[Path, str, str]]:
    """(resolved folder, what it is, why it is never written) for the KB root, the given folders and the package."""
    guarded = [(_real(folder), what, "e1prep never writes there") for folder, what in folders]
    if kb_root is not None:
        guarded.insert(0, (_real(kb_root), "the KB root", "the KB is never written"))
    package = package_root()
    if package is not None:
        guarded.append((_real(package), "the installed e1prep package", "e1prep never writes over itself"))
    return guarded


def check_targets(
    targets: Sequence[Target],
    *,
    kb_root: str | Path | None,
    inputs: Iterable[str | Path] = (),
    folders: Iterable[tuple[str | Path, str]] = (),
) -> None:
    """Raise ``InputError`` (one line, naming the option and the path) for an output that is unsafe.

    ``kb_root``: no output may resolve inside it. ``inputs``: files the run reads (the manifest, the
    materials, a cassette, the thresholds); no output may be one of them, by path or by inode (a hard
    link). ``folders``: (folder, what it is) that no output may resolve inside either (a golden case);
    the installed e1prep package is always one. FIFOs, sockets and devices are refused, except the null
    device and the run's own standard output or error.
    """
    input_list = list(inputs)
    input_paths = {_real(p) for p in input_list}
    input_ids = {i for p in input_list if (i := _identity(Path(p))) is not None}
    guarded = _guarded_folders(kb_root, folders)
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
        for folder, what, why in guarded:
            if real == folder or real.is_relative_to(folder):
                raise InputError(t.path, f"{t.option} resolves inside {what} {folder}; {why}")
        _check_file(t, real)


_OPEN_DESCRIPTOR = re.compile(r"/(?:dev/fd|proc/self/fd)/(\d+)")


def _inherited(path: str | Path) -> bool:
    """Whether ``path`` names a descriptor this process already holds open (no open can block on it)."""
    m = _OPEN_DESCRIPTOR.fullmatch(str(path))
    if m is None:
        return False
    try:
        os.fstat(int(m.group(1)))
    except (OSError, ValueError, OverflowError):
        return False
    return True


def _check_file(t: Target, real: Path) -> None:
    """The target itself: a regular file or a new name in a writable folder, never a folder, FIFO or device.

    Its kind is read through the path as typed: ``/dev/stderr`` on a pipe resolves to no real path.
    """
    try:
        st = os.stat(t.path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise InputError(t.path, f"{t.option}: cannot be used ({exc.strerror})") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise InputError(t.path, f"{t.option} is a folder; give a file path")
    if st is not None and (kind := special_kind(st, inherited=_inherited(t.path))) is not None:
        raise InputError(t.path, f"{t.option} is {kind}, not a regular file; give a file path (or - for stdout)")
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


@dataclass
class _Staged:
    """One output written but not yet named: its bytes and mode, and the file holding them (anonymous until
    ``name`` is set) that one rename puts over ``real``."""

    target: Target
    real: Path
    data: bytes
    mode: int
    fd: int = -1
    name: Path | None = None


def _anonymous_files() -> bool:
    """Whether files can be made without a name (``O_TMPFILE``) and named later (``/proc/self/fd``)."""
    return bool(getattr(os, "O_TMPFILE", 0)) and os.path.isdir("/proc/self/fd")


def _temp_name(real: Path) -> Path:
    """A fresh ``.NAME.XXXXXXXX.tmp`` beside ``real``: hidden, and plainly e1prep's temporary file."""
    return real.parent / f".{real.name[:100]}.{secrets.token_hex(4)}.tmp"


def _open_named(real: Path, names: list[Path]) -> tuple[int, Path]:
    """A new named temporary file beside ``real``; its name is in ``names`` before it exists, so it is
    removed whatever interrupts the run after this point."""
    for _attempt in range(100):
        name = _temp_name(real)
        names.append(name)
        try:
            return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600), name
        except FileExistsError:
            names.pop()
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(real.parent))


def _write_fd(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _fill(fd: int, staged: _Staged) -> None:
    """Write the staged bytes, fsynced, with the mode the target has (or would get)."""
    _write_fd(fd, staged.data)
    os.fsync(fd)
    os.fchmod(fd, staged.mode)


def _stage(staged: _Staged, names: list[Path]) -> None:
    """Write a staging file beside the target: anonymous in its folder when the system allows (a run
    killed now leaves nothing behind), else named."""
    if _anonymous_files():
        try:
            staged.fd = os.open(staged.real.parent, os.O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            if exc.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
                raise
    if staged.fd < 0:
        staged.fd, staged.name = _open_named(staged.real, names)
    _fill(staged.fd, staged)


def _name_anonymous(staged: _Staged, names: list[Path]) -> Path:
    """Link an anonymous staging file to a temporary name beside its target, for the rename; where the
    system will not link it, write its bytes again under that name."""
    folder = os.open(staged.real.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        name = _temp_name(staged.real)
        names.append(name)
        # a dst_dir_fd makes this linkat(..., AT_SYMLINK_FOLLOW): the file behind the descriptor, not the link
        os.link(f"/proc/self/fd/{staged.fd}", name.name, dst_dir_fd=folder)
        return name
    except OSError:
        pass
    finally:
        os.close(folder)
    fd, name = _open_named(staged.real, names)
    try:
        _fill(fd, staged)
    finally:
        os.close(fd)
    return name


def _commit(staged: _Staged, names: list[Path]) -> None:
    """Put a staged file over its target in one rename."""
    if staged.name is None:
        staged.name = _name_anonymous(staged, names)
    os.replace(staged.name, staged.real)


def _write_direct(path: Path, text: str) -> None:
    """Write to the null device or the run's own stdout/stderr, which cannot be replaced by a rename.

    Opened without blocking and checked on the descriptor: a FIFO swapped in since the check fails at
    once (no reader: ``ENXIO``) or is refused, never waited on.
    """
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        kind = special_kind(os.fstat(fd), inherited=_inherited(path))
        if kind is not None:
            raise OSError(errno.EINVAL, f"is {kind}, not a regular file")
        os.set_blocking(fd, True)
        _write_fd(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back while temporary files are removed: a second Ctrl-C must not leave one."""
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held) if hasattr(signal, "pthread_sigmask") else None
    try:
        yield
    finally:
        if previous is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _clean_up(staged: Sequence[_Staged], names: Sequence[Path]) -> None:
    """Close every staging file and remove every temporary name still there (renamed ones are gone)."""
    with _signals_held():
        for s in staged:
            if s.fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(s.fd)
        for name in names:
            with contextlib.suppress(OSError):
                os.unlink(name)


def write_all(files: Sequence[tuple[Target, str]]) -> None:
    """Write every (target, text) atomically; on any failure nothing is replaced and ``InputError`` is raised.

    A target that exists and is not a regular file (``/dev/null``, the run's own stdout) is written
    directly: it cannot be replaced by a rename. Any other kind (a FIFO, a device) is refused.
    """
    staged: list[_Staged] = []
    names: list[Path] = []
    direct: list[tuple[Target, Path, str]] = []
    current = files[0][0] if files else Target("", "")
    try:
        for target, text in files:
            current = target
            real = _real(target.path)
            try:
                st: os.stat_result | None = os.stat(target.path)
            except OSError:
                st = None
            if st is not None and not stat.S_ISREG(st.st_mode):
                direct.append((target, Path(target.path), text))
                continue
            mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()
            staged.append(_Staged(target, real, text.encode("utf-8"), mode))
            _stage(staged[-1], names)
        for target, path, text in direct:
            current = target
            _write_direct(path, text)
        for s in staged:
            current = s.target
            _commit(s, names)
        for folder in {s.real.parent for s in staged}:
            _fsync_dir(folder)
    except OSError as exc:
        raise _write_error(current, exc) from None
    finally:
        _clean_up(staged, names)


def _write_error(target: Target, exc: OSError) -> InputError:
    return InputError(target.path, f"{target.option}: cannot be written ({exc.strerror or exc}); nothing was replaced")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
