"""The model backend: one structured call per material (or chunk), turned into brief objects.

The prompt file names the answer's model: ``Extraction`` (v2, ``e1prep.brief.extraction``: every
item whole, for capable models; turned into objects by ``e1prep.produce.extracted``) or the small,
flat ``MaterialExtraction`` (v1, at most 4 items). Either way code turns the answer into objects with
``producer="llm"`` and adds what code knows better (document hit counts, URLs, section ids that
exist). Nothing is trusted further: the verifier checks every number and quote afterwards.
"""

from __future__ import annotations

import hashlib
import json
import logging
import signal
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..brief.extraction import Extraction
from ..brief.models import (
    Contradiction,
    ContradictionKind,
    EvidenceLevel,
    Increment,
    MaterialKind,
    MaterialStatus,
    NumberCitation,
    Refresh,
    SourceRef,
    Usage,
)
from ..brief.phrases import Lang, Phrases, phrases
from ..errors import ConfigError
from ..kb.knowledge import KnowledgeDoc
from ..kb.loading import KB, Material
from ..produce.extracted import add_extraction, said_once, suggested_section
from ..produce.producer import Production
from ..read.notes import url_only
from ..read.numbers import normalize, parse_value
from .cache import CacheKey, ExtractionCache, guard_cache_dir
from .client import CallStats, ExtractionFailed, LLMClient, ServerUnreachable
from .prompts import Chunk, Prompt, chunk_items, chunk_material, load_prompt, render
from .settings import LLMSettings, load_settings

log = logging.getLogger(__name__)

Level = Literal["verified", "partial", "summary", "snippet", "card", "vendor", "unverified"]


class ExtractedItem(BaseModel):
    """One item of the material."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field(min_length=1, max_length=80, description="Short name of the project, paper or claim.")
    new: bool = Field(description="true if the living document does not cover it yet (its names have 0 hits).")
    level: Level = Field(description="Evidence level id from the table.")
    point: str = Field(max_length=240, description="One sentence: what it is or claims, in the material's words.")
    section: str = Field(max_length=12, description="§ id of the living-document section it belongs to, or empty.")
    number: str = Field(max_length=40, description="One number exactly as written in the material, or empty.")
    quote: str = Field(max_length=240, description="The verbatim sentence of the material containing the number.")
    conflict: str = Field(max_length=240, description="A conflict with the living document or inside the material.")

    @model_validator(mode="after")
    def _number_has_its_quote(self) -> ExtractedItem:
        number = self.number.strip()
        if number and normalize(number) not in normalize(self.quote):
            raise ValueError(
                f"quote must be the material's own sentence containing the number {number!r}, copied "
                "verbatim; otherwise leave both number and quote empty"
            )
        return self


class MaterialExtraction(BaseModel):
    """The items of one material (at most 4)."""

    model_config = ConfigDict(extra="ignore")

    items: list[ExtractedItem] = Field(default_factory=list, max_length=4)


#: a prompt's ``output_model``: v1, flat and capped at 4 items (small models); v2, every item whole
Answer = MaterialExtraction | Extraction
RESPONSE_MODELS: dict[str, type[MaterialExtraction] | type[Extraction]] = {
    "MaterialExtraction": MaterialExtraction,
    "Extraction": Extraction,
}


def schema_sha256(model: type[BaseModel] = MaterialExtraction) -> str:
    """Hash of the response model's JSON schema: part of every cache key and of the cassette manifest."""
    text = json.dumps(model.model_json_schema(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class _Call:
    """One chunk's call: its answer, what it cost, and why it failed (or that the server was unreachable)."""

    answer: Answer | None = None
    stats: CallStats = field(default_factory=CallStats)
    failure: str | None = None
    unreachable: bool = False


@dataclass
class _Outcome:
    """What became of one material: its chunks' extractions, or why it failed."""

    extractions: list[Answer] = field(default_factory=list)
    stats: CallStats = field(default_factory=CallStats)
    failure: str | None = None
    cached: bool = False
    #: the server could not be reached for one of its chunks: the rules alone read this material
    unreachable: bool = False


def _url_for(name: str, material: Material, chunk: Chunk) -> str | None:
    if material.kind in (MaterialKind.repo_card, MaterialKind.paper_card):
        url = material.front.get("url")
        return url if isinstance(url, str) else None
    low = name.lower()
    for item in chunk_items(material, chunk):
        if low in item.text.lower() and item.url:
            return item.url
    return None


def to_objects(
    extraction: MaterialExtraction,
    material: Material,
    chunk: Chunk,
    doc: KnowledgeDoc,
    production: Production,
    say: Phrases | None = None,
) -> None:
    """Append the objects of one chunk's extraction to ``production``; code adds hits, URLs and sections.
    ``say``: the brief's phrases (default: Chinese)."""
    say = say or phrases()
    for item in said_once(extraction.items):
        name = item.name.strip()
        if not name:
            continue
        level = EvidenceLevel(item.level)
        source = [material.path]
        quote = item.quote.strip() or None
        numbers = []
        if item.number.strip():
            numbers.append(
                NumberCitation(
                    text=item.number.strip(),
                    value=parse_value(item.number),
                    evidence=level,
                    source=SourceRef(path=material.path, quote=quote),
                    quotable=level.quotable,
                )
            )
        hits = [doc.search(name)]
        point = "" if url_only(item.point) else item.point.strip()  # a URL alone is no key point
        if item.new:
            production.increments.append(
                Increment(
                    key=name,
                    title=name,
                    kind="new",
                    sources=source,
                    url=_url_for(name, material, chunk),
                    evidence=level,
                    points=[point] if point else [],
                    doc_hits=hits,
                    section=suggested_section(item.section, doc, point, name, say),
                    numbers=numbers,
                    producer="llm",
                )
            )
        else:
            production.refreshes.append(
                Refresh(
                    key=name,
                    sources=source,
                    evidence=level,
                    summary=point,
                    doc_hits=hits,
                    numbers=numbers,
                    producer="llm",
                )
            )
        if item.conflict.strip():
            production.contradictions.append(
                Contradiction(
                    key=name,
                    kind=ContradictionKind.claim_tension,
                    sources=source,
                    evidence=level,
                    claim=item.conflict.strip(),
                    action=say("reader.v1_conflict_action"),
                    location=SourceRef(path=material.path, quote=quote),
                    numbers=numbers,
                    producer="llm",
                )
            )


def _signals_to_the_main_thread() -> None:
    """Block SIGINT and SIGTERM in a worker thread, so that the kernel hands them to the main thread.

    The main thread waits for the calls on a lock. A signal the kernel gave a worker instead reached
    Python's handler only when the main thread next ran: after the call in flight had finished, or not
    before the run ended. Blocked in every worker, Ctrl-C interrupts the main thread's wait at once."""
    if hasattr(signal, "pthread_sigmask"):  # POSIX; elsewhere the console's handler runs in its own thread
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})


def _finished(future: Future[_Call]) -> _Call | None:
    """A call's result if it finished before the interruption (None: cancelled, running or raised)."""
    if not future.done() or future.cancelled() or future.exception() is not None:
        return None
    return future.result()


class LLMProducer:
    """Extract objects from every read material with a model behind an OpenAI-compatible API.

    ``settings`` default to ``load_settings()``; the keyword arguments override single fields
    (the CLI's ``--concurrency``, ``--no-cache``, ``--cache-dir``). ``lang``: the language of the
    sentences it adds to what the model said (``draft_brief``'s ``lang``).
    """

    name = "llm"

    def __init__(
        self,
        settings: LLMSettings | None = None,
        *,
        prompt_id: str | None = None,
        concurrency: int | None = None,
        use_cache: bool | None = None,
        cache_dir: Path | None = None,
        temperature: float | None = None,
        lang: Lang = "zh",
    ) -> None:
        self.say: Phrases = phrases(lang)
        self.lang: Lang = self.say.lang
        base = settings if settings is not None else load_settings()
        overrides: dict[str, object] = {}
        for key, value in (
            ("concurrency", concurrency),
            ("use_cache", use_cache),
            ("cache_dir", cache_dir),
            ("temperature", temperature),
        ):
            if value is not None:
                overrides[key] = value
        self.settings = replace(base, **overrides)  # type: ignore[arg-type]
        if self.settings.concurrency < 1:
            raise ConfigError("concurrency must be at least 1")
        self.prompt: Prompt = load_prompt(prompt_id or self.settings.prompt_id, self.settings.prompts_dir)
        model = RESPONSE_MODELS.get(self.prompt.output_model)
        if model is None:
            raise ConfigError(
                f"{self.prompt.path}: output_model {self.prompt.output_model!r} is not one of "
                + ", ".join(RESPONSE_MODELS)
            )
        self.response_model = model
        self.cache = ExtractionCache(self.settings.cache_dir) if self.settings.use_cache else None
        #: per-material cost of the last ``produce`` (calls, tokens), for benchmarks and debugging
        self.material_usage: dict[str, CallStats] = {}
        #: the last ``produce`` was interrupted (Ctrl-C) while calls were queued or in flight
        self.interrupted = False
        #: why the last ``produce`` could not read ``fallback_paths`` at all ("" when it read them all): the
        #: model server could not be reached, so those materials are the rules' alone (``pipeline.fell_back``)
        self.fallback = ""
        self.fallback_paths: list[str] = []

    def _key(self, material: Material) -> CacheKey:
        return CacheKey.build(
            text=material.text,
            prompt_id=self.prompt.id,
            prompt_version=self.prompt.version,
            model=self.settings.require_model(),
            response_schema_sha256=schema_sha256(self.response_model),
            chunk_chars=self.settings.chunk_chars,
        )

    def _usable_cache(self, kb: KB) -> ExtractionCache | None:
        """The cache for this run: refused inside the KB root (``InputError``); None, with one warning, when
        its folder cannot be created or written (the model then runs uncached and the brief is still drafted)."""
        if self.cache is None:
            return None
        guard_cache_dir(self.cache.directory, kb.root)
        problem = self.cache.unusable()
        if problem is not None:
            log.warning("cache folder %s cannot be used (%s); running uncached", self.cache.directory, problem)
            return None
        return self.cache

    def _store(self, cache: ExtractionCache, material: Material, outcome: _Outcome) -> bool:
        """Store a material's extraction; False, with one warning, when the cache cannot be written any more."""
        value = {"model": outcome.stats.model, "chunks": [e.model_dump(mode="json") for e in outcome.extractions]}
        try:
            cache.put(self._key(material), value)
        except OSError as exc:
            log.warning("cache folder %s cannot be written (%s); the rest runs uncached", cache.directory, exc)
            return False
        return True

    def _from_cache(self, material: Material, cache: ExtractionCache | None) -> _Outcome | None:
        if cache is None:
            return None
        value = cache.get(self._key(material))
        if value is None:
            return None
        try:
            extractions = [self.response_model.model_validate(c) for c in value.get("chunks", [])]
        except ValidationError:
            return None
        if len(extractions) != len(chunk_material(material, self.settings.chunk_chars)):
            return None
        model = value.get("model")
        return _Outcome(extractions, CallStats(model=model if isinstance(model, str) else None), cached=True)

    def _messages(self, kb: KB, doc: KnowledgeDoc, material: Material, chunk: Chunk) -> list[dict[str, str]]:
        return render(
            self.prompt,
            material=material,
            chunk=chunk,
            doc=doc,
            topic=kb.item.topic,
            date=kb.date,
            context_chars=self.settings.context_chars,
        )

    def requests(self, kb: KB, doc: KnowledgeDoc) -> list[list[dict[str, str]]]:
        """The first-attempt messages of every chunk of every read material, in order (nothing is sent)."""
        return [
            self._messages(kb, doc, m, c)
            for m in kb.materials
            if m.status is MaterialStatus.read
            for c in chunk_material(m, self.settings.chunk_chars)
        ]

    def requests_sha256(self, kb: KB, doc: KnowledgeDoc) -> str:
        """Fingerprint of what a run would send: changes with the prompt, the rendering or the KB helpers."""
        text = json.dumps([self.settings.model, self.requests(kb, doc)], ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def _extract_all(self, kb: KB, doc: KnowledgeDoc, todo: list[Material]) -> dict[str, _Outcome]:
        tasks: list[tuple[Material, Chunk]] = [
            (m, c) for m in todo for c in chunk_material(m, self.settings.chunk_chars)
        ]
        if not tasks:
            return {}
        client = LLMClient(self.settings)
        # each task counts into its own stats as it goes: an interrupted run still knows the calls it made
        started = [CallStats() for _ in tasks]
        unreachable = threading.Event()

        def run(n: int) -> _Call:
            material, chunk = tasks[n]
            if unreachable.is_set():  # nobody answers at the base URL: the rest are not attempted
                return _Call(stats=started[n], unreachable=True)
            messages = self._messages(kb, doc, material, chunk)
            label = f"{chunk.path} part {chunk.index}/{chunk.total}"
            try:
                result, stats = client.extract(self.response_model, messages, label=label, stats=started[n])
            except ServerUnreachable as exc:
                unreachable.set()
                return _Call(stats=exc.stats, failure=exc.reason, unreachable=True)
            except ExtractionFailed as exc:
                log.warning("%s: failed: %s", label, exc.reason)
                return _Call(stats=exc.stats, failure=exc.reason)
            return _Call(answer=result, stats=stats)

        pool = ThreadPoolExecutor(
            max_workers=min(self.settings.concurrency, len(tasks)), initializer=_signals_to_the_main_thread
        )
        futures = [pool.submit(run, n) for n in range(len(tasks))]
        results: list[_Call] = []
        try:
            results = [f.result() for f in futures]  # in task order, whatever the answer order
            pool.shutdown(wait=True)
            client.close()
        except KeyboardInterrupt:
            # Ctrl-C: queued calls are cancelled, calls in flight are abandoned; what finished is kept,
            # and the calls that were made (answered or not) are counted
            pool.shutdown(wait=False, cancel_futures=True)
            self.interrupted = True
            results = [
                _finished(f) or _Call(stats=started[n], failure="interrupted (Ctrl-C) before this part finished")
                for n, f in enumerate(futures)
            ]
        return self._outcomes(tasks, results)

    @staticmethod
    def _outcomes(tasks: list[tuple[Material, Chunk]], results: list[_Call]) -> dict[str, _Outcome]:
        """The chunks' calls gathered per material; the first failure of a material is its reason."""
        outcomes: dict[str, _Outcome] = {}
        for (material, chunk), call in zip(tasks, results, strict=True):
            outcome = outcomes.setdefault(material.path, _Outcome())
            outcome.stats.add(call.stats)
            outcome.unreachable = outcome.unreachable or call.unreachable
            if call.failure is not None and outcome.failure is None:
                where = f"part {chunk.index} of {chunk.total}: " if chunk.total > 1 else ""
                outcome.failure = where + call.failure
            if call.answer is not None:
                outcome.extractions.append(call.answer)
        return outcomes

    def _fell_back(self, outcomes: dict[str, _Outcome], total: int) -> None:
        """The server could not be reached: one warning, and the reason the brief's notice gives."""
        reason = next((o.failure for o in outcomes.values() if o.unreachable and o.failure), None)
        self.fallback = f"the model server at {self.settings.shown_url} could not be reached: {reason}"
        log.warning(
            "%s; %d of %d materials were read by the rules alone, and the brief says so",
            self.fallback,
            len(self.fallback_paths),
            total,
        )

    def produce(self, kb: KB, doc: KnowledgeDoc) -> Production:
        """One extraction per read material; a material that keeps failing is listed in ``failures``; when the
        server cannot be reached, the materials not read are in ``fallback_paths`` and why in ``fallback``."""
        self.interrupted = False
        self.fallback, self.fallback_paths = "", []
        # an empty material sends no request and yields no object
        materials = [m for m in kb.materials if m.status is MaterialStatus.read and m.text.strip()]
        outcomes: dict[str, _Outcome] = {}
        todo = []
        cache = self._usable_cache(kb)
        for material in materials:
            cached = self._from_cache(material, cache)
            if cached is not None:
                outcomes[material.path] = cached
            else:
                todo.append(material)
        outcomes.update(self._extract_all(kb, doc, todo))
        production = Production(prompt_versions={self.prompt.id: self.prompt.version})
        usage = Usage()
        self.material_usage = {}
        for material in materials:
            outcome = outcomes[material.path]
            self.material_usage[material.path] = outcome.stats
            usage.calls += outcome.stats.calls
            usage.retries += outcome.stats.retries
            usage.prompt_tokens += outcome.stats.prompt_tokens
            usage.completion_tokens += outcome.stats.completion_tokens
            production.model = production.model or outcome.stats.model
            if outcome.cached:
                usage.cache_hits += 1
            if outcome.unreachable:  # read all the same: by the rules alone (the brief's notice says so)
                self.fallback_paths.append(material.path)
                continue
            if outcome.failure is not None:
                production.failures[material.path] = outcome.failure
                continue
            chunks = chunk_material(material, self.settings.chunk_chars)
            for chunk, extraction in zip(chunks, outcome.extractions, strict=True):
                if isinstance(extraction, Extraction):
                    add_extraction(extraction, material, doc, production, self.name, self.say)
                else:
                    to_objects(extraction, material, chunk, doc, production, self.say)
            if cache is not None and not outcome.cached and not self._store(cache, material, outcome):
                cache = None
        usage.failures = len(production.failures)
        production.usage = usage
        production.interrupted = self.interrupted
        production.model = production.model or self.settings.model  # no answer came: the model configured
        if self.fallback_paths:
            self._fell_back(outcomes, len(materials))
        log.info(
            "llm: %d materials, %d calls (%d retries), %d+%d tokens, %d cache hits, %d failed",
            len(materials),
            usage.calls,
            usage.retries,
            usage.prompt_tokens,
            usage.completion_tokens,
            usage.cache_hits,
            usage.failures,
        )
        return production
