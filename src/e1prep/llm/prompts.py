"""Prompts as files (``prompts/*.md``) and their rendering with a material, its facts and the document.

A prompt file has YAML front matter (``id``, ``version``, ``purpose``, ``output_model``) and two
parts, introduced by a line ``[system]`` and a line ``[user]``. ``{{name}}`` placeholders are
filled by ``render``; values are inserted as they are and never read as templates themselves.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from .._resources import package_dir
from ..brief.models import EVIDENCE_LABELS, EvidenceLevel, MaterialKind
from ..errors import ConfigError
from ..kb.knowledge import KnowledgeDoc, Section, arxiv_ids, fold
from ..kb.loading import Material, split_front_matter
from ..read.notes import NoteItem, item_names, note_items

PLACEHOLDERS = frozenset(
    {"topic", "date", "path", "kind", "part", "evidence_table", "facts", "doc_context", "material"}
)
_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")
_PART = re.compile(r"^\[(system|user)\][ \t]*$", re.M)
_REQUIRED = ("id", "version", "purpose", "output_model")

#: What each level means (the KB contract's table, in English for a compact prompt).
EVIDENCE_MEANINGS: dict[EvidenceLevel, tuple[str, str]] = {
    EvidenceLevel.verified: ("the original page was read in full", "yes, with its source"),
    EvidenceLevel.partial: ("title/date/structure checked; body truncated, paywalled or only its contents read", "no"),
    EvidenceLevel.summary: ("only a search summary, abstract, TLDR or table of contents", "no"),
    EvidenceLevel.snippet: ("a search snippet; the page was not opened (login wall, 403, anti-bot)", "no"),
    EvidenceLevel.card: ("collected card metadata: stars, weekly growth, citation counts", "only as a dated count"),
    EvidenceLevel.vendor: ("the vendor's or author's own claim, relayed, not independently measured", "no"),
    EvidenceLevel.unverified: ("anything not established above", "no"),
}

MATERIAL_OPEN = "<<<MATERIAL"
MATERIAL_CLOSE = "<<<END MATERIAL>>>"


@dataclass(frozen=True)
class Prompt:
    """One prompt file, parsed."""

    id: str
    version: str
    purpose: str
    output_model: str
    system: str
    user: str
    path: Path
    sha256: str

    @property
    def label(self) -> str:
        return f"{self.id}-v{self.version}"


def default_prompts_dir() -> Path:
    """The prompts shipped inside the package (``e1prep/prompts/``; the checkout's ``prompts/`` links there)."""
    return package_dir("prompts")


def parse_prompt(path: Path) -> Prompt:
    """Parse one prompt file; a missing field, part or unknown placeholder is a ``ConfigError``."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read prompt ({exc.strerror})") from None
    text = raw.decode("utf-8")
    front, body, _, warnings = split_front_matter(text)
    if warnings or not front:
        raise ConfigError(f"{path}: prompt needs YAML front matter with {', '.join(_REQUIRED)}")
    missing = [k for k in _REQUIRED if not str(front.get(k) or "").strip()]
    if missing:
        raise ConfigError(f"{path}: prompt front matter lacks {', '.join(missing)}")
    parts: dict[str, str] = {}
    marks = list(_PART.finditer(body))
    for n, mark in enumerate(marks):
        end = marks[n + 1].start() if n + 1 < len(marks) else len(body)
        parts[mark.group(1)] = body[mark.end() : end].strip("\n")
    if set(parts) != {"system", "user"}:
        raise ConfigError(f"{path}: prompt needs a '[system]' part and a '[user]' part")
    unknown = {m.group(1) for part in parts.values() for m in _PLACEHOLDER.finditer(part)} - PLACEHOLDERS
    if unknown:
        raise ConfigError(f"{path}: unknown placeholders {', '.join(sorted(unknown))}")
    return Prompt(
        id=str(front["id"]).strip(),
        version=str(front["version"]).strip(),
        purpose=" ".join(str(front["purpose"]).split()),
        output_model=str(front["output_model"]).strip(),
        system=parts["system"],
        user=parts["user"],
        path=path,
        sha256=hashlib.sha256(raw).hexdigest(),
    )


def load_prompt(prompt_id: str, directory: Path | None = None) -> Prompt:
    """The prompt ``<directory>/<prompt_id>.md``; its front matter ``id`` must agree with the name."""
    folder = directory or default_prompts_dir()
    path = folder / f"{prompt_id}.md"
    if not path.is_file():
        raise ConfigError(f"no prompt {prompt_id!r} in {folder} (set E1PREP_PROMPTS_DIR to the prompts folder)")
    prompt = parse_prompt(path)
    if prompt.id != prompt_id:
        raise ConfigError(f"{path}: front matter id {prompt.id!r} differs from the file name")
    return prompt


def load_prompts(directory: Path | None = None) -> dict[str, Prompt]:
    folder = directory or default_prompts_dir()
    return {p.id: p for p in (parse_prompt(f) for f in sorted(folder.glob("*.md")))}


# --- chunks -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chunk:
    """A piece of a material small enough for one call; lines are 1-based and inclusive."""

    path: str
    index: int
    total: int
    text: str
    line_start: int
    line_end: int


def _segments(material: Material) -> list[tuple[int, int]]:
    """Line ranges (0-based, end exclusive) that should stay together: preamble, then each item."""
    lines = material.lines
    starts = {0}
    if material.kind is MaterialKind.inbox_note:
        starts |= {item.line_start - 1 for item in note_items(material)}
    ordered = sorted(s for s in starts if 0 <= s < len(lines))
    return [(s, ordered[n + 1] if n + 1 < len(ordered) else len(lines)) for n, s in enumerate(ordered)]


def chunk_material(material: Material, chunk_chars: int) -> list[Chunk]:
    """Cut a material into chunks of at most ``chunk_chars`` characters at item, then line, boundaries."""
    lines = material.lines
    if len(material.text) <= chunk_chars:
        return [Chunk(material.path, 1, 1, material.text, 1, len(lines))]
    pieces: list[tuple[int, int]] = []  # line ranges no longer than chunk_chars (except one huge line)
    for start, end in _segments(material):
        cur = start
        size = 0
        for i in range(start, end):
            add = len(lines[i]) + 1
            if size and size + add > chunk_chars:
                pieces.append((cur, i))
                cur, size = i, 0
            size += add
        pieces.append((cur, end))
    spans: list[tuple[int, int]] = []
    for start, end in pieces:
        size = sum(len(line) + 1 for line in lines[start:end])
        if spans:
            prev_start, prev_end = spans[-1]
            prev_size = sum(len(line) + 1 for line in lines[prev_start:prev_end])
            if prev_size + size <= chunk_chars:
                spans[-1] = (prev_start, end)
                continue
        spans.append((start, end))
    out = []
    for n, (start, end) in enumerate(spans, start=1):
        text = "\n".join(lines[start:end])
        if len(text) > chunk_chars:  # a single line longer than a chunk: cut it, and say so in the text
            text = text[: chunk_chars - 20] + " [line cut here]"
        out.append(Chunk(material.path, n, len(spans), text, start + 1, end))
    return out


# --- deterministic facts and document context ---------------------------------------------------


def card_names(material: Material) -> list[str]:
    """Names of the repository or paper a card describes."""
    names: list[str] = []
    repo = material.front.get("repo")
    if isinstance(repo, str) and repo.strip():
        names += [repo.strip(), repo.strip().split("/")[-1]]
    for key in ("arxiv", "title"):
        value = material.front.get(key)
        if value is not None and str(value).strip():
            names.append(str(value).strip())
    return [n for n in dict.fromkeys(names) if len(n) >= 2]


def chunk_items(material: Material, chunk: Chunk) -> list[NoteItem]:
    if material.kind is not MaterialKind.inbox_note:
        return []
    items = note_items(material)
    return [it for it in items if chunk.line_start <= it.line_start <= chunk.line_end]


def chunk_names(material: Material, chunk: Chunk) -> list[str]:
    """The names whose document hits are reported for this chunk, in order of appearance."""
    names = card_names(material) if material.kind in (MaterialKind.repo_card, MaterialKind.paper_card) else []
    for item in chunk_items(material, chunk):
        names += item_names(item)
    return list(dict.fromkeys(names))


def _hits_text(doc: KnowledgeDoc, name: str) -> str:
    hits = doc.search(name)
    where = f" in {', '.join(hits.sections[:4])}" if hits.sections else ""
    return f"{name!r}: {hits.hits} hits{where}"


def render_facts(material: Material, chunk: Chunk, doc: KnowledgeDoc) -> str:
    """Facts found by code, not by the model: items and their names' hit counts, card fields, arXiv ids."""
    out = [f"- material: {material.path} ({material.kind.value}), lines {chunk.line_start}-{chunk.line_end}"]
    if material.kind in (MaterialKind.repo_card, MaterialKind.paper_card):
        fields = [
            f"{k}={v}" for k, v in material.front.items() if isinstance(v, str | int | float | dt.date) and k != "url"
        ]
        if fields:
            out.append("- card fields: " + ", ".join(fields))
        names = card_names(material)
        if names:
            out.append("- living-document hits: " + "; ".join(_hits_text(doc, n) for n in names))
    for item in chunk_items(material, chunk):
        names = item_names(item)
        hits = "; ".join(_hits_text(doc, n) for n in names) or "no name found"
        out.append(f"- item {item.index} {item.title[:80]!r}: living-document hits: {hits}")
    ids = arxiv_ids(chunk.text)
    if ids:
        status = [f"{a} ({'anchored in ' + ', '.join(doc.anchors[a]) if doc.anchored(a) else 'new'})" for a in ids]
        out.append("- arXiv ids: " + ", ".join(status))
    return "\n".join(out)


def _tokens(text: str) -> set[str]:
    words = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9\-]{2,}", text)}
    cjk = "".join(re.findall(r"[\u4e00-\u9fff]+", text))
    return words | {cjk[i : i + 2] for i in range(len(cjk) - 1)}


def _leaf_sections(doc: KnowledgeDoc) -> list[Section]:
    ids = [s.id for s in doc.sections]
    return [s for s in doc.sections if not any(o.startswith(s.id + ".") for o in ids)]


def relevant_sections(
    doc: KnowledgeDoc, names: list[str], text: str, limit: int = 4
) -> list[tuple[Section, list[str]]]:
    """Sections of the document most relevant to a chunk: where its names hit, else by word overlap.

    Returns (section, names that hit it); ordered by the number of names hitting, then document order.
    """
    by_id = {s.id: s for s in doc.sections}
    score: dict[str, list[str]] = {}
    for name in names:
        for sid in doc.search(name).sections:
            score.setdefault(sid, []).append(name)
    if score:
        ranked = sorted(score, key=lambda sid: (-len(score[sid]), by_id[sid].start))
        return [(by_id[sid], score[sid]) for sid in ranked[:limit]]
    mine = _tokens(text)
    lines = doc.text.split("\n")
    overlap = []
    for sec in _leaf_sections(doc):
        shared = len(mine & _tokens("\n".join(lines[sec.start - 1 : sec.end])))
        if shared >= 3:
            overlap.append((-shared, sec.start, sec))
    return [(sec, []) for _, _, sec in sorted(overlap)[: min(limit, 2)]]


def render_doc_context(doc: KnowledgeDoc, names: list[str], text: str, budget: int) -> str:
    """The document's relevant lines within ``budget`` characters; the whole document only when it fits."""
    if budget <= 0:
        return "(not included)"
    if len(doc.text) <= budget:
        return doc.text.strip()
    lines = doc.text.split("\n")
    mine = _tokens(text)
    blocks: list[str] = []
    used = 0
    for sec, hit_names in relevant_sections(doc, names, text):
        body = lines[sec.start : sec.end]
        if hit_names:
            folded = [fold(n) for n in hit_names]  # ``re.search(re.escape(n), ln, re.I)``, by folding
            chosen = [ln for ln in body if any(f in fold(ln) for f in folded)]
        else:
            chosen = sorted(body, key=lambda ln: -len(mine & _tokens(ln)))[:3]
            chosen = [ln for ln in body if ln in chosen]
        block = "\n".join([lines[sec.start - 1].strip()] + [_clip(ln.strip(), 300) for ln in chosen if ln.strip()])
        if used + len(block) > budget:
            block = _clip(block, budget - used)
        if len(block) < 40:
            break
        blocks.append(block)
        used += len(block) + 1
    return "\n".join(blocks) if blocks else "(no section of the living document mentions this material's names)"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def evidence_table() -> str:
    rows = ["| id | label | meaning | numbers quotable |", "|---|---|---|---|"]
    for level in EvidenceLevel:
        meaning, quotable = EVIDENCE_MEANINGS[level]
        rows.append(f"| {level.value} | {EVIDENCE_LABELS[level]} | {meaning} | {quotable} |")
    return "\n".join(rows)


def frame_material(chunk: Chunk) -> str:
    """The material as quoted data between markers; a marker inside the text is defused."""
    text = chunk.text.replace("<<<", "‹‹‹")
    return f'{MATERIAL_OPEN} path="{chunk.path}" part="{chunk.index}/{chunk.total}">>>\n{text}\n{MATERIAL_CLOSE}'


def render(
    prompt: Prompt,
    *,
    material: Material,
    chunk: Chunk,
    doc: KnowledgeDoc,
    topic: str,
    date: str,
    context_chars: int,
) -> list[dict[str, str]]:
    """The chat messages for one chunk: system (rules, levels) and user (facts, document, material)."""
    names = chunk_names(material, chunk)
    values = {
        "topic": topic,
        "date": date,
        "path": chunk.path,
        "kind": material.kind.value,
        "part": f"{chunk.index} of {chunk.total}",
        "evidence_table": evidence_table(),
        "facts": render_facts(material, chunk, doc),
        "doc_context": render_doc_context(doc, names, chunk.text, context_chars),
        "material": frame_material(chunk),
    }

    def fill(template: str) -> str:
        return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)

    return [{"role": "system", "content": fill(prompt.system)}, {"role": "user", "content": fill(prompt.user)}]
