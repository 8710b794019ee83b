"""Shared by the benchmarks: the bundled example KB with one generated note added as a material, and a
fresh process to measure in."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).resolve().parents[1] / "evals" / "golden" / "2026-10-25-inference"


def example_with_note(target: Path, rel: str, text: str) -> Path:
    """Copy the example KB to ``target``, write ``text`` at ``rel`` and list it in the manifest."""
    shutil.copytree(EXAMPLE, target)
    (target / rel).write_text(text, encoding="utf-8")
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    manifest["items"][0]["materials"].append(rel)
    (target / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    return target / "manifest.json"


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
