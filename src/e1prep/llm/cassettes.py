"""Recorded model exchanges (vcrpy cassettes): replay them offline, or record them from a real server.

In a checkout, cassettes live in ``tests/cassettes/llm/<case>__<prompt-id>-v<version>.yaml`` (this
module never assumes where: every function takes the folder); ``MANIFEST.json`` beside them
lists, per cassette, the server's model id, the prompt id/version, the sha256 of
the prompt file and of the response schema, the library versions, and the settings that shape
the requests, so that a replay sends byte-for-byte the requests that were recorded.
JSON bodies are stored parsed (pretty YAML) so that a diff of a re-recording is readable.
vcrpy is imported only when a cassette is used: it comes with the ``replay``
extra (and ``dev``), not with ``llm``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml

from ..errors import ConfigError
from .prompts import Prompt
from .settings import LLMSettings

#: where the cassettes are in a checkout, relative to its root (the tests and the eval runner use it)
CHECKOUT_CASSETTE_DIR = Path("tests") / "cassettes" / "llm"
MANIFEST_NAME = "MANIFEST.json"
FILTER_HEADERS = ["authorization", "api-key", "x-api-key", "openai-organization"]
_DROP_RESPONSE_HEADERS = ("set-cookie", "openai-organization", "openai-project")
MATCH_ON = ["method", "path", "body"]
RECORD_COMMAND = "python scripts/record_cassettes.py"
#: what a replay sends as key; the recording used the same dummy (never a real key)
DUMMY_KEY = "sk-test-not-a-real-key"
#: nothing listens on the discard port: if a request escaped the cassette it would fail at once
OFFLINE_BASE_URL = "http://127.0.0.1:9/v1"
#: the settings fields that shape request bodies or their number; stored per cassette
REPLAY_NEEDS = "replaying a cassette needs the replay extra (vcrpy): pip install 'e1prep[replay]'"
REQUEST_SETTINGS = ("model", "mode", "temperature", "max_tokens", "chunk_chars", "context_chars", "max_reasks")


def cassette_name(case: str, prompt_id: str, prompt_version: str) -> str:
    """``<case>__<prompt-id>-v<version>.yaml``: a new prompt version never reuses an old cassette."""
    return f"{case}__{prompt_id}-v{prompt_version}.yaml"


def cassette_path(case: str, prompt: Prompt, directory: Path) -> Path:
    return directory / cassette_name(case, prompt.id, prompt.version)


def library_versions() -> dict[str, str]:
    """The versions the request bodies depend on."""
    out = {}
    for dist in ("openai", "instructor"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "absent"
    return out


# --- pretty JSON bodies -------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    pass


def _str_presenter(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _str_presenter)


def _as_json(text: object) -> object | None:
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return None
    if not isinstance(text, str) or text.strip()[:1] not in ("{", "["):
        return None
    try:
        parsed: object = json.loads(text)
    except ValueError:
        return None
    return parsed


def _set_header(headers: dict[str, list[str]], name: str, value: str) -> None:
    for key in list(headers):
        if key.lower() == name:
            headers[key] = [value]


class PrettyYAMLSerializer:
    """vcrpy serializer: YAML with JSON bodies stored parsed (``parsed_body`` / ``body.json``)."""

    @staticmethod
    def serialize(cassette_dict: dict[str, Any]) -> str:
        data = copy.deepcopy(cassette_dict)
        for interaction in data.get("interactions", []):
            request = interaction["request"]
            parsed = _as_json(request.get("body"))
            if parsed is not None:
                request["parsed_body"] = parsed
                del request["body"]
            body = interaction["response"].get("body", {})
            parsed = _as_json(body.get("string"))
            if parsed is not None:
                interaction["response"]["body"] = {"json": parsed}
        text = yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=110)
        return str(text)

    @staticmethod
    def deserialize(cassette_string: str) -> dict[str, Any]:
        data: dict[str, Any] = yaml.safe_load(cassette_string) or {}
        for interaction in data.get("interactions", []):
            request = interaction["request"]
            if "parsed_body" in request:
                request["body"] = json.dumps(request.pop("parsed_body"), ensure_ascii=False)
            response = interaction["response"]
            if "json" in response.get("body", {}):
                text = json.dumps(response["body"]["json"], ensure_ascii=False)
                response["body"] = {"string": text}
                _set_header(response.get("headers", {}), "content-length", str(len(text.encode("utf-8"))))
        return data


def _scrub_response(response: dict[str, Any]) -> dict[str, Any]:
    headers = response.get("headers", {})
    for key in list(headers):
        if key.lower() in _DROP_RESPONSE_HEADERS:
            del headers[key]
    return response


@contextmanager
def replay(cassette_path: str | Path, record: bool = False, *, record_mode: str | None = None) -> Iterator[Any]:
    """Play HTTP exchanges from a cassette (``record_mode`` "none": an unknown request raises).

    ``record=True`` records instead ("all", or ``record_mode="new_episodes"``) and writes the
    cassette when the block ends. Yields the vcrpy ``Cassette``. Raises ``ConfigError`` (one line)
    without vcrpy or when the cassette file cannot be parsed.
    """
    try:
        import vcr  # the dev extra: replaying is a test and eval feature
    except ModuleNotFoundError:
        raise ConfigError(REPLAY_NEEDS) from None

    mode = record_mode or ("all" if record else "none")
    if not record and mode != "none":
        raise ValueError("replay without record uses record_mode 'none'")
    path = Path(cassette_path)
    if not record and not path.is_file():
        raise FileNotFoundError(f"no cassette {path}; record it with: {RECORD_COMMAND}")
    recorder = vcr.VCR(
        serializer="e1prep-yaml",
        record_mode=mode,
        match_on=MATCH_ON,
        filter_headers=FILTER_HEADERS,
        before_record_response=_scrub_response,
        decode_compressed_response=True,
    )
    recorder.register_serializer("e1prep-yaml", PrettyYAMLSerializer)
    with ExitStack() as stack:
        try:
            cassette = stack.enter_context(recorder.use_cassette(str(path)))
        except (yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
            reason = " ".join(str(exc).split())  # one line, whatever the parser said
            raise ConfigError(f"{path}: not a readable cassette ({type(exc).__name__}: {reason})") from None
        yield cassette


# --- the manifest -------------------------------------------------------------------------------


def load_manifest(directory: Path) -> dict[str, Any]:
    path = directory / MANIFEST_NAME
    if not path.is_file():
        return {"cassettes": []}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def write_manifest(manifest: dict[str, Any], directory: Path) -> Path:
    folder = directory
    folder.mkdir(parents=True, exist_ok=True)
    manifest["cassettes"] = sorted(manifest.get("cassettes", []), key=lambda e: e["file"])
    path = folder / MANIFEST_NAME
    path.write_text(json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path


def manifest_entry(case: str, directory: Path, prompt_id: str = "extract_material") -> dict[str, Any]:
    """The manifest entry of a case's cassette; ``LookupError`` says how to record it."""
    for entry in load_manifest(directory).get("cassettes", []):
        if entry.get("case") == case and entry.get("prompt_id") == prompt_id:
            return dict(entry)
    raise LookupError(
        f"no cassette for case {case!r} and prompt {prompt_id!r} in {directory}; record it with: {RECORD_COMMAND}"
    )


def entry_for_file(path: Path) -> dict[str, Any]:
    """The manifest entry of the cassette file ``path`` (``MANIFEST.json`` beside it); ``LookupError`` if unlisted."""
    for entry in load_manifest(path.parent).get("cassettes", []):
        if entry.get("file") == path.name:
            return dict(entry)
    raise LookupError(f"{path}: not listed in {path.parent / MANIFEST_NAME}")


def stale_reasons(
    entry: dict[str, Any],
    prompt: Prompt,
    schema_sha: str,
    *,
    directory: Path | None = None,
    requests_sha: str | None = None,
) -> list[str]:
    """Why a cassette no longer matches what the code would send (empty when it is fresh).

    ``requests_sha`` (``LLMProducer(replay_settings(entry)).requests_sha256(kb, doc)``) also
    catches changes outside the prompt file: the rendering, the note splitter, the document search.
    ``directory`` (the cassette folder) also checks that the cassette file exists.
    """
    reasons = []
    if requests_sha is not None and entry.get("requests_sha256") != requests_sha:
        reasons.append("the requests rendered for this case changed (prompt, rendering, or the KB helpers)")
    if entry.get("prompt_version") != prompt.version:
        reasons.append(f"prompt version {entry.get('prompt_version')} recorded, {prompt.version} now")
    if entry.get("prompt_sha256") != prompt.sha256:
        reasons.append(f"prompt file {prompt.path.name} changed since recording")
    if entry.get("schema_sha256") != schema_sha:
        reasons.append("the response model's JSON schema changed since recording")
    if directory is not None and not (directory / entry["file"]).is_file():
        reasons.append(f"cassette file {entry['file']} is missing")
    return reasons


def replay_settings(entry: dict[str, Any], base: LLMSettings | None = None) -> LLMSettings:
    """Settings that reproduce the recorded requests, pointed at a port nothing listens on."""
    recorded = entry.get("settings", {})
    values = {k: recorded[k] for k in REQUEST_SETTINGS if k in recorded}
    return replace(
        base or LLMSettings(),
        base_url=OFFLINE_BASE_URL,
        api_key=DUMMY_KEY,
        max_retries=0,
        timeout=10.0,
        use_cache=False,
        concurrency=1,
        prompt_id=str(entry.get("prompt_id") or (base or LLMSettings()).prompt_id),
        **values,
    )


@contextmanager
def replaying(case: str, directory: Path, prompt_id: str = "extract_material") -> Iterator[LLMSettings]:
    """Replay a golden case's cassette from ``directory``; yields the settings to build ``LLMProducer`` with.

    >>> with replaying("2026-10-25-inference", Path("tests/cassettes/llm")) as settings:  # doctest: +SKIP
    ...     production = LLMProducer(settings).produce(kb, doc)

    Raises ``LookupError`` when the case has no cassette, ``ConfigError`` without vcrpy (the dev extra).
    """
    entry = manifest_entry(case, directory, prompt_id)
    with replay(directory / entry["file"]):
        yield replay_settings(entry)


def read_pins(path: Path) -> dict[str, str]:
    """``name==version`` lines of a pip constraints file (the model stack the cassettes were recorded with)."""
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        name, sep, version = line.split("#", 1)[0].strip().partition("==")
        if sep:
            pins[name.strip().lower()] = version.strip()
    return pins
