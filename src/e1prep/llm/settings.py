"""Settings of the model backend, read from the environment in one place (``load_settings``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import ConfigError

DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: the v2 prompt: every item of a material, whole (``E1PREP_PROMPT=extract_material`` selects the small v1)
DEFAULT_PROMPT = "extract_items"
#: The openai client refuses an empty key; local servers ignore whatever is sent.
PLACEHOLDER_KEY = "sk-no-key-needed"

#: instructor modes e1prep knows how to use, by the name accepted in ``E1PREP_MODE``.
MODES = ("tools", "json", "md_json", "json_schema")

#: Ollama's default port: its OpenAI endpoint does not force a named tool, so JSON mode is safer there.
_OLLAMA_PORT = 11434


@dataclass(frozen=True)
class LLMSettings:
    """How to reach an OpenAI-compatible server and how hard to try; the key is never printed."""

    base_url: str = DEFAULT_BASE_URL
    api_key: str = field(default="", repr=False)
    model: str | None = None
    mode: str = "auto"
    timeout: float = 120.0
    max_retries: int = 4
    max_reasks: int = 2
    backoff: float = 1.0
    backoff_max: float = 30.0
    concurrency: int = 4
    temperature: float = 0.0
    max_tokens: int = 1024
    chunk_chars: int = 6000
    context_chars: int = 3000
    use_cache: bool = True
    cache_dir: Path = field(default_factory=lambda: _default_cache_dir(os.environ))
    prompts_dir: Path | None = None
    #: the prompt file (``prompts/<id>.md``): v2 ``extract_items`` for capable models, v1 ``extract_material``
    prompt_id: str = DEFAULT_PROMPT

    @property
    def resolved_mode(self) -> str:
        """The instructor mode to use: ``E1PREP_MODE`` when set, else the default for the server."""
        return self.mode if self.mode != "auto" else default_mode(self.base_url)

    @property
    def shown_url(self) -> str:
        """The base URL as messages and the brief show it: without a ``user:password@`` or a query."""
        parts = urlsplit(self.base_url)
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        try:
            port = parts.port
        except ValueError:
            port = None
        netloc = host + (f":{port}" if port is not None else "")
        return f"{parts.scheme}://{netloc}{parts.path}"

    @property
    def is_openai(self) -> bool:
        return (urlsplit(self.base_url).hostname or "").endswith("openai.com")

    def require_model(self) -> str:
        if not self.model:
            raise ConfigError(
                "no model: set E1PREP_MODEL to the model id the server serves "
                "(e.g. E1PREP_MODEL=gpt-4o-mini, or the id listed by GET <base_url>/models)"
            )
        return self.model

    def key_for_client(self) -> str:
        """The API key to send; OpenAI itself needs a real one, local servers get a placeholder."""
        if self.api_key:
            return self.api_key
        if self.is_openai:
            raise ConfigError("OPENAI_API_KEY is not set; it is needed for api.openai.com")
        return PLACEHOLDER_KEY


def default_mode(base_url: str) -> str:
    """Tool calling everywhere it forces the schema (OpenAI, vLLM, SGLang, llama.cpp, llama-cpp-python).

    llama-cpp-python's server turns a forced tool call into a grammar built from the tool's schema,
    but rejects ``response_format`` of type ``json_schema`` (HTTP 500, "Input should be 'text' or
    'json_object'"), so ``json_schema`` mode is never a default. Ollama does not force a named tool,
    so it gets JSON mode.
    """
    parts = urlsplit(base_url)
    if parts.port == _OLLAMA_PORT or "ollama" in (parts.hostname or ""):
        return "json"
    return "tools"


def _default_cache_dir(env: Mapping[str, str]) -> Path:
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "e1prep" / "llm"


def _number(env: Mapping[str, str], name: str, default: float, *, minimum: float = 0.0) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a number") from None
    if value < minimum:
        raise ConfigError(f"{name}={raw!r} must be at least {minimum:g}")
    return value


def _integer(env: Mapping[str, str], name: str, default: int, *, minimum: int = 0) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a whole number") from None
    if value < minimum:
        raise ConfigError(f"{name}={raw!r} must be at least {minimum}")
    return value


def _flag(env: Mapping[str, str], name: str) -> bool:
    return env.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def load_settings(env: Mapping[str, str] = os.environ) -> LLMSettings:
    """Read every model-backend setting from ``env``; a bad value is a ``ConfigError`` naming it.

    E1PREP_BASE_URL (else OPENAI_BASE_URL), E1PREP_API_KEY (else OPENAI_API_KEY), E1PREP_MODEL,
    E1PREP_MODE (auto|tools|json|md_json|json_schema), E1PREP_TIMEOUT (s), E1PREP_RETRIES (transient
    HTTP retries), E1PREP_REASKS (re-asks after invalid output), E1PREP_BACKOFF and E1PREP_BACKOFF_MAX
    (s), E1PREP_CONCURRENCY, E1PREP_TEMPERATURE, E1PREP_MAX_TOKENS, E1PREP_CHUNK_CHARS,
    E1PREP_CONTEXT_CHARS, E1PREP_CACHE_DIR, E1PREP_NO_CACHE, E1PREP_PROMPTS_DIR, E1PREP_PROMPT (the prompt
    id: ``extract_items``, v2, the default; ``extract_material``, the small v1).
    """
    base_url = (env.get("E1PREP_BASE_URL") or env.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL).strip()
    if urlsplit(base_url).scheme not in ("http", "https"):
        raise ConfigError(f"base URL {base_url!r} must start with http:// or https://")
    mode = (env.get("E1PREP_MODE") or "auto").strip().lower()
    if mode not in ("auto", *MODES):
        raise ConfigError(f"E1PREP_MODE={mode!r} is not one of auto, {', '.join(MODES)}")
    backoff = _number(env, "E1PREP_BACKOFF", 1.0)
    cache_dir = env.get("E1PREP_CACHE_DIR", "").strip()
    prompts_dir = env.get("E1PREP_PROMPTS_DIR", "").strip()
    return LLMSettings(
        base_url=base_url.rstrip("/"),
        api_key=(env.get("E1PREP_API_KEY") or env.get("OPENAI_API_KEY") or "").strip(),
        model=(env.get("E1PREP_MODEL") or "").strip() or None,
        mode=mode,
        timeout=_number(env, "E1PREP_TIMEOUT", 120.0, minimum=0.001),
        max_retries=_integer(env, "E1PREP_RETRIES", 4),
        max_reasks=_integer(env, "E1PREP_REASKS", 2),
        backoff=backoff,
        backoff_max=_number(env, "E1PREP_BACKOFF_MAX", max(30.0, backoff)),
        concurrency=_integer(env, "E1PREP_CONCURRENCY", 4, minimum=1),
        temperature=_number(env, "E1PREP_TEMPERATURE", 0.0),
        max_tokens=_integer(env, "E1PREP_MAX_TOKENS", 1024, minimum=16),
        chunk_chars=_integer(env, "E1PREP_CHUNK_CHARS", 6000, minimum=200),
        context_chars=_integer(env, "E1PREP_CONTEXT_CHARS", 3000, minimum=0),
        use_cache=not _flag(env, "E1PREP_NO_CACHE"),
        cache_dir=Path(cache_dir).expanduser() if cache_dir else _default_cache_dir(env),
        prompts_dir=Path(prompts_dir).expanduser() if prompts_dir else None,
        prompt_id=(env.get("E1PREP_PROMPT") or DEFAULT_PROMPT).strip(),
    )
