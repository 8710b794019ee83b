"""On-disk cache of per-material extractions, keyed by everything the extraction depends on.

The key holds the material's content hash, the prompt id and version, the model, the brief
schema version, the response model's JSON-schema hash and the chunk size. Each entry stores
its key parts and is checked against them on read, so a hash collision or a stale file can
never be served. The living document is not part of the key: the model's reading of a material
is reused, while every deterministic fact (hit counts, anchors) is recomputed on each run.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..brief import models
from ..errors import InputError

log = logging.getLogger(__name__)

CACHE_FORMAT = 1


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CacheKey:
    """Every part an extraction depends on; change any one and the entry is not served."""

    content_sha256: str
    prompt_id: str
    prompt_version: str
    model: str
    schema_version: str
    response_schema_sha256: str
    chunk_chars: int

    @classmethod
    def build(
        cls,
        *,
        text: str,
        prompt_id: str,
        prompt_version: str,
        model: str,
        response_schema_sha256: str,
        chunk_chars: int,
    ) -> CacheKey:
        return cls(
            content_sha256=sha256_text(text),
            prompt_id=prompt_id,
            prompt_version=prompt_version,
            model=model,
            schema_version=models.SCHEMA_VERSION,
            response_schema_sha256=response_schema_sha256,
            chunk_chars=chunk_chars,
        )

    def parts(self) -> dict[str, Any]:
        return {
            "format": CACHE_FORMAT,
            "content_sha256": self.content_sha256,
            "prompt_id": self.prompt_id,
            "prompt_version": self.prompt_version,
            "model": self.model,
            "schema_version": self.schema_version,
            "response_schema_sha256": self.response_schema_sha256,
            "chunk_chars": self.chunk_chars,
        }

    @property
    def digest(self) -> str:
        return sha256_text(json.dumps(self.parts(), sort_keys=True))


def guard_cache_dir(directory: Path, kb_root: Path) -> None:
    """Raise ``InputError`` (one line, exit 2) when the cache folder resolves inside the KB root: a draft
    never writes into the KB, and ``--cache-dir`` or ``E1PREP_CACHE_DIR`` would make it."""
    folder, root = Path(os.path.realpath(directory)), Path(os.path.realpath(kb_root))
    if folder == root or folder.is_relative_to(root):
        raise InputError(
            directory,
            f"the model cache folder resolves inside the KB root {root}; the KB is never written "
            "(give --cache-dir or E1PREP_CACHE_DIR outside it, or --no-cache)",
        )


class ExtractionCache:
    """A folder of JSON files, one per extracted material; writes are atomic, reads never raise."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def unusable(self) -> str | None:
        """Why the folder cannot hold the cache (it is a file, it cannot be created or written), else None.

        Asked once per run, so a bad folder costs one warning and an uncached run rather than a traceback
        on the first write (or a warning per material on every read).
        """
        try:
            if self.directory.exists() and not self.directory.is_dir():
                return "it is not a folder"
            self.directory.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(prefix=".probe-", suffix=".tmp", dir=self.directory)
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            return exc.strerror or str(exc)
        return None

    def path_for(self, key: CacheKey) -> Path:
        digest = key.digest
        return self.directory / digest[:2] / f"{digest}.json"

    def get(self, key: CacheKey) -> dict[str, Any] | None:
        """The stored value for ``key``, or None (missing, unreadable, or stored under other key parts)."""
        path = self.path_for(key)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("cache entry %s is unreadable (%s); ignored", path, exc)
            return None
        if not isinstance(entry, dict) or entry.get("key") != key.parts() or not isinstance(entry.get("value"), dict):
            log.warning("cache entry %s does not match its key; ignored", path)
            return None
        value: dict[str, Any] = entry["value"]
        return value

    def put(self, key: CacheKey, value: dict[str, Any]) -> Path:
        path = self.path_for(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps({"key": key.parts(), "value": value}, ensure_ascii=False, indent=1, sort_keys=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path
