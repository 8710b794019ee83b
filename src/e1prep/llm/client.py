"""The model client: instructor over the openai client, with tenacity retries and per-call accounting.

Two retry layers, counted separately:

* transient HTTP failures (timeouts, connection resets, 408/409/429, 5xx, a body that is not
  JSON) are retried here with exponential backoff and jitter; the openai client's own retries
  are switched off so that every attempt is counted;
* a server nobody can reach (a refused connection, an unknown host) is not retried at all: the
  call raises ``ServerUnreachable`` at once, and the backend stops asking (``is_unreachable``);
* an answer that does not validate against the response model is re-asked by instructor, at
  most ``max_reasks`` times.

Every HTTP attempt is a call; every attempt after the first of an extraction is a retry; the
tokens of every answer, valid or not, are added up.
"""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import instructor
import openai
from pydantic import BaseModel, ValidationError
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from ..errors import ModelCallError
from .settings import LLMSettings

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

_MODES: dict[str, instructor.Mode] = {
    "tools": instructor.Mode.TOOLS,
    "json": instructor.Mode.JSON,
    "md_json": instructor.Mode.MD_JSON,
    "json_schema": instructor.Mode.JSON_SCHEMA,
}
_RETRY_STATUS = frozenset({408, 409, 429})
#: vcrpy raises this (wrapped by openai as a connection error) when a cassette has no answer.
_NO_RECORDING = "CannotOverwriteExistingCassetteException"
RERECORD_HINT = "re-record with: python scripts/record_cassettes.py"


@dataclass
class CallStats:
    """What one extraction (or a sum of them) cost: HTTP attempts, retries, tokens, waiting."""

    calls: int = 0
    retries: int = 0
    reasks: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    waited: float = 0.0
    model: str | None = None

    def add(self, other: CallStats) -> None:
        self.calls += other.calls
        self.retries += other.retries
        self.reasks += other.reasks
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.waited += other.waited
        self.model = self.model or other.model


class MalformedResponse(Exception):
    """The server answered 2xx with a body that is not a chat completion (e.g. broken JSON)."""


class ExtractionFailed(ModelCallError):
    """An extraction failed for good; ``reason`` is short and safe to print, ``stats`` is what it cost."""

    def __init__(self, reason: str, stats: CallStats) -> None:
        self.reason = reason
        self.stats = stats
        super().__init__(reason)


class ServerUnreachable(ExtractionFailed):
    """Nothing answered at the base URL (connection refused, unknown host): no other call will fare better."""


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def no_recording(exc: BaseException) -> bool:
    """Was this raised because a cassette in replay mode holds no answer for the request?"""
    return any(type(e).__name__ == _NO_RECORDING for e in _chain(exc))


def is_unreachable(exc: BaseException) -> bool:
    """Did the connection itself fail (refused, unknown host, no route), not a timeout or a reset?

    Nobody is listening at the base URL: waiting and asking again only delays the user (issue 25).
    The HTTP stack's ``ConnectError`` (httpx, httpcore or their forks) is matched by name, so the
    check does not depend on which of them the openai client ships with.
    """
    if no_recording(exc):
        return False
    for cause in _chain(exc):
        if isinstance(cause, openai.APITimeoutError | TimeoutError):
            return False
        if isinstance(cause, ConnectionRefusedError | socket.gaierror):
            return True
        if any(k.__name__ == "ConnectError" for k in type(cause).__mro__):
            return True
    return False


def unreachable_reason(exc: BaseException) -> str:
    """Why nothing answered, in a few words: "connection refused", "unknown host", or the root error."""
    root = list(_chain(exc))[-1]
    if isinstance(root, ConnectionRefusedError):
        return "connection refused"
    if isinstance(root, socket.gaierror):
        return f"unknown host ({_short(str(root.strerror or root), 80)})"
    return f"{type(root).__name__}: {_short(str(root), 120)}"


def is_transient(exc: BaseException) -> bool:
    """Worth another try after a pause: timeouts, resets, rate limits, server errors, broken bodies."""
    if no_recording(exc) or is_unreachable(exc):
        return False
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code in _RETRY_STATUS or exc.status_code >= 500
    return isinstance(exc, openai.APIConnectionError | MalformedResponse)


def _retry_after(exc: BaseException | None) -> float | None:
    if isinstance(exc, openai.APIStatusError):
        raw = exc.response.headers.get("retry-after")
        try:
            return float(raw) if raw is not None else None
        except ValueError:
            return None
    return None


class _Backoff:
    """Exponential backoff with jitter; a server's ``Retry-After`` is honoured up to the maximum."""

    def __init__(self, base: float, maximum: float) -> None:
        self._wait = wait_exponential_jitter(multiplier=base, max=maximum, jitter=base)
        self._max = maximum

    def __call__(self, state: RetryCallState) -> float:
        wait = float(self._wait(state))
        hinted = _retry_after(state.outcome.exception() if state.outcome else None)
        if hinted is not None:
            wait = max(wait, min(hinted, self._max))
        return wait


def _short(text: str, limit: int = 240) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe(exc: BaseException) -> str:
    """A one-line reason for a failed extraction, from the root cause of ``exc``."""
    if no_recording(exc):
        return (
            "no recorded answer for this request in the cassette (prompt, schema or library changed?); " + RERECORD_HINT
        )
    causes = list(_chain(exc))
    for cause in causes:
        if isinstance(cause, openai.APITimeoutError):
            return "request timed out"
        if isinstance(cause, openai.APIStatusError):
            return f"HTTP {cause.status_code}: {_short(str(cause.message), 160)}"
        if isinstance(cause, openai.APIConnectionError):
            root = causes[-1]
            return f"connection failed ({type(root).__name__}: {_short(str(root), 120)})"
        if isinstance(cause, MalformedResponse):
            return f"malformed response: {_short(str(cause), 160)}"
        if type(cause).__name__ == "IncompleteOutputException":
            return "the answer was cut off at max_tokens"
        if isinstance(cause, ValidationError):
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'answer'}: {err['msg']}" for err in cause.errors()[:3]
            )
            return f"the answer did not validate: {_short(problems, 200)}"
        if isinstance(cause, json.JSONDecodeError):
            return f"the answer is not JSON ({cause.msg})"
    return f"{type(exc).__name__}: {_short(str(exc), 200)}"


class LLMClient:
    """One configured client; ``extract`` is safe to call from several threads at once."""

    def __init__(self, settings: LLMSettings) -> None:
        self.settings = settings
        self.model = settings.require_model()
        mode = settings.resolved_mode
        if mode not in _MODES:
            raise ModelCallError(f"unknown mode {mode!r}")
        self.mode = _MODES[mode]
        self._openai = openai.OpenAI(
            api_key=settings.key_for_client(),
            base_url=settings.base_url,
            timeout=settings.timeout,
            max_retries=0,
        )

    def close(self) -> None:
        self._openai.close()

    def redact(self, text: str) -> str:
        key = self.settings.api_key
        return text.replace(key, "[redacted]") if key and len(key) >= 4 else text

    def _raw_create(self, stats: CallStats, label: str) -> Callable[..., Any]:
        """The chat-completions call that instructor drives: retried on transient failures, counted."""
        settings = self.settings

        def before_sleep(state: RetryCallState) -> None:
            wait = state.next_action.sleep if state.next_action else 0.0
            stats.waited += wait
            exc = state.outcome.exception() if state.outcome else None
            reason = describe(exc) if exc is not None else "?"
            log.warning(
                "%s: attempt %d of %d failed (%s); retrying in %.2f s",
                label,
                state.attempt_number,
                settings.max_retries + 1,
                self.redact(reason),
                wait,
            )

        def create(*args: Any, **kwargs: Any) -> Any:
            if stats.calls:
                stats.reasks += 1
                stats.retries += 1
            retrying = Retrying(
                stop=stop_after_attempt(settings.max_retries + 1),
                wait=_Backoff(settings.backoff, settings.backoff_max),
                retry=retry_if_exception(is_transient),
                before_sleep=before_sleep,
                reraise=True,
            )
            for attempt in retrying:
                with attempt:
                    if attempt.retry_state.attempt_number > 1:
                        stats.retries += 1
                    stats.calls += 1
                    try:
                        response = self._openai.chat.completions.create(*args, **kwargs)
                    except json.JSONDecodeError as exc:
                        raise MalformedResponse(f"the body is not JSON ({exc.msg})") from exc
                    if not hasattr(response, "choices"):
                        raise MalformedResponse(f"expected a chat completion, got {type(response).__name__}")
                    usage = getattr(response, "usage", None)
                    if usage is not None:
                        stats.prompt_tokens += int(getattr(usage, "prompt_tokens", 0) or 0)
                        stats.completion_tokens += int(getattr(usage, "completion_tokens", 0) or 0)
                    stats.model = stats.model or getattr(response, "model", None)
                    return response
            raise AssertionError("unreachable: tenacity reraises")  # pragma: no cover

        return create

    def extract(
        self,
        response_model: type[T],
        messages: list[dict[str, str]],
        *,
        label: str = "",
        stats: CallStats | None = None,
    ) -> tuple[T, CallStats]:
        """Ask for one ``response_model``; raise ``ExtractionFailed`` (with its cost) when it cannot be had,
        ``ServerUnreachable`` at once when nothing answers at the base URL.

        ``stats``: count into this object as the calls are made, so that a caller interrupted while
        this call is in flight still knows what it cost.
        """
        stats = stats if stats is not None else CallStats()
        patched = instructor.patch(create=self._raw_create(stats, label or "extract"), mode=self.mode)
        try:
            result = patched(
                model=self.model,
                messages=messages,
                response_model=response_model,
                max_retries=self.settings.max_reasks,
                temperature=self.settings.temperature,
                max_tokens=self.settings.max_tokens,
            )
        except Exception as exc:
            if is_unreachable(exc):
                raise ServerUnreachable(self.redact(unreachable_reason(exc)), stats) from exc
            reason = self.redact(describe(exc))
            if stats.reasks and "did not validate" in reason:
                reason += f" (after {stats.reasks} re-asks)"
            elif stats.calls > 1:
                reason += f" (after {stats.calls} attempts)"
            raise ExtractionFailed(reason, stats) from exc
        if not isinstance(result, response_model):
            raise ExtractionFailed(f"expected {response_model.__name__}, got {type(result).__name__}", stats)
        return result, stats
