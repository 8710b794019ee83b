"""Layout invariance: the same facts in other layouts must give the same brief.

:func:`write_variants` re-renders a case's notes and cards in other layouts, keeping every fact
(titles, URLs, check remarks word for word, body lines, dates, card fields): a table with the
check column given as legend symbols, bold-numbered paragraphs, ``①``-numbered headings, prose
paragraphs titled by a Markdown link, remarks and labels in English, and cards as ``- key: value``
bullets, a field table, or quoted front matter in another key order. :func:`score` drafts each
variant and compares it with the original: the same keys, the same classes (increment, refresh,
excluded), the same evidence levels, the same anchors. A reader that depends on the layout of the
notes it was written with fails here.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..brief.models import Brief, MaterialKind, MaterialStatus
from ..kb.loading import Material, load_kb
from ..pipeline import draft_brief
from ..read.evidence import LEGEND_LINE, REMARK_LINE
from ..read.lines import URL_RE
from ..read.notes import NoteItem, note_items
from ..text.naming import norm_name
from .casewarnings import case_warnings

#: signs for the legend variant: one per distinct check remark of a note
_SIGNS = "●◐○✕◆◇■□▲△▼▽★☆♦♢"
#: check remarks as another hand writes them in English (whole remark, or its words one by one)
_ENGLISH = {
    "已核查原文": "verified original",
    "原文已核查": "original verified",
    "仅搜索摘要": "search summary only",
    "搜索摘要": "search summary",
    "正文被截断": "body truncated",
    "需登录": "login wall",
    "厂商自述": "vendor claim",
    "部分核查": "partially checked",
    "搜索片段": "snippet",
    "未核实": "unverified",
    "付费墙": "paywall",
}


@dataclass
class _Item:
    title: str
    urls: list[str]
    remarks: list[str]  # the remark lines' text after the label
    lines: list[str]  # every other line of the item, as written (bullets stripped)


def _parts(item: NoteItem) -> _Item:
    title = item.title.replace("|", "/").strip() or "(untitled)"
    if item.recogniser == "table":  # a row: its check cell is the remark, its other cells the lines
        checks = [item.check_cell] if item.check_cell else []
        return _Item(title, item.urls, checks, [c.replace("|", "/") for c in item.cells])
    lines = item.text.split("\n")
    remarks: list[str] = []
    rest: list[str] = []
    for line in lines[1:]:
        stripped = re.sub(r"^\s*(?:[-*+]|\d{1,3}[.)、])\s+", "", line).strip()
        if not stripped:
            continue
        m = REMARK_LINE.match(line)
        if m:
            remarks.append(line[m.end() :].strip())
        elif URL_RE.fullmatch(re.sub(r"^(?:URL|链接|Link)\s*[:：]\s*", "", stripped, flags=re.I)):
            continue
        else:
            rest.append(stripped.replace("|", "/"))
    return _Item(title, item.urls, remarks, rest)


def _preamble(material: Material, items: list[NoteItem]) -> list[str]:
    """The note's lines outside every item (its heading, legend, range statements), as written."""
    inside = {n for it in items for n in range(it.line_start, it.line_end + 1)}
    lines = material.text.split("\n")
    return [ln for n, ln in enumerate(lines, start=1) if n not in inside and ln.strip() and not _TABLE.match(ln)]


_TABLE = re.compile(r"^\s*\|")


def _bold_numbered(items: list[_Item], pre: list[str]) -> str:
    out = [*pre, ""]
    for n, it in enumerate(items, start=1):
        out.append(f"**{n}. {it.title}**")
        out += [u for u in it.urls[:1]]
        out += [f"核查：{r}" for r in it.remarks]
        out += [f"- {ln}" for ln in it.lines]
        out.append("")
    return "\n".join(out)


def _circled(items: list[_Item], pre: list[str]) -> str:
    out = [*pre, ""]
    for n, it in enumerate(items, start=1):
        sign = chr(ord("①") + n - 1) if n <= 20 else f"{n}."
        out += [f"## {sign} {it.title}", ""]
        out += [f"- 链接：{u}" for u in it.urls[:1]]
        out += [f"- 核查：{r}" for r in it.remarks]
        out += [f"- {ln}" for ln in it.lines]
        out.append("")
    return "\n".join(out)


def _link_prose(items: list[_Item], pre: list[str]) -> str:
    out = [*pre, ""]
    for it in items:
        head = f"[{it.title}]({it.urls[0]})" if it.urls else f"**{it.title}**"
        out.append(head)
        out += [f"核查：{r}" for r in it.remarks]
        out += [ln for ln in it.lines]
        out.append("")
    return "\n".join(out)


def _english(items: list[_Item], pre: list[str]) -> str:
    out = [*pre, ""]
    for n, it in enumerate(items, start=1):
        out += [f"### {n}. {it.title}", ""]
        out += [f"- URL: {u}" for u in it.urls[:1]]
        for r in it.remarks:
            text = _ENGLISH.get(r.strip("。. "), r)
            for zh, en in _ENGLISH.items():
                text = text.replace(zh, en)
            out.append(f"- Check: {text}")
        out += [f"- {ln}" for ln in it.lines]
        out.append("")
    return "\n".join(out)


def _table_legend(items: list[_Item], pre: list[str]) -> str:
    signs: dict[str, str] = {}
    rows = []
    for n, it in enumerate(items, start=1):
        remark = "；".join(it.remarks)
        words = remark.strip()
        has_signs = bool(re.search(r"[^\w\s\u3400-\u9fff（）()【】「」:：,，;；/／.。!！?？'\"%+\-–—~<>=&#@]", words))
        if words and not has_signs and len(signs) < len(_SIGNS):
            sign = signs.setdefault(words, _SIGNS[len(signs)])
        else:
            sign = remark  # a remark made of the note's own legend symbols stays as it is
        notes = " <br> ".join(it.lines)
        rows.append(f"| {n} | {it.title} | {' '.join(it.urls[:1])} | {sign} | {notes} |")
    legend = "图例：" + " / ".join(f"{s} {w}" for w, s in signs.items()) if signs else ""
    head = ["| # | 标题 | 链接 | 核查 | 要点 |", "|---|---|---|---|---|"]
    return "\n".join([*pre, *([legend] if legend else []), "", *head, *rows, ""])


NOTE_LAYOUTS: dict[str, Callable[[list[_Item], list[str]], str]] = {
    "table-legend": _table_legend,
    "bold-numbered": _bold_numbered,
    "circled-headings": _circled,
    "link-prose": _link_prose,
    "english-remarks": _english,
}


def _card_bullets(front: dict[str, Any], body: str) -> str:
    return "\n".join(f"- {k}: {_plain(v)}" for k, v in front.items()) + "\n\n" + body


def _card_table(front: dict[str, Any], body: str) -> str:
    rows = [f"| {k} | {_plain(v)} |" for k, v in front.items()]
    return "\n".join(["| field | value |", "|---|---|", *rows, "", body])


def _card_quoted(front: dict[str, Any], body: str) -> str:
    shuffled = dict(reversed(list(front.items())))
    quoted = {k: (str(v) if isinstance(v, int | float) else v) for k, v in shuffled.items()}
    dumped = yaml.safe_dump(quoted, allow_unicode=True, sort_keys=False, default_style=None)
    return f"---\n{dumped}---\n{body}"


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


CARD_LAYOUTS: dict[str, Callable[[dict[str, Any], str], str]] = {
    "cards-bullets": _card_bullets,
    "cards-table": _card_table,
    "cards-quoted": _card_quoted,
}
LAYOUTS = (*NOTE_LAYOUTS, *CARD_LAYOUTS)


def write_variants(case: Path, out_root: Path, layouts: tuple[str, ...] = LAYOUTS) -> dict[str, Path]:
    """Copy ``case`` once per layout into ``out_root`` with its notes (or cards) re-rendered."""
    kb = load_kb(case / "manifest.json")
    out: dict[str, Path] = {}
    for layout in layouts:
        target = out_root / f"{case.name}@{layout}"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(case, target)
        for material in kb.materials:
            if material.status is not MaterialStatus.read:
                continue
            text = _render(material, layout)
            if text is not None:
                (target / material.path).write_text(text, encoding="utf-8")
        out[layout] = target
    return out


def _render(material: Material, layout: str) -> str | None:
    if layout in NOTE_LAYOUTS and material.kind in (MaterialKind.inbox_note, MaterialKind.other):
        items = note_items(material)
        if not items or items[0].recogniser == "whole-note":
            return None  # a note without items has no layout to change
        pre = _preamble(material, items)
        pre = [ln for ln in pre if not (LEGEND_LINE.match(ln) and layout != "table-legend")] + [
            ln for ln in pre if LEGEND_LINE.match(ln) and layout != "table-legend"
        ]
        return NOTE_LAYOUTS[layout]([_parts(it) for it in items], pre)
    if layout in CARD_LAYOUTS and material.kind in (MaterialKind.repo_card, MaterialKind.paper_card):
        if not material.front:
            return None
        return CARD_LAYOUTS[layout](dict(material.front), material.body.strip() + "\n")
    return None


@dataclass
class Signature:
    """What must not change with the layout: keys, classes, levels and anchors."""

    objects: set[tuple[str, str, str]] = field(default_factory=set)  # (class, key, level)
    anchors: set[tuple[str, str]] = field(default_factory=set)

    @classmethod
    def of(cls, brief: Brief) -> Signature:
        data = json.loads(brief.model_dump_json())
        objects = set()
        for name in ("increments", "refreshes", "excluded"):
            for obj in data.get(name, []):
                objects.add((name, norm_name(str(obj.get("key", ""))), str(obj.get("evidence", ""))))
        anchors = {(a["arxiv"], a["status"]) for a in data["anchors"]}
        return cls(objects, anchors)

    def diff(self, other: Signature) -> list[str]:
        out = [f"only in the original: {o}" for o in sorted(self.objects - other.objects)]
        out += [f"only in the variant: {o}" for o in sorted(other.objects - self.objects)]
        if self.anchors != other.anchors:
            out.append(f"anchors differ: {sorted(self.anchors ^ other.anchors)}")
        return out


@dataclass
class InvarianceResult:
    checked: int = 0
    same: int = 0
    differences: dict[str, list[str]] = field(default_factory=dict)

    @property
    def share(self) -> float:
        return self.same / self.checked if self.checked else 1.0


def score(cases: list[Path], work: Path, layouts: tuple[str, ...] = LAYOUTS) -> InvarianceResult:
    """Draft every case and its layout variants (rules backend); count the variants that agree."""
    result = InvarianceResult()
    for case in cases:
        with case_warnings(case.name):
            base = Signature.of(draft_brief(case / "manifest.json"))
            variants = write_variants(case, work, layouts)
        for layout, variant in variants.items():
            with case_warnings(case.name, layout):
                got = Signature.of(draft_brief(variant / "manifest.json"))
            result.checked += 1
            diff = base.diff(got)
            if diff:
                result.differences[f"{case.name}@{layout}"] = diff
            else:
                result.same += 1
    return result
