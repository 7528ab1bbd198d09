"""A custom reward policy written for rlm-code, running unchanged in rlm_gym.

Only the import line differs from the rlm-code version (``from rlm_code.rlm.policies import
...`` there). The rest is written the way rlm-code users write policies: a ``RewardPolicy``
subclass with ``name`` / ``description`` class attributes and no declared defaults, settings read
with ``self.config.get(key, default)``, ``validate_config(self) -> list[str]``, registration with
the decorator, a hot swap by registering another class under the same name, and
``context.history`` entries read as dicts (``{"action", "result", "reward"}``).

Run: ``.venv/bin/python examples/rlm_code_policy.py``
"""

from typing import Any

# The one changed line. rlm-code: from rlm_code.rlm.policies import (...)
from rlm_gym.policies import ActionResult, PolicyContext, PolicyRegistry, RewardPolicy, RewardSignal


@PolicyRegistry.register_reward("streak")
class StreakRewardPolicy(RewardPolicy):
    """Reward successes more the longer the success streak; punish repeating a failed action."""

    name = "streak"
    description = "Success bonus growing with the streak; repeating a failed action costs extra"

    def validate_config(self) -> list[str]:
        errors = []
        if self.config.get("success_bonus", 0.5) < 0:
            errors.append("success_bonus must be >= 0")
        if not 0.0 <= self.config.get("streak_step", 0.1) <= 1.0:
            errors.append("streak_step must be in [0, 1]")
        if self.config.get("window", 10) < 1:
            errors.append("window must be >= 1")
        return errors

    def calculate(
        self,
        action: dict[str, Any],
        result: ActionResult,
        context: PolicyContext,
    ) -> RewardSignal:
        success_bonus = self.config.get("success_bonus", 0.5)
        streak_step = self.config.get("streak_step", 0.1)
        repeat_penalty = self.config.get("repeat_penalty", 0.2)
        window = self.config.get("window", 10)
        components = {}
        total = 0.0

        if result.success:
            # Count the successes just before this one, within the window
            streak = 0
            for entry in reversed(context.history[-window:]):
                if not entry["result"].success:
                    break
                streak += 1
            components["success"] = success_bonus
            components["streak"] = min(streak * streak_step, 0.5)
        else:
            components["failure"] = -success_bonus / 2
            # Trying the same failing code again is worse than trying something new
            if context.history:
                last = context.history[-1]
                if not last["result"].success and last["action"].get("code") == action.get("code"):
                    components["repeat"] = -repeat_penalty

        total = sum(components.values())
        return RewardSignal(
            value=max(-1.0, min(1.0, total)),
            components=components,
            explanation=f"Streak reward: {total:.2f} with {len(components)} components",
        )


class GentleStreakRewardPolicy(StreakRewardPolicy):
    """The same policy with failures at a quarter of the bonus: swapped in at run time."""

    name = "streak"
    description = "Streak reward with gentle failure penalties"

    def calculate(self, action, result, context):
        signal = super().calculate(action, result, context)
        if "failure" in signal.components:
            signal.components["failure"] /= 2
            signal.value = max(-1.0, min(1.0, sum(signal.components.values())))
        return signal


def hot_swap() -> None:
    """Replace the registered ``streak`` policy, as rlm-code does, by registering over it."""
    PolicyRegistry.register_reward("streak")(GentleStreakRewardPolicy)


def main() -> None:
    print([p["name"] for p in PolicyRegistry.list_reward_policies()])

    policy = PolicyRegistry.get_reward("streak", config={"success_bonus": 0.6})
    context = PolicyContext(task="compute the answer")
    for success in (True, True, False, False, True):
        action = {"action": "code", "code": "print(42)" if success else "1/0"}
        result = ActionResult("code", success=success, output="42" if success else None)
        signal = policy.calculate(action, result, context)
        context.history.append({"action": action, "result": result, "reward": signal.value})
        context.step += 1
        print(f"step {context.step}: {signal.value:+.2f} {signal.components}")

    try:
        PolicyRegistry.get_reward("streak", config={"streak_step": 2.0})
    except ValueError as error:
        print(f"invalid config: {error}")

    hot_swap()
    print(type(PolicyRegistry.get_reward("streak")).__name__)


if __name__ == "__main__":
    main()
