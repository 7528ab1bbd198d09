"""``rlm-gym score`` on big and odd crawl logs: bounded memory, lines split on "\\n" only.

The memory test writes a ~100 MB crawl log (crawl results carrying their page HTML, as crawl
logs do) and scores it in a child process that reports its peak RSS (``VmHWM``): reading the
whole file, or keeping every row, would need well over the 150 MB allowed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from rlm_gym.cli import main

LOG_BYTES = 100 * 1024 * 1024
PEAK_LIMIT_MB = 150


def _crawl(index: int, html_bytes: int = 0) -> dict:
    items = [
        {"product_name": f"Áo sơ mi {index}-{k}", "price": f"{100 + k}.000 ₫", "rating": "4.5"}
        for k in range(5)
    ]
    result = {
        "domain": f"shop{index % 7}.vn",
        "success": True,
        "data": items,
        "navigation_result": {"pages_collected": 2, "strategy_used": "url_navigation"},
        "execution_time_ms": 4000.0,
        "errors": [],
        "extraction_schema": {"required": ["product_name", "price", "rating"]},
    }
    if html_bytes:
        result["html"] = "<div class='product'>" + "x" * html_bytes + "</div>"
    return result


def _write_log(path, target_bytes: int) -> int:
    lines = 0
    with open(path, "w", encoding="utf-8") as handle:
        while handle.tell() < target_bytes:
            handle.write(json.dumps(_crawl(lines, html_bytes=50_000), ensure_ascii=False) + "\n")
            lines += 1
    return lines


_CHILD = textwrap.dedent(
    """
    import contextlib, json, os, sys
    from rlm_gym.cli import main

    def peak_kb():
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])

    before = peak_kb()
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        code = main(["score", sys.argv[1], "--format", sys.argv[2]])
    print(json.dumps({"code": code, "before_kb": before, "peak_kb": peak_kb()}))
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
@pytest.mark.parametrize("output", ["csv", "table"])
def test_a_100_mb_log_scores_under_150_mb_peak_rss(tmp_path, output):
    path = tmp_path / "crawls.jsonl"
    lines = _write_log(path, LOG_BYTES)
    script = tmp_path / "child.py"
    script.write_text(_CHILD, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), str(path), output],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] == 0, done.stderr
    peak_mb = report["peak_kb"] / 1024
    print(f"{lines} lines, {path.stat().st_size / 2**20:.0f} MB: peak RSS {peak_mb:.0f} MB")
    assert peak_mb < PEAK_LIMIT_MB, f"peak RSS {peak_mb:.0f} MB for a 100 MB log"
    # and the memory used while scoring is about one line's worth, not the file's
    assert (report["peak_kb"] - report["before_kb"]) / 1024 < 40


def _line(result: dict) -> str:
    return json.dumps(result, ensure_ascii=False)


def test_line_separators_inside_json_strings_do_not_split_lines(tmp_path, capsys):
    odd = _crawl(2)
    odd["data"][0]["product_name"] = "Line\u2028separator, paragraph\u2029separator, NEL\x85 too"
    spaced = _line(_crawl(3)).replace(', "data"', ',\r "data"')  # a CR between JSON tokens
    text = "\n".join([_line(_crawl(1)), _line(odd), spaced, "{broken", _line(_crawl(5))]) + "\n"
    path = tmp_path / "odd.jsonl"
    path.write_text(text, encoding="utf-8", newline="")
    assert len(text.splitlines()) > 5  # what str.splitlines would have numbered wrongly
    assert main(["score", str(path), "--format", "json", "--skip-invalid"]) == 0
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert [row["line"] for row in document["results"]] == [1, 2, 3, 5]
    assert document["invalid"] == [
        {
            "line": 4,
            "error": "invalid JSON: Expecting property name enclosed in double quotes (column 2)",
        }
    ]
    assert f"{path}:4: invalid JSON" in captured.err


def test_crlf_lines_a_bom_and_a_non_utf8_line_keep_their_numbers(tmp_path, capsys):
    good = _line(_crawl(1)).encode()
    data = (
        b"\xef\xbb\xbf"
        + good
        + b"\r\n"
        + good
        + b"\r\n"
        + b'{"success": true, "data": ["caf\xe9"]}\r\n'
        + good
    )
    path = tmp_path / "windows.jsonl"
    path.write_bytes(data)
    assert main(["score", str(path), "--format", "json", "--skip-invalid"]) == 0
    captured = capsys.readouterr()
    assert [row["line"] for row in json.loads(captured.out)["results"]] == [1, 2, 4]
    assert f"{path}:3: not UTF-8: byte 0xe9 at column 32" in captured.err


def test_without_skip_invalid_a_late_bad_line_leaves_stdout_empty(tmp_path, capsys):
    path = tmp_path / "late.jsonl"
    lines = [_line(_crawl(index)) for index in range(300)] + ["[1]"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["score", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{path}:301: expected a JSON object" in captured.err
