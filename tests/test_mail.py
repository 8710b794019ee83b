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
