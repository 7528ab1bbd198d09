"""The named training recipes, written from ``RECIPES`` (``rlm_gym.training.studies.recipes``).

A page that names a recipe shows it through these blocks, so its flags are the ones
``rlm-gym train --recipe NAME --print`` prints and cannot advise an older recipe.
"""

from __future__ import annotations

from block_tools import table

from rlm_gym.training.studies.recipes import RECIPES, Recipe


def describe(recipe: Recipe) -> str:
    """The recipe in words: its config, envs x steps, PPO settings and budget."""
    hyperparams = dict(recipe.hyperparams)
    parts = [f"`{key}={value}`" for key, value in recipe.config.items()]
    if recipe.disable:
        parts.append("without " + ", ".join(f"`{name}`" for name in recipe.disable))
    n_steps = hyperparams.pop("n_steps", None)
    parts.append(f"{recipe.n_envs} envs" + (f" x {n_steps} steps" if n_steps is not None else ""))
    parts += [f"`{key}` {value}" for key, value in hyperparams.items()]
    parts.append(f"{recipe.total_timesteps:,} steps on `{recipe.env_id}`")
    return ", ".join(parts)


def demo_recipe() -> str:
    """One line: what ``make demo`` trains, and the command that trains the same."""
    recipe = RECIPES["demo"]
    return (
        f"The demo's recipe (the `{recipe.study}` study's `{recipe.variant}`): "
        f"{describe(recipe)}. `rlm-gym train --recipe demo` trains the same; "
        f"`--print` shows it as flags: `{recipe.command()}`.\n"
    )


def train_recipes() -> str:
    """Every named recipe: its study and variant, in words, and its flags."""
    rows = [
        [f"`{name}`", f"`{recipe.study}` / `{recipe.variant}`", describe(recipe)]
        for name, recipe in RECIPES.items()
    ]
    return (
        table(["`--recipe`", "study / variant", "settings"], rows)
        + "\n`rlm-gym train --recipe NAME --print` prints a recipe as the flags that train it "
        "(flags given beside `--recipe` win over its settings).\n"
    )


RECIPE_KEYS = ("env", "policy", "config", "disable", "hyperparams", "n_envs", "timesteps", "algo")


def command_settings(command: str) -> dict:
    """What ``rlm-gym train ...`` (a command line as a page shows it) trains: the settings the
    command line resolves to (``--recipe`` included), seed and run directory apart."""
    import shlex

    from rlm_gym.cli import build_parser
    from rlm_gym.cli.train import _recipe, _train_settings

    words = shlex.split(command)
    args = build_parser().parse_args(words[1:])
    settings = _train_settings(args, _recipe(args))
    return {key: settings[key] for key in RECIPE_KEYS}


def recipe_of_command(command: str) -> str | None:
    """The name of the recipe ``command`` trains, or None when it trains none of them."""
    settings = command_settings(command)
    for name in RECIPES:
        if command_settings(f"rlm-gym train --recipe {name}") == settings:
            return name
    return None
