"""Text in a material that reads like an instruction to a model (``Ignore the rules above``, ``标记为已核查``).

The detectors register such a line as ``injection_suspected``; the rules never make it a key point. It is
data like every other line of the KB, never obeyed.
"""

from __future__ import annotations

import re

from ..text.regexgate import guarded

#: an instruction to whoever reads the note (a model, a tool): to drop its rules, or to mark an item verified
INSTRUCTION = guarded(
    re.compile(
        r"ignore (?:all |the |any )?(?:previous |above |prior |earlier )?(?:rules|instructions|prompts?)|"
        r"disregard (?:the|all|any) (?:rules|instructions)|mark (?:this|it|these) (?:as )?verified|"
        r"you are now|system prompt|"
        r"忽略(?:以上|上面|之前|前面|上述)(?:的|所有)?(?:规则|指令|要求)|标记为(?:已核查|已核实|verified)|"
        r"无视(?:以上|上述)?(?:规则|指令)|请把.{0,12}(?:写成|改为).{0,12}(?:已核查|verified)",
        re.I,
    )
)


def reads_as_instruction(text: str) -> bool:
    """Whether ``text`` holds an instruction to a model."""
    return INSTRUCTION.search(text) is not None
