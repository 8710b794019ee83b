"""Shared fixtures: offline by default, the bundled example, and tiny tmp KBs."""

from __future__ import annotations

import hashlib
import json
import shutil
import socket
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("e1prep", database=None)
settings.load_profile("e1prep")

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "evals" / "golden" / "2026-10-25-inference"
EXAMPLE_MANIFEST = EXAMPLE / "manifest.json"
SEEDS = ROOT.parent / "shared" / "seeds"  # shared/ sits beside the checkout
BLOGS = "inbox/jay/2026-10-25T1335-blogs-discovery.md"


_LOOPBACK = ("127.0.0.1", "::1", "localhost")


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dummy API key, and no socket may connect anywhere but the loopback interface."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-dummy")
    real_connect = socket.socket.connect
    real_create = socket.create_connection

    def _host(address: object) -> str:
        return str(address[0]) if isinstance(address, tuple) and address else str(address)

    def guarded_connect(self: socket.socket, address: object) -> object:
        if self.family == getattr(socket, "AF_UNIX", None) or _host(address) in _LOOPBACK:
            return real_connect(self, address)  # type: ignore[arg-type]
        raise RuntimeError(f"network access blocked in tests: {address!r}")

    def guarded_create(address: tuple[str, int], *args: object, **kwargs: object) -> socket.socket:
        if _host(address) not in _LOOPBACK:
            raise RuntimeError(f"network access blocked in tests: {address!r}")
        return real_create(address, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket, "create_connection", guarded_create)


@pytest.fixture(scope="session")
def example_brief():
    """The rules brief of the bundled example (drafted once per session; treat as read-only)."""
    from e1prep.pipeline import draft_brief

    return draft_brief(EXAMPLE_MANIFEST)


@pytest.fixture(scope="session")
def example_kb():
    from e1prep.kb.loading import load_kb
    from e1prep.pipeline import living_document

    kb = load_kb(EXAMPLE_MANIFEST)
    return kb, living_document(kb)


KNOWLEDGE_DEFAULT = """# inference 活文档

> 更新标记：vOct20

## §1 引擎与运行时

### §1.1 引擎

- 基线：vLLM 0.11 作为参考引擎。

### §1.6 仓库计数

- acme/widget（widget）：100 ⭐ / 周增 +10（2026-10-01 采集）。

## §6 开放问题

- 暂无。
"""


MakeKB = Callable[..., Path]


@pytest.fixture
def make_kb(tmp_path: Path) -> MakeKB:
    """Write files under a fresh KB root and a manifest naming ``materials``; return the manifest path."""

    def make(
        files: dict[str, str | bytes],
        materials: list[str] | None = None,
        *,
        knowledge: str | None = KNOWLEDGE_DEFAULT,
        created: str = "2026-10-25T21:00:00+08:00",
        spot_check: list[str] | None = None,
        root: Path | None = None,
    ) -> Path:
        kb = root or (tmp_path / "kb")
        kb.mkdir(parents=True, exist_ok=True)
        all_files = dict(files)
        if knowledge is not None:
            all_files.setdefault("organized/knowledge/inference.md", knowledge)
        for rel, content in all_files.items():
            p = kb / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                p.write_bytes(content)
            else:
                p.write_text(content, encoding="utf-8")
        item: dict[str, object] = {
            "id": "e1_prep:inference",
            "topic": "inference",
            "score": 5,
            "knowledge": "organized/knowledge/inference.md",
            "materials": materials if materials is not None else [f for f in files],
            "output": "inbox/tom/out.md",
        }
        if spot_check:
            item["spot_check"] = spot_check
        manifest = kb / "manifest.json"
        manifest.write_text(json.dumps({"job": "job-1", "created": created, "items": [item]}), encoding="utf-8")
        return manifest

    return make


def example_with(folder: Path, files: Mapping[str, str]) -> Path:
    """The bundled example KB copied to ``folder``, with ``files`` written and added to its manifest's
    materials: the manifest's path."""
    shutil.copytree(EXAMPLE, folder)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
        manifest["items"][0]["materials"].append(rel)
    (folder / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    return folder / "manifest.json"


def repo_card(repo: str = "acme/widget", stars: int = 100, weekly: int = 10, body: str = "", **extra: object) -> str:
    """A canonical repo card with front matter."""
    fields = {
        "repo": repo,
        "url": f"https://github.com/{repo}",
        "stars": stars,
        "stars_weekly": weekly,
        "language": "Python",
        "license": "MIT",
        "last_commit": "2026-10-20",
        "first_seen": "2026-06-01",
        "last_seen": "2026-10-25",
        "maturity": "active",
        "source": "github-search",
        **extra,
    }
    front = "\n".join(f"{k}: {v}" for k, v in fields.items())
    return f"---\n{front}\n---\n# {repo}\n\n{body}"


def tree_digest(root: Path) -> dict[str, str]:
    """Every regular file under ``root`` (symbolic links not followed) by its SHA-256: a KB is byte-identical
    after a probe when its digest is."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def error_lines(err: str) -> list[str]:
    """The one-line errors of a run's stderr (``e1prep: error: …``)."""
    return [ln for ln in err.splitlines() if ln.startswith("e1prep: error")]


def probe_draft(
    manifest: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str, kb_root: Path | None = None
) -> tuple[int, str, dict]:
    """Run ``draft`` in-process; return (exit code, stderr, brief JSON or {}). Checks: the KB is byte-identical,
    and the run ends in a brief (exit 0/1) or in exactly one error line (exit 2) with nothing written."""
    from e1prep.cli import main

    root = kb_root or manifest.parent
    before = tree_digest(root)
    out, js = tmp_path / "probe.md", tmp_path / "probe.json"
    for p in (out, js):
        p.unlink(missing_ok=True)
    code = main(["draft", str(manifest), "--out", str(out), "--json", str(js), *extra])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert tree_digest(root) == before
    if code == 2:
        assert len(error_lines(err)) == 1, err
        assert not out.exists() and not js.exists()
        return code, err, {}
    assert code in (0, 1), err
    return code, err, json.loads(js.read_text(encoding="utf-8"))
