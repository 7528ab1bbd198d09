"""``rgb_array`` frames of the crawl env, drawn with numpy alone (no font or plotting library).

One frame pictures the crawl after the last step, as rows of bars and blocks with short labels
in a built-in 3 x 5 pixel font:

- the phase (fetch / extract / paginate; at the end, the end reason: green when the crawl
  succeeded, red when it did not),
- ``PAGES``: one square per page of the site, filled for the pages extracted, coloured by
  extractor (CSS blue, heuristics violet, LLM orange), re-served pages (duplicate rows) amber,
- ``ITEMS``: valid items against the job's target (the white tick; the bar holds 2 x target),
- ``QUAL``: share of new items with every field valid (green) and not (red),
- ``ERR``: one red block per error,
- ``TIME``: elapsed time against the job's budget (red once past it),
- ``STEP``: steps against the step budget,
- ``ACT``: the ten actions; the last one filled green (succeeded) or red (failed), methods that
  have failed on this site outlined red; ``403`` / ``429``: answers so far against the ban limit.

Frames are ``FRAME_SHAPE`` = 192 x 256 x 3 ``uint8`` (both sides multiples of 16, as video
encoders want), so ``gymnasium.wrappers.RecordVideo`` and rl-zoo3's recorder take them as they are.

The frame is drawn from a ``CrawlSnapshot`` (``CrawlEnv.snapshot()``), so this module does not
need the env class: ``CrawlEnv.render()`` is ``draw_frame(self.snapshot())`` in ``rgb_array`` mode.

Example:
    >>> from rlm_gym.envs.crawl_env import CrawlEnv
    >>> env = CrawlEnv(render_mode="rgb_array")
    >>> _ = env.reset(seed=1)
    >>> frame = env.render()
    >>> frame.shape == FRAME_SHAPE, frame.dtype.name
    (True, 'uint8')
    >>> bool((draw_frame(env.snapshot()) == frame).all())
    True
"""

from __future__ import annotations

import numpy as np

from rlm_gym.envs import dynamics as dyn
from rlm_gym.envs.observation import INDEX, MEMORY_METHODS
from rlm_gym.envs.scoring import crawl_success
from rlm_gym.envs.snapshot import CrawlSnapshot

__all__ = ["FRAME_SHAPE", "draw_frame", "draw_text"]

FRAME_SHAPE: tuple[int, int, int] = (192, 256, 3)

BACKGROUND = (24, 26, 33)
TRACK = (52, 56, 68)
TEXT = (210, 214, 222)
DIM = (96, 100, 112)
GREEN = (76, 187, 96)
RED = (222, 76, 70)
AMBER = (232, 170, 56)
WHITE = (245, 245, 245)
EXTRACTOR_COLOURS = ((72, 136, 232), (156, 104, 224), (238, 140, 54))
PHASE_COLOUR = (72, 136, 232)

# A 3 x 5 pixel font: five rows of three columns per glyph ("#" = ink).
_GLYPHS: dict[str, tuple[str, ...]] = {
    "A": ("###", "#.#", "###", "#.#", "#.#"),
    "B": ("##.", "#.#", "##.", "#.#", "##."),
    "C": ("###", "#..", "#..", "#..", "###"),
    "D": ("##.", "#.#", "#.#", "#.#", "##."),
    "E": ("###", "#..", "##.", "#..", "###"),
    "F": ("###", "#..", "##.", "#..", "#.."),
    "G": ("###", "#..", "#.#", "#.#", "###"),
    "H": ("#.#", "#.#", "###", "#.#", "#.#"),
    "I": ("###", ".#.", ".#.", ".#.", "###"),
    "J": ("..#", "..#", "..#", "#.#", "###"),
    "K": ("#.#", "#.#", "##.", "#.#", "#.#"),
    "L": ("#..", "#..", "#..", "#..", "###"),
    "M": ("#.#", "###", "###", "#.#", "#.#"),
    "N": ("##.", "#.#", "#.#", "#.#", "#.#"),
    "O": ("###", "#.#", "#.#", "#.#", "###"),
    "P": ("###", "#.#", "###", "#..", "#.."),
    "Q": ("###", "#.#", "#.#", "###", "..#"),
    "R": ("##.", "#.#", "##.", "#.#", "#.#"),
    "S": ("###", "#..", "###", "..#", "###"),
    "T": ("###", ".#.", ".#.", ".#.", ".#."),
    "U": ("#.#", "#.#", "#.#", "#.#", "###"),
    "V": ("#.#", "#.#", "#.#", "#.#", ".#."),
    "W": ("#.#", "#.#", "###", "###", "#.#"),
    "X": ("#.#", "#.#", ".#.", "#.#", "#.#"),
    "Y": ("#.#", "#.#", ".#.", ".#.", ".#."),
    "Z": ("###", "..#", ".#.", "#..", "###"),
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"),
    "3": ("###", "..#", "###", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", "..#", "..#", "..#"),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "###"),
    "/": ("..#", "..#", ".#.", "#..", "#.."),
    "-": ("...", "...", "###", "...", "..."),
    " ": ("...", "...", "...", "...", "..."),
}
_SCALE = 2
_MASKS: dict[str, np.ndarray] = {
    char: np.kron(
        np.array([[c == "#" for c in row] for row in rows], dtype=bool),
        np.ones((_SCALE, _SCALE), dtype=bool),
    )
    for char, rows in _GLYPHS.items()
}
_ADVANCE = 4 * _SCALE  # glyph width plus one blank column

# Two-letter names of the actions, in ``ACTIONS`` order, for the action row.
ACTION_LABELS: tuple[str, ...] = ("FH", "FB", "CS", "HE", "LL", "UR", "JS", "SC", "BO", "ST")
_END_LABELS = ("", "STOP", "BAN", "TIME", "STEPS")

_LABEL_X = 4
_BAR_X = 52
_BAR_W = 196
_ROW_H = 10


def draw_text(frame: np.ndarray, x: int, y: int, text: str, colour=TEXT) -> None:
    """Write ``text`` (upper-cased; unknown characters as blanks) at ``(x, y)``, clipped.

    Example:
        >>> frame = np.zeros((12, 40, 3), dtype=np.uint8)
        >>> draw_text(frame, 1, 1, "ok")
        >>> bool(frame.any())
        True
    """
    height, width = frame.shape[:2]
    for char in text.upper():
        mask = _MASKS.get(char, _MASKS[" "])
        h, w = mask.shape
        if x + w > width or y + h > height:
            return
        frame[y : y + h, x : x + w][mask] = colour
        x += _ADVANCE


def _box(frame: np.ndarray, x: int, y: int, w: int, h: int, colour) -> None:
    frame[y : y + h, x : x + w] = colour


def _outline(frame: np.ndarray, x: int, y: int, w: int, h: int, colour) -> None:
    frame[y, x : x + w] = colour
    frame[y + h - 1, x : x + w] = colour
    frame[y : y + h, x] = colour
    frame[y : y + h, x + w - 1] = colour


def _bar(frame: np.ndarray, y: int, share: float, colour, mark: float | None = None) -> None:
    """A horizontal bar filled to ``share`` in [0, 1] of its track, with an optional tick."""
    _box(frame, _BAR_X, y, _BAR_W, _ROW_H, TRACK)
    filled = round(_BAR_W * min(1.0, max(0.0, share)))
    if filled:
        _box(frame, _BAR_X, y, filled, _ROW_H, colour)
    if mark is not None:
        x = _BAR_X + min(_BAR_W - 1, round(_BAR_W * mark))
        _box(frame, x, y - 2, 2, _ROW_H + 4, WHITE)


def _blocks(frame: np.ndarray, y: int, colours: list, total: int, size: int = 8) -> None:
    """``total`` squares in a row (as many as fit), the first ones coloured by ``colours``."""
    step = size + 2
    fit = _BAR_W // step
    for index in range(min(total, fit)):
        x = _BAR_X + index * step
        if index < len(colours):
            _box(frame, x, y + 1, size, size, colours[index])
        else:
            _outline(frame, x, y + 1, size, size, DIM)


def draw_frame(snapshot: CrawlSnapshot) -> np.ndarray:
    """The picture of the crawl in ``snapshot`` (see the module docstring)."""
    frame = np.empty(FRAME_SHAPE, dtype=np.uint8)
    frame[:] = BACKGROUND
    model = snapshot.model
    if model is None:
        draw_text(frame, _LABEL_X, 8, "RESET FIRST", DIM)
        return frame
    state = snapshot.state
    profile = model.profile
    phase = state[dyn.S_PHASE]

    # Phase row: three boxes, the current one lit; at the end, the end reason.
    y = 6
    for index, name in enumerate(("FETCH", "EXTRACT", "PAGINATE")):
        x = _LABEL_X + index * 84
        lit = phase == index
        _box(frame, x, y, 80, 14, PHASE_COLOUR if lit else TRACK)
        draw_text(frame, x + 4, y + 2, name, WHITE if lit else DIM)
    y = 24
    if phase == dyn.DONE:
        succeeded = crawl_success(model, state)
        colour = GREEN if succeeded else RED
        _box(frame, _LABEL_X, y, 248, 12, colour)
        verdict = "SUCCESS" if succeeded else "NO SUCCESS"
        draw_text(frame, _LABEL_X + 4, y + 1, f"END {_END_LABELS[state[dyn.S_END]]} {verdict}")

    rows = iter(range(42, FRAME_SHAPE[0], 16))

    # Pages: one square per page of the site, filled per extractor in order of use.
    y = next(rows)
    draw_text(frame, _LABEL_X, y, "PAGES")
    colours = []
    for index in range(3):
        colours += [EXTRACTOR_COLOURS[index]] * state[dyn.S_CSS + index]
    for index in range(3):
        colours += [AMBER] * state[dyn.S_DUP_CSS + index]
    _blocks(frame, y, colours, max(profile.total_pages, len(colours)))

    items, valid, _ = dyn.item_counts(model, state)
    target = profile.target_items
    y = next(rows)
    draw_text(frame, _LABEL_X, y, "ITEMS")
    _bar(frame, y, valid / (2 * target), GREEN if valid >= target else AMBER, mark=0.5)

    y = next(rows)
    draw_text(frame, _LABEL_X, y, "QUAL")
    _box(frame, _BAR_X, y, _BAR_W, _ROW_H, TRACK)
    if items:
        good = round(_BAR_W * valid / items)
        _box(frame, _BAR_X, y, good, _ROW_H, GREEN)
        _box(frame, _BAR_X + good, y, _BAR_W - good, _ROW_H, RED)

    y = next(rows)
    draw_text(frame, _LABEL_X, y, "ERR")
    errors = len(snapshot.errors)
    _blocks(frame, y, [RED] * errors, errors)

    y = next(rows)
    draw_text(frame, _LABEL_X, y, "TIME")
    elapsed = state[dyn.S_TIME] / profile.time_budget_ms
    _bar(frame, y, elapsed, RED if elapsed > 1.0 else AMBER if elapsed > 0.85 else GREEN)

    y = next(rows)
    draw_text(frame, _LABEL_X, y, "STEP")
    _bar(frame, y, state[dyn.S_STEPS] / snapshot.max_steps, PHASE_COLOUR)

    # Actions: the last one filled (green ok / red failed), failed methods outlined red.
    y = next(rows)
    draw_text(frame, _LABEL_X, y, "ACT")
    obs = snapshot.observation
    failed_start = INDEX["failed_fetch_http"]
    for index, label in enumerate(ACTION_LABELS):
        x = _BAR_X + index * 20
        if index == snapshot.last_action:
            _box(frame, x, y - 2, 18, 14, RED if snapshot.last_failed else GREEN)
        failed = index < len(MEMORY_METHODS) and obs[failed_start + index]
        _outline(frame, x, y - 2, 18, 14, RED if failed else TRACK)
        draw_text(frame, x + 2, y, label, WHITE)

    y = next(rows) + 2
    for x, label, count, limit in (
        (_LABEL_X, "403", state[dyn.S_BLOCKS], int(dyn.COSTS["blocks_to_ban"])),
        (_LABEL_X + 96, "429", state[dyn.S_429], int(dyn.COSTS["rate_limits_to_ban"])),
    ):
        draw_text(frame, x, y, label)
        for index in range(limit):
            colour = RED if index < count else TRACK
            _box(frame, x + 30 + index * 12, y, 10, _ROW_H, colour)
    return frame
