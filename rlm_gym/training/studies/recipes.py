"""Named training recipes, read from the studies' plans: one source for every recipe a page names.

A recipe is one variant of one study (``STUDIES``) seen as a ``train`` call: env, policy,
config, components off, PPO settings, envs and budget. ``rlm-gym train --recipe NAME`` trains
it, ``rlm-gym train --recipe NAME --print`` prints it as the equivalent flags, and the help
texts and docs that name a recipe are written from these objects (a test compares them), so a
page cannot advise an old recipe after the plans change.

Example:
    >>> recipe = RECIPES["demo"]
    >>> recipe.n_envs, recipe.total_timesteps, recipe.hyperparams["learning_rate"]
    (128, 450000, 0.004)
    >>> print(recipe.command())  # doctest: +NORMALIZE_WHITESPACE
    rlm-gym train --env rlm_gym/Crawl-v2 --policy crawl --config efficiency_errors=graded
    --n-envs 128 --timesteps 450000 --hp n_steps=32 --hp gamma=0.999 --hp batch_size=1024
    --hp n_epochs=5 --hp learning_rate=0.004
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.training.studies.plans import DEMO_FAST, MOONSHOT_CHOICE, STUDIES, variant_budget

__all__ = ["DEMO_STUDY", "DEMO_VARIANT", "RECIPES", "Recipe", "get_recipe", "study_recipe"]

#: The study whose variants the demo trains, and the variant it trains (chosen from
#: results/demo-cost.json: the true crawl score against the earlier recipe, paired by seed).
DEMO_STUDY = "demo-cost"
DEMO_VARIANT = DEMO_FAST


@dataclass(frozen=True)
class Recipe:
    """One study variant as the arguments of a training run.

    Attributes:
        name: The recipe's name (``--recipe NAME``).
        study: The study it comes from (``STUDIES``).
        variant: The study's variant it is.
        summary: One line on what it is.
        env_id: The env it trains on.
        policy: The reward policy.
        config: Policy config over the policy's defaults.
        disable: Components switched off.
        hyperparams: PPO settings (the study's, then the variant's).
        n_envs: Envs stepped together.
        total_timesteps: The training budget.
        algo: ``ppo`` or ``maskable_ppo``; None: ``train``'s choice for the env.
        vector_resets: How a batched env draws its sites (``RunConfig.vector_resets``).

    Example:
        >>> RECIPES["ablation"].flags()[:4]
        ['--env', 'rlm_gym/Crawl-v2', '--policy', 'crawl']
    """

    name: str
    study: str
    variant: str
    summary: str
    env_id: str
    policy: str
    config: Mapping[str, Any]
    disable: tuple[str, ...]
    hyperparams: Mapping[str, Any]
    n_envs: int
    total_timesteps: int
    algo: str | None = None
    vector_resets: str = "exact"

    def flags(self) -> list[str]:
        """The ``rlm-gym train`` flags that train this recipe (values as ``--hp`` parses them)."""
        flags = ["--env", self.env_id, "--policy", self.policy]
        if self.algo is not None:
            flags += ["--algo", self.algo]
        for key, value in self.config.items():
            flags += ["--config", f"{key}={_flag_value(value)}"]
        if self.disable:
            flags += ["--disable", ",".join(self.disable)]
        flags += ["--n-envs", str(self.n_envs), "--timesteps", str(self.total_timesteps)]
        if self.vector_resets != "exact":
            flags += ["--vector-resets", self.vector_resets]
        for key, value in self.hyperparams.items():
            flags += ["--hp", f"{key}={_flag_value(value)}"]
        return flags

    def command(self) -> str:
        """``rlm-gym train`` and :meth:`flags`, one line a shell runs as it is."""
        return " ".join(["rlm-gym", "train", *self.flags()])

    def train_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``rlm_gym.training.train`` (the env id apart)."""
        return {
            "policy": self.policy,
            "config": dict(self.config) or None,
            "disable": self.disable,
            "shaping": None,
            "algo": self.algo,
            "hyperparams": dict(self.hyperparams),
            "n_envs": self.n_envs,
            "total_timesteps": self.total_timesteps,
            "vector_resets": self.vector_resets,
        }


def _flag_value(value: Any) -> str:
    """A value as ``--hp`` / ``--config`` read it back (JSON, bare text for strings)."""
    return value if isinstance(value, str) else json.dumps(value)


def study_recipe(study_name: str, variant: str, name: str = "", summary: str = "") -> Recipe:
    """The recipe of ``variant`` in the study ``study_name``.

    Raises:
        ValueError: The study or variant does not exist, or the variant needs what a
            ``train`` run cannot take from flags (potential shaping, a reward schedule).

    Example:
        >>> study_recipe("demo-cost", "demo-16envs-450k").n_envs
        16
    """
    if study_name not in STUDIES:
        raise unknown_name_error("study", study_name, STUDIES)
    study = STUDIES[study_name]
    if variant not in study.variants:
        raise unknown_name_error("variant", variant, study.variants, f"of study '{study_name}'")
    settings = study.variants[variant]
    unsupported = sorted({"shaping", "reward_schedule"} & set(settings))
    if unsupported:
        raise ValueError(
            f"Variant '{variant}' of study '{study_name}' sets {', '.join(unsupported)}, "
            "which a recipe does not carry"
        )
    return Recipe(
        name=name or f"{study_name}/{variant}",
        study=study_name,
        variant=variant,
        summary=summary,
        env_id=str(settings.get("env_id", study.env_id)),
        policy=str(settings.get("policy", "crawl")),
        config=dict(settings.get("config") or {}),
        disable=tuple(settings.get("disable", ())),
        hyperparams={**study.hyperparams, **dict(settings.get("hyperparams") or {})},
        n_envs=int(settings.get("n_envs", study.n_envs)),
        total_timesteps=variant_budget(study, variant),
        algo=settings.get("algo"),
        vector_resets=str(settings.get("vector_resets", study.vector_resets)),
    )


RECIPES: dict[str, Recipe] = {
    recipe.name: recipe
    for recipe in (
        study_recipe(
            DEMO_STUDY,
            DEMO_VARIANT,
            "demo",
            "what `make demo` trains, the `demo-cost` study's choice",
        ),
        study_recipe(
            DEMO_STUDY,
            "demo-16envs-450k",
            "demo-16envs",
            "the demo's recipe before the quarter-cost one",
        ),
        study_recipe("ablation", "full", "ablation", "the `ablation` study's `full` reward"),
        study_recipe(
            "ablation-16envs",
            "full",
            "ablation-16envs",
            "the `full` reward of the ablation before the quarter-cost recipe",
        ),
        study_recipe(
            "moonshot",
            MOONSHOT_CHOICE,
            "moonshot",
            "the `moonshot` study's better recipe on 3 seeds (the attempt at 0.90 of the oracle)",
        ),
    )
}
"""The recipes ``rlm-gym train --recipe`` knows, by name."""


def get_recipe(name: str) -> Recipe:
    """The recipe called ``name``, or a ``ValueError`` with the closest name.

    Example:
        >>> get_recipe("demo").study
        'demo-cost'
        >>> get_recipe("dmeo")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: Unknown recipe 'dmeo'. Did you mean 'demo'? Available: ...
    """
    if name not in RECIPES:
        raise unknown_name_error("recipe", name, RECIPES)
    return RECIPES[name]
