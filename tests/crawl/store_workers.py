"""Worker processes for the knowledge-store concurrency tests (importable under spawn)."""

from __future__ import annotations

from rlm_gym.crawl.store import KnowledgeStore


def write_records(path: str, worker: int, count: int) -> None:
    """Record ``count`` crawls from one worker, each in its own transaction."""
    with KnowledgeStore(path) as store:
        for index in range(count):
            store.record(f"worker{worker}.vn", "product_list", "url_navigation", index / count)


def write_until_killed(path: str, acks) -> None:
    """Record crawls forever, sending each committed row id through ``acks``."""
    store = KnowledgeStore(path)
    index = 0
    while True:
        row_id = store.record("victim.vn", "article_extraction", f"strategy{index}", 0.5, items=1)
        acks.send(row_id)
        index += 1
