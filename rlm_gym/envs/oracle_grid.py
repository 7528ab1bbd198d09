"""The oracle's expectimax values of one strategy, for every time of the budget at once.

``baselines.Oracle`` values a state under a fixed (fetcher, extractor, paginator) strategy by
expectimax over ``transitions``. A state's time enters that value only through the time budget
(an outcome past it ends the crawl) and the efficiency component of the final score; the
outcomes of an action are the same at every time. So the solver groups states into *nodes* (a
state with its time set to 0) and values each node on the 100 ms time grid of the dynamics at
once, with numpy: one array operation per outcome instead of one Python call per state. A
node's array starts at the earliest time the search reaches it (a forward pass over the nodes,
layer by layer: every move adds a step), so unreachable times cost little.

That matters because the oracle re-plans all 18 strategies at every step: from the state the
played action reached, the other strategies pass through states at times their own play never
reaches. State by state those were searched anew at every step; as nodes they mostly are
valued already, at every time.

The values are bit for bit the scalar search's (``Oracle`` keeps it for states off the grid):
every array element is computed with the same floating-point operations in the same order
(``sum(p * v)`` left to right, ``max`` over the candidates, -1 for a certain failure that
leaves the phase unchanged, the final score as ``Scorer.score`` adds its parts).
``tests/envs/test_oracle_grid.py`` compares both on every strategy of many states;
``tests/envs/test_oracle_records.py`` pins the oracle's episodes.

Example:
    >>> from rlm_gym.envs.crawl_env import CrawlEnv
    >>> env = CrawlEnv(pattern_types=["contact_info"])
    >>> _ = env.reset(seed=3)
    >>> site = GridSite(env.model, {})
    >>> solver = site.solver((0, 2, 5))  # fetch_http, extract_css, url_navigation
    >>> 0.0 <= solver.value(env.state) <= 1.0
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rlm_gym.envs import dynamics as dyn
from rlm_gym.envs.scoring import (
    Scorer,
    item_blocks,
    pages_collected,
    reported_success,
    score_fields,
)
from rlm_gym.envs.transitions import outcome_moves

__all__ = ["GRID_MS", "GridSite", "StrategySolver", "OffGrid"]

#: The time grid of the dynamics: every duration is a multiple of it.
GRID_MS = 100

# Grid steps past the budget a node's array covers at first (a longer move grows it).
_TAIL = 64
# The same for the end values (few, shared by the strategies): past a 30 s timeout.
_END_TAIL = 320
# Kinds of edge: to a node that may still run, or to a state the move itself ended.
_RUNNING, _ENDED = 0, 1


class OffGrid(Exception):
    """The state or a move's duration is not on the 100 ms grid (the scalar search takes it)."""


class GridSite:
    """The solvers of one site: a ``StrategySolver`` per strategy, and what they share: the
    outcomes of an action in a node and the final scores of ended states.

    Args:
        model: The site.
        efficiency: A dict the site may fill with efficiency components by ``(scorer, pages,
            errors)`` (shared across sites: they do not depend on the site).

    Raises:
        OffGrid: The site's scorer is not a ``Scorer`` (the scalar search takes the site).

    Example:
        >>> from rlm_gym.envs.crawl_env import CrawlEnv
        >>> env = CrawlEnv(pattern_types=["product_list"], time_budget_ms=45_000)
        >>> _ = env.reset(seed=0)
        >>> site = GridSite(env.model, {})
        >>> site.top, site.fits(env.state)  # 450 ticks of 100 ms
        (450, True)
    """

    def __init__(self, model: dyn.SiteModel, efficiency: dict) -> None:
        if not isinstance(model.scorer, Scorer):
            raise OffGrid("the site's scorer is not a `Scorer`")
        self.model = model
        self.top = model.profile.time_budget_ms // GRID_MS
        self.max_steps = model.max_steps
        self._efficiency = efficiency
        self.ends: dict[tuple[int, ...], np.ndarray] = {}
        self._edges: dict[tuple[tuple[int, ...], int], tuple[bool, list]] = {}
        self._solvers: dict[tuple[int, int, int], StrategySolver] = {}

    def solver(self, plan: tuple[int, int, int]) -> StrategySolver:
        """The solver of the strategy with these (fetcher, extractor, paginator) actions."""
        solver = self._solvers.get(plan)
        if solver is None:
            solver = self._solvers[plan] = StrategySolver(self, plan)
        return solver

    def fits(self, state: tuple[int, ...]) -> bool:
        """Whether ``state`` is a running state on the grid, within the time and step budgets."""
        time_ms = state[dyn.S_TIME]
        return (
            state[dyn.S_PHASE] != dyn.DONE
            and state[dyn.S_END] == dyn.RUNNING
            and time_ms >= 0
            and time_ms % GRID_MS == 0
            and time_ms // GRID_MS <= self.top
            and state[dyn.S_STEPS] < self.max_steps
        )

    def ended(self, key: tuple[int, ...], length: int) -> np.ndarray:
        """The final score of the ended state ``key`` (time 0) at times ``0 .. length - 1`` of
        the grid (at least): ``state_score``'s value, element by element."""
        found = self.ends.get(key)
        if found is not None and len(found) >= length:
            return found
        grown = 2 * len(found) - self.top if found is not None else 0
        length = max(length, self.top + 1 + _END_TAIL, grown)
        model = self.model
        scorer = model.scorer
        blocks = item_blocks(model, key)
        head, tail = scorer.content(
            model.profile.pattern_type, blocks, reported_success(model, key, blocks)
        )
        errors = min(key[dyn.S_ERROR], scorer.error_cap)
        # ``Scorer.score``'s sum, in its order, on every time at once.
        total = head + self._efficiency_array(scorer, pages_collected(key), errors, length)
        for component in tail:
            total += component
        values = np.where(total < 0.0, 0.0, np.where(total > 1.0, 1.0, total))
        self.ends[key] = values
        return values

    def edges(self, node: tuple[int, ...], action: int) -> tuple[bool, list]:
        """``(pure, edges)`` of ``action`` in ``node``: an edge ``(p, ticks, kind, child)`` per
        outcome, the child the running node it leads to (steps and errors counted) or the key
        of the state the move ended; ``pure`` when the action is a certain failure that leaves
        the phase unchanged within the budgets (the search values it -1 there)."""
        found = self._edges.get((node, action))
        if found is not None:
            return found
        moves = outcome_moves(self.model, node, action)
        steps = node[dyn.S_STEPS] + 1
        errors = node[dyn.S_ERROR]
        counted = errors + 1 if errors < self.model.error_cap else errors
        edges = []
        last_changes, last_error, made = None, None, None
        for p, changes, duration, error, _ in moves:
            if duration < 0 or duration % GRID_MS:
                raise OffGrid(f"a move of {duration} ms")
            # Outcomes that differ only in duration share their changes (server jitter).
            if changes is not last_changes or error != last_error:
                last_changes, last_error = changes, error
                values = list(node)
                for index, value in changes.items():
                    values[index] = value
                values[dyn.S_STEPS] = steps
                if error:
                    values[dyn.S_ERROR] = counted
                if values[dyn.S_END] == dyn.RUNNING:
                    made = (_RUNNING, tuple(values))
                else:
                    made = (_ENDED, _ended_key(values))
            edges.append((p, duration // GRID_MS, made[0], made[1]))
        child = edges[0][3]
        pure = (
            len(moves) == 1
            and not moves[0][4][1]
            and edges[0][2] == _RUNNING
            and child[dyn.S_PHASE] == node[dyn.S_PHASE]
            and steps < self.max_steps
        )
        found = self._edges[(node, action)] = (pure, edges)
        return found

    def _efficiency_array(self, scorer: Scorer, pages: int, errors: int, length: int) -> np.ndarray:
        key = (scorer, pages, errors)
        found = self._efficiency.get(key)
        if found is None or len(found) < length:
            start = 0 if found is None else len(found)
            more = [scorer.efficiency(pages, u * GRID_MS, errors) for u in range(start, length)]
            found = np.array(more) if found is None else np.concatenate([found, more])
            self._efficiency[key] = found
        return found[:length]


class StrategySolver:
    """Expectimax values of one strategy on one site, node by node, on the whole time grid.

    A node's array ``W`` holds, at ``u <= top`` (``top`` = budget // 100 ms), the value of the
    running node's state at time ``u`` (valid from the lowest time it was asked for), and past
    ``top`` the final score of the state the budget ends there: what a move into the node
    leads to at time ``u``. A node at the step budget holds the end values at every time.

    Example:
        >>> from rlm_gym.envs.crawl_env import CrawlEnv
        >>> env = CrawlEnv(pattern_types=["contact_info"])
        >>> _ = env.reset(seed=1)
        >>> solver = GridSite(env.model, {}).solver((0, 2, 5))
        >>> [action for action, _ in solver.q_values(env.state)]  # fetch_http, stop
        [0, 9]
    """

    def __init__(self, site: GridSite, plan: tuple[int, int, int]) -> None:
        self.site = site
        self.plan = plan
        self.top = site.top
        self._compiled: dict[tuple[int, ...], list] = {}
        # Per node: the lowest time its running values are valid from, and its array.
        self._low: dict[tuple[int, ...], int] = {}
        self._arrays: dict[tuple[int, ...], np.ndarray] = {}
        self._over: dict[tuple[int, ...], tuple[int, ...]] = {}

    def value(self, state: tuple[int, ...]) -> float:
        """The expected final score of the strategy's optimal play from running ``state``."""
        node, time = _node(state), state[dyn.S_TIME] // GRID_MS
        self._solve(node, time)
        return float(self._arrays[node][time])

    def q_values(self, state: tuple[int, ...]) -> list[tuple[int, float]]:
        """``(action, value)`` of every candidate action in running ``state``, in order; -1 for a
        certain failure that leaves the phase unchanged (as the scalar search)."""
        node, time = _node(state), state[dyn.S_TIME] // GRID_MS
        self._solve(node, time)
        return [
            (action, float(self._q(pure, edges, time, 1)[0]))
            for action, pure, edges in self._compile(node)
        ]

    # ------------------------------------------------------------------ search
    def _solve(self, root: tuple[int, ...], time: int) -> None:
        """Value every node reachable from ``root`` at ``time`` on the times it can be reached."""
        top, max_steps = self.top, self.site.max_steps
        lows = self._low
        compile_ = self._compile
        layers = []
        layer = {root: time}
        # Every move adds a step, so the nodes fall into layers by step count: a node's parents
        # are all in the layer before it, and its earliest time is final when its layer starts.
        while layer:
            todo = {}
            following: dict[tuple[int, ...], int] = {}
            for node, low in layer.items():
                if lows.get(node, top + 1) <= low:
                    continue
                todo[node] = low
                for _, pure, edges in compile_(node):
                    if pure:
                        continue
                    for _, ticks, kind, child in edges:
                        reached = low + ticks
                        if (
                            kind == _RUNNING
                            and reached <= top
                            and child[dyn.S_STEPS] < max_steps
                            and following.get(child, top + 1) > reached
                        ):
                            following[child] = reached
            layers.append(todo)
            layer = following
        for todo in reversed(layers):
            for node, low in todo.items():
                self._value_node(node, low)

    def _value_node(self, node: tuple[int, ...], low: int) -> None:
        top = self.top
        values = self._arrays.get(node)
        if values is None:
            values = self._extended(node, top + 1)
        best = values[low : top + 1]
        count = top - low + 1
        first = True
        for _, pure, edges in self._compiled[node]:
            if pure:
                # -1 within the budget, which no value (all >= -1) is below: only the times
                # past it change the maximum.
                p, ticks, _, child = edges[0]
                start = max(0, top - ticks - low + 1)
                if first:
                    best[:start] = -1.0
                if start < count:
                    need = low + ticks + count
                    ended = self.site.ended(self._over_key(child), need)
                    tail = p * ended[low + ticks + start : need]
                    if first:
                        best[start:] = tail
                    else:
                        np.maximum(best[start:], tail, out=best[start:])
            elif first:
                best[:] = self._q(pure, edges, low, count)
            else:
                np.maximum(best, self._q(pure, edges, low, count), out=best)
            first = False
        self._low[node] = low

    def _q(self, pure: bool, edges: list, low: int, count: int) -> np.ndarray:
        """The candidate's values at times ``low .. low + count - 1``: ``sum(p * value)`` over
        its outcomes, -1 where it is a certain failure leaving the phase unchanged."""
        top = self.top
        if pure:
            p, ticks, _, child = edges[0]
            q = np.full(count, -1.0)
            # In budget (time + ticks <= top) the failure is pure; past it, the budget ends it.
            start = max(0, top - ticks - low + 1)
            if start < count:
                need = low + ticks + count
                ended = self.site.ended(self._over_key(child), need)
                q[start:] = p * ended[low + ticks + start : need]
            return q
        arrays = self._arrays
        ends = self.site.ends
        total = None
        for p, ticks, kind, child in edges:
            first = low + ticks
            need = first + count
            if kind == _ENDED:
                values = ends.get(child)
                if values is None or len(values) < need:
                    values = self.site.ended(child, need)
            elif first > top:
                # Only past the budget: the state the budget ends.
                values = self.site.ended(self._over_key(child), need)
            else:
                values = arrays.get(child)
                if values is None or len(values) < need:
                    values = self._extended(child, need)
            if total is None:
                # ``1.0 * v`` is ``v``: a single certain outcome is read, not copied (the
                # caller copies it into the node's array before changing anything).
                total = values[first:need] if p == 1.0 else p * values[first:need]
            else:
                total = total + p * values[first:need]
        return total

    def _over_key(self, node: tuple[int, ...]) -> tuple[int, ...]:
        """The key of the ended state a move into running ``node`` leads to past the budget."""
        key = self._over.get(node)
        if key is None:
            key = self._over[node] = _ended_key(_over_budget(node, self.site.model.error_cap))
        return key

    def _extended(self, node: tuple[int, ...], length: int) -> np.ndarray:
        """``node``'s array, at least ``length`` long (past the budget: the end values)."""
        found = self._arrays.get(node)
        if found is not None and len(found) >= length:
            return found
        top = self.top
        site = self.site
        length = max(length, top + 1 + _TAIL, 2 * len(found) - top if found is not None else 0)
        if node[dyn.S_STEPS] >= site.max_steps:
            # In budget the step budget ends the crawl; past it the time budget does.
            values = site.ended(_ended_key(_out_of_steps(node)), length)[:length].copy()
            self._low[node] = 0
        else:
            values = np.empty(length)
            if found is not None:
                values[: top + 1] = found[: top + 1]
        values[top + 1 :] = site.ended(self._over_key(node), length)[top + 1 : length]
        self._arrays[node] = values
        return values

    def _compile(self, node: tuple[int, ...]) -> list:
        """``(action, pure, edges)`` per candidate action of ``node`` (``GridSite.edges``)."""
        compiled = self._compiled.get(node)
        if compiled is None:
            edges = self.site.edges
            compiled = self._compiled[node] = [
                (action, *edges(node, action)) for action in candidates(node, self.plan)
            ]
        return compiled


def candidates(state: tuple[int, ...], plan: tuple[int, int, int]) -> list[int]:
    """The actions a strategy may take in ``state``: its own tools, backoff and stop."""
    fetcher, extractor, paginator = plan
    phase = state[dyn.S_PHASE]
    if phase == dyn.FETCH:
        actions = [fetcher]
    elif phase == dyn.EXTRACT:
        actions = [extractor]
        # A page fetched over HTTP (by another policy) may be re-fetched by a headless plan.
        if fetcher == dyn.FETCH_HEADLESS and state[dyn.S_FETCHED] == dyn.BY_HTTP:
            actions.append(fetcher)
    else:
        actions = [paginator]
    if state[dyn.S_PRESSURE]:
        actions.append(dyn.BACKOFF)
    actions.append(dyn.STOP)
    return actions


def _node(state: tuple[int, ...]) -> tuple[int, ...]:
    return (*state[: dyn.S_TIME], 0, *state[dyn.S_TIME + 1 :])


def _ended_key(values: Any) -> tuple[int, ...]:
    """The key of an ended state's scores: the fields its score reads (``score_fields``)."""
    return score_fields(values)


def _over_budget(values: Any, cap: int) -> list[int]:
    """The state a move into running ``values`` leads to past the time budget."""
    values = list(values)
    values[dyn.S_END] = dyn.OVER_BUDGET
    if values[dyn.S_ERROR] < cap:
        values[dyn.S_ERROR] += 1
    values[dyn.S_PHASE] = dyn.DONE
    return values


def _out_of_steps(values: Any) -> list[int]:
    values = list(values)
    values[dyn.S_END] = dyn.OUT_OF_STEPS
    values[dyn.S_PHASE] = dyn.DONE
    return values
