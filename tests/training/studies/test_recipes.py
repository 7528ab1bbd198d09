"""Named recipes: each one is its study's variant, and ``train``'s flags rebuild it exactly."""

from __future__ import annotations

import shlex

import pytest

from rlm_gym.cli import build_parser
from rlm_gym.cli.train import _recipe, _train_settings
from rlm_gym.training.demo import demo_recipe
from rlm_gym.training.studies.plans import STUDIES, variant_budget
from rlm_gym.training.studies.recipes import DEMO_VARIANT, RECIPES, get_recipe, study_recipe


def _settings(argv: list[str]) -> dict:
    args = build_parser().parse_args(argv)
    return _train_settings(args, _recipe(args))


def _recipe_settings(recipe) -> dict:
    return {
        "env": recipe.env_id,
        "policy": recipe.policy,
        "config": dict(recipe.config),
        "disable": list(recipe.disable),
        "hyperparams": dict(recipe.hyperparams),
        "n_envs": recipe.n_envs,
        "timesteps": recipe.total_timesteps,
        "algo": recipe.algo,
        "vector_resets": recipe.vector_resets,
    }


def _keys(settings: dict) -> dict:
    return {key: settings[key] for key in _recipe_settings(RECIPES["demo"])}


def test_the_demo_recipe_is_what_the_demo_trains():
    assert RECIPES["demo"].variant == DEMO_VARIANT
    assert RECIPES["demo"].train_kwargs() == demo_recipe()


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_a_recipe_is_its_study_variant(name):
    recipe = RECIPES[name]
    study = STUDIES[recipe.study]
    variant = study.variants[recipe.variant]
    assert recipe.total_timesteps == variant_budget(study, recipe.variant)
    assert recipe.n_envs == variant.get("n_envs", study.n_envs)
    assert dict(recipe.hyperparams) == {**study.hyperparams, **variant.get("hyperparams", {})}
    assert dict(recipe.config) == dict(variant.get("config") or {})
    assert recipe.env_id == variant.get("env_id", study.env_id)
    assert recipe.vector_resets == variant.get("vector_resets", study.vector_resets)


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_the_printed_flags_train_the_same_recipe(name):
    flags = shlex.split(RECIPES[name].command())[1:]
    assert _keys(_settings(flags)) == _recipe_settings(RECIPES[name])


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_recipe_flag_trains_the_recipe(name):
    assert _keys(_settings(["train", "--recipe", name])) == _recipe_settings(RECIPES[name])


def test_flags_beside_a_recipe_win_over_it():
    settings = _settings(
        ["train", "--recipe", "demo", "--timesteps", "1000", "--hp", "n_epochs=2", "--seed", "3"]
    )
    assert settings["timesteps"] == 1000 and settings["seed"] == 3
    assert settings["hyperparams"]["n_epochs"] == 2
    assert settings["n_envs"] == RECIPES["demo"].n_envs


def test_a_misspelt_recipe_gets_the_closest_name():
    with pytest.raises(ValueError, match="Did you mean 'demo'"):
        get_recipe("dmeo")


def test_a_variant_with_a_schedule_is_not_a_recipe():
    with pytest.raises(ValueError, match="reward_schedule"):
        study_recipe("ablation", "curriculum_efficiency")


@pytest.mark.slow
def test_the_moonshot_recipe_trains_and_evaluates_at_a_tiny_budget(tmp_path, capsys):
    import json

    from rlm_gym.cli import main

    run_dir = tmp_path / "moonshot"
    argv = ["train", "--recipe", "moonshot", "--timesteps", "8192", "--log-dir", str(run_dir)]
    assert main([*argv, "--quiet"]) == 0
    config = json.loads((run_dir / "config.json").read_text(encoding="utf-8"))
    assert config["n_envs"] == RECIPES["moonshot"].n_envs
    assert config["hyperparams"]["gamma"] == RECIPES["moonshot"].hyperparams["gamma"]
    capsys.readouterr()
    assert main(["evaluate", str(run_dir), "--episodes", "5", "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["episodes"] == 5 and 0.0 <= row["score"] <= 1.0


def test_a_recipe_of_fast_resets_prints_and_trains_them():
    recipe = study_recipe("ablation-half", "full")
    flags = shlex.split(recipe.command())[1:]
    assert flags[flags.index("--vector-resets") + 1] == "fast"
    assert _keys(_settings(flags)) == _recipe_settings(recipe)
    assert recipe.train_kwargs()["vector_resets"] == "fast"
