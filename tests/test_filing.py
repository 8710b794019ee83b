"""A note's own filing words (``e1prep.read.filing``): both sides of the gate.

Sent away: an item the note files under another topic named as one, or says does not go under this one.
Kept: an item filed under this topic, a product's name after a filing verb, a negated filing under another
topic, and verbs that only look like filing verbs (``转述``, ``已收``).
"""

from __future__ import annotations

import pytest

from e1prep.produce.routing import same_meaning
from e1prep.read.filing import filed_elsewhere

SERVING = frozenset({"serving"})
INFERENCE = same_meaning("inference")


@pytest.mark.parametrize(
    ("text", "this", "words"),
    [
        ("这条我归 agent.md（会话生命周期那节），*不放 serving*", SERVING, "归 agent.md"),
        ("agent 工具调用基准 → 已转 agent 队列", frozenset({"evals"}), "转 agent 队列"),
        ("abstract only; evals 不收。", frozenset({"evals"}), "evals 不收"),
        ("这是推理引擎的事，应该归 inference，不归 rag", frozenset({"rag"}), "不归 rag"),
        ("This belongs to the rag doc, not ours.", INFERENCE, "belongs to the rag doc"),
        ("向量检索服务的部署踩坑，不归推理", INFERENCE, "不归推理"),
        ("agent memory; 不归我们", frozenset({"rag"}), "不归我们"),
        ("Filed under the agent topic, see there.", SERVING, "Filed under the agent topic"),
        ("⇢ 不是 inference 的", INFERENCE, "不是 inference 的"),  # a legend's words for its mark
        ("要不要进文档：不进 multimodal，转给 rag", frozenset({"multimodal"}), "不进 multimodal"),
    ],
)
def test_an_item_filed_away_from_the_topic_is_said(text: str, this: frozenset[str], words: str) -> None:
    assert filed_elsewhere(text, this) == words


@pytest.mark.parametrize(
    ("text", "this"),
    [
        ("这是推理引擎的事，应该归 inference，不归 rag", INFERENCE),  # filed here, not under rag
        ("serving.md §3.2 已收，不用动", SERVING),  # already in this document
        ("goes to the serving doc, §2", SERVING),
        ("转述自官方博客，数字未核", SERVING),  # 转述 relays; it files nothing
        ("vLLM 不要用 FP8 KV，会掉点", SERVING),  # a product's name before 不要
        ("forwarded to Ravi for a second read", SERVING),  # a person, not a topic named as one
        ("不放 KV 的 TTL 到配置里", SERVING),  # a negated verb before an unmarked name
        ("does not belong to the agent doc: it is a serving router", SERVING),
        ("这不是 vLLM 的问题，是驱动", SERVING),  # a product's, not a topic's
        ("这是 agent 框架的事", SERVING),  # belonging without a possessive after the name
        ("要不要进文档：要，进 vLLM 那节的对比表", SERVING),
    ],
)
def test_an_item_filed_here_or_nowhere_is_kept(text: str, this: frozenset[str]) -> None:
    assert filed_elsewhere(text, this) is None


def test_the_topic_is_known_by_its_translation() -> None:
    assert {"inference", "推理"} <= same_meaning("Inference")
    assert same_meaning("serving-ops") == frozenset({"serving-ops"})
