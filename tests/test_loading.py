"""Manifest errors, front matter variants, encodings, containment."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import repo_card
from e1prep.brief.models import MaterialStatus
from e1prep.errors import ManifestError
from e1prep.kb.loading import load_kb, load_manifest, read_material, split_front_matter

CARD = "organized/repo_cards/1-acme-widget.md"
PAPER = "organized/paper_cards/2-2601-00001.md"
NOTE = "inbox/jay/2026-10-25-blogs-discovery.md"


def _manifest(tmp_path: Path, content: str | bytes, name: str = "m.json") -> Path:
    p = tmp_path / name
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content, encoding="utf-8")
    return p


def _item(i: str) -> dict[str, object]:
    return {"id": i, "topic": "inference", "knowledge": "k.md", "materials": []}


# --- manifest -----------------------------------------------------------------------------------


def test_manifest_missing_file(tmp_path: Path) -> None:
    where = tmp_path / "nope.json"
    with pytest.raises(ManifestError) as exc:
        load_manifest(where)
    assert "nope.json" in str(exc.value)
    assert exc.value.path == str(where)


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "",
        b"\xff\xfe\x00garbage",
        "[1, 2]",
        '{"job": "j"}',
        '{"job": "j", "items": []}',
        '{"job": "j", "items": "x"}',
        '{"job": "j", "items": [{"id": "a"}]}',
        '{"job": "j", "items": [{"id": "a", "knowledge": "k", "materials": [1]}]}',
    ],
    ids=[
        "invalid-json",
        "empty",
        "not-utf8",
        "array",
        "no-items",
        "empty-items",
        "items-not-list",
        "item-no-knowledge",
        "materials-not-strings",
    ],
)
def test_manifest_malformed_names_the_file(tmp_path: Path, content: str | bytes) -> None:
    path = _manifest(tmp_path, content, "bad-manifest.json")
    with pytest.raises(ManifestError) as exc:
        load_manifest(path)
    assert "bad-manifest.json" in str(exc.value)


def test_manifest_invalid_json_reports_position(tmp_path: Path) -> None:
    path = _manifest(tmp_path, '{"job": "j",\n "items": [,]}')
    with pytest.raises(ManifestError, match=r"line 2"):
        load_manifest(path)


def test_manifest_several_items_need_item(tmp_path: Path) -> None:
    path = _manifest(tmp_path, json.dumps({"job": "j", "items": [_item("a:x"), _item("b:y")]}))
    m = load_manifest(path)
    with pytest.raises(ManifestError, match="--item") as exc:
        m.select(None)
    assert "m.json" in str(exc.value)
    assert m.select("b:y").id == "b:y"
    with pytest.raises(ManifestError, match="c:z") as exc2:
        m.select("c:z")
    assert "m.json" in str(exc2.value)


def test_manifest_bom_and_defaults(tmp_path: Path) -> None:
    data = {
        "job": "j",
        "created": "2026-10-25T21:00:00+08:00",
        "items": [{"id": "e1_prep:rag", "knowledge": "k.md", "materials": ["a.md"], "score": 7}],
    }
    path = _manifest(tmp_path, b"\xef\xbb\xbf" + json.dumps(data).encode())
    m = load_manifest(path)
    assert m.date == "2026-10-25"
    item = m.select(None)
    assert item.topic == "rag"  # derived from the id
    assert item.score == 7.0
    assert item.materials == ("a.md",)


def test_load_kb_unknown_item(make_kb) -> None:
    manifest = make_kb({NOTE: "# x\n"})
    with pytest.raises(ManifestError, match="nope"):
        load_kb(manifest, item_id="nope")


# --- front matter -------------------------------------------------------------------------------


def test_front_matter_valid_yaml() -> None:
    front, body, line, warnings = split_front_matter("---\nrepo: a/b\nstars: 12\n---\n# T\nbody\n")
    assert front == {"repo": "a/b", "stars": 12}
    assert body.startswith("# T")
    assert line == 5
    assert warnings == []


def test_front_matter_invalid_yaml_warns_and_reads_pairs() -> None:
    front, body, _, warnings = split_front_matter("---\nrepo: a/b\nbad: [unclosed\nstars: 1,234\n---\nbody\n")
    assert any("not valid YAML" in w for w in warnings)
    assert front["repo"] == "a/b"
    assert front["stars"] == 1234
    assert body == "body\n"


def test_front_matter_not_a_mapping() -> None:
    front, _, _, warnings = split_front_matter("---\n- a\n- b\n---\nbody")
    assert front == {}
    assert any("not a mapping" in w for w in warnings)


def test_no_front_matter() -> None:
    assert split_front_matter("# just a note\n") == ({}, "# just a note\n", 1, [])


def test_card_missing_and_extra_fields_warn(make_kb, tmp_path: Path) -> None:
    make_kb({CARD: "---\nrepo: acme/widget\nstars: 5\nshoe_size: 44\n---\n# x\n"})
    m = read_material(tmp_path / "kb", CARD)
    assert m.status is MaterialStatus.read
    assert any("lacks" in w and "stars_weekly" in w for w in m.warnings)
    assert any("unknown fields" in w and "shoe_size" in w for w in m.warnings)


def test_canonical_card_has_no_warnings(make_kb, tmp_path: Path) -> None:
    make_kb({CARD: repo_card()})
    m = read_material(tmp_path / "kb", CARD)
    assert m.warnings == []
    assert m.front["stars"] == 100


def test_card_bullet_metadata(make_kb, tmp_path: Path) -> None:
    card = "# acme/widget\n\n- repo: acme/widget\n- stars: 1,200\n- stars_weekly: 30\n- language: Go\n\nText.\n"
    make_kb({CARD: card})
    m = read_material(tmp_path / "kb", CARD)
    assert m.front["repo"] == "acme/widget"
    assert m.front["stars"] == 1200
    assert m.front["stars_weekly"] == 30
    assert any("bullets" in w for w in m.warnings)


def test_card_without_any_metadata_warns(make_kb, tmp_path: Path) -> None:
    make_kb({PAPER: "# A paper\n\nNo metadata at all.\n"})
    m = read_material(tmp_path / "kb", PAPER)
    assert m.status is MaterialStatus.read
    assert "card has no front matter" in m.warnings


# --- encodings ----------------------------------------------------------------------------------

TEXT = "# 笔记\n\nDeepInfer：已核查原文。\n"


@pytest.mark.parametrize(
    ("data", "encoding", "warns"),
    [
        (TEXT.encode("utf-8"), "utf-8", False),
        (b"\xef\xbb\xbf" + TEXT.encode("utf-8"), "utf-8-sig", False),
        (TEXT.encode("utf-16"), "utf-16", False),
        (TEXT.encode("utf-16-be").join([b"\xfe\xff", b""]), "utf-16", False),
        (TEXT.encode("gb18030"), "gb18030", True),
    ],
    ids=["utf8", "utf8-bom", "utf16-le-bom", "utf16-be-bom", "gb18030"],
)
def test_encodings(make_kb, tmp_path: Path, data: bytes, encoding: str, warns: bool) -> None:
    make_kb({NOTE: data})
    m = read_material(tmp_path / "kb", NOTE)
    assert m.status is MaterialStatus.read
    assert m.encoding == encoding
    assert m.text == TEXT
    assert bool(m.warnings) is warns


def test_undecodable_bytes_warn_not_crash(make_kb, tmp_path: Path) -> None:
    # \x81\x30 followed by an invalid byte is not GB18030; \xc3\x28 is not UTF-8
    make_kb({NOTE: b"# note\n\xc3\x28\x81\x30\xff ok\n"})
    m = read_material(tmp_path / "kb", NOTE)
    assert m.status is MaterialStatus.read
    assert m.encoding == "utf-8 (lossy)"
    assert any("undecodable" in w for w in m.warnings)
    assert "ok" in m.text


def test_binary_with_nul_is_unreadable(make_kb, tmp_path: Path) -> None:
    make_kb({NOTE: b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR"})
    m = read_material(tmp_path / "kb", NOTE)
    assert m.status is MaterialStatus.unreadable
    assert "binary" in m.reason
    assert m.text == ""


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
def test_line_endings(make_kb, tmp_path: Path, newline: str) -> None:
    raw = "---\nrepo: acme/widget\nstars: 3\n---\n# T\nline\n".replace("\n", newline)
    make_kb({CARD: raw})
    m = read_material(tmp_path / "kb", CARD)
    assert "\r" not in m.text
    assert m.front["stars"] == 3
    assert m.lines[4] == "# T"


def test_oversized_note_is_unreadable(make_kb, tmp_path: Path) -> None:
    make_kb({NOTE: "x" * 200})
    m = read_material(tmp_path / "kb", NOTE, max_bytes=100)
    assert m.status is MaterialStatus.unreadable
    assert "size limit" in m.reason


# --- containment and missing --------------------------------------------------------------------


def test_containment_refuses_and_never_reads(make_kb, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("SECRET 42", encoding="utf-8")
    kb_root = tmp_path / "kb"
    manifest = make_kb(
        {NOTE: "# ok\n"}, materials=[NOTE, "../secret.md", str(outside), "inbox/link.md", "inbox/../../secret.md"]
    )
    os.symlink(outside, kb_root / "inbox" / "link.md")

    opened: list[str] = []
    real = Path.read_bytes

    def spy(self: Path) -> bytes:
        opened.append(str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", spy)
    kb = load_kb(manifest)
    status = {m.path: m.status for m in kb.materials}
    assert status[NOTE] is MaterialStatus.read
    for rel in ("../secret.md", str(outside), "inbox/link.md", "inbox/../../secret.md"):
        assert status[rel] is MaterialStatus.refused, rel
    assert all(m.text == "" for m in kb.materials if m.status is MaterialStatus.refused)
    assert not any("secret" in p for p in opened)
    assert all(m.reason for m in kb.materials if m.status is MaterialStatus.refused)


def test_symlink_inside_root_is_read(make_kb, tmp_path: Path) -> None:
    manifest = make_kb({NOTE: "# inside\n"}, materials=["inbox/alias.md"])
    os.symlink(tmp_path / "kb" / NOTE, tmp_path / "kb" / "inbox" / "alias.md")
    kb = load_kb(manifest)
    assert kb.materials[0].status is MaterialStatus.read


def test_missing_material_and_directory(make_kb) -> None:
    manifest = make_kb({NOTE: "# x\n"}, materials=[NOTE, "inbox/jay/gone.md", "inbox/jay", NOTE])
    kb = load_kb(manifest)
    assert [m.path for m in kb.materials] == [NOTE, "inbox/jay/gone.md", "inbox/jay"]  # duplicate read once
    assert kb.materials[1].status is MaterialStatus.missing
    assert kb.materials[2].status is MaterialStatus.unreadable


def test_kinds_from_layout(make_kb) -> None:
    manifest = make_kb({NOTE: "# x\n", CARD: repo_card(), PAPER: "---\narxiv: '2601.00001'\n---\n", "misc/a.md": "x"})
    kb = load_kb(manifest)
    assert [m.kind.value for m in kb.materials] == ["inbox_note", "repo_card", "paper_card", "other"]
    assert kb.knowledge_material.role == "baseline"


_YAML_PARTS = [
    "repo: acme/widget",
    "stars: 1234",
    "stars_weekly: +12",
    "first_seen: 2026-10-01",
    "last_seen: 2026-13-45",
    "n: " + "9" * 80,
    "title: 'a: quoted' ",
    'title: "双引号 标题"',
    "tags:",
    "  - 推理",
    "  - - nested",
    "  - {a: 1, b: [2, 3]}",
    "meta:",
    "  inner:",
    "    deeper: 0x1F",
    "empty:",
    "list: [1, 2, 2026-01-01]",
    "flag: yes",
    "bad: [unclosed",
    "  bad indent: x",
    "url: https://example.org/a?b=c#d",
    "# a comment",
    "",
    "key with spaces: v",
    "? complex",
    ": value",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_YAML_PARTS), max_size=10))
def test_front_matter_parsed_by_libyaml_reads_as_the_pure_python_loader_reads_it(parts: list[str]) -> None:
    """Front matter ``_plain`` clears goes to libyaml; what comes back (data, notes, or the refusal) is the same."""
    from e1prep.kb import loading

    block = "\n".join(parts)

    def slow() -> object:
        loader = loading._FrontLoader(block)
        try:
            return ("data", loader.get_single_data(), loader.notes)
        except Exception as exc:
            return ("error", type(exc).__name__, str(exc))
        finally:
            loader.dispose()

    def fast() -> object:
        try:
            data, notes = loading._load_front(block)
            return ("data", data, notes)
        except Exception as exc:
            return ("error", type(exc).__name__, str(exc))

    assert fast() == slow()


def test_front_matter_with_an_anchor_or_deep_nesting_never_reaches_libyaml() -> None:
    from e1prep.kb import loading

    assert loading._plain("repo: acme/widget\nstars: 12\n")
    assert not loading._plain("a: &x 1\nb: *x\n")
    assert not loading._plain("a: " + "[" * 20 + "]" * 20)
    assert not loading._plain("\n".join(" " * n + "- x" for n in range(0, 40, 2)))
