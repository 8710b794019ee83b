"""The review page: one self-contained HTML file, the brief on one side and its materials on the other.

A reviewer checks a brief against what it was read from. Every claim of the brief (a cited number,
its quote, a URL, a point, a boundary, an anchor, a rejected or a repaired claim with its rule) is a
link to the line of the material it stands on (``#src-m<N>-L<line>``), and that line is highlighted
there, the cited words marked. Plain anchors scroll and CSS ``:target`` highlights: the page holds no
script, its Content-Security-Policy allows none and no load from the network, so it opens anywhere.

Every text from the KB, a model or a brief JSON is data: ``html.escape``d, and its invisible or
control characters (ESC, bidi overrides, zero-width and tag characters) are shown as ``\\x1b``-style
escapes, never obeyed. A URL is shown as text; only an ``http``/``https`` one also gets an outward
link. This module renders; it does not read files: the caller hands it the materials as read by
``kb.loading`` (anything with a path, role, status, reason and text), so hidden text is handled as for
a draft.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from string import Template
from typing import Any, Protocol

import ahocorasick

from .models import (
    EVIDENCE_LABELS,
    EVIDENCE_LABELS_EN,
    Brief,
    EvidenceLevel,
    MaterialStatus,
    NumberCitation,
    SourceRef,
)

#: characters shown as escapes, never passed to the page: C0/C1 controls but tab and line feed, DEL,
#: the invisible format characters that reorder or hide text (bidi controls, zero-width), the line and
#: paragraph separators, the BOM, interlinear annotations and the tag characters
_INVISIBLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]"
)
#: what the claims' placeholders look like in the brief's HTML before they are resolved: a NUL can
#: never reach the HTML from text (``_text`` shows it as an escape), so no text can forge one
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")
#: a trailing bracketed remark the brief adds to a material's sentence (``（部分核查，数字不可引用）``)
_TRAILING_REMARK = re.compile(r"\s*[（(][^（）()]{1,40}[）)]\s*$")
#: the shortest text looked up in a material: anything shorter would be found where it was not meant
MIN_PROBE = 4
#: a long text is also looked up by its opening words (the brief may end it otherwise than the material)
PREFIX_PROBE = 24
#: mark kinds, strongest first: a number inside a quote shows as a number
_KINDS = ("n", "u", "x", "q")


class MaterialText(Protocol):
    """One file of the manifest as read (``kb.loading.Material`` is one)."""

    @property
    def path(self) -> str: ...
    @property
    def role(self) -> str: ...
    @property
    def status(self) -> MaterialStatus: ...
    @property
    def reason(self) -> str: ...
    @property
    def text(self) -> str: ...


def _show(text: object) -> str:
    """A value's invisible and control characters as visible escapes (``\\x1b``, ``\\u202e``)."""

    def escape(m: re.Match[str]) -> str:
        c = ord(m.group(0))
        return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}" if c < 0x10000 else f"\\U{c:08x}"

    return _INVISIBLE.sub(escape, "" if text is None else str(text))


def _text(value: object) -> str:
    """Any value from the KB, a model or a brief JSON as inert HTML text (also safe inside an attribute)."""
    return html.escape(_show(value), quote=True)


def _safe_url(url: str) -> str | None:
    """``url`` when it may be an outward link: http or https, nothing invisible, no blank; else None."""
    if re.fullmatch(r"https?://[^\s\"'<>`\\]+", url, flags=re.ASCII | re.IGNORECASE) and not _INVISIBLE.search(url):
        return url
    return None


@dataclass
class _Source:
    """A material on the page: its lines, and what the claims mark on them."""

    index: int
    path: str
    role: str
    status: MaterialStatus
    reason: str
    warnings: list[str]
    text: str
    lines: list[str]
    starts: list[int]
    #: line → (text to mark, kind)
    marks: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    #: line → ids of the claims that link here
    claims: dict[int, list[str]] = field(default_factory=dict)

    def anchor(self, line: int) -> str:
        return f"src-m{self.index}-L{line}"

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


@dataclass
class _Claim:
    """One claim of the brief and where to look for it: an explicit line, or texts to find in its paths."""

    id: str
    label: str
    kind: str
    paths: tuple[str, ...]
    line: int | None = None
    probes: tuple[str, ...] = ()
    marks: tuple[tuple[str, str], ...] = ()
    found: tuple[_Source, int] | None = None
    #: the text by which it was found in its material (marked there too)
    matched: str = ""


def _probes(text: str) -> tuple[str, ...]:
    """The texts by which a claim is looked up in its material, best first: its first line, without a
    trailing remark, its opening words. Too short a text is not looked up."""
    first = next((ln.strip() for ln in text.split("\n") if ln.strip()), "")
    out = [first, _TRAILING_REMARK.sub("", first).strip()]
    if len(first) > PREFIX_PROBE:
        out.append(first[:PREFIX_PROBE])
    return tuple(dict.fromkeys(p for p in out if len(p) >= MIN_PROBE))


class _Page:
    """The claims found so far and the materials they point into."""

    def __init__(self, materials: Iterable[MaterialText]) -> None:
        self.sources: dict[str, _Source] = {}
        for m in materials:
            if m.path in self.sources:
                continue
            text = m.text if m.status is MaterialStatus.read else ""
            lines = text.split("\n") if text else []
            starts, at = [], 0
            for ln in lines:
                starts.append(at)
                at += len(ln) + 1
            self.sources[m.path] = _Source(
                len(self.sources),
                m.path,
                m.role,
                m.status,
                m.reason,
                list(getattr(m, "warnings", [])),
                text,
                lines,
                starts,
            )
        self.claims: list[_Claim] = []

    def claim(
        self,
        label: object,
        kind: str,
        paths: Iterable[str],
        *,
        line: int | None = None,
        find: str | None = None,
        marks: Iterable[tuple[str, str]] = (),
    ) -> str:
        """A placeholder for one claim in the brief's HTML, resolved once every claim is known."""
        claim = _Claim(
            id=f"c{len(self.claims) + 1}",
            label=_text(label),
            kind=kind,
            paths=tuple(dict.fromkeys(p for p in paths if p in self.sources)),
            line=line,
            probes=_probes(find) if find else (),
            marks=tuple((text, kind) for text, kind in marks if text.strip()),
        )
        self.claims.append(claim)
        return f"\x00{len(self.claims) - 1}\x00"

    def resolve(self) -> None:
        """Place every claim: at its cited line when it has one in range, else where its text first occurs
        in its materials (in the order the claim names them). One Aho-Corasick pass per material finds
        every text looked up there."""
        wanted: dict[str, set[str]] = {}
        for c in self.claims:
            if c.line is None or not self._in_range(c.paths, c.line):
                for p in c.paths:
                    wanted.setdefault(p, set()).update(c.probes)
        first = {path: self._first_offsets(self.sources[path], probes) for path, probes in wanted.items()}
        for c in self.claims:
            c.found = self._place(c, first)
            if c.found is None:
                continue
            source, line = c.found
            source.claims.setdefault(line, []).append(c.id)
            found_as = "u" if c.kind == "u" else "x" if c.kind in ("rejected", "repaired") else "q"
            source.marks.setdefault(line, []).extend(c.marks)
            if c.matched:
                source.marks[line].append((c.matched, found_as))

    def _in_range(self, paths: Sequence[str], line: int) -> bool:
        return bool(paths) and 1 <= line <= len(self.sources[paths[0]].lines)

    def _place(self, c: _Claim, first: Mapping[str, Mapping[str, int]]) -> tuple[_Source, int] | None:
        if c.line is not None and self._in_range(c.paths, c.line):
            return self.sources[c.paths[0]], c.line
        for probe in c.probes:
            for p in c.paths:
                offset = first.get(p, {}).get(probe)
                if offset is not None:
                    source = self.sources[p]
                    c.matched = probe
                    return source, source.line_of(offset)
        return None

    @staticmethod
    def _first_offsets(source: _Source, probes: Iterable[str]) -> dict[str, int]:
        """Where each text first occurs in the material (start offsets), in one pass over its text."""
        automaton = ahocorasick.Automaton()
        for probe in probes:
            automaton.add_word(probe, probe)
        if not len(automaton) or not source.text:
            return {}
        automaton.make_automaton()
        found: dict[str, int] = {}
        for end, probe in automaton.iter(source.text):
            if probe not in found:
                found[probe] = end - len(probe) + 1
                if len(found) == len(automaton):
                    break
        return found

    def render_claim(self, index: int) -> str:
        c = self.claims[index]
        cls = f"claim {c.kind}"
        if c.found is None:
            title = "not found in its material" if c.paths else "its material is not on this page"
            return f'<span class="{cls} unlocated" id="{c.id}" title="{title}">{c.label}</span>'
        source, line = c.found
        where = f"{_text(source.path)}:{line}"
        return (
            f'<a class="{cls}" id="{c.id}" href="#{source.anchor(line)}">{c.label}</a>'
            f'<span class="where">{where}</span>'
        )


# ---------------------------------------------------------------------------------------------- the brief


def _level(level: EvidenceLevel, lang: str) -> str:
    return (EVIDENCE_LABELS if lang == "zh" else EVIDENCE_LABELS_EN)[level]


def _citation(page: _Page, cite: NumberCitation, lang: str) -> str:
    src = cite.source
    quotable = "quotable" if cite.quotable else "not quotable"
    number = page.claim(
        cite.text,
        "n",
        [src.path],
        line=src.line_start,
        find=src.quote or cite.text,
        marks=[(cite.text, "n"), (src.quote or "", "q")],
    )
    quote = f' <q class="meta">{_text(src.quote)}</q>' if src.quote else ""
    return f'<li>{number} <span class="meta">{_text(_level(cite.evidence, lang))} · {quotable}</span>{quote}</li>'


def _numbers(page: _Page, numbers: Sequence[NumberCitation], lang: str) -> str:
    if not numbers:
        return ""
    return "<h4>numbers</h4><ul>" + "".join(_citation(page, c, lang) for c in numbers) + "</ul>"


def _url(page: _Page, url: str | None, paths: Sequence[str]) -> str:
    if not url:
        return ""
    out = page.claim(url, "u", paths, find=url, marks=[(url, "u")])
    safe = _safe_url(url)
    if safe:
        out += f' <a class="ext" href="{html.escape(safe, quote=True)}" rel="noopener noreferrer" target="_blank">↗</a>'
    return f'<div class="url">{out}</div>'


def _texts(page: _Page, title: str, texts: Sequence[str], paths: Sequence[str], kind: str = "point") -> str:
    if not texts:
        return ""
    items = "".join(f"<li>{page.claim(t, kind, paths, find=t)}</li>" for t in texts)
    return f"<h4>{title}</h4><ul>{items}</ul>"


def _location(page: _Page, label: str, ref: SourceRef | None) -> str:
    if ref is None:
        return ""
    text = ref.quote or ref.url or ref.path
    claim = page.claim(
        text, "quote", [ref.path], line=ref.line_start, find=ref.quote or ref.url, marks=[(ref.quote or "", "q")]
    )
    return f"<div>{label}: {claim}</div>"


def _head(key: str, *parts: object, producer: str = "") -> str:
    meta = " · ".join(_text(p) for p in parts if p not in (None, ""))
    by = f" · by {_text(producer)}" if producer else ""
    return f'<h3>{_text(key)}</h3><div class="meta">{meta}{by}</div>'


def _increments(page: _Page, brief: Brief, lang: str) -> Iterator[str]:
    for inc in brief.increments:
        yield (
            '<article class="obj increment">'
            + _head(inc.key, inc.title, inc.kind, _level(inc.evidence, lang), inc.section, producer=inc.producer)
            + _url(page, inc.url, inc.sources)
            + (f'<div class="meta">{_text(inc.evidence_note)}</div>' if inc.evidence_note else "")
            + _texts(page, "points", inc.points, inc.sources)
            + _texts(page, "evidence boundary", inc.boundary, inc.sources)
            + (f"<div>{_text(inc.relation)}</div>" if inc.relation else "")
            + _numbers(page, inc.numbers, lang)
            + "</article>"
        )


def _refreshes(page: _Page, brief: Brief, lang: str) -> Iterator[str]:
    for ref in brief.refreshes:
        changes = "".join(
            f"<li>{_text(c.field)}: {_text(c.old or '-')} → {_text(c.new)}"
            f' <span class="meta">{_text(c.old_date or "")} → {_text(c.new_date or "")}</span></li>'
            for c in ref.changes
        )
        yield (
            '<article class="obj refresh">'
            + _head(ref.key, _level(ref.evidence, lang), producer=ref.producer)
            + _url(page, ref.url, ref.sources)
            + (f"<div>{_text(ref.summary)}</div>" if ref.summary else "")
            + (f"<ul>{changes}</ul>" if changes else "")
            + _numbers(page, ref.numbers, lang)
            + "</article>"
        )


def _contradictions(page: _Page, brief: Brief, lang: str) -> Iterator[str]:
    for con in brief.contradictions:
        group = f"{con.stands_for} items" if con.members else ""
        yield (
            '<article class="obj contradiction">'
            + _head(con.key, con.kind.value, _level(con.evidence, lang), group, producer=con.producer)
            + (f"<div>{_text(con.claim)}</div>" if con.claim else "")
            + (f'<div class="meta">{_text(con.detail)}</div>' if con.detail else "")
            + (f"<div>action: {_text(con.action)}</div>" if con.action else "")
            + _location(page, "location", con.location)
            + _numbers(page, con.numbers, lang)
            + "</article>"
        )


def _anchors(page: _Page, brief: Brief) -> Iterator[str]:
    for a in brief.anchors:
        link = page.claim(f"arXiv:{a.arxiv}", "u", a.sources, find=a.arxiv, marks=[(a.arxiv, "u")])
        sections = ", ".join(a.sections)
        yield f"<li>{link} <span class='meta'>{_text(a.status)} {_text(sections)} {_text(a.title)}</span></li>"


def _excluded(page: _Page, brief: Brief, lang: str) -> Iterator[str]:
    for e in brief.excluded:
        group = f"{e.stands_for} items" if e.members else ""
        what = _url(page, e.url, e.sources) if e.url else page.claim(e.key, "point", e.sources, find=e.key)
        yield (
            '<article class="obj excluded">'
            + _head(e.key, _level(e.evidence, lang), group)
            + f"<div>{_text(e.reason)}</div>{what}</article>"
        )


def _item_paths(item: Mapping[str, Any]) -> list[str]:
    """The material paths a rejected object (kept as the JSON its producer made) names."""
    paths = [p for p in item.get("sources") or [] if isinstance(p, str)]
    for cite in item.get("numbers") or []:
        source = cite.get("source") if isinstance(cite, dict) else None
        if isinstance(source, dict) and isinstance(source.get("path"), str):
            paths.append(source["path"])
    return paths


def _item_citations(item: Mapping[str, Any]) -> list[NumberCitation]:
    out = []
    for cite in item.get("numbers") or []:
        try:
            out.append(NumberCitation.model_validate(cite))
        except ValueError:
            continue
    return out


def _rejected(page: _Page, brief: Brief, lang: str) -> Iterator[str]:
    for r in brief.rejected:
        paths = _item_paths(r.item)
        rows = "".join(
            f'<li><span class="rule">{_text(v.rule)}</span> {_text(v.reason)}'
            f' <span class="meta">{_text(v.path)}</span><br>'
            f"{page.claim(v.text, 'rejected', paths, find=v.text)}</li>"
            for v in r.violations
        )
        yield (
            f'<article class="obj rejected">{_head(r.key, r.list_name, producer=r.producer)}'
            f"<ul>{rows}</ul>{_numbers(page, _item_citations(r.item), lang)}</article>"
        )


def _paths_of_key(brief: Brief, list_name: str, key: str) -> list[str]:
    """The sources of the object a repair names (by list and key); every material when none is found."""
    objects: Sequence[Any] = getattr(brief, list_name, []) if list_name != "brief" else []
    for obj in objects:
        if obj.key == key:
            return list(obj.sources)
    return [s.path for s in brief.sources]


def _repairs(page: _Page, brief: Brief) -> Iterator[str]:
    for r in brief.repairs:
        paths = _paths_of_key(brief, r.list_name, r.key)
        claim = page.claim(r.text, "repaired", paths, find=r.text)
        yield (
            f'<article class="obj repaired">{_head(r.key, r.list_name, producer=r.producer)}'
            f'<div><span class="rule">{_text(r.rule)}</span> → {_text(r.action)}'
            f' <span class="meta">{_text(r.path)}</span></div>'
            f'<div>{claim}</div><div class="meta">{_text(r.reason)}</div></article>'
        )


def _section(title: str, blocks: Iterable[str], *, listed: bool = False) -> str:
    body = "".join(blocks)
    if not body:
        return ""
    return f"<h2>{_text(title)}</h2>" + (f"<ul>{body}</ul>" if listed else body)


def _sources(page: _Page, brief: Brief) -> str:
    rows = []
    for s in brief.sources:
        source = page.sources.get(s.path)
        name = f'<a href="#m{source.index}">{_text(s.path)}</a>' if source else _text(s.path)
        reason = f" — {_text(s.reason)}" if s.reason else ""
        rows.append(
            f'<li>{name} <span class="meta status-{s.status.value}">{_text(s.role)} · {_text(s.status.value)}'
            f"{reason} · {s.items} item(s)</span></li>"
        )
    return _section("sources", rows, listed=True)


def _brief_html(page: _Page, brief: Brief, lang: str) -> str:
    notice = f'<p class="notice">{_text(brief.run.first_pass)}</p>' if brief.run.first_pass else ""
    parts = [
        notice,
        f"<p>{_text(brief.judgement)}</p>" if brief.judgement else "",
        _section(f"increments ({len(brief.increments)})", _increments(page, brief, lang)),
        _section(f"refreshes ({len(brief.refreshes)})", _refreshes(page, brief, lang)),
        _section(f"contradictions ({len(brief.contradictions)})", _contradictions(page, brief, lang)),
        _section(f"anchors ({len(brief.anchors)})", _anchors(page, brief), listed=True),
        _section(f"excluded ({len(brief.excluded)})", _excluded(page, brief, lang)),
        _section(f"rejected by the verifier ({len(brief.rejected)})", _rejected(page, brief, lang)),
        _section(f"repaired by the verifier ({len(brief.repairs)})", _repairs(page, brief)),
        _section("actions", (f"<li>{_text(a.text)}</li>" for a in brief.actions), listed=True),
        _section("do not", (f"<li>{_text(d)}</li>" for d in brief.do_not), listed=True),
        _sources(page, brief),
    ]
    return "\n".join(p for p in parts if p)


# ------------------------------------------------------------------------------------------ the materials


def _marked(line: str, marks: Sequence[tuple[str, str]]) -> str:
    """One line of a material as HTML, the cited texts in it wrapped in ``<mark>`` (strongest kind wins)."""
    kinds: list[int | None] = [None] * len(line)
    for needle, kind in marks:
        rank = _KINDS.index(kind)
        at = line.find(needle)
        while at >= 0 and needle:
            if kind != "n" or at == 0 or not (line[at - 1].isdigit() or line[at - 1] == "."):
                for i in range(at, at + len(needle)):
                    held = kinds[i]
                    if held is None or rank < held:
                        kinds[i] = rank
            at = line.find(needle, at + len(needle))
    out, start = [], 0
    for i in range(1, len(line) + 1):
        if i == len(line) or kinds[i] != kinds[start]:
            piece, strongest = _text(line[start:i]), kinds[start]
            out.append(piece if strongest is None else f'<mark class="{_KINDS[strongest]}">{piece}</mark>')
            start = i
    return "".join(out)


def _material_html(source: _Source) -> str:
    status = source.status.value
    head = (
        f'<h3 id="m{source.index}">{_text(source.path)} <span class="meta status-{status}">'
        f"{_text(source.role)} · {_text(status)}</span></h3>"
    )
    notes = "".join(f'<div class="meta">{_text(w)}</div>' for w in source.warnings)
    if source.status is not MaterialStatus.read:
        return f'<article class="material">{head}<p class="status-{status}">{_text(source.reason)}</p></article>'
    rows = []
    for n, line in enumerate(source.lines, start=1):
        claims = source.claims.get(n)
        if claims is None:
            rows.append(f'<div id="{source.anchor(n)}" data-n="{n}">{_text(line)}</div>')
            continue
        back = "".join(f'<a class="back" href="#{c}">↩{c}</a>' for c in claims)
        rows.append(
            f'<div id="{source.anchor(n)}" data-n="{n}" class="c">{_marked(line, source.marks.get(n, []))}{back}</div>'
        )
    return f'<article class="material">{head}{notes}<div class="lines">{"".join(rows)}</div></article>'


def _template() -> Template:
    return Template(resources.files(__package__).joinpath("templates", "review.html").read_text(encoding="utf-8"))


def render_review(brief: Brief, materials: Iterable[MaterialText], lang: str = "zh") -> str:
    """The review page of ``brief`` over ``materials`` (the manifest's files as ``kb.loading`` read them:
    materials, spot checks, the living document), as one self-contained HTML document."""
    page = _Page(materials)
    body = _brief_html(page, brief, lang)
    page.resolve()
    body = _PLACEHOLDER.sub(lambda m: page.render_claim(int(m.group(1))), body)
    located = sum(1 for c in page.claims if c.found is not None)
    h = brief.header
    return _template().substitute(
        lang="zh" if lang == "zh" else "en",
        title=_text(f"{h.topic} · {h.item} · {h.date}"),
        subtitle=_text(
            f"job {h.job} · backend {brief.run.backend}"
            + (f" · model {brief.run.model}" if brief.run.model else "")
            + f" · {located} of {len(page.claims)} claims located in their materials"
        ),
        brief=body,
        materials_title="materials",
        materials_subtitle=_text(f"{len(page.sources)} files of the manifest, as e1prep read them"),
        materials="\n".join(_material_html(s) for s in page.sources.values()),
    )
