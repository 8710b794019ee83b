"""The public Python API: what ``import e1prep`` offers, and how it fails."""

from __future__ import annotations

import inspect
import json
import typing
from pathlib import Path

import pytest

import e1prep
from conftest import EXAMPLE_MANIFEST


def test_render_markdown_takes_zh_or_en_only(example_brief: e1prep.Brief) -> None:
    assert typing.get_args(e1prep.Lang) == ("zh", "en")
    hints = typing.get_type_hints(e1prep.render_markdown)
    assert hints["lang"] == e1prep.Lang
    assert inspect.signature(e1prep.render_markdown).parameters["lang"].default == "zh"
    assert e1prep.render_markdown(example_brief, lang="en") != e1prep.render_markdown(example_brief)
    with pytest.raises(e1prep.E1PrepError, match="lang must be 'zh' or 'en'"):
        e1prep.render_markdown(example_brief, lang="fr")  # type: ignore[arg-type]


def test_verify_brief_takes_a_brief_or_its_json_file(example_brief: e1prep.Brief, tmp_path: Path) -> None:
    assert e1prep.verify_brief(example_brief, EXAMPLE_MANIFEST).clean
    data = json.loads(example_brief.model_dump_json())
    path = tmp_path / "brief.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert e1prep.verify_brief(path, EXAMPLE_MANIFEST).clean
    data["increments"][0]["points"] = ["It is 93% faster."]
    path.write_text(json.dumps(data), encoding="utf-8")
    report = e1prep.verify_brief(str(path), EXAMPLE_MANIFEST)
    assert not report.clean and any("93%" in v.text for v in report.violations)


def test_verify_brief_names_a_bad_file(tmp_path: Path) -> None:
    with pytest.raises(e1prep.InputError, match="no such file"):
        e1prep.verify_brief(tmp_path / "missing.json", EXAMPLE_MANIFEST)
    (tmp_path / "b.json").write_text("{}", encoding="utf-8")
    with pytest.raises(e1prep.InputError, match=r"b\.json: does not match"):
        e1prep.verify_brief(tmp_path / "b.json", EXAMPLE_MANIFEST)


def test_the_api_is_documented() -> None:
    for name in ("draft_brief", "verify_brief", "render_markdown"):
        doc = inspect.getdoc(getattr(e1prep, name)) or ""
        assert "Raises" in doc and "default" in doc, name
