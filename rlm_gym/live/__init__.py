"""The live crawl: a farm of generated sites on the loopback interface and ``CrawlLive-v0``."""
