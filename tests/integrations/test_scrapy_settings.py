"""The RLM_GYM_* settings: Scrapy's value conventions, and errors that name the setting."""

from __future__ import annotations

import pytest

from rlm_gym.integrations.scrapy_settings import SETTINGS, ExtensionOptions, read_options


def test_defaults_are_the_documented_ones():
    options = read_options({})
    assert options == ExtensionOptions()
    assert options.enabled is SETTINGS["RLM_GYM_ENABLED"][0] is False
    assert options.sample_size == SETTINGS["RLM_GYM_SAMPLE_SIZE"][0]


def test_command_line_strings_are_read_as_scrapy_reads_them():
    options = read_options(
        {
            "RLM_GYM_ENABLED": "True",
            "RLM_GYM_REQUIRED_FIELDS": "name, price",
            "RLM_GYM_PATTERN_TYPE": "job_listing",
            "RLM_GYM_MIN_TIER": "acceptable",
            "RLM_GYM_SAMPLE_SIZE": "500",
            "RLM_GYM_CONFIG": '{"efficiency_errors": "graded"}',
            "RLM_GYM_EXPLAIN": "0",
        }
    )
    assert options == ExtensionOptions(
        enabled=True,
        required_fields=("name", "price"),
        pattern_type="job_listing",
        min_tier="acceptable",
        sample_size=500,
        config={"efficiency_errors": "graded"},
        explain=False,
    )


def test_required_fields_take_a_list():
    assert read_options({"RLM_GYM_REQUIRED_FIELDS": ["title"]}).required_fields == ("title",)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("RLM_GYM_ENABLED", "on", "`RLM_GYM_ENABLED` must be a boolean (True/False, 1/0"),
        ("RLM_GYM_EXPLAIN", 2, "`RLM_GYM_EXPLAIN` must be a boolean"),
        ("RLM_GYM_REQUIRED_FIELDS", "name,,price", "non-empty field names"),
        ("RLM_GYM_REQUIRED_FIELDS", 3, "a list of field names or a comma-separated string"),
        ("RLM_GYM_PATTERN_TYPE", "job", "Unknown pattern type 'job' in setting"),
        ("RLM_GYM_MIN_TIER", "Good", "Did you mean 'good'? Available: 'excellent', 'good'"),
        ("RLM_GYM_SAMPLE_SIZE", "many", "`RLM_GYM_SAMPLE_SIZE` must be an integer >= 1"),
        ("RLM_GYM_SAMPLE_SIZE", 0, "got 0"),
        ("RLM_GYM_CONFIG", "{not json", "`RLM_GYM_CONFIG` must be a dict or a JSON object"),
        ("RLM_GYM_CONFIG", {"efficiency_errors": "some"}, "`RLM_GYM_CONFIG`: "),
        ("RLM_GYM_DOMAIN", 5, "`RLM_GYM_DOMAIN` must be a string"),
    ],
)
def test_a_bad_value_names_the_setting_and_what_it_accepts(name, value, message):
    with pytest.raises(ValueError) as error:
        read_options({name: value})
    assert message in str(error.value)
