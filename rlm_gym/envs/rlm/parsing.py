"""Reading a model's response: its ```` ```repl ```` code blocks and its final answer.

As the RLM reference does, ``FINAL(...)`` and ``FINAL_VAR(name)`` count only at the start of
a line (leading spaces allowed) outside code blocks, and their argument is read with balanced
parentheses, so ``FINAL(f(x) (y))`` keeps its inner parentheses.

Example:
    >>> parse_response("Let me look.\\n```repl\\nprint(len(context))\\n```\\nFINAL_VAR(total)")
    (['print(len(context))'], ('var', 'total'))
"""

from __future__ import annotations

import re

__all__ = ["parse_response"]

_BLOCK = re.compile(r"```(?:repl|python|py)?[ \t]*\n(.*?)```", re.S)
_FINAL_START = re.compile(r"^[ \t]*(FINAL_VAR|FINAL)\(", re.M)


def _balanced(text: str, start: int) -> str | None:
    depth = 1
    for index in range(start, len(text)):
        char = text[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return text[start:index]
    return None


def parse_response(text: str) -> tuple[list[str], tuple[str, str] | None]:
    """``(code_blocks, final)`` of a response; ``final`` is ``("answer", text)``,
    ``("var", name)`` or None."""
    blocks = [block.strip("\n") for block in _BLOCK.findall(text)]
    outside = _BLOCK.sub("", text)
    final = None
    match = _FINAL_START.search(outside)
    if match:
        inner = _balanced(outside, match.end())
        if inner is not None:
            inner = inner.strip()
            if match.group(1) == "FINAL_VAR":
                final = ("var", inner.strip("'\""))
            else:
                final = ("answer", inner)
    return blocks, final
