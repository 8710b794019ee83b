"""A pasted e-mail (``e1prep.read.mail``): one message about what its subject says, unless it is a digest
or its own reply points at nothing (the items are then the thread's)."""

from __future__ import annotations

from e1prep.read.mail import message
from e1prep.read.notes import split_note

REPLY = """From: Ana Ruiz <ana@team.invalid>
To: kb <kb@team.invalid>
Date: Mon, 11 Jan 2027 09:12:40 +0800
Subject: Re: Fwd: [serving] Weir -- request hedging at the router

On Sun, 10 Jan 2027 at 22:01, bo <bo@team.invalid> wrote:
> did anyone read Weir? ana?

Read the whole post and the design doc.

  post: https://blog.weir.invalid/hedging
  status: full text read

  1. Hedges a request to a second replica after the p95 latency.
  2. Cancels the loser; the budget is 5% extra load at most.
  3. Ships as an Envoy filter.

--
ana
"""

DIGEST = """From: radar-bot
Subject: weekly serving radar

1. Weir: request hedging https://blog.weir.invalid/hedging
2. Tarn: KV eviction by cost https://github.com/tarn/tarn
3. Spool: a prefix cache index https://github.com/spool/spool
"""

THREAD = """Subject: Re: two things (Weir, Tarn)
From: bo
Date: Tue, 12 Jan 2027

Fair enough, I only saw a screenshot, so treat the second one as hearsay.

Nothing else from me today, see you tomorrow.

> On Mon, 11 Jan 2027, ana wrote:
> 1) Weir got a v2 (https://arxiv.org/abs/2612.01234v2), table unchanged.
> 2) Heads-up: Tarn changed its default eviction policy.
"""


def test_a_reply_about_one_thing_is_one_message_titled_by_its_subject() -> None:
    items = split_note("inbox/ana/mail.md", REPLY)
    assert [i.title for i in items] == ["Weir -- request hedging at the router"]
    item = items[0]
    assert "Hedges a request" in item.text and "Ships as an Envoy filter" in item.text
    # the header fields, the quoted thread and the signature are not the writer's reading of the post
    assert "From:" not in item.text and "did anyone read" not in item.text and "ana\n" not in item.text + "\n"
    assert REPLY.split("\n")[item.line_start - 1] == "Read the whole post and the design doc."


def test_a_digest_mail_keeps_its_items() -> None:
    items = split_note("inbox/bot/radar.md", DIGEST)
    assert len(items) == 3


def test_a_reply_that_points_at_nothing_leaves_the_items_to_the_thread_it_quotes() -> None:
    items = split_note("inbox/bo/thread.md", THREAD)
    assert len(items) == 2
    assert "Weir" in items[0].title and "Tarn" in items[1].title


def test_a_mail_needs_a_subject_and_another_header_field() -> None:
    assert message(["Date: 2027-01-12", "", "1. Weir https://x.invalid"]) is None
    assert message(["Subject: Weir", "", "text"]) is None
    found = message(["（转自邮件）", "发件人：ana", "主题：回复：Weir 的对冲请求"])
    assert found is not None and found[0] == "Weir 的对冲请求"


FORWARDED = """**From:** Lin Yue <lin@team.invalid>
**Date:** Mon, 24 May 2027 22:41:07 +0800
**To:** Qiao <qiao@team.invalid>
**Subject:** Fwd: Re: single-model streaming? (LACT paper)

Qiao，转给你。LACT 这篇我周末把全文读完了（arXiv:2705.04417 v1 PDF，正文 + 附录都看了）。

- 方法：一个 transducer，训练时随机抽 chunk 大小。
- 结果：chunk 160 ms 档 WER 2.9 / 7.1（Table 3）。

P.S. 列表里还有一篇《OmniVoice-ASR: Scaling Speech Recognition to 1,600 Languages》（2705.11206），我只看到标题。

Lin

> **From:** Raj <raj@partner.invalid>
> **Subject:** Re: single-model streaming?
>
> LACT just came out, 160 ms latency. I only read the abstract.
"""


def test_a_mail_exported_with_bold_header_fields_is_one_message_and_its_postscript_another_item() -> None:
    """Held-out n3 forwarded a thread as a mail client exports it (``**From:** …``) and named the paper by its
    arXiv id, with no URL: each quoted message's header had become an item titled by a sender, and the
    afterthought's title-only read had made the fully read paper a clue. The subject's aside names the
    subject (``(LACT paper)``), and a postscript that points at something is an item of its own."""
    items = split_note("inbox/lin/fwd.md", FORWARDED)
    assert [i.title for i in items] == [
        "single-model streaming? (LACT paper)",
        "OmniVoice-ASR: Scaling Speech Recognition to 1,600 Languages",
    ]
    lact, omni = items
    assert "Raj" not in lact.text and "只看到标题" not in lact.text
    # the afterthought's title-only read limits the afterthought, not the paper read in full
    assert lact.evidence.value == "verified" and omni.evidence.value != "verified"


def test_a_postscript_that_points_at_nothing_stays_in_its_message() -> None:
    ps = next(line for line in FORWARDED.split("\n") if line.startswith("P.S."))
    text = FORWARDED.replace(ps, "P.S. Reading group moves to Thursday 4pm next week.")
    items = split_note("inbox/lin/fwd.md", text)
    assert len(items) == 1 and "Reading group" in items[0].text


def test_the_subject_named_in_an_aside_with_its_kind_is_the_key() -> None:
    from e1prep.read.subjects import candidates

    assert candidates("single-model streaming? (LACT paper)")[0].name == "LACT"
    assert candidates("Foo streaming (vLLM repo)")[0].name == "vLLM"
    # an outlet in the aside is where it was read, not what it is about
    assert candidates("SGLang deterministic inference, part 2 (LMSYS blog)")[0].name == "SGLang"
