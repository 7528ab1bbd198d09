"""Two real GRPO steps of TRL on CPU with a tiny model: the policy's reward and every
component arrive in TRL's logs."""

from __future__ import annotations

import pytest

pytest.importorskip("trl")

from trl import GRPOConfig, GRPOTrainer

from rlm_gym.integrations.trl import close_reward_funcs, reward_funcs, rlm_dataset
from rlm_gym.policies.registry import resolve_reward_policy
from tests.trainers.tiny_model import char_tokenizer, tiny_model


@pytest.fixture
def funcs():
    made = reward_funcs("research", length=2**13)
    yield made
    close_reward_funcs(made[0])


def test_two_grpo_steps_log_the_policy_reward_and_its_components(tmp_path, funcs):
    tokenizer = char_tokenizer()
    functions, weights = funcs
    config = GRPOConfig(
        output_dir=str(tmp_path),
        per_device_train_batch_size=2,
        num_generations=2,
        max_completion_length=8,
        max_steps=2,
        learning_rate=1e-3,
        logging_steps=1,
        report_to="none",
        use_cpu=True,
        save_strategy="no",
        reward_weights=weights,
        seed=0,
    )
    trainer = GRPOTrainer(
        model=tiny_model(tokenizer),
        reward_funcs=functions,
        args=config,
        train_dataset=rlm_dataset(4, "needle", 2**13),
        processing_class=tokenizer,
    )
    trainer.train()
    logs = [entry for entry in trainer.state.log_history if "reward" in entry]
    assert len(logs) == 2 and trainer.state.global_step == 2
    names = resolve_reward_policy("research").component_names
    for entry in logs:
        for name in ("research", *(f"research/{n}" for n in names)):
            assert f"rewards/{name}/mean" in entry
        # Random characters are no code action: every completion fails as a response
        # (research: attempt 0.05 + failure -0.2), and that is what the components say.
        assert entry["rewards/research/base_failure/mean"] == pytest.approx(-0.2)
        assert entry["rewards/research/mean"] == pytest.approx(
            sum(entry[f"rewards/research/{n}/mean"] for n in names)
        )
        assert entry["reward"] == pytest.approx(entry["rewards/research/mean"])


def test_a_solving_completion_scores_as_a_successful_final(funcs):
    functions, _ = funcs
    row = rlm_dataset(1, "needle", 2**13)[0]
    scorer = functions[0].scorer
    key = row["prompt"][1]["content"].split("code for ")[1].split("?")[0]
    code = f"```repl\nimport re\nanswer = re.search(r'{key} is (\\d+)', context).group(1)\n```"
    completion = [{"role": "assistant", "content": code + "\nFINAL_VAR(answer)"}]
    scored = scorer.score(completion, row["family"], row["length"], row["task_seed"])
    assert scored["task"]["correct"] is True
    assert scored["components"]["final_success"] == 0.3
    values = functions[0](
        completions=[completion], family=["needle"], length=[2**13], task_seed=[row["task_seed"]]
    )
    assert values == [scored["value"]]
