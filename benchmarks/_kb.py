"""Shared by the benchmarks: the bundled example KB with one generated note added as a material, and a
fresh process to measure in."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).resolve().parents[1] / "evals" / "golden" / "2026-10-25-inference"


def example_with_note(target: Path, rel: str, text: str) -> Path:
    """Copy the example KB to ``target``, write ``text`` at ``rel`` and list it in the manifest."""
    return example_with_files(target, {rel: text})


def example_with_files(target: Path, files: Mapping[str, str], *, listed: bool = True) -> Path:
    """Copy the example KB to ``target`` and write ``files`` (path: text) into it; with ``listed``, each
    is added to the manifest's materials (without: it replaces a file of the example, e.g. the document)."""
    shutil.copytree(EXAMPLE, target)
    for rel, text in files.items():
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        (target / rel).write_text(text, encoding="utf-8")
    if listed:
        manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
        manifest["items"][0]["materials"].extend(files)
        (target / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    return target / "manifest.json"


def manifest_inputs(manifest: Path) -> list[Path]:
    """Every file a draft of ``manifest`` reads: the manifest, then each item's living document,
    materials and spot checks."""
    data = json.loads(manifest.read_text(encoding="utf-8"))
    rels = [
        rel for item in data["items"] for rel in (item["knowledge"], *item["materials"], *item.get("spot_check", ()))
    ]
    return [manifest, *(manifest.parent / rel for rel in rels)]


def fill(header: str, chunk: Callable[[int], str], size: int) -> str:
    """``header`` then ``chunk(1)``, ``chunk(2)``… until the text holds at least ``size`` bytes."""
    parts, total, n = [header], 0, 1
    while total < size:
        part = chunk(n)
        parts.append(part)
        total += len(part.encode())
        n += 1
    return "".join(parts)


def run_child(script: str, *args: str) -> dict[str, Any]:
    """Run ``script`` with ``args`` in a fresh Python process (its own peak memory, caches and compiled
    patterns) and read the JSON object it prints last."""
    done = subprocess.run([sys.executable, script, *args], capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result
