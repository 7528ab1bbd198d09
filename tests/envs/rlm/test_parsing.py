"""Reading responses: repl blocks, FINAL / FINAL_VAR at a line start, balanced parentheses."""

from __future__ import annotations

from rlm_gym.envs.rlm.parsing import parse_response


def test_every_repl_block_in_order():
    text = "a\n```repl\nx = 1\n```\nb\n```python\ny = 2\n```"
    assert parse_response(text) == (["x = 1", "y = 2"], None)


def test_final_keeps_balanced_parentheses():
    assert parse_response("FINAL(f(x) and (y))")[1] == ("answer", "f(x) and (y)")


def test_final_var_reads_the_name():
    assert parse_response("  FINAL_VAR('result')")[1] == ("var", "result")


def test_final_counts_only_at_the_start_of_a_line():
    assert parse_response("I will call FINAL(3) later")[1] is None


def test_final_inside_a_code_block_is_code_not_text():
    blocks, final = parse_response("```repl\nFINAL(1)\n```")
    assert blocks == ["FINAL(1)"] and final is None


def test_unclosed_final_is_no_final():
    assert parse_response("FINAL(oops")[1] is None
