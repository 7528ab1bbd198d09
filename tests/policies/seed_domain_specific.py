"""The seed document's custom-policy example, verbatim but for the import path."""

# ruff: noqa
from rlm_gym.policies import (
    RewardPolicy,
    PolicyRegistry,
    RewardSignal,
    ActionResult,
    PolicyContext,
)
from typing import Any


@PolicyRegistry.register_reward("domain_specific")
class DomainSpecificRewardPolicy(RewardPolicy):
    """Reward policy for a specific domain (e.g., SQL generation)."""

    name = "domain_specific"
    description = "Rewards correct SQL query generation"

    @classmethod
    def get_default_config(cls) -> dict[str, Any]:
        return {
            "syntax_valid_bonus": 0.3,
            "correct_result_bonus": 0.6,
            "injection_penalty": 0.9,
            "performance_bonus": 0.1,
        }

    def calculate(
        self,
        action: dict[str, Any],
        result: ActionResult,
        context: PolicyContext,
    ) -> RewardSignal:
        config = {**self.get_default_config(), **self.config}
        components = {}
        total = 0.0

        code = action.get("code", "")

        # Check for SQL injection patterns
        if any(kw in code.lower() for kw in ["drop table", "delete from", "; --"]):
            components["injection"] = -config["injection_penalty"]
            total -= config["injection_penalty"]

        # Reward valid SQL syntax
        if result.success and not result.error:
            components["syntax_valid"] = config["syntax_valid_bonus"]
            total += config["syntax_valid_bonus"]

        # Reward correct results
        expected = context.variables.get("expected_result")
        if expected and result.output.strip() == str(expected).strip():
            components["correct_result"] = config["correct_result_bonus"]
            total += config["correct_result_bonus"]

        # Performance bonus for fast queries
        if result.duration_ms < 100:
            components["performance"] = config["performance_bonus"]
            total += config["performance_bonus"]

        return RewardSignal(
            value=max(-1.0, min(1.0, total)),
            components=components,
            explanation=f"SQL reward: {total:.2f} with {len(components)} components",
        )


# Use it
policy = PolicyRegistry.get_reward("domain_specific")
