"""PPO hyper-parameters: checked kinds, rl-zoo3 schedules and rl-zoo3's YAML files.

``--hyperparams file.yml`` reads rl-zoo3's layout (``hyperparams/ppo.yml`` in
DLR-RM/rl-baselines3-zoo): one top-level section per env id (or ``default``), each with
``n_timesteps``, ``policy``, ``n_envs`` and the algorithm's keyword arguments::

    rlm_gym/Crawl-v1:
      n_timesteps: !!float 3e5
      policy: 'MlpPolicy'
      n_envs: 4
      n_steps: 1024
      learning_rate: lin_1e-3          # rl-zoo3's linear schedule
      policy_kwargs: "dict(net_arch=[64, 64], activation_fn=nn.Tanh)"

Only what rlm-gym can honour is accepted: ``policy`` must be ``MlpPolicy``; rl-zoo3's env
plumbing keys (``normalize: true``, ``frame_stack``, ``env_wrapper``, ``vec_env_wrapper``,
``callback``) are rejected by name rather than silently ignored.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Mapping
from numbers import Integral, Real
from pathlib import Path
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.wrappers.schedule import WeightSchedule

__all__ = [
    "HYPERPARAM_KINDS",
    "check_hyperparams",
    "load_zoo_hyperparams",
    "parse_policy_kwargs",
    "schedule_value",
]

# The kind of every PPO / MaskablePPO keyword argument we pass through (SB3 2.x signatures).
HYPERPARAM_KINDS: dict[str, str] = {
    "learning_rate": "schedule",
    "clip_range": "schedule",
    "clip_range_vf": "optional_positive",
    "n_steps": "positive_int",
    "batch_size": "positive_int",
    "n_epochs": "positive_int",
    "gamma": "unit",
    "gae_lambda": "unit",
    "ent_coef": "non_negative",
    "vf_coef": "non_negative",
    "max_grad_norm": "positive",
    "normalize_advantage": "bool",
    "use_sde": "bool",
    "sde_sample_freq": "int",
    "target_kl": "optional_positive",
    "stats_window_size": "positive_int",
    "policy_kwargs": "mapping",
    "learning_rate_schedule": "schedule_name",
}
# Keyword arguments only some algorithms take.
ALGO_ONLY: dict[str, tuple[str, ...]] = {"use_sde": ("ppo",), "sde_sample_freq": ("ppo",)}
_KIND_TEXT = {
    "schedule": "a positive number or a schedule like 'lin_0.001'",
    "optional_positive": "a positive number or null",
    "positive_int": "a positive integer",
    "unit": "a number in [0, 1]",
    "non_negative": "a number >= 0",
    "positive": "a number > 0",
    "bool": "true or false",
    "int": "an integer",
    "mapping": 'a mapping (JSON object, or rl-zoo3\'s "dict(...)" string)',
    "schedule_name": "'constant' or 'linear'",
}
# rl-zoo3 keys about env plumbing that rlm-gym does not implement (refused, not ignored).
ZOO_UNSUPPORTED: tuple[str, ...] = (
    "frame_stack",
    "env_wrapper",
    "vec_env_wrapper",
    "callback",
    "normalize_kwargs",
)
_RL_ZOO3_ITSELF = (
    "train with rl-zoo3 itself (`python -m rl_zoo3.train ... -conf FILE`, docs/clients.md)"
)
# What to do instead of a refused key, where there is something better than "remove it".
_ZOO_HINTS = {
    "env_wrapper": "rlm-gym wraps the env in the reward policy itself (--policy, --disable, "
    f"--weight): remove `env_wrapper` from the file, or {_RL_ZOO3_ITSELF}",
    "vec_env_wrapper": f"remove it from the file, or {_RL_ZOO3_ITSELF}",
}
ZOO_POLICY = "MlpPolicy"


def schedule_value(value: Any) -> float | None:
    """The initial value of an rl-zoo3 linear schedule string ``"lin_<x>"``, else None.

    Example:
        >>> schedule_value("lin_2.5e-4"), schedule_value(0.1)
        (0.00025, None)
    """
    if isinstance(value, str) and value.startswith("lin_"):
        try:
            return float(value[4:])
        except ValueError:
            return None
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value)


def _kind_ok(kind: str, value: Any) -> bool:
    if kind == "schedule":
        initial = schedule_value(value)
        return (_is_number(value) and value > 0) or (initial is not None and initial > 0)
    if kind == "optional_positive":
        return value is None or (_is_number(value) and value > 0)
    if kind == "positive_int":
        return isinstance(value, Integral) and not isinstance(value, bool) and value > 0
    if kind == "int":
        return isinstance(value, Integral) and not isinstance(value, bool)
    if kind == "unit":
        return _is_number(value) and 0 <= value <= 1
    if kind == "non_negative":
        return _is_number(value) and value >= 0
    if kind == "positive":
        return _is_number(value) and value > 0
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "mapping":
        return isinstance(value, Mapping)
    return value in ("constant", "linear")


def check_hyperparams(params: Mapping[str, Any], algo: str = "ppo", source: str = "--hp") -> None:
    """Check names and value kinds of PPO keyword arguments before any training starts.

    Args:
        params: Keyword arguments (``policy_kwargs`` already a mapping).
        algo: ``"ppo"`` or ``"maskable_ppo"`` (``use_sde`` is PPO's only).
        source: Where the values came from, for the message (``--hp``, a YAML file).

    Raises:
        ValueError: Unknown name (with a suggestion) or a value out of range.
        TypeError: A value of the wrong kind (text for a number, ...).

    Example:
        >>> check_hyperparams({"n_steps": 64, "learning_rate": "lin_1e-3"})
        >>> check_hyperparams({"n_steps": "abc"})
        Traceback (most recent call last):
        ...
        TypeError: Expected `--hp n_steps` to be a positive integer, got str 'abc'
        >>> check_hyperparams({"learning_rat": 0.1})
        Traceback (most recent call last):
        ...
        ValueError: Unknown hyper-parameter 'learning_rat' of ppo. Did you mean 'learning_rate'? Available: 'learning_rate', 'clip_range', 'clip_range_vf', 'n_steps', 'batch_size', 'n_epochs', 'gamma', 'gae_lambda', 'ent_coef', 'vf_coef', 'max_grad_norm', 'normalize_advantage', 'use_sde', 'sde_sample_freq', 'target_kl', 'stats_window_size', 'policy_kwargs', 'learning_rate_schedule'
    """  # noqa: E501
    valid = [name for name in HYPERPARAM_KINDS if algo in ALGO_ONLY.get(name, (algo,))]
    for name, value in params.items():
        if name not in valid:
            raise unknown_name_error("hyper-parameter", name, valid, f"of {algo}")
        kind = HYPERPARAM_KINDS[name]
        if _kind_ok(kind, value):
            continue
        wrong_type = (
            isinstance(value, (str, bool, list, dict, type(None)))
            and kind not in ("bool", "schedule_name")
        ) or (kind == "bool" and not isinstance(value, bool))
        error = TypeError if wrong_type else ValueError
        raise error(
            f"Expected `{source} {name}` to be {_KIND_TEXT[kind]}, "
            f"got {type(value).__name__} {value!r}"
        )


def _literal(node: ast.AST) -> Any:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        if node.args:
            raise ValueError("positional arguments to dict()")
        return {kw.arg: _literal(kw.value) for kw in node.keywords}
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id == "nn":  # activation_fn=nn.ReLU: kept as a name, resolved by torch
            return f"nn.{node.attr}"
        raise ValueError(f"unsupported name {node.value.id}.{node.attr}")
    if isinstance(node, ast.List):
        return [_literal(item) for item in node.elts]
    if isinstance(node, ast.Tuple):
        return [_literal(item) for item in node.elts]
    if isinstance(node, ast.Dict):
        return {_literal(k): _literal(v) for k, v in zip(node.keys, node.values, strict=True)}
    return ast.literal_eval(node)


def parse_policy_kwargs(value: Any) -> dict[str, Any]:
    """``policy_kwargs`` from a mapping or rl-zoo3's ``"dict(...)"`` string (no ``eval``).

    ``nn.<Name>`` (an activation function) stays the string ``"nn.<Name>"``; training resolves
    it in ``torch.nn``.

    Example:
        >>> parse_policy_kwargs("dict(net_arch=[dict(pi=[64], vf=[64])], activation_fn=nn.ReLU)")
        {'net_arch': [{'pi': [64], 'vf': [64]}], 'activation_fn': 'nn.ReLU'}
    """
    if isinstance(value, Mapping):
        return dict(value)
    if not isinstance(value, str):
        raise TypeError(
            'Expected `policy_kwargs` to be a mapping or a "dict(...)" string, '
            f"got {type(value).__name__} {value!r}"
        )
    try:
        parsed = _literal(ast.parse(value.strip(), mode="eval").body)
    except (SyntaxError, ValueError) as error:
        raise ValueError(
            f'Expected `policy_kwargs` like "dict(net_arch=[64, 64])", got {value!r} ({error})'
        ) from None
    if not isinstance(parsed, dict):
        raise TypeError(f"Expected `policy_kwargs` to describe a dict, got {value!r}")
    return parsed


_SCHEDULE_FORMS = (
    "{interpolation: linear | step, breakpoints: {name: [[step, weight], ...]}} "
    "or text 'name=step:weight,step:weight[;name=...]'"
)


def _zoo_schedule(value: Any, where: str) -> WeightSchedule | None:
    """``reward_schedule:`` of a YAML section: None, a ``to_dict()`` mapping or the text form."""
    if value is None:
        return None
    if not isinstance(value, (str, Mapping)):
        raise ValueError(
            f"Expected `reward_schedule` in {where} as {_SCHEDULE_FORMS}, got {value!r}"
        )
    try:
        if isinstance(value, str):
            return WeightSchedule.from_text(value)
        return WeightSchedule.from_dict(value)
    except (ValueError, TypeError) as error:
        raise type(error)(f"`reward_schedule` in {where}: {error}") from None


def load_zoo_hyperparams(path: str | Path, env_id: str, algo: str = "ppo") -> dict[str, Any]:
    """Read rl-zoo3's YAML layout: the section of ``env_id``, else the ``default`` section.

    Args:
        path: The YAML file.
        env_id: The env being trained.
        algo: The algorithm, to check its keyword arguments.

    Returns:
        ``{"total_timesteps": int | None, "n_envs": int | None, "hyperparams": {...},
        "reward_schedule": WeightSchedule | None}``. ``reward_schedule:`` (rlm-gym's own key)
        is a ``WeightSchedule.to_dict()`` mapping or the ``--reward-schedule`` text form.

    Raises:
        FileNotFoundError: No such file.
        ValueError: Not YAML, no section for ``env_id`` nor ``default`` (with a suggestion),
            an unsupported rl-zoo3 key, a bad value.
        TypeError: A value of the wrong kind.
    """
    from rlm_gym.training._deps import require

    require("yaml")
    import yaml

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"No such hyper-parameter file: {path}")
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        reason = " ".join(str(error).split())
        raise ValueError(f"{path} is not valid YAML: {reason}") from None
    if not isinstance(document, dict):
        raise ValueError(
            f"Expected {path} in rl-zoo3's layout (a mapping of env ids to settings), "
            f"got {type(document).__name__}"
        )
    key = env_id if env_id in document else "default"
    if key not in document:
        raise unknown_name_error(
            "section (env id)", env_id, [str(k) for k in document], f"in {path} (nor 'default')"
        )
    section = document[key]
    if not isinstance(section, dict):
        raise ValueError(f"Expected section '{key}' of {path} to be a mapping, got {section!r}")
    section = dict(section)
    where = f"{path}:{key}"
    result: dict[str, Any] = {"total_timesteps": None, "n_envs": None}
    for zoo_key, target in (("n_timesteps", "total_timesteps"), ("n_envs", "n_envs")):
        if zoo_key in section:
            value = section.pop(zoo_key)
            if not _is_number(value) or value != int(value) or value <= 0:
                raise ValueError(
                    f"Expected `{zoo_key}` in {where} to be a positive whole number, got {value!r}"
                )
            result[target] = int(value)
    result["reward_schedule"] = _zoo_schedule(section.pop("reward_schedule", None), where)
    policy = section.pop("policy", ZOO_POLICY)
    if policy != ZOO_POLICY:
        raise ValueError(f"Expected `policy` in {where} to be '{ZOO_POLICY}', got {policy!r}")
    normalize = section.pop("normalize", False)
    if normalize not in (False, None, "false", "False"):
        raise ValueError(
            f"`normalize` in {where}: rlm-gym does not wrap envs in VecNormalize; remove it"
        )
    for name in ZOO_UNSUPPORTED:
        if name in section:
            hint = f"; {_ZOO_HINTS[name]}" if name in _ZOO_HINTS else ""
            raise ValueError(f"`{name}` in {where}: an rl-zoo3 key rlm-gym does not support{hint}")
    if "policy_kwargs" in section:
        section["policy_kwargs"] = parse_policy_kwargs(section["policy_kwargs"])
    check_hyperparams(section, algo, source=where)
    result["hyperparams"] = section
    return result
