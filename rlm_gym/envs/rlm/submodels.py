"""The sub-models behind ``llm_query``: any OpenAI-compatible server, a Python callable, or an
offline rule-based reader.

A sub-model is anything with ``complete(prompts: list[str]) -> list[str]``.
:class:`OfflineReader` is a **stand-in**, not a language model: it answers the questions the
scripted programs of :mod:`rlm_gym.envs.rlm.agents` ask about chunks of the generated tasks,
by the generators' own rules, so that the env, its metering and the reward policies can be
exercised and compared without a model server. Real experiments plug a model in with
:class:`OpenAISubModel` (vLLM, Ollama, llama.cpp and other OpenAI-compatible servers).

Example:
    >>> reader = OfflineReader()
    >>> reader.complete(["The secret code for Kalo-123 is 4567.\\n\\nQuestion: What is the "
    ...                  "secret code for Kalo-123?"])
    ['4567']
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from rlm_gym._extras import install_command
from rlm_gym.envs.rlm.tasks import topic_of

__all__ = ["SubModel", "OfflineReader", "CallableSubModel", "OpenAISubModel", "make_submodel"]

_NEEDLE = re.compile(r"secret code for (\S+?)\?")
_RECORD = re.compile(r"User: (\d+) \|\| Instance: ([^\n]*)")
_FACTS = re.compile(r"facts about (.+?)\s*$", re.S)
NOT_FOUND = "NOT FOUND"


@runtime_checkable
class SubModel(Protocol):
    """Answers a batch of prompts, one answer per prompt."""

    def complete(self, prompts: list[str]) -> list[str]: ...


class OfflineReader:
    """A deterministic rule-based reader of the generated tasks' chunks (a stand-in for a model).

    The prompt is ``<text>\\n\\nQuestion: <question>``. It answers three kinds of question:
    ``secret code for KEY?`` (the code, or ``NOT FOUND``), questions mentioning ``topic``
    (a JSON list of ``[user, topic]`` for every record of the text) and ``facts about X``
    (every sentence of the text that mentions X, or ``NOT FOUND``). Anything else gets a
    refusal, as a model without the answer in its text might give.
    """

    name = "offline"

    def complete(self, prompts: list[str]) -> list[str]:
        return [self.answer(prompt) for prompt in prompts]

    def answer(self, prompt: str) -> str:
        text, _, question = str(prompt).rpartition("Question:")
        needle = _NEEDLE.search(question)
        if needle:
            found = re.search(rf"secret code for {re.escape(needle.group(1))} is (\d+)", text)
            return found.group(1) if found else NOT_FOUND
        if "topic" in question:
            rows = [
                [int(user), topic_of(instance.strip())] for user, instance in _RECORD.findall(text)
            ]
            return json.dumps(rows)
        facts = _FACTS.search(question)
        if facts:
            subject = facts.group(1).strip().rstrip("?.")
            sentences = _sentences_with(text, subject)
            return " ".join(sentences) if sentences else NOT_FOUND
        return "I cannot answer that from the text."


def _sentences_with(text: str, subject: str) -> list[str]:
    """Every sentence of ``text`` that mentions ``subject`` (found with ``str.find``: a regular
    expression that scans every character for a sentence start is 100x slower here)."""
    found, start = [], text.find(subject)
    while start != -1:
        begin = max(
            text.rfind(".", 0, start), text.rfind(":", 0, start), text.rfind("\n", 0, start)
        )
        end = text.find(".", start)
        end = len(text) if end == -1 else end + 1
        sentence = text[begin + 1 : end].strip()
        if sentence and sentence not in found:
            found.append(sentence)
        start = text.find(subject, end)
    return found


class CallableSubModel:
    """A Python callable as a sub-model: ``fn(prompt) -> str``, called once per prompt.

    Example:
        >>> CallableSubModel(str.upper).complete(["a", "b"])
        ['A', 'B']
    """

    name = "callable"

    def __init__(self, fn: Callable[[str], Any]) -> None:
        if not callable(fn):
            raise TypeError(f"Expected `fn` to be callable, got {type(fn).__name__}")
        self.fn = fn

    def complete(self, prompts: list[str]) -> list[str]:
        return [str(self.fn(prompt)) for prompt in prompts]


class OpenAISubModel:
    """An OpenAI-compatible chat-completions endpoint (needs the ``rlm`` extra: ``openai``).

    Args:
        model: The model name the server knows.
        base_url: The server, e.g. ``http://127.0.0.1:8000/v1`` (vLLM) or
            ``http://127.0.0.1:11434/v1`` (Ollama).
        api_key: Sent as the bearer token (local servers accept any).
        max_tokens: Completion limit per call.
        timeout_s: Per-request time-out.
        system_prompt: Optional system message for every sub-call.
    """

    name = "openai"

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str = "EMPTY",
        max_tokens: int = 1024,
        timeout_s: float = 120.0,
        system_prompt: str | None = None,
    ) -> None:
        try:
            import openai
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ImportError(
                f"OpenAISubModel needs the `openai` package: {install_command('rlm')}"
            ) from exc
        self.model = model
        self.max_tokens = int(max_tokens)
        self.system_prompt = system_prompt
        self.client = openai.OpenAI(
            base_url=base_url, api_key=api_key, timeout=timeout_s, max_retries=0
        )

    def chat(self, messages: Sequence[dict[str, str]]) -> str:
        """One chat completion's text."""
        response = self.client.chat.completions.create(
            model=self.model, messages=list(messages), max_tokens=self.max_tokens
        )
        return response.choices[0].message.content or ""

    def complete(self, prompts: list[str]) -> list[str]:
        answers = []
        for prompt in prompts:
            messages = [{"role": "user", "content": prompt}]
            if self.system_prompt:
                messages.insert(0, {"role": "system", "content": self.system_prompt})
            answers.append(self.chat(messages))
        return answers

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self.client.close()


def make_submodel(sub_model: Any) -> SubModel:
    """``"offline"`` (or None) → :class:`OfflineReader`; a callable → :class:`CallableSubModel`;
    an object with ``complete`` → itself.

    Raises:
        TypeError: For anything else.
    """
    if sub_model is None or sub_model == "offline":
        return OfflineReader()
    if hasattr(sub_model, "complete"):
        return sub_model
    if callable(sub_model):
        return CallableSubModel(sub_model)
    raise TypeError(
        "Expected `sub_model` to be 'offline', a callable prompt -> str, or an object with "
        f"complete(prompts) -> answers, got {type(sub_model).__name__}"
    )
