"""A pasted chat (``e1prep.read.chat``): only the writer's own messages say how far the writer read."""

from __future__ import annotations

from e1prep.brief.models import EvidenceLevel
from e1prep.read.chat import own_words, writer_of
from e1prep.read.evidence import read_remark
from e1prep.read.notes import split_note

CHAT = """(copied from the reading group)

kai 20:41
OmniGauge https://arxiv.invalid/abs/2612.07752 我读到 §4 了，后面 PDF 渲染挂了
wen 20:43
跟我们文档里的结论打架？
kai 20:44
三个子集：counterfactual / occlusion / text-in-image
mira 20:52
我全文读完了，明天细说
"""


def test_another_speakers_question_and_read_are_not_the_writers() -> None:
    [item] = split_note("inbox/kai/2027-01-23T2055-engineering-brief.md", CHAT)
    # kai read to §4: partial; wen's question does not hedge it, and mira's full read is not kai's
    assert item.evidence is EvidenceLevel.partial
    assert "跟我们文档里的结论打架？" in item.text  # the item keeps every line; only its reading is the writer's


def test_a_chat_the_writer_does_not_speak_in_is_read_as_it_is() -> None:
    assert own_words(CHAT, "ravi") == CHAT
    assert own_words(CHAT, None) == CHAT
    one = "kai 20:41\n看了摘要\n\nkai 20:44\n还没读全文？\n\nkai 20:50\n明天读\n"
    assert own_words(one, "kai") == one  # one speaker: a log, not a conversation


def test_a_slack_style_chat_is_told_apart_by_its_speakers() -> None:
    chat = (
        '[14:31] ollie: Orrery https://k.invalid/orrery\n[14:32] ollie: 读到 "Recipe" 那节为止\n[14:33] mei: 真的？\n'
    )
    words = own_words(chat, "ollie").split("\n")
    assert words[2] == "" and words[0].startswith("[14:31] ollie")


def test_the_writer_is_the_owner_of_the_inbox_folder() -> None:
    assert writer_of("inbox/Kai/2027-01-23T2055-engineering-brief.md") == "kai"
    assert writer_of("organized/repo_cards/1-x.md") is None


def test_a_read_as_far_as_a_section_is_a_partial_read() -> None:
    assert read_remark("我读到 §4 了").level is EvidenceLevel.partial
    assert read_remark("read up to the end of §4").level is EvidenceLevel.partial
    assert read_remark("读到 §4 为止，全文读完").level is not EvidenceLevel.verified


def test_a_slack_paste_with_twelve_hour_times_heads_its_messages_by_speaker() -> None:
    from e1prep.read.chat import speaker_lines

    lines = ["**东东**  7:31 PM", "看了首屏", "", "**东东**  7:33 PM", "还有这个", "", "**wen**  7:40 pm", "晚点看"]
    assert speaker_lines(lines) == frozenset({0, 3, 6})
    # a line that runs on after a time is a sentence, not a speaker's header
    assert speaker_lines(["mei 7:31 PM we met", "a", "kai 7:33 PM and then", "b", "mei 7:40 PM ok", "c"]) == frozenset()
