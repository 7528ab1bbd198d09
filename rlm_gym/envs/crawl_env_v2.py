"""``CrawlEnvV2``: ``rlm_gym/Crawl-v2``, the crawl job scored on the crawler's own success.

Crawl-v1's crawl result reports the ground truth as ``success``: the job's target of *distinct,
valid* rows was met. A real crawler cannot know that: it records that the job ran to its end
without a ban or a time-out and that it extracted at least the target number of rows, valid or
not. Crawl-v2 reports that recorded success, so only the crawl reward's own value checks
(``has_data``, ``validation``, ``quantity``, ``defects``) tell good rows from bad ones - the
situation the reward is built for. Everything else - sites, dynamics, observations, episode
lengths, seeds - is Crawl-v1's. The task outcome (``info["task"]``) and the true crawl score
(``info["true_crawl_score"]``, the crawl reward of the ground-truth result) are the same
measures on both versions, so agents trained on either compare directly.

Example:
    >>> env = CrawlEnvV2(pattern_types=["product_list"])
    >>> _ = env.reset(seed=7)
    >>> *_, info = env.step(env.ACTIONS.index("stop"))
    >>> info["task"]["job_done"], info["action_result"].metadata["crawl_result"]["success"]
    (False, False)
"""

from __future__ import annotations

from rlm_gym.envs.crawl_env import CrawlEnv

__all__ = ["CrawlEnvV2"]


class CrawlEnvV2(CrawlEnv):
    """``CrawlEnv`` whose crawl result reports the crawler's recorded success (Crawl-v2).

    Takes ``CrawlEnv``'s arguments. The reward is ``crawl_reward`` of a result whose
    ``success`` is True when the job ended without a ban or time-out and delivered at least
    the job's target of rows, valid or not.

    Example:
        >>> import gymnasium as gym
        >>> import rlm_gym.envs
        >>> gym.make("rlm_gym/Crawl-v2").unwrapped.recorded_success
        True
    """

    recorded_success = True
