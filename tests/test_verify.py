"""The verifier: the example brief is clean, and each mutation is caught with the right rule."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from conftest import BLOGS
from e1prep.brief.models import Brief, DocHits, EvidenceLevel, NumberCitation, SourceEntry, SourceRef
from e1prep.read.numbers import normalize, occurs_in
from e1prep.verify.report import RULES
from e1prep.verify.verifier import Verifier


@pytest.fixture(scope="module")
def verifier(example_kb_module):
    kb, doc = example_kb_module
    return Verifier(kb, doc)


@pytest.fixture(scope="module")
def example_kb_module():
    from conftest import EXAMPLE_MANIFEST
    from e1prep.kb.loading import load_kb
    from e1prep.pipeline import living_document

    kb = load_kb(EXAMPLE_MANIFEST)
    return kb, living_document(kb)


@pytest.fixture
def brief(example_brief) -> Brief:
    return example_brief.model_copy(deep=True)


def rules_of(verifier: Verifier, brief: Brief) -> set[str]:
    return {v.rule for v in verifier.verify(brief).violations}


def deepinfer(brief: Brief):
    return next(i for i in brief.increments if i.key == "DeepInfer")


def test_clean_example(verifier, brief) -> None:
    report = verifier.verify(brief)
    assert report.clean
    assert report.render() == "verification: clean (0 violations)"


def test_quantity_not_in_materials(verifier, brief) -> None:
    deepinfer(brief).points.append("吞吐提升 937%。")
    report = verifier.verify(brief)
    bad = [v for v in report.violations if v.rule == "quantity-uncited"]
    assert [v.text for v in bad] == ["937%"]
    assert bad[0].path.startswith("increments[0].points[")
    assert "quantity-uncited" in report.render()


def test_a_text_checked_twice_is_reported_at_each_place(verifier, brief) -> None:
    """The verifier remembers what a text's check found; each object still gets its own violations."""
    first = deepinfer(brief)
    first.points.append("吞吐提升 937%。")
    twin = first.model_copy(deep=True)
    brief.increments.append(twin)
    bad = [v for v in verifier.verify(brief).violations if v.rule == "quantity-uncited"]
    n = len(brief.increments) - 1
    assert sorted(v.path.split(".")[0] for v in bad) == sorted(["increments[0]", f"increments[{n}]"])
    assert {v.text for v in bad} == {"937%"}
    twin.numbers = []  # the same text against other citations is checked again, not read from memory
    assert any(v.path.startswith(f"increments[{n}]") and "8" in v.text for v in verifier.verify(brief).violations)


def test_removed_citation(verifier, brief) -> None:
    inc = deepinfer(brief)
    assert any("8 卡" in p for p in inc.points + inc.boundary)
    inc.numbers = [n for n in inc.numbers if n.text != "8 卡"]
    report = verifier.verify(brief)
    assert any(v.rule == "quantity-uncited" and "8" in v.text for v in report.violations)


def test_changed_cited_value(verifier, brief) -> None:
    inc = deepinfer(brief)
    cite = next(n for n in inc.numbers if n.text == "64–128 卡")
    cite.text = "64–129 卡"
    assert any(v.rule == "citation-not-in-source" and v.text == "64–129 卡" for v in verifier.verify(brief).violations)


def test_vendor_number_as_verified_finding(verifier, brief) -> None:
    inc = deepinfer(brief)
    inc.numbers = [n for n in inc.numbers if "155" not in n.text]
    inc.numbers.append(
        NumberCitation(
            text="155 万亿 tokens/天",
            value=155,
            evidence=EvidenceLevel.verified,
            quotable=True,
            source=SourceRef(path=BLOGS),
        )
    )
    inc.points.append("线上规模 155 万亿 tokens/天。")
    found = rules_of(verifier, brief)
    assert found & {"evidence-overstated", "not-quotable-as-finding"}
    assert "evidence-overstated" in found  # the citation lies about the level of its line


def test_vendor_number_honestly_cited_still_not_a_finding(verifier, brief) -> None:
    deepinfer(brief).points.append("线上规模 155 万亿 tokens/天。")
    assert "not-quotable-as-finding" in rules_of(verifier, brief)


def test_wrong_hit_count(verifier, brief) -> None:
    inc = deepinfer(brief)
    inc.doc_hits = [DocHits(term="DeepInfer", hits=3, sections=[])]
    assert "hit-count-wrong" in rules_of(verifier, brief)


def test_wrong_hit_claim_in_text(verifier, brief) -> None:
    deepinfer(brief).relation = "「DeepInfer」= 4 命中。"
    assert "hit-count-wrong" in rules_of(verifier, brief)
    deepinfer(brief).relation = "「DeepInfer」= 0 命中。"
    assert verifier.verify(brief).clean


def test_wrong_anchor_status(verifier, brief) -> None:
    brief.anchors[0].status = "new"
    report = verifier.verify(brief)
    assert [(v.path, v.rule) for v in report.violations] == [("anchors[0].status", "anchor-status-wrong")]


def test_anchor_not_in_material(verifier, brief) -> None:
    brief.anchors[0].arxiv = "2309.06180"  # anchored in the document, but in no material
    assert "arxiv-not-in-material" in rules_of(verifier, brief)


def test_url_not_in_material(verifier, brief) -> None:
    deepinfer(brief).url = "https://example.invalid/deepinfer"
    assert "url-not-in-material" in rules_of(verifier, brief)


def test_url_in_text_not_in_material(verifier, brief) -> None:
    deepinfer(brief).relation = "另见 https://example.invalid/x"
    assert "url-not-in-material" in rules_of(verifier, brief)


def test_source_outside_manifest(verifier, brief) -> None:
    deepinfer(brief).sources.append("inbox/jay/not-in-manifest.md")
    assert "source-not-read" in rules_of(verifier, brief)


def test_citation_of_unread_source(verifier, brief) -> None:
    deepinfer(brief).numbers[0].source.path = "inbox/elsewhere.md"
    assert "source-not-read" in rules_of(verifier, brief)


def test_sources_incomplete(verifier, brief) -> None:
    dropped = brief.sources[1].path
    brief.sources = [s for s in brief.sources if s.path != dropped]
    report = verifier.verify(brief)
    assert [(v.rule, v.text) for v in report.violations] == [("sources-incomplete", dropped)]


def test_extra_source_entry_is_fine(verifier, brief) -> None:
    brief.sources.append(SourceEntry(path="inbox/x.md", status="missing"))
    assert verifier.verify(brief).clean


def test_unknown_section(verifier, brief) -> None:
    deepinfer(brief).relation = "归入 §9.9。"
    assert "section-unknown" in rules_of(verifier, brief)


def test_ungrounded_identifier(verifier, brief) -> None:
    deepinfer(brief).relation = "需要 CUDA 99.1 才能运行。"
    assert "identifier-ungrounded" in rules_of(verifier, brief)


def test_quote_not_in_source(verifier, brief) -> None:
    deepinfer(brief).numbers[0].source.quote = "这句话不在原文里"
    assert "quote-not-in-source" in rules_of(verifier, brief)


def test_rule_ids_are_documented(verifier, brief) -> None:
    deepinfer(brief).points.append("吞吐提升 937%。")
    brief.anchors[0].status = "new"
    assert rules_of(verifier, brief) <= set(RULES)


# --- properties ---------------------------------------------------------------------------------

_TEXT_FIELDS = ("title", "points", "relation", "boundary", "summary", "claim", "detail", "action", "evidence_note")


def _slots(brief: Brief) -> list[tuple[str, int, str]]:
    out = []
    for name in ("increments", "refreshes", "contradictions"):
        for n, obj in enumerate(getattr(brief, name)):
            for f in _TEXT_FIELDS:
                if hasattr(obj, f):
                    out.append((name, n, f))
    return out


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), number=st.integers(min_value=10**6, max_value=10**15))
def test_any_large_integer_is_caught(verifier, example_brief, data, number: int) -> None:
    brief = example_brief.model_copy(deep=True)
    name, n, f = data.draw(st.sampled_from(_slots(brief)))
    obj = getattr(brief, name)[n]
    inserted = f"共 {number} 个"
    value = getattr(obj, f)
    if isinstance(value, list):
        value.insert(data.draw(st.integers(0, len(value))), inserted)
    else:
        setattr(obj, f, (value + " " if value else "") + inserted)
    report = verifier.verify(brief)
    assert any(
        v.rule == "quantity-uncited" and str(number) in normalize(v.text) and v.path.startswith(f"{name}[{n}].{f}")
        for v in report.violations
    ), report.render()


def _citations(brief: Brief) -> list[tuple[str, int, int]]:
    out = []
    for name in ("increments", "refreshes", "contradictions"):
        for n, obj in enumerate(getattr(brief, name)):
            for k, cite in enumerate(obj.numbers):
                if any(ch.isdigit() for ch in cite.text):
                    out.append((name, n, k))
    return out


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_changing_one_digit_of_a_citation_is_caught(verifier, example_brief, data) -> None:
    brief = example_brief.model_copy(deep=True)
    name, n, k = data.draw(st.sampled_from(_citations(brief)))
    cite = getattr(brief, name)[n].numbers[k]
    digits = [i for i, ch in enumerate(cite.text) if ch.isdigit()]
    at = data.draw(st.sampled_from(digits))
    new_digit = data.draw(st.sampled_from([d for d in "0123456789" if d != cite.text[at]]))
    changed = cite.text[:at] + new_digit + cite.text[at + 1 :]
    # a changed number that genuinely occurs in the cited material is not a fabrication
    assume(not occurs_in(changed, verifier.facts[cite.source.path].normalized))
    cite.text = changed
    report = verifier.verify(brief)
    assert any(
        v.rule == "citation-not-in-source" and v.path == f"{name}[{n}].numbers[{k}]" for v in report.violations
    ), report.render()


def test_object_level_is_re_derived_from_its_source_item_whoever_produced_it(verifier, brief) -> None:
    from e1prep.brief.models import Increment

    # the note marks this item summary-only; a model (or an edited JSON) says verified
    forged = Increment(
        key="asianscholar", kind="update", sources=[BLOGS], evidence=EvidenceLevel.verified, producer="llm"
    )
    found = [v for v in verifier.check_object("increments[9]", forged) if v.rule == "evidence-overstated"]
    assert found and found[0].path == "increments[9].evidence"
    # a key that no item of its sources names: nothing states a full read of it
    ghost = forged.model_copy(update={"key": "NoSuchEngine"})
    assert any(v.rule == "evidence-overstated" for v in verifier.check_object("increments[9]", ghost))
    # the rules' own increment, at the level its item states, stays clean
    aisim = next(i for i in brief.increments if i.key == "aisimulate")
    assert aisim.evidence is EvidenceLevel.partial
    assert not [v for v in verifier.check_object("increments[1]", aisim) if v.rule == "evidence-overstated"]
    # its note read the doc page in full; its boundary says the cluster run was not tried, which limits
    # claims about the run, not the reading: verified is what the item states (issue 21, family 1)
    claimed = aisim.model_copy(update={"evidence": EvidenceLevel.verified})
    assert not [v for v in verifier.check_object("increments[1]", claimed) if v.rule == "evidence-overstated"]


# --- the verifier's indexes of a large material agree with the plain lookups ---------------------------


def _material_facts(text: str):
    from e1prep.kb.loading import Material, MaterialKind, MaterialStatus
    from e1prep.verify.facts import MaterialFacts

    m = Material(path="inbox/x/n.md", kind=MaterialKind.other, status=MaterialStatus.read, text=text)
    return MaterialFacts.build(m)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(alphabet="0123456789,. \t０１-—xab\n\r\x85\u2028", max_size=12), min_size=1, max_size=30))
def test_the_numeral_index_finds_exactly_the_lines_a_numeral_stands_on(lines: list[str]) -> None:
    """The packed hash index gives, for every numeral, exactly the lines a per-line reading gives."""
    from e1prep.read.numbers import line_cores, normalize_line

    text = "\n".join(lines)
    facts = _material_facts(text)
    assert facts.normalized_lines() == [normalize_line(line) for line in text.split("\n")]
    assert all(facts.has_line(line) for line in facts.normalized_lines())
    assert not facts.has_line("not-a-line-of-it")
    expected: dict[str, list[int]] = {}
    for n, cores in enumerate(map(line_cores, facts.normalized_lines())):
        for core in cores:
            expected.setdefault(core, []).append(n)
    for core, rows in expected.items():
        assert facts.lines_with(core) == rows
    assert facts.lines_with("987654321987") == []


def test_names_are_found_across_the_windows_a_large_text_is_searched_in(monkeypatch) -> None:
    """A name that straddles two search windows is found, and a name that is absent is not."""
    import e1prep.verify.facts as verify

    monkeypatch.setattr(verify, "_WINDOW", 16)
    text = "\n".join(f"line {n} filler text" for n in range(40)) + "\nthe DeepInfer stack\n"
    facts = _material_facts(text)
    folded = facts.folded
    names = [folded[k : k + 9] for k in range(0, len(folded) - 9, 5)]  # every window boundary is crossed
    found = facts.names_all([*names, "DeepInfer", "NotThere"])
    assert set(names) <= found and "DeepInfer" in found and "NotThere" not in found
    assert found == {n for n in [*names, "DeepInfer", "NotThere"] if facts.names(n)}


def test_the_folded_text_is_the_normalised_text_case_folded(monkeypatch) -> None:
    """Folded a few lines at a time, it is what folding the whole normalised text gives (ß, Σ, İ too)."""
    import e1prep.verify.facts as verify

    monkeypatch.setattr(verify, "_FOLD_LINES", 2)
    facts = _material_facts("Straße ΣΊΣΥΦΟΣ\nİstanbul DeepInfer\n\nﬁle ＡＢＣ １２\nlast")
    assert facts.folded == "".join(facts.normalized_lines()).casefold() == facts.normalized.casefold()
    assert facts.names("STRASSE") and facts.names("deepinfer") and not facts.names("absent")


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(st.text(alphabet="0123456789,. ０１-—xab卡\n", max_size=10), min_size=1, max_size=12),
    st.lists(st.text(alphabet="0123456789. -x卡", min_size=1, max_size=5), min_size=1, max_size=6),
    st.booleans(),
)
@example(lines=["1", "2x", "5"], needles=["12"], collide=True)  # across a line break, its numeral on no line
@example(lines=["9a", "9.0"], needles=["9."], collide=True)  # on a line of another numeral of the same bits
def test_number_lookups_are_exact_even_when_every_hash_collides(monkeypatch, lines, needles, collide) -> None:
    """``contains``, ``level_of`` and ``has_line`` give what a plain per-line reading gives; with every
    hash made equal (each line then filed under every key), the answers do not change."""
    import e1prep.verify.facts as verify

    with monkeypatch.context() as patch:  # one example's patch must not outlive it
        if collide:
            patch.setattr(verify, "hash_key", lambda text: 0)
        _check_number_lookups(lines, needles)


def _check_number_lookups(lines: list[str], needles: list[str]) -> None:
    from e1prep.read.numbers import line_cores, number_cores

    facts = _material_facts("\n".join(lines))
    norm = facts.normalized_lines()
    joined = "".join(norm)
    for needle in needles:
        cores = number_cores(needle)
        if not cores:
            expected = occurs_in(needle, joined)
        else:
            core = max(cores, key=len)
            on = [n for n, line in enumerate(norm) if core in line_cores(line)]
            expected = any(occurs_in(needle, norm[n]) for n in on) or (bool(on) and occurs_in(needle, joined))
        assert facts.contains(needle) == expected, needle
        assert facts.level_of(needle) == _plain_level_of(facts, norm, needle), needle
    for line in norm:
        assert facts.has_line(line)
    assert not facts.has_line("zz-not-a-line")


def _plain_level_of(facts, norm: list[str], number: str):
    """``MaterialFacts.level_of`` without a line, over the exact lines its numeral stands on."""
    from e1prep.read.numbers import line_cores, number_cores

    cores = number_cores(number)
    if not cores:
        return None
    core = max(cores, key=len)
    first = None
    for n in [n for n, line in enumerate(norm) if core in line_cores(line)]:
        level = facts.line_level(n)
        if level is None or (first is not None and level.quotable):
            continue
        if occurs_in(number, norm[n]):
            if not level.quotable:
                return level
            first = level
    return first


@pytest.mark.parametrize("collide", [False, True])
def test_urls_are_looked_up_exactly_through_their_index(example_kb_module, monkeypatch, collide: bool) -> None:
    """Every URL of the materials is a token; a URL cut short, or longer, is not (with every hash
    made equal too: each hit is matched again where it stands)."""
    import e1prep.verify.facts as verify
    from e1prep.read.notes import URL_RE

    if collide:
        monkeypatch.setattr(verify, "hash_key", lambda text: 0)
    kb, doc = example_kb_module
    v = Verifier(kb, doc)
    urls = {u for text in v._texts for u in URL_RE.findall(text)}
    assert urls and all(v._is_token(u) for u in urls)
    assert not any(v._is_token(u[:-1]) for u in urls if u[:-1] not in urls)
    assert not any(v._is_token(u + "x") for u in urls if u + "x" not in urls)
    assert not v._is_token("https://example.invalid/not-in-any-material")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="「」= 12命中ab\n", max_size=40))
@example("「a」=3 命中 b=4 命中")
@example("「a」 12 命中")
def test_hit_claims_are_found_as_the_whole_pattern_finds_them(text: str) -> None:
    """The cheap route (no ``=``: the quoted form alone) finds exactly the full pattern's matches."""
    from e1prep.verify.claims import _HIT_CLAIM, _hit_claim_matches

    full = [(m.span(), m.groups()[:2]) for m in _HIT_CLAIM.finditer(text)] if "命中" in text else []
    assert [(m.span(), m.groups()[:2]) for m in _hit_claim_matches(text)] == full


def test_a_point_that_is_its_own_read_line_is_quotable_though_the_number_recurs_under_a_limitation() -> None:
    """Held-out x2's ReMask, read in full: its Results line says ``3.1× higher tokens/s``, and its Doubts line
    repeats ``Their 3.1× … and BlockCache's self-reported 11×``. The point that is the Results line was
    refused as if it were the other, and the verifier took ``ReMask`` for the document's ``remasking``."""
    from pathlib import Path

    from e1prep.kb.loading import load_kb
    from e1prep.pipeline import draft_brief, living_document

    manifest = Path(__file__).parents[1] / "evals/heldout/2027-03-31-otherhand-x2/manifest.json"
    kb = load_kb(manifest)
    verifier = Verifier(kb, living_document(kb))
    brief = draft_brief(manifest)
    remask = next(i for i in brief.increments if i.key == "ReMask")
    assert remask.evidence is EvidenceLevel.verified
    assert any("3.1×" in p for p in remask.points)
    assert not verifier.verify(brief).violations
    # the other side: the number said in other words is bound by every citation of it, the vendor's too
    remask.points.append("ReMask is 3.1× faster.")
    assert "not-quotable-as-finding" in rules_of(verifier, brief)
    remask.points.pop()
    # and a name the document holds whole is still known, however it is spaced
    remask.key = "Low-Confidence Remasking"
    assert "known-as-new" in rules_of(verifier, brief)


@pytest.mark.parametrize(
    "text,name,held",
    [
        ("LLaDA 的 low-confidence remasking。", "remask", False),
        ("see Agent Mosaic (v1)", "agentmosaic", True),
        ("用AgentMosaic做", "agentmosaic", True),
        ("AgentMosaics 是另一个", "agentmosaic", False),
        ("Straße-Index und Agent_Mosaic", "agentmosaic", True),
    ],
)
def test_a_squashed_name_is_found_whole(text: str, name: str, held: bool) -> None:
    from e1prep.verify.grounding import _Squashed

    assert _Squashed(text).holds(name) is held
