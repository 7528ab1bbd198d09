"""``LiveCrawl``: one crawl of one farm site, step by step, with real requests and extraction.

``CrawlLiveEnv`` holds one per episode. A step runs the action's requests (``Crawler`` for
plain HTTP, ``Browser`` for the headless fetcher, clicks and scrolls), reads the answers as a
crawler does (200, 403, 429, 5xx after retries, time-outs), extracts with ``extract``, and keeps
Crawl-v2's state tuple (``rlm_gym.envs.dynamics``) in step with what happened. Durations are site
time: measured wall time over ``time_scale`` for requests and waits, the simulator's costs for
the crawler's own work (extraction, URL building, an invalid action).

The crawl result (``result``) holds the rows the extractors returned; ``task`` measures them
against the farm's ground truth (``rlm_gym.live.sites.page_truth``).
"""

from __future__ import annotations

import json
import random
import time
import uuid
from typing import Any

from rlm_gym.crawl import crawl_reward
from rlm_gym.envs import dynamics as dyn
from rlm_gym.envs.items import UNIQUE_FIELD, entity
from rlm_gym.envs.profiles import SCHEMAS
from rlm_gym.envs.reports import END_TEXT, strategy_used
from rlm_gym.live.client import Browser, Crawler
from rlm_gym.live.extract import (
    extract,
    pagination_state,
    parse,
    probe_signals,
    same_row,
    text_ratio,
)
from rlm_gym.live.sites import DEFAULT_TIME_SCALE, make_site
from rlm_gym.policies.types import trusted_action_result

__all__ = ["LiveCrawl", "DEFAULT_TIME_SCALE"]

_COSTS = dyn.COSTS
_EXTRACT_MS = (int(_COSTS["css_ms"]), int(_COSTS["heuristic_ms"]))
_NAVIGATE_MS = int(_COSTS["navigate_ms"])
_KIND_OF = (0, 0, 1, 1, 1, 2, 2, 2, 3, 4)
_SHELL_TEXT = dyn.ERRORS[dyn.E_EMPTY_SHELL]


class LiveCrawl:
    """The crawl of site ``index`` on the farm at ``base_url``.

    Args:
        base_url: The farm's base URL.
        settings: The farm's settings (``/_farm``).
        index: The site's index.
        options: ``check_options``'s dict.
        max_steps: The step budget.
        scorer: The env's ``Scorer`` (its config scores the result; its ``error_cap`` bounds the
            state's error count, as in the simulator).
    """

    def __init__(
        self,
        base_url: str,
        settings: dict[str, Any],
        index: int,
        options: dict[str, Any],
        max_steps: int,
        scorer: Any,
    ) -> None:
        types = tuple(settings.get("pattern_types") or ()) or None
        self.site = make_site(int(settings["seed"]), index, types, settings.get("overrides"))
        self.profile = self.site.profile
        self.time_scale = float(settings["time_scale"])
        self.base_url = base_url
        self.site_url = f"{base_url}/s/{index}/"
        self.max_steps = max_steps
        self.scorer = scorer
        timeout_s = options["timeout_s"] or max(0.05, _COSTS["timeout_ms"] * self.time_scale / 1e3)
        self.replay_key = f"site{index}"
        nonce = uuid.uuid4().hex[:12]
        session = f"{self.replay_key}#{nonce}"
        self.crawler = Crawler(timeout_s, options["retries"], session, self.time_scale)
        self._probe_session = f"{self.replay_key}-probe#{nonce}"
        self.browser = Browser(self.crawler, self._sleep_site_ms)
        self.jitter = random.Random(f"rlm_gym.live:{self.replay_key}")
        self.state: tuple[int, ...] = dyn.initial_state()
        self.errors: list[str] = []
        self.used = [0] * len(dyn.ACTIONS)
        self.rows: list[dict[str, Any]] = []
        self._seen: set[str] = set()
        self._valid: set[int] = set()
        self.duplicates = 0
        self.pages = 0
        self.requests = 0
        self.page_number = 1
        self.page_url = self.site_url
        self._set_dom("")
        self.has_next = False
        self.text_ratio = 0.0
        self.count_403 = self.count_429 = 0
        self.invalid = self.blocked = False
        self.browser_live = False
        self.last_error_text: str | None = None
        self.step_result: Any = None
        self._truth: dict[str, tuple[int, dict[str, Any]]] | None = None

    # ------------------------------------------------------------------ helpers
    def _sleep_site_ms(self, site_ms: float) -> None:
        time.sleep(site_ms * self.time_scale / 1000.0)

    def _set_dom(self, dom: str) -> None:
        """The page the crawler holds now, parsed once for every read of it."""
        self.dom = dom
        self.page = parse(dom)

    def close(self) -> None:
        """Close the crawl's connections."""
        self.browser.close()
        self.crawler.close()

    def probe(self) -> dict[str, float]:
        """Probe the site as the scheduler does before a crawl (robots.txt, then the first page,
        from a separate client id); the probe's observation entries.

        Raises:
            ConnectionError: The farm does not answer (naming its URL).
        """
        prober = Crawler(
            self.crawler.timeout_s, self.crawler.retries, self._probe_session, self.time_scale
        )
        try:
            for url in (f"{self.site_url}robots.txt", self.site_url):
                page = prober.get(url)
                if page.status == 0 and (page.error or "").startswith("Connection"):
                    raise ConnectionError(
                        f"Cannot reach the site farm at {self.base_url} ({page.error}); start "
                        "one with `rlm-gym farm serve` or pass `farm_url=None`"
                    )
        finally:
            prober.close()
        signals = probe_signals(page.status, page.headers, page.text if page.status == 200 else "")
        signals["latency_ms"] = page.server_ms
        return signals

    # ------------------------------------------------------------------ steps
    def step(self, action: int) -> tuple:
        """Run ``action``; returns the step's event ``(kind, success, error_code, duration_ms,
        tokens, items)`` as the simulator's transitions do, and updates ``state``."""
        s = list(self.state)
        self.used[action] += 1
        self.invalid = self.blocked = False
        self.last_error_text = None
        if s[dyn.S_PHASE] not in dyn.VALID_PHASES[action]:
            self.invalid = True
            ms = int(_COSTS["invalid_ms"])
            phase = dyn.PHASES[s[dyn.S_PHASE]]
            event = self._fail(s, _KIND_OF[action], dyn.E_INVALID, ms)
            self.last_error_text = f"Invalid action '{dyn.ACTIONS[action]}' in phase '{phase}'"
        elif action <= dyn.FETCH_HEADLESS:
            event = self._fetch(s, action)
        elif action <= dyn.EXTRACT_LLM:
            event = self._extract(s, action - dyn.EXTRACT_CSS)
        elif action <= dyn.INFINITE_SCROLL:
            event = self._paginate(s, action)
        elif action == dyn.BACKOFF:
            self._sleep_site_ms(_COSTS["backoff_ms"])
            s[dyn.S_PRESSURE] = 0
            event = (3, True, dyn.E_NONE, int(_COSTS["backoff_ms"]), 0, 0)
        else:
            s[dyn.S_END], s[dyn.S_PHASE] = dyn.STOPPED, dyn.DONE
            event = (4, True, dyn.E_NONE, 0, 0, 0)
        self._advance(s, event)
        kind, success, _, duration, tokens, _ = event
        if self.last_error_text is not None:
            self.errors.append(self.last_error_text)
        if self.state[dyn.S_END] == dyn.OVER_BUDGET:
            self.errors.append(f"Job time budget of {self.profile.time_budget_ms} ms exceeded")
        output = self._output(action, event) if success else ""
        self.step_result = trusted_action_result(
            dyn.KINDS[kind], success, output, self.last_error_text, float(duration), tokens
        )
        self.browser_live = self.state[dyn.S_FETCHED] == dyn.BY_HEADLESS
        return event

    def _advance(self, s: list[int], event: tuple) -> None:
        s[dyn.S_TIME] += event[3]
        s[dyn.S_STEPS] += 1
        cap = self.scorer.error_cap
        if not event[1] and s[dyn.S_ERROR] < cap:
            s[dyn.S_ERROR] += 1
        if s[dyn.S_END] == dyn.RUNNING:
            if s[dyn.S_TIME] > self.profile.time_budget_ms:
                s[dyn.S_END], s[dyn.S_PHASE] = dyn.OVER_BUDGET, dyn.DONE
                if s[dyn.S_ERROR] < cap:
                    s[dyn.S_ERROR] += 1
            elif s[dyn.S_STEPS] >= self.max_steps:
                s[dyn.S_END], s[dyn.S_PHASE] = dyn.OUT_OF_STEPS, dyn.DONE
        self.state = tuple(s)

    def _fail(self, s: list[int], kind: int, code: int, ms: int) -> tuple:
        self.last_error_text = dyn.ERRORS[code]
        return (kind, False, code, ms, 0, 0)

    def _answer(self, s: list[int], kind: int, response: Any, duration: int) -> tuple | None:
        """A refused or failed response as the step's event (None for a 200)."""
        rate_limited = 1 if self.profile.protection == 1 else 0
        if response.status == 200:
            s[dyn.S_PRESSURE] = rate_limited
            return None
        if response.status in (403, 429):
            self.blocked = True
            if response.status == 429:
                self.count_429 = s[dyn.S_429] = s[dyn.S_429] + 1
                banned = s[dyn.S_429] >= _COSTS["rate_limits_to_ban"]
                code = dyn.E_429
            else:
                self.count_403 = s[dyn.S_BLOCKS] = s[dyn.S_BLOCKS] + 1
                s[dyn.S_PRESSURE] = rate_limited
                banned = s[dyn.S_BLOCKS] >= _COSTS["blocks_to_ban"]
                code = dyn.E_403
            if banned:
                s[dyn.S_END], s[dyn.S_PHASE] = dyn.BLOCKED, dyn.DONE
                code = dyn.E_BANNED
            return self._fail(s, kind, code, duration)
        s[dyn.S_PRESSURE] = rate_limited
        self.last_error_text = response.error or f"HTTP {response.status} for {response.url}"
        return (kind, False, dyn.E_TIMEOUT, duration, 0, 0)

    def _fetch(self, s: list[int], fetcher: int) -> tuple:
        before = self.browser.requests
        if fetcher == dyn.FETCH_HTTP:
            response = self.crawler.get(self.page_url)
            self.requests += response.attempts
            parse_ms = _COSTS["http_parse_ms"] if response.status == 200 else 0.0
        else:
            response = self.browser.open(self.page_url)
            self.requests += self.browser.requests - before
            parse_ms = 0.0
        duration = dyn.time_on_grid(response.server_ms + parse_ms)
        refused = self._answer(s, 0, response, duration)
        if refused is not None:
            return refused
        s[dyn.S_PHASE] = dyn.EXTRACT
        s[dyn.S_FETCHED] = dyn.BY_HTTP if fetcher == dyn.FETCH_HTTP else dyn.BY_HEADLESS
        if fetcher == dyn.FETCH_HTTP:  # the page is now the HTTP copy; a failed fetch keeps it
            self.browser.close()
        self._set_dom(response.text)
        self.text_ratio = text_ratio(self.page, len(self.dom))
        return (0, True, dyn.E_NONE, duration, 0, 0)

    def _extract(self, s: list[int], extractor: int) -> tuple:
        rows = extract(extractor, self.page, self.profile.pattern_type)
        tokens = 0
        if extractor == 2:
            duration = dyn.time_on_grid(
                _COSTS["llm_base_ms"] + _COSTS["llm_per_item_ms"] * len(rows)
            )
            tokens = int(
                _COSTS["llm_base_tokens"]
                + _COSTS["llm_tokens_per_page_item"] * self.profile.items_per_page
                + _COSTS["llm_tokens_per_item"] * len(rows)
            )
        else:
            duration = _EXTRACT_MS[extractor]
        if not rows:
            shell = "api/render" in self.dom and s[dyn.S_FETCHED] == dyn.BY_HTTP
            self.last_error_text = _SHELL_TEXT if shell else "Extraction returned 0 items"
            return (1, False, dyn.E_EMPTY_SHELL, duration, tokens, 0)
        new = self._add_rows(rows)
        slot = (dyn.S_CSS if new else dyn.S_DUP_CSS) + extractor
        s[slot] += 1
        self.pages += 1
        s[dyn.S_PHASE] = dyn.PAGINATE
        self.has_next = pagination_state(self.page)
        return (1, True, dyn.E_NONE, duration, tokens, len(rows))

    def _paginate(self, s: list[int], action: int) -> tuple:
        if not self.has_next:
            return self._fail(s, 2, dyn.E_LAST_PAGE, _NAVIGATE_MS)
        if action == dyn.URL_NAVIGATION:
            self.page_number += 1
            self.page_url = f"{self.site_url}?page={self.page_number}"
            replayable = self.profile.pagination == 1 or self.profile.url_replayable
            s[dyn.S_PHASE], s[dyn.S_FETCHED] = dyn.FETCH, dyn.NOT_FETCHED
            s[dyn.S_RESERVED] = 0 if replayable else 1
            self.browser.close()
            return (2, True, dyn.E_NONE, _NAVIGATE_MS, 0, 0)
        if s[dyn.S_FETCHED] != dyn.BY_HEADLESS:
            return self._fail(s, 2, dyn.E_NO_BROWSER, _NAVIGATE_MS)
        controls = self.browser.controls(self.page)
        jitter = dyn.JITTER[0 if self.jitter.random() < dyn.JITTER[0][0] else 1][1]
        if action == dyn.JAVASCRIPT_CLICK:
            if controls["click"] is None:
                return self._fail(s, 2, dyn.E_NO_CLICKABLE, _NAVIGATE_MS)
            if controls["kind"] == "link" and controls["overlay"]:
                return self._fail(s, 2, dyn.E_CLICK_INTERCEPTED, _NAVIGATE_MS)
            source, wait = controls["click"], _COSTS["click_wait_ms"] * jitter
        else:
            if controls["scroll"] is None:
                return self._fail(s, 2, dyn.E_NO_SCROLL, dyn.time_on_grid(_COSTS["scroll_wait_ms"]))
            source, wait = controls["scroll"], _COSTS["scroll_wait_ms"] * jitter
        before = self.browser.requests
        response = self.browser.load(source, wait)
        self.requests += self.browser.requests - before
        duration = dyn.time_on_grid(response.server_ms)
        refused = self._answer(s, 2, response, duration)
        if refused is not None:
            return refused
        self.page_number += 1
        self.page_url = f"{self.site_url}?page={self.page_number}"
        self._set_dom(self.browser.dom)
        s[dyn.S_PHASE], s[dyn.S_RESERVED] = dyn.EXTRACT, 0
        return (2, True, dyn.E_NONE, duration, 0, 0)

    def _output(self, action: int, event: tuple) -> str:
        kind, _, _, duration, _, items = event
        if kind == 0:
            return f"200 OK: {self.page_url} in {duration} ms (site time)"
        if kind == 1:
            return f"extracted {items} items with {dyn.ACTIONS[action][8:]}"
        if kind == 2:
            return f"moved to page {self.page_number}"
        return f"waited {duration} ms"

    # ------------------------------------------------------------------ rows and truth
    def _truth_index(self) -> dict[str, tuple[int, dict[str, Any]]]:
        if self._truth is None:
            profile = self.profile
            unique = UNIQUE_FIELD[profile.pattern_type]
            count = profile.total_pages * profile.items_per_page
            self._truth = {}
            for serial in range(count):
                item = entity(profile.pattern_type, serial)
                self._truth[str(item[unique])] = (serial, item)
        return self._truth

    def _add_rows(self, rows: list[dict[str, Any]]) -> bool:
        """Record extracted rows; True when any of them is new (not an exact repeat)."""
        truth = self._truth_index()
        unique = UNIQUE_FIELD[self.profile.pattern_type]
        new = False
        for row in rows:
            key = json.dumps(row, sort_keys=True, default=str)
            self.rows.append(row)
            if key in self._seen:
                self.duplicates += 1
                continue
            self._seen.add(key)
            new = True
            found = truth.get(str(row.get(unique, "")).strip())
            if found is not None and same_row(row, found[1]):
                self._valid.add(found[0])
        return new

    def item_counts(self) -> tuple[int, int, int]:
        """``(distinct rows, distinct valid rows, duplicate rows)`` so far."""
        return len(self._seen), len(self._valid), self.duplicates

    def result(self, success: bool | None = None) -> tuple[dict[str, Any], float]:
        """The crawl result now (the real rows) and its ``crawl_reward`` value.

        ``success`` defaults to what the crawler records (Crawl-v2): not banned or out of
        time, and at least the job's target of rows, valid or not.
        """
        end = self.state[dyn.S_END]
        if success is None:
            success = end not in (dyn.BLOCKED, dyn.OVER_BUDGET) and (
                len(self.rows) >= self.profile.target_items
            )
        result = {
            "success": success,
            "data": [dict(row) for row in self.rows],
            "navigation_result": {
                "pages_collected": self.pages,
                "strategy_used": strategy_used(self.used),
            },
            "execution_time_ms": float(self.state[dyn.S_TIME]),
            "errors": list(self.errors),
            "extraction_schema": {"required": list(SCHEMAS[self.profile.pattern_type])},
            "pattern_type": self.profile.pattern_type,
            "domain": self.profile.domain,
        }
        return result, crawl_reward(result, config=self.scorer.config).value

    def task(self) -> dict[str, Any]:
        """The task outcome against the farm's ground truth (as ``reports.task_outcome``)."""
        end = self.state[dyn.S_END]
        valid = len(self._valid)
        return {
            "job_done": end not in (dyn.BLOCKED, dyn.OVER_BUDGET)
            and valid >= self.profile.target_items,
            "valid_items": valid,
            "items": len(self.rows),
            "pages": self.pages,
            "requests": self.requests,
            "time_ms": float(self.state[dyn.S_TIME]),
            "banned": end == dyn.BLOCKED,
        }

    def final_info(
        self, name: str, code: str, event: tuple, error: str | None
    ) -> tuple[float, dict[str, Any]]:
        """The last step's reward and ``info`` (as ``reports.final_step``, with the real rows)."""
        kind, success, _, duration, tokens, _ = event
        result, score = self.result()
        task = self.task()
        true_score = score
        if task["job_done"] != result["success"]:
            true_score = self.result(task["job_done"])[1]
        end = END_TEXT[self.state[dyn.S_END]]
        output = (
            f"crawl {end}: {len(result['data'])} items from {self.pages} pages, "
            f"{'success' if result['success'] else 'no success'}"
        )
        metadata = {
            "crawl_result": result,
            "end_reason": end,
            "step_action_type": dyn.KINDS[kind],
            "step_success": success,
        }
        action_result = trusted_action_result(
            "final", result["success"], output, error, float(duration), tokens, metadata
        )
        info = {
            "action": {"action": "final", "name": name, "code": code},
            "action_result": action_result,
            "task": task,
            "true_crawl_score": true_score,
            "crawl_result": result,
        }
        return score, info

    def status_line(self, name: str, success: bool, error: str | None) -> str:
        """The ``"ansi"`` render: one line on the last step."""
        verdict = "ok" if success else f"FAILED ({error})" if error else "FAILED"
        state = self.state
        return (
            f"step {state[dyn.S_STEPS]:2d} | {name:17s} | {verdict} | "
            f"phase {dyn.PHASES[state[dyn.S_PHASE]]} | pages {self.pages} | "
            f"valid items {len(self._valid)}/{self.profile.target_items} | "
            f"t={state[dyn.S_TIME] / 1000:.1f}s"
        )
