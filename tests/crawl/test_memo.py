"""The scoring memo of ``score_crawl_result`` (kept by the ``crawl`` policy): same signals."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.crawl import CrawlRewardPolicy, crawl_reward
from rlm_gym.crawl.memo import MEMO_MAX_ITEMS, MEMO_MAX_KEY_BYTES, content_key, memo_for
from rlm_gym.crawl.reward import score_crawl_result
from rlm_gym.envs.scoring import Scorer
from rlm_gym.policies.types import ActionResult, PolicyContext
from rlm_gym.quality.corpora import read_crawls
from tests.corpora import corpus_or_skip


def _result(data, **extra):
    return {
        "success": True,
        "data": data,
        "extraction_schema": {"required": ["product_name", "price"]},
        **extra,
    }


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"price": 1}, {"price": 1.0}),
        ({"price": 1}, {"price": True}),
        ({"price": 0}, {"price": False}),
        ({"price": "1"}, {"price": 1}),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
        ({1: "x"}, {1.0: "x"}),
        ({1: "x"}, {True: "x"}),
        ({"tags": [1]}, {"tags": [1.0]}),
        ({"tags": [1]}, {"tags": (1,)}),
        ({"tags": [{"a": 1}]}, {"tags": [{"a": True}]}),
        ({"tags": {"a": [1]}}, {"tags": {"a": [1.0]}}),
    ],
)
def test_content_key_tells_alike_values_apart(first, second):
    # Equal under == (1, 1.0, True; key order) or with the same text: judged differently.
    assert content_key([first]) is not None and content_key([second]) is not None
    assert content_key([first]) != content_key([second])


def test_content_key_is_equal_for_equal_values_in_new_objects():
    make = lambda: [{"name": "Phở 24", "reviews": [{"author": "An", "stars": 4.5}]}]  # noqa: E731
    assert content_key(make()) == content_key(make())
    assert hash(content_key(make())) == hash(content_key(make()))


class _Text(str):
    pass


def _deeply_nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "data",
    [
        [{"price": _Text("9")}],  # a subclass may judge differently
        [{"tags": [_Text("a")]}],  # ... at any depth
        [{"obj": object()}],
        [{"deep": _deeply_nested(5000)}],  # too deep to pickle
        [{"x": 1}] * (MEMO_MAX_ITEMS + 1),
        [{"text": "x" * MEMO_MAX_KEY_BYTES}],
    ],
)
def test_content_key_refuses_what_it_cannot_tell_apart(data):
    assert content_key(data) is None


class _Items(list):
    pass


def test_content_key_of_no_items_is_still_their_pickle():
    # Empty lists and tuples get keys made once, in advance: the same bytes as pickling them.
    assert content_key([]) == pickle.dumps([], protocol=5)
    assert content_key(()) == pickle.dumps((), protocol=5)
    assert content_key([]) != content_key(())
    assert content_key(_Items()) is None


def test_reused_picklers_keep_no_trace_of_earlier_keys():
    shared = "Phở 24"  # pickled by reference the second time within one dump
    expected = pickle.dumps([{"name": shared}], protocol=5)
    assert content_key([{"name": shared}]) == expected
    assert content_key([{"name": shared}, object()]) is None  # refused half-way
    assert content_key([{"name": "x" * MEMO_MAX_KEY_BYTES}]) is None  # too long
    assert content_key([{"name": shared}]) == expected


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"price": -0.0}, {"price": 0.0}),  # == but judged apart (sign)
        ({"tags": [0.0]}, {"tags": [-0.0]}),
        ({("a", "b"): "x"}, {("a", "c"): "x"}),
        ({"deep": [[[["a"]]]]}, {"deep": [[[["b"]]]]}),
    ],
)
def test_content_key_keys_odd_but_built_in_values(first, second):
    assert content_key([first]) == content_key([copy.deepcopy(first)]) is not None
    assert content_key([first]) != content_key([second])


def test_memoised_scores_equal_crawl_reward_for_odd_built_in_values():
    memo: dict = {}
    odd = [
        [{"product_name": "Kettle", "price": -0.0}],
        [{"product_name": "Kettle", "price": 0.0}],
        [{"product_name": "Kettle", "price": [[[["9.99"]]]]}],
        ["not a dict", {"product_name": "Kettle", "price": "$5"}],
        [{("a", "b"): "x", "product_name": "Kettle", "price": "$5"}],
    ]
    for _ in range(2):
        for data in odd:
            result = _result(data)
            assert score_crawl_result(result, memo=memo) == crawl_reward(copy.deepcopy(result))


def _corpus() -> list[dict]:
    return read_crawls(corpus_or_skip("realdata"))


def test_memoised_scores_equal_crawl_reward_on_the_corpus_twice():
    memo: dict = {}
    for _ in range(2):  # the second pass is served from the memo
        for result in _corpus():
            assert score_crawl_result(result, memo=memo) == crawl_reward(result)
    assert memo


def test_memo_separates_results_that_differ_only_in_value_types():
    memo: dict = {}
    ints = _result([{"product_name": "Kettle", "price": 1}])
    bools = _result([{"product_name": "Kettle", "price": True}])
    for result in (ints, bools, ints, bools):
        assert score_crawl_result(result, memo=memo) == crawl_reward(result)
    assert len(memo) == 2


def test_memo_reuses_the_judgement_but_not_the_rest_of_the_result():
    memo: dict = {}
    data = [{"product_name": f"Kettle {n}", "price": "N/A" if n % 2 else "$5"} for n in range(8)]
    slow = _result(data, execution_time_ms=90_000.0, errors=["timeout"])
    fast = _result([dict(item) for item in data], execution_time_ms=1_000.0)
    first = score_crawl_result(slow, memo=memo)
    second = score_crawl_result(fast, memo=memo)
    assert len(memo) == 1
    assert second == crawl_reward(fast) and first == crawl_reward(slow)
    assert first.components["efficiency"] != second.components["efficiency"]


def test_changing_a_memoised_signal_details_does_not_change_later_scores():
    memo: dict = {}
    data = [{"product_name": "Kettle", "price": "N/A", "reviews": [{"text": "<b>ok</b>"}]}] * 6
    result = _result(data, extraction_schema={"required": ["product_name", "price", "reviews"]})
    expected = crawl_reward(copy.deepcopy(result))
    # Each call scores its own copy: the examples of a plain call are the input's own values.
    signal = score_crawl_result(copy.deepcopy(result), memo=memo)
    signal.details["defects"].append("changed")
    for entry in signal.details["fields"].values():
        entry["invalid"] = -1
        for example in entry["examples"]:
            if isinstance(example, list):
                example.append("changed")
        entry["examples"].append("changed")
    assert score_crawl_result(copy.deepcopy(result), memo=memo) == expected
    assert len(memo) == 1


def test_policy_scores_equal_crawl_reward_and_memo_follows_its_settings():
    policy = CrawlRewardPolicy()
    results = [_result([{"product_name": f"Kettle {n}", "price": "$5"}]) for n in range(3)]
    for crawl in results * 2:
        final = ActionResult("final", True, metadata={"crawl_result": crawl})
        signal = policy.calculate({"action": "final"}, final, PolicyContext())
        assert signal == crawl_reward(crawl)
    default_memo = policy._memo
    assert default_memo is memo_for(CrawlRewardPolicy().settings)
    assert all(
        (content_key(crawl["data"]), ("product_name", "price"), None) in default_memo
        for crawl in results
    )
    # New settings (another config): judgements made under the old ones are not reused.
    policy.settings = CrawlRewardPolicy({"weights": {"validation": 0.5}}).settings
    crawl = results[0]
    final = ActionResult("final", True, metadata={"crawl_result": crawl})
    signal = policy.calculate({"action": "final"}, final, PolicyContext())
    assert signal == crawl_reward(crawl, config={"weights": {"validation": 0.5}})
    assert policy._memo is not default_memo and policy._memo is memo_for(policy.settings)


def test_env_scorer_and_policy_share_the_memo_of_their_config():
    config = {"efficiency_errors": "graded"}
    assert Scorer(config)._memo is CrawlRewardPolicy(config)._memo
    assert Scorer(None)._memo is CrawlRewardPolicy()._memo is not Scorer(config)._memo


def test_unpickled_policy_scores_the_same():
    policy = CrawlRewardPolicy()
    crawl = _result([{"product_name": "Kettle", "price": "$5"}])
    final = ActionResult("final", True, metadata={"crawl_result": crawl})
    copy_of = pickle.loads(pickle.dumps(policy))
    assert copy_of.calculate({"action": "final"}, final, PolicyContext()) == crawl_reward(crawl)


_FIELDS = ["product_name", "price", "rating", "title", "published_date"]
_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "N/A", "$1,299.99", "4.5/5", "2024-03-12", "Giá tốt", "<b>x</b>"]),
    st.lists(st.integers(), max_size=2),
)
_ITEMS = st.one_of(
    st.dictionaries(st.sampled_from(_FIELDS), _VALUES, max_size=len(_FIELDS)),
    st.sampled_from(["<li>broken</li>", None, 3]),
)
# Mostly valid counts and times, now and then one the scorer refuses.
_NUMBERS = st.one_of(
    st.integers(0, 30),
    st.floats(0, 1e7),
    st.sampled_from([-1, True, "5", 10**400, float("nan"), -0.0]),
)
_SETTINGS = [
    CrawlRewardPolicy().settings,
    CrawlRewardPolicy({"efficiency_errors": "graded", "max_defects": 1}).settings,
]


@st.composite
def _varied_results(draw):
    result = {"success": draw(st.sampled_from([True, False, True, False, 1, "yes"]))}
    result["data"] = draw(st.one_of(st.lists(_ITEMS, max_size=8), st.sampled_from([[], (), None])))
    if draw(st.booleans()):
        result["navigation_result"] = {"pages_collected": draw(_NUMBERS)}
    if draw(st.booleans()):
        result["execution_time_ms"] = draw(_NUMBERS)
    if draw(st.booleans()):
        result["errors"] = draw(st.lists(st.just("HTTP 500"), max_size=2))
    if draw(st.booleans()):
        required = draw(st.lists(st.sampled_from(_FIELDS), max_size=3, unique=True))
        result["extraction_schema"] = {"required": required}
    if draw(st.booleans()):
        result["pattern_type"] = draw(st.sampled_from(["product_list", "article_extraction", ""]))
    return result


def _outcome(score):
    try:
        # repr tells apart what == cannot (-0.0, nan, 1 / 1.0 / True).
        return repr(score())
    except ValueError as error:
        return ValueError, str(error)


@settings(max_examples=150, deadline=None)
@given(
    _varied_results(),
    st.sampled_from(_SETTINGS),
    st.sampled_from([None, {"excellent": 0.5}]),
)
def test_memo_hits_score_exactly_as_scoring_without_a_memo(result, crawl_settings, thresholds):
    memo: dict = {}
    alone = _outcome(lambda: score_crawl_result(result, crawl_settings, thresholds=thresholds))
    for _ in range(3):  # a miss, then hits
        signal = _outcome(
            lambda: score_crawl_result(result, crawl_settings, thresholds=thresholds, memo=memo)
        )
        assert signal == alone
    if not isinstance(alone, tuple):
        # What a caller does to a hit's details does not reach the next hit.
        hit = score_crawl_result(result, crawl_settings, thresholds=thresholds, memo=memo)
        hit.details["defects"].append("changed")
        for entry in hit.details["fields"].values():
            entry["examples"].append("changed")
            entry["checked"] = -1
        again = score_crawl_result(result, crawl_settings, thresholds=thresholds, memo=memo)
        assert repr(again) == alone
