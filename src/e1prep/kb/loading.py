"""Read the manifest and the materials it names, tolerantly, without ever leaving the KB root."""

from __future__ import annotations

import errno
import functools
import json
import logging
import math
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..brief.models import MaterialKind, MaterialStatus
from ..errors import ManifestError
from ..text import visible
from ..text.lexicon import lexicon
from ..text.naming import plain_title

log = logging.getLogger(__name__)

#: Notes larger than this are not read; the brief says so (never a silent cut).
DEFAULT_MAX_BYTES = 16 * 1024 * 1024
#: A manifest larger than this is refused (it lists paths; real ones are a few KiB).
MANIFEST_MAX_BYTES = 4 * 1024 * 1024
#: Body lines longer than this are wrapped (with a warning): real notes stay far below it (the longest
#: line of the golden KBs is under 1,000 characters), and it bounds the per-line work of every step.
MAX_LINE_CHARS = 4000
#: Front matter nested deeper than this is refused (cards are flat; YAML's composer recurses).
MAX_YAML_DEPTH = 32
#: Integers with more digits than this stay text (cards hold counts; int() refuses 4,300 digits).
MAX_INT_DIGITS = 64

REPO_CARD_FIELDS = (
    "repo",
    "url",
    "stars",
    "stars_weekly",
    "language",
    "license",
    "last_commit",
    "first_seen",
    "last_seen",
    "maturity",
    "source",
)
PAPER_CARD_FIELDS = (
    "arxiv",
    "title",
    "topics",
    "citations_s2",
    "citations_openalex",
    "openalex_id",
    "doi",
    "venue",
    "first_seen",
    "last_seen",
)


@dataclass(frozen=True)
class ManifestItem:
    """One work-guard job item: a topic, its living document and its materials."""

    id: str
    topic: str
    knowledge: str
    materials: tuple[str, ...]
    score: float | None = None
    output: str | None = None
    spot_check: tuple[str, ...] = ()


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class Manifest:
    path: Path
    job: str
    created: str
    items: tuple[ManifestItem, ...]

    @functools.cached_property
    def date(self) -> str:
        """The batch date: the calendar date of ``created`` as written (read once: a run asks per item)."""
        match = _ISO_DATE.match(self.created)
        return match.group(0) if match else self.created

    def select(self, item_id: str | None) -> ManifestItem:
        if item_id is None:
            if len(self.items) == 1:
                return self.items[0]
            ids = ", ".join(i.id for i in self.items)
            raise ManifestError(self.path, f"holds {len(self.items)} items ({ids}); choose one with --item")
        wanted = serialisable(item_id)  # as the ids were read (an --item from a file name may hold surrogates too)
        for item in self.items:
            if item.id == wanted:
                return item
        ids = ", ".join(i.id for i in self.items)
        raise ManifestError(self.path, f"has no item {item_id!r} (items: {ids})")


@dataclass
class Material:
    """One file of the KB as read: text, front matter, body, and what became of it."""

    path: str
    kind: MaterialKind
    status: MaterialStatus
    role: str = "material"
    reason: str = ""
    text: str = ""
    front: dict[str, Any] = field(default_factory=dict)
    body_line: int = 1
    encoding: str | None = None
    warnings: list[str] = field(default_factory=list)
    #: the note's items, split once and shared by the backends, detectors and verifier (``notes.note_items``)
    items_cache: list[Any] | None = field(default=None, repr=False, compare=False)
    #: where the body starts in ``text`` (0: the file has no front matter)
    body_start: int = 0

    @property
    def body(self) -> str:
        """The text after the front matter: a slice made when asked, so a large note is not held twice."""
        return self.text[self.body_start :] if self.body_start else self.text

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


def _require(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: Path, ctx: str) -> Any:
    if key not in data:
        raise ManifestError(where, f"{ctx} has no {key!r}")
    value = data[key]
    if not isinstance(value, kind):
        raise ManifestError(where, f"{ctx}: {key!r} must be {_type_name(kind)}, got {type(value).__name__}")
    return value


def _type_name(kind: type | tuple[type, ...]) -> str:
    if isinstance(kind, tuple):
        return " or ".join(k.__name__ for k in kind)
    return kind.__name__


def _str_list(value: Any, where: Path, ctx: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ManifestError(where, f"{ctx} must be a list of paths (strings)")
    return tuple(normalize_rel(_clean(v, where, f"{ctx}[{n}]")) for n, v in enumerate(value))


class _Unreadable(Exception):
    """Why a file was not read (internal: becomes a status, or a ManifestError for the manifest)."""

    def __init__(self, reason: str, *, missing: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.missing = missing


_FILE_TYPES = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def read_regular_file(path: str | Path, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; anything else raises ``_Unreadable``.

    Opened without blocking (a FIFO cannot hang the run) and checked on the open descriptor, so a
    file swapped for a device after a check is still refused; read with a hard cap.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise _Unreadable("no such file", missing=True) from None
    except (OSError, ValueError) as exc:
        raise _Unreadable(f"cannot be opened ({_why(exc)})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = next((name for test, name in _FILE_TYPES if test(st.st_mode)), "not a regular file")
            raise _Unreadable(f"is {kind}, not a regular file; not read")
        if st.st_size > max_bytes:
            raise _Unreadable(f"{st.st_size} bytes is over the size limit of {max_bytes} bytes; not read")
        chunks: list[bytes] = []
        total = 0
        while total <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:
            raise _Unreadable(f"grew over the size limit of {max_bytes} bytes while being read; not read")
        return b"".join(chunks)
    except OSError as exc:
        raise _Unreadable(f"cannot be read ({_why(exc)})") from None
    finally:
        os.close(fd)


def _why(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)) or type(exc).__name__


#: code points no UTF-8 encoder accepts: lone surrogates, as ``os.fsdecode`` (surrogateescape) and JSON's
#: ``"\udcff"`` escapes make them; every other code point serialises
_UNENCODABLE = re.compile("[\ud800-\udfff]")


def serialisable(text: str) -> str:
    """``text`` with every code point UTF-8 cannot encode replaced by U+FFFD: the brief is written as
    UTF-8 JSON, and one such character in a manifest or card string would stop the whole brief."""
    return _UNENCODABLE.sub("\ufffd", text)


def _clean(text: str, where: Path, field: str) -> str:
    """A manifest string made serialisable, with one warning naming the field when anything was replaced."""
    if not _UNENCODABLE.search(text):
        return text
    log.warning(
        "%s: %s holds %d character(s) that are not valid Unicode (lone surrogates); replaced with U+FFFD",
        where,
        field,
        len(_UNENCODABLE.findall(text)),
    )
    return serialisable(text)


def _serialisable_value(value: Any, field: str, replaced: list[str]) -> Any:
    """A front-matter value (nested at most ``MAX_YAML_DEPTH`` deep) with its strings made serialisable;
    the fields that held a surrogate (a YAML ``"\\udcff"`` escape) are added to ``replaced``."""
    if isinstance(value, str):
        if _UNENCODABLE.search(value):
            replaced.append(field)
            return serialisable(value)
        return value
    if isinstance(value, list):
        return [_serialisable_value(v, field, replaced) for v in value]
    if isinstance(value, dict):
        return {
            _serialisable_value(str(k), field, replaced): _serialisable_value(v, field, replaced)
            for k, v in value.items()
        }
    return value


def _serialisable_front(data: dict[Any, Any]) -> tuple[dict[str, Any], list[str]]:
    """Front matter with string keys and every string serialisable, and one warning per field that was not."""
    replaced: list[str] = []
    front = {
        _serialisable_value(str(k), str(k), replaced): _serialisable_value(v, str(k), replaced) for k, v in data.items()
    }
    warnings = [
        f"front matter: {serialisable(name)!r} holds characters that are not valid Unicode (lone surrogates); "
        "replaced with U+FFFD"
        for name in dict.fromkeys(replaced)
    ]
    return front, warnings


#: the longest name of one path component most file systems accept, in bytes (``NAME_MAX``)
NAME_MAX_BYTES = 255


def _name_too_long(rel: str) -> bool:
    """A component of ``rel`` longer than ``NAME_MAX``: the kernel reports ``ENOENT`` instead of
    ``ENAMETOOLONG`` when a folder on the way is missing, which would read as a missing file."""
    try:
        parts = os.fsencode(rel).split(b"/")
    except (UnicodeError, ValueError):
        return False
    return any(len(part) > NAME_MAX_BYTES for part in parts)


def normalize_rel(rel: str) -> str:
    """``./x``, ``inbox//x`` and ``inbox/./x`` are ``inbox/x``; ``..``, absolute and empty paths are kept as written
    (they are refused later, with the reason)."""
    if not rel or rel.startswith("/") or "\x00" in rel:
        return rel
    parts = [p for p in rel.split("/") if p not in ("", ".")]
    return "/".join(parts) if parts else rel


def _score(value: Any, where: Path, ctx: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ManifestError(where, f"{ctx}: 'score' must be a number, got {type(value).__name__}")
    try:
        score = float(value)
    except OverflowError:
        score = math.inf
    if not math.isfinite(score):
        shown = str(value) if isinstance(value, float) else f"an integer of {len(str(abs(value)))} digits"
        raise ManifestError(where, f"{ctx}: 'score' must be a finite number, got {shown}")
    return score


def load_manifest(path: str | Path) -> Manifest:
    """Parse a work-guard manifest; any problem is a ``ManifestError`` naming the file."""
    where = Path(path)
    try:
        raw = read_regular_file(where, MANIFEST_MAX_BYTES)
    except _Unreadable as exc:
        raise ManifestError(where, exc.reason) from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ManifestError(where, "is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ManifestError(where, f"is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise ManifestError(where, "is nested too deeply to be a manifest") from None
    except ValueError as exc:  # e.g. an integer over the interpreter's digit limit
        raise ManifestError(where, f"is not usable JSON ({str(exc)[:200]})") from None
    if not isinstance(data, dict):
        raise ManifestError(where, "must be a JSON object with 'job' and 'items'")
    job = _clean(str(data.get("job") or ""), where, "job")
    if not job:
        log.warning("%s: manifest has no 'job' id", where)
    items_raw = _require(data, "items", list, where, "manifest")
    if not items_raw:
        raise ManifestError(where, "'items' is empty")
    items = []
    ids: dict[str, int] = {}
    for n, entry in enumerate(items_raw):
        ctx = f"items[{n}]"
        if not isinstance(entry, dict):
            raise ManifestError(where, f"{ctx} must be an object")
        item_id = _clean(_require(entry, "id", str, where, ctx), where, f"{ctx}.id")
        if item_id in ids:
            raise ManifestError(
                where, f"items[{ids[item_id]}] and {ctx} have the same id {item_id!r}; ids must be unique"
            )
        ids[item_id] = n
        knowledge = normalize_rel(_clean(_require(entry, "knowledge", str, where, ctx), where, f"{ctx}.knowledge"))
        materials = _str_list(_require(entry, "materials", list, where, ctx), where, f"{ctx}.materials")
        topic = entry.get("topic")
        if isinstance(topic, str):
            topic = _clean(topic, where, f"{ctx}.topic")
        if not isinstance(topic, str) or not topic:
            topic = item_id.split(":")[-1]
            log.warning("%s: %s has no 'topic'; using %r", where, ctx, topic)
        score = _score(entry.get("score"), where, ctx)
        spot = entry.get("spot_check", [])
        output = entry.get("output")
        items.append(
            ManifestItem(
                id=item_id,
                topic=topic,
                knowledge=knowledge,
                materials=materials,
                score=score,
                output=_clean(output, where, f"{ctx}.output") if isinstance(output, str) else None,
                spot_check=_str_list(spot, where, f"{ctx}.spot_check"),
            )
        )
    created = _clean(str(data.get("created") or ""), where, "created")
    return Manifest(path=where, job=job, created=created, items=tuple(items))


def kind_of(path: str) -> MaterialKind:
    """The material kind, from where the file sits in the KB layout."""
    parts = Path(path).parts
    if parts[:1] == ("inbox",):
        return MaterialKind.inbox_note
    if parts[:2] == ("organized", "repo_cards"):
        return MaterialKind.repo_card
    if parts[:2] == ("organized", "paper_cards"):
        return MaterialKind.paper_card
    if parts[:2] == ("organized", "knowledge"):
        return MaterialKind.knowledge
    return MaterialKind.other


def resolve_inside(root: Path, rel: str) -> tuple[Path | None, str]:
    """Resolve ``rel`` against the KB root; return (path, "") or (None, why it is refused)."""
    if not rel or "\x00" in rel:
        return None, "empty or invalid path"
    candidate = Path(rel)
    if candidate.is_absolute():
        return None, "absolute path: materials must be relative to the KB root"
    if ".." in candidate.parts:
        return None, "path climbs out of the KB root with '..'"
    try:
        root_real = root.resolve()
        target = (root_real / candidate).resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # a symbolic link loop, a name too long
        return None, f"cannot be resolved ({_why(exc)})"
    if not target.is_relative_to(root_real):
        return None, "resolves (through a symbolic link) to a file outside the KB root"
    return target, ""


def decode(data: bytes) -> tuple[str, str, list[str]]:
    """Decode bytes: BOMs first, then UTF-8, then GB18030; report what was needed."""
    warnings: list[str] = []
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace"), "utf-8-sig", warnings
    utf32 = _utf32(data)
    if utf32 is not None:
        if not data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
            warnings.append(f"UTF-32 ({utf32[-2:].upper()}) without a byte-order mark; decoded as such")
        return data.decode(utf32, errors="replace").lstrip("\ufeff"), "utf-32", warnings
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace"), "utf-16", warnings
    try:
        return data.decode("utf-8"), "utf-8", warnings
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        bad = sum(1 for _ in re.finditer(rb"[\x80-\xff]", data[:4096]))
        warnings.append(f"not valid UTF-8 or GB18030; undecodable bytes replaced (about {bad} in the first 4 KiB)")
        return data.decode("utf-8", errors="replace"), "utf-8 (lossy)", warnings
    warnings.append("not UTF-8; decoded as GB18030")
    return text, "gb18030", warnings


def _utf32(data: bytes) -> str | None:
    """``utf-32-le`` / ``utf-32-be`` when the bytes are UTF-32 (with a BOM, or text whose every fourth
    byte pattern can only be UTF-32), else None. Checked before UTF-16: the UTF-32-LE BOM starts like UTF-16's."""
    if data.startswith(b"\xff\xfe\x00\x00"):
        return "utf-32-le"
    if data.startswith(b"\x00\x00\xfe\xff"):
        return "utf-32-be"
    head = data[:4096]
    if len(data) < 4 or len(data) % 4 or len(head) % 4:
        return None
    le = not any(head[3::4]) and all(b <= 0x10 for b in head[2::4]) and any(head[0::4])
    be = not any(head[0::4]) and all(b <= 0x10 for b in head[1::4]) and any(head[3::4])
    for codec, ok in (("utf-32-le", le), ("utf-32-be", be)):
        if ok:
            try:
                data.decode(codec)
            except UnicodeDecodeError:
                return None
            return codec
    return None


def looks_binary(data: bytes) -> bool:
    """NUL bytes in the head of a file without a UTF-16 or UTF-32 BOM mean it is not a text note."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")) or _utf32(data) is not None:
        return False
    return b"\x00" in data[:8192]


_FRONT = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
#: ``- key: value`` bullets, or bold labels ``**key:** value`` / ``**key**: value``
_BULLET_META = re.compile(
    r"^\s*(?:[-*]\s*|\*\*(?=[A-Za-z_][\w-]*\s*[:：]?\s*\*\*))"
    r"([A-Za-z_][\w-]*)\s*(?:\*\*)?[:：]\s*(?:\*\*)?\s*(.*?)\s*$"
)


class _Refused(yaml.MarkedYAMLError):
    """Front matter that is valid YAML but refused: aliases (expansion bombs), nesting too deep."""

    problem: str


def _lenient_timestamp(loader: Any, node: yaml.ScalarNode) -> object:
    """A bad date stays text (with a note) instead of raising."""
    try:
        value: object = yaml.constructor.SafeConstructor.construct_yaml_timestamp(loader, node)
    except (ValueError, OverflowError):
        loader.notes.append(f"{node.value!r} is not a valid date; kept as text")
        return str(node.value)
    return value


def _lenient_int(loader: Any, node: yaml.ScalarNode) -> object:
    """An over-long integer stays text (with a note): converting it costs quadratic time."""
    if len(str(node.value)) > MAX_INT_DIGITS:
        loader.notes.append(f"an integer of {len(str(node.value))} characters is kept as text")
        return str(node.value)
    return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)


class _FrontLoader(yaml.SafeLoader):
    """PyYAML's safe loader without aliases and with a depth cap; a bad date or an over-long integer
    stays text (with a warning) instead of raising."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0
        self.notes: list[str] = []

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise _Refused(
                problem=f"uses a YAML alias (*{event.anchor}); aliases are refused", problem_mark=event.start_mark
            )
        self.depth += 1
        try:
            if self.depth > MAX_YAML_DEPTH:
                mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
                raise _Refused(problem=f"is nested deeper than {MAX_YAML_DEPTH} levels", problem_mark=mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


class _CFrontLoader(yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader):  # type: ignore[misc]
    """The same constructors on libyaml's parser, for front matter that ``_plain`` clears: its composer
    runs in C, where aliases and depth cannot be checked, so it only sees text that can hold neither."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.notes: list[str] = []


for _loader in (_FrontLoader, _CFrontLoader):
    _loader.add_constructor("tag:yaml.org,2002:timestamp", _lenient_timestamp)
    _loader.add_constructor("tag:yaml.org,2002:int", _lenient_int)

#: a line's indentation and its block indicators (``- ``, ``? ``, ``key:``): every block level above a
#: node is one of them, or a line before it indented less
_INDICATORS = re.compile(r"[-?:]")


def _plain(block: str) -> bool:
    """Front matter that cannot hold an alias or anchor (no ``&`` or ``*``), whose nesting is surely within
    half the depth cap, and that the pure-Python reader would accept character by character."""
    if "&" in block or "*" in block or yaml.reader.Reader.NON_PRINTABLE.search(block):
        return False
    flow = block.count("[") + block.count("{")
    deepest = max((len(ln) - len(ln.lstrip(" ")) + len(_INDICATORS.findall(ln)) for ln in block.split("\n")), default=0)
    return flow + deepest + 1 <= MAX_YAML_DEPTH // 2


def _load_front(block: str) -> tuple[Any, list[str]]:
    """PyYAML's safe loading with aliases refused and a depth cap. Front matter that can hold neither is
    parsed by libyaml when PyYAML has it; the rest, and anything libyaml finds wrong, by the pure-Python
    loader with its checks (so what is refused, and the error's line, are said the same way)."""
    if yaml.__with_libyaml__ and _plain(block):
        fast = _CFrontLoader(block)
        try:
            return fast.get_single_data(), fast.notes
        except yaml.YAMLError:
            pass
        finally:
            fast.dispose()
    loader = _FrontLoader(block)
    try:
        return loader.get_single_data(), loader.notes
    finally:
        loader.dispose()


def split_front_matter(text: str) -> tuple[dict[str, Any], str, int, list[str]]:
    """Return (front matter, body, body's first line number, warnings); never raises."""
    warnings: list[str] = []
    match = _FRONT.match(text)
    if match:
        block = match.group(1)
        body = text[match.end() :]
        body_line = text[: match.end()].count("\n") + 1
        try:
            data, notes = _load_front(block)
            warnings += [f"front matter: {n}" for n in notes]
        except (yaml.YAMLError, ValueError, OverflowError, RecursionError, TypeError) as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" (line {mark.line + 2})" if mark is not None else ""
            what = f"front matter {exc.problem}" if isinstance(exc, _Refused) else "front matter is not valid YAML"
            warnings.append(f"{what}{where}; read as 'key: value' lines")
            data = _loose_pairs(block.split("\n"), r"^\s*([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$")
        if data is None:
            data = {}
        if not isinstance(data, dict):
            warnings.append("front matter is not a mapping; ignored")
            data = {}
        front, replaced = _serialisable_front(data)
        warnings += replaced
        return front, body, body_line, warnings
    return {}, text, 1, warnings


def _loose_pairs(lines: list[str], pattern: str) -> dict[str, Any]:
    rx = re.compile(pattern)
    out: dict[str, Any] = {}
    for line in lines:
        m = rx.match(line)
        if m:
            out[m.group(1)] = _scalar(m.group(2))
    return out


def _scalar(raw: str) -> Any:
    raw = raw.strip().strip("`").strip()
    if re.fullmatch(rf"[+-]?\d{{1,{MAX_INT_DIGITS}}}", raw.replace(",", "")):
        return int(raw.replace(",", ""))
    return raw


def bullet_metadata(body: str, fields: tuple[str, ...]) -> dict[str, Any]:
    """Card metadata written as ``- key: value`` bullets instead of front matter."""
    out: dict[str, Any] = {}
    for line in body.split("\n")[:80]:
        m = _BULLET_META.match(line)
        if m and m.group(1).lower() in fields:
            out[m.group(1).lower()] = _scalar(m.group(2))
    return out


_TABLE_CELLS = re.compile(r"^\s*\|(.+)\|\s*$")


def table_metadata(body: str, fields: tuple[str, ...]) -> dict[str, Any]:
    """Card metadata written as a table: ``| field | value |`` rows, or one header row of field names."""
    rows = [
        [c.strip().strip("`*") for c in m.group(1).split("|")]
        for m in map(_TABLE_CELLS.match, body.split("\n")[:80])
        if m
    ]
    rows = [r for r in rows if not all(re.fullmatch(r":?-{2,}:?", c) for c in r if c)]
    known = {f.lower() for f in fields} | {n for names in lexicon().card_fields.values() for n in names}

    def field_of(cell: str) -> str | None:  # ``⭐ stars`` → ``stars``; ``last commit`` → ``last_commit``
        name = re.sub(r"\s+", "_", re.sub(r"[^\w\s]", " ", cell.lower()).strip())
        return name if name in known else next((k for k in known if k in name.split("_") and len(k) > 3), None)

    out: dict[str, Any] = {}
    for r in rows:  # vertical: field | value
        if len(r) >= 2 and (f := field_of(r[0])):
            out[f] = _scalar(r[1].strip('"'))
    if not out and len(rows) >= 2:  # horizontal: a header of field names over one row of values
        header = [field_of(c) for c in rows[0]]
        if sum(1 for h in header if h) >= 2:
            out = {h: _scalar(v.strip('"')) for h, v in zip(header, rows[1], strict=False) if h}
    return out


def _canonical_fields(front: dict[str, Any]) -> dict[str, Any]:
    """Fields under their canonical names (``stars_delta`` → ``stars_weekly``), counts as integers."""
    out = dict(front)
    for canonical, names in lexicon().card_fields.items():
        if canonical in out:
            continue
        for name in names:
            if name in out:
                out[canonical] = out[name]
                break
    for key in ("stars", "stars_weekly", "citations"):
        value = out.get(key)
        if isinstance(value, str) and re.fullmatch(r"\s*[+]?\d[\d,]{0,15}\s*", value):  # a count, not 4,000 digits
            out[key] = int(value.replace(",", "").replace("+", ""))
    return out


def card_section(body: str, names: tuple[str, ...]) -> str:
    """The text a card gives under a label named like one of ``names``: a heading (``## Summary``,
    setext ``Summary\\n---``) or a bold label (``**Summary:** …``, ``**简介** — …``)."""
    for name in names:
        n = re.escape(name)
        m = re.search(rf"^#+\s*{n}\b.*?$\n(.*?)(?=^#+\s|\Z)", body, re.M | re.S | re.I)
        if m and m.group(1).strip():
            return m.group(1).strip()
        m = re.search(rf"^{n}\s*$\n[-=]{{3,}}\s*$\n(.*?)(?=^.+\n[-=]{{3,}}\s*$|^#+\s|\Z)", body, re.M | re.S | re.I)
        if m and m.group(1).strip():
            return m.group(1).strip()
        m = re.search(
            rf"^\s*\*\*{n}\s*[:：]?\s*\*\*\s*[:：—–-]*\s*(.*?)(?=^\s*\*\*[^*\n]{{1,30}}\*\*|^#+\s|\Z)",
            body,
            re.M | re.S | re.I,
        )
        if m and m.group(1).strip():
            return m.group(1).strip()
    return ""


def card_repo(card: Material) -> str:
    """``owner/name`` from the card's ``repo`` field, else its GitHub URL (a ``url`` field or the first
    one in its text), else its file name (``4572-owner-name.md``)."""
    repo = card.front.get("repo")
    if isinstance(repo, str) and repo:
        return repo
    for text in (str(card.front.get("url") or ""), card.body):
        m = re.search(r"github\.com/([\w.\-]+)/([\w\-]+(?:\.[\w\-]+)*?)(?:\.git)?(?![\w.\-])", text)
        if m:
            return f"{m.group(1)}/{m.group(2)}"
    return re.sub(r"^\d+-", "", card.path.rsplit("/", 1)[-1].removesuffix(".md"))


def card_title(card: Material) -> str:
    """A card's title as its writer meant it (``naming.plain_title``): its ``title`` field, else its first
    ``#`` heading; "" when it has neither. Escapes and empty brackets are undone here, once, where the
    title is read: the renderer escapes what Markdown needs."""
    title = card.front.get("title")
    if not title:
        m = re.search(r"^#\s+(.+?)\s*#*\s*$", card.body, re.M)
        title = m.group(1) if m else ""
    return plain_title(str(title))


def card_field_line(card: Material, field: str) -> tuple[int | None, str]:
    """(1-based line, its text) where a card states ``field``, in front matter or as a bullet."""
    for n, line in enumerate(card.lines, start=1):
        if re.match(rf"^\s*-?\s*{re.escape(field)}\s*:", line) or re.match(
            rf"^\s*\|\s*`?{re.escape(field)}`?\s*\|", line
        ):
            return n, line.strip()
    return None, ""


_BREAK_AFTER = re.compile(r"[\s。；;，,、！？!?）)]")


def wrap_long_lines(body: str, limit: int = MAX_LINE_CHARS) -> tuple[str, str | None]:
    """Wrap lines over ``limit`` characters (never seen in a real note) so that no step of a run does
    per-line work that grows with the whole file. Breaks after a blank or a punctuation mark in the
    last fifth of each piece, else at the limit; no character is lost. Returns (body, warning), the
    warning None when no line is that long."""
    lines = body.split("\n")
    if max(map(len, lines)) <= limit:
        return body, None
    out: list[str] = []
    wrapped, longest = 0, 0
    for line in lines:
        if len(line) <= limit:
            out.append(line)
            continue
        wrapped, longest = wrapped + 1, max(longest, len(line))
        start = 0
        while len(line) - start > limit:
            end = start + limit
            cut = None
            for m in _BREAK_AFTER.finditer(line, end - limit // 5, end):
                cut = m.end()
            end = cut or end
            out.append(line[start:end])
            start = end
        out.append(line[start:])
    warning = f"{wrapped} line(s) over {limit} characters (the longest {longest}) wrapped into lines of at most {limit}"
    return "\n".join(out), warning


def read_material(root: Path, rel: str, *, role: str = "material", max_bytes: int = DEFAULT_MAX_BYTES) -> Material:
    """Read one material; every failure becomes a status with a reason, never an exception."""
    kind = kind_of(rel)
    target, why = resolve_inside(root, rel)
    if target is None:
        log.warning("%s: refused: %s", rel, why)
        return Material(rel, kind, MaterialStatus.refused, role=role, reason=why)
    if _name_too_long(rel):
        why = f"cannot be opened ({os.strerror(errno.ENAMETOOLONG)}: a name over {NAME_MAX_BYTES} bytes)"
        return Material(rel, kind, MaterialStatus.unreadable, role=role, reason=why)
    try:
        data = read_regular_file(target, max_bytes)
    except _Unreadable as exc:
        if exc.missing:
            return Material(rel, kind, MaterialStatus.missing, role=role, reason="no such file in the KB")
        return Material(rel, kind, MaterialStatus.unreadable, role=role, reason=exc.reason)
    if looks_binary(data):
        return Material(rel, kind, MaterialStatus.unreadable, role=role, reason="binary file (NUL bytes), not text")
    text, encoding, warnings = decode(data)
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    text, hidden = visible.without_hidden(text)
    if hidden:
        warnings.append(hidden.describe())
    front, body, body_line, fm_warnings = split_front_matter(text)
    warnings += fm_warnings
    body_start = len(text) - len(body)
    wrapped_body, wrap_warning = wrap_long_lines(body)
    if wrap_warning:
        text = text[:body_start] + wrapped_body
        warnings.append(wrap_warning)
    del body  # the material keeps one copy: the body is a slice of its text
    material = Material(
        rel,
        kind,
        MaterialStatus.read,
        role=role,
        text=text,
        front=front,
        body_line=body_line,
        body_start=body_start,
        encoding=encoding,
        warnings=warnings,
    )
    _check_card_fields(material)
    for w in material.warnings:
        log.warning("%s: %s", rel, w)
    return material


def _check_card_fields(material: Material) -> None:
    fields: tuple[str, ...]
    if material.kind is MaterialKind.repo_card:
        fields = REPO_CARD_FIELDS
    elif material.kind is MaterialKind.paper_card:
        fields = PAPER_CARD_FIELDS
    else:
        return
    if not material.front:
        bullets = bullet_metadata(material.body, fields)
        table = table_metadata(material.body, fields)
        if bullets:
            material.front = bullets
            material.warnings.append("card has no front matter; metadata read from '- key: value' bullets")
        elif table:
            material.front = table
            material.warnings.append("card has no front matter; metadata read from a field table")
        else:
            material.warnings.append("card has no front matter")
    material.front = _canonical_fields(material.front)
    missing = [f for f in fields if f not in material.front]
    if missing and material.front:
        material.warnings.append("card front matter lacks " + ", ".join(missing))
    # a field under another of its names (``星标``, ``stars_delta``) is understood, not unknown
    aliases = {name for names in lexicon().card_fields.values() for name in names}
    extra = sorted(set(material.front) - set(fields) - aliases - {"topic", "tags", "author", "date", "kind"})
    if extra:
        material.warnings.append("card front matter has unknown fields " + ", ".join(extra))


@dataclass
class KB:
    """Everything one draft reads: the manifest item, its materials and the living document."""

    root: Path
    manifest: Manifest
    item: ManifestItem
    materials: list[Material]
    spot_checks: list[Material]
    knowledge_material: Material

    @property
    def date(self) -> str:
        return self.manifest.date

    def material(self, path: str) -> Material | None:
        for m in (*self.materials, *self.spot_checks, self.knowledge_material):
            if m.path == path:
                return m
        return None


def load_kb(
    manifest_path: str | Path,
    kb_root: str | Path | None = None,
    item_id: str | None = None,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> KB:
    """Load the manifest item and read every material; only a bad manifest raises."""
    manifest = load_manifest(manifest_path)
    item = manifest.select(item_id)
    try:
        root = Path(kb_root) if kb_root is not None else Path(manifest_path).resolve().parent
        is_dir = root.is_dir()
    except (OSError, RuntimeError) as exc:
        raise ManifestError(kb_root or manifest_path, f"KB root cannot be used ({_why(exc)})") from None
    if not is_dir:
        raise ManifestError(root, "KB root is not a folder")
    seen: set[str] = set()
    materials = []
    for rel in item.materials:
        if rel in seen:
            log.warning("%s: material %s is listed twice; read once", manifest.path, rel)
            continue
        seen.add(rel)
        materials.append(read_material(root, rel, max_bytes=max_bytes))
    spots = [read_material(root, rel, role="spot_check", max_bytes=max_bytes) for rel in item.spot_check]
    knowledge = read_material(root, item.knowledge, role="baseline", max_bytes=max_bytes)
    return KB(root, manifest, item, materials, spots, knowledge)
