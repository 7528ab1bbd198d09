"""Agents to compare on ``rlm_gym/RLM-v0``: five scripted RLM programs and an LLM agent.

A scripted program reads the observation (the query and the context's preview) and writes the
response an RLM would: code in ```` ```repl ```` blocks and a ``FINAL`` / ``FINAL_VAR``. They
span what the reward policies should tell apart:

- ``answer_from_preview``: answers at once from the preview, without code.
- ``grep_only``: one block of regular expressions over the whole context, no sub-calls.
- ``chunk_and_query``: looks at the context, then splits it at line ends into chunks, asks
  the sub-model about each with ``llm_query`` and combines the answers in code.
- ``batched_chunk_and_query``: the same with one ``llm_query_batched`` call.
- ``buggy``: a first block that fails (a name error), then chunk-and-query that skips every
  other chunk.

:class:`LLMAgent` is any OpenAI-compatible model with the RLM system prompt, keeping the
conversation across steps.

Example:
    >>> from rlm_gym.envs.rlm import RLMEnv
    >>> env = RLMEnv(family="needle", length=2**13)
    >>> run_episode(env, PROGRAMS["chunk_and_query"], seed=0)["correct"]
    True
    >>> env.close()
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rlm_gym.envs.rlm.submodels import OpenAISubModel
from rlm_gym.envs.rlm.tasks import topic_of

__all__ = [
    "PROGRAMS",
    "RLM_SYSTEM_PROMPT",
    "LLMAgent",
    "Program",
    "run_episode",
    "query_of",
]

#: ``program(observation, step) -> response``.
Program = Callable[[str, int], str]
CHUNK_CHARS = 2**15

RLM_SYSTEM_PROMPT = """You are tasked with answering a query with associated context. The \
context is too long to read at once: it is the variable `context` of a Python REPL, which you \
can use by writing ```repl``` code blocks. The REPL keeps variables between your turns and \
offers `llm_query(prompt)` and `llm_query_batched(prompts)`, which ask a sub-model about text \
you give it (it can read about 100,000 characters), and `SHOW_VARS()`. Printed output is cut, \
so keep results in variables, look at the context in pieces, split it into chunks and query \
the sub-model about each, then combine the answers in code. When you know the answer, write \
FINAL(your answer) or FINAL_VAR(variable_name) at the start of a line, outside code blocks."""


def query_of(observation: str) -> str:
    """The query line of an observation."""
    return observation.split("\n", 1)[0].removeprefix("Query: ")


def _preview(observation: str) -> str:
    lines = observation.split("\n")
    return "\n".join(lines[2:-1]) if len(lines) > 3 else ""


def _family(query: str) -> str:
    if "secret code" in query:
        return "needle"
    if "pair of user IDs" in query:
        return "pairs"
    if "In which country" in query:
        return "multihop"
    return "aggregation"


# -- answering from the preview ---------------------------------------------------------------
def answer_from_preview(observation: str, step: int) -> str:
    """Answers without code from the first characters of the context."""
    query, preview = query_of(observation), _preview(observation)
    family = _family(query)
    if family == "needle":
        found = re.search(r"secret code for \S+ is (\d+)", preview)
        return f"FINAL({found.group(1) if found else '0'})"
    if family == "multihop":
        return "FINAL(unknown)"
    records = re.findall(r"User: (\d+) \|\| Instance: ([^\n]*)", preview)
    rows = [(int(user), topic_of(question.strip())) for user, question in records]
    if family == "pairs":
        users = sorted({user for user, label in rows if label == "abbreviation"})
        return f"FINAL({[(a, b) for i, a in enumerate(users) for b in users[i + 1 :]]})"
    return f"FINAL({_combine_topics(query, [label for _, label in rows])})"


def _combine_topics(query: str, labels: list[str | None]) -> str:
    asked = re.findall(r"'([a-z ]+)'", query)
    if "How many more" in query:
        return str(labels.count(asked[0]) - labels.count(asked[1]))
    return str(labels.count(asked[0]))


# -- grep only --------------------------------------------------------------------------------
def grep_only(observation: str, step: int) -> str:
    """Regular expressions over the whole context with the query's own words; no sub-calls."""
    query = query_of(observation)
    family = _family(query)
    if family == "needle":
        key = query.split("code for ")[1].split("?")[0]
        code = (
            "import re\n"
            f"found = re.search(r'secret code for {re.escape(key)} is (\\d+)', context)\n"
            "answer = found.group(1) if found else 'not found'"
        )
    elif family == "multihop":
        person = query.split("was ", 1)[1].split(" born")[0]
        code = (
            "import re\n"
            f"city = re.search(r'{person} was born in (\\w+)', context)\n"
            "country = city and re.search(city.group(1) + r' is a city in (\\w+)', context)\n"
            "answer = country.group(1) if country else 'unknown'"
        )
    else:
        # Without a reader, grep can only look for the topic's own words in the records.
        asked = re.findall(r"'([a-z ]+)'", query)[: 1 if family == "pairs" else 2]
        code = "import re\nlines = context.split('\\n')\ncounts = {}\n"
        for label in asked:
            code += f"counts[{label!r}] = sum(1 for line in lines if {label!r} in line)\n"
        if family == "pairs":
            code += (
                "users = sorted({int(re.search(r'User: (\\d+)', line).group(1)) for line in "
                f"lines if {asked[0]!r} in line and 'User: ' in line}})\n"
                "answer = [(a, b) for i, a in enumerate(users) for b in users[i + 1:]]"
            )
        elif "How many more" in query:
            code += f"answer = counts[{asked[0]!r}] - counts[{asked[1]!r}]"
        else:
            code += f"answer = counts[{asked[0]!r}]"
    return f"```repl\n{code}\n```\nFINAL_VAR(answer)"


# -- chunk and query --------------------------------------------------------------------------
_CHUNKS = """chunks, start = [], 0
while start < len(context):
    end = len(context)
    if start + {size} < len(context):
        end = context.rfind('\\n', start, start + {size})
        if end <= start:
            end = start + {size}
    chunks.append(context[start:end])
    start = end
"""


def _asks(query: str, family: str) -> str:
    """The code that asks the sub-model about ``chunks`` and sets ``answer``; uses ``ASK``."""
    if family == "needle":
        key = query.split("code for ")[1].split("?")[0]
        return (
            f"answers = ASK([c + '\\n\\nQuestion: What is the secret code for {key}?' "
            "for c in chunks])\n"
            "found = [a for a in answers if a.strip().isdigit()]\n"
            "answer = found[0] if found else 'not found'\n"
        )
    if family == "multihop":
        person = query.split("was ", 1)[1].split(" born")[0]
        return (
            "import re\n"
            f"facts = ASK([c + '\\n\\nQuestion: facts about {person}' for c in chunks])\n"
            f"city = re.search(r'born in (\\w+)', ' '.join(facts))\n"
            "answer = 'unknown'\n"
            "if city:\n"
            "    facts = ASK([c + '\\n\\nQuestion: facts about ' + city.group(1) "
            "for c in chunks])\n"
            "    country = re.search(r'is a city in (\\w+)', ' '.join(facts))\n"
            "    answer = country.group(1) if country else 'unknown'\n"
        )
    code = (
        "import json\n"
        "answers = ASK([c + '\\n\\nQuestion: give the topic of every question, as a JSON list "
        "of [user, topic]' for c in chunks])\n"
        "rows = [row for a in answers for row in json.loads(a)]\n"
    )
    asked = re.findall(r"'([a-z ]+)'", query)
    if family == "pairs":
        return code + (
            f"users = sorted({{user for user, topic in rows if topic == {asked[0]!r}}})\n"
            "answer = [(a, b) for i, a in enumerate(users) for b in users[i + 1:]]\n"
        )
    code += "topics = [topic for _, topic in rows]\n"
    if "How many more" in query:
        return code + f"answer = topics.count({asked[0]!r}) - topics.count({asked[1]!r})\n"
    return code + f"answer = topics.count({asked[0]!r})\n"


_ONE_BY_ONE = "def ASK(prompts):\n    return [llm_query(p) for p in prompts]\n"
_BATCHED = "def ASK(prompts):\n    return llm_query_batched(prompts)\n"
_PEEK = "```repl\nprint(len(context))\nprint(context[:300])\n```"


def _chunk_program(ask: str, stride: int = 1) -> Program:
    def program(observation: str, step: int) -> str:
        if step == 0:
            return _PEEK
        query = query_of(observation)
        chunks = _CHUNKS.format(size=CHUNK_CHARS)
        if stride > 1:
            chunks += f"chunks = chunks[::{stride}]\n"
        return f"```repl\n{ask}{chunks}{_asks(query, _family(query))}```\nFINAL_VAR(answer)"

    return program


chunk_and_query = _chunk_program(_ONE_BY_ONE)
batched_chunk_and_query = _chunk_program(_BATCHED)
_skipping = _chunk_program(_BATCHED, stride=2)


def buggy(observation: str, step: int) -> str:
    """A name error first, then chunk-and-query that skips every other chunk."""
    if step == 0:
        return "```repl\nprint(len(contexts))\n```"
    return _skipping(observation, step)


PROGRAMS: dict[str, Program] = {
    "answer_from_preview": answer_from_preview,
    "grep_only": grep_only,
    "chunk_and_query": chunk_and_query,
    "batched_chunk_and_query": batched_chunk_and_query,
    "buggy": buggy,
}


class LLMAgent:
    """An OpenAI-compatible chat model as the root RLM, with the RLM system prompt.

    Args:
        model: The model name the server knows.
        base_url: The server's ``/v1`` address.
        api_key: Sent as the bearer token.
        max_tokens: Completion limit per response.
        system_prompt: The instructions (default: :data:`RLM_SYSTEM_PROMPT`).
    """

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str = "EMPTY",
        max_tokens: int = 2048,
        system_prompt: str = RLM_SYSTEM_PROMPT,
    ) -> None:
        self.client = OpenAISubModel(model, base_url, api_key, max_tokens=max_tokens)
        self.system_prompt = system_prompt
        self.messages: list[dict[str, str]] = []

    def __call__(self, observation: str, step: int) -> str:
        if step == 0:
            self.messages = [{"role": "system", "content": self.system_prompt}]
        self.messages.append({"role": "user", "content": observation})
        response = self.client.chat(self.messages)
        self.messages.append({"role": "assistant", "content": response})
        return response

    def close(self) -> None:
        self.client.close()


def run_episode(env: Any, program: Program, seed: int | None = None) -> dict[str, Any]:
    """One episode of ``program`` on ``env``: the last ``info["task"]`` plus ``steps``,
    ``return`` (the summed reward) and, through a ``RewardPolicyWrapper``, the episode's
    reward components."""
    observation, info = env.reset(seed=seed)
    total, step = 0.0, 0
    while True:
        observation, reward, terminated, truncated, info = env.step(program(observation, step))
        total += float(reward)
        step += 1
        if terminated or truncated:
            break
    outcome = {"correct": False, "score": 0.0, **info["task"], "steps": step, "return": total}
    if "episode_reward_components" in info:
        outcome["components"] = dict(info["episode_reward_components"])
    return outcome
