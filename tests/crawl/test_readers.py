"""Reading scrapers' own output files: the 30 real files of the corpus, encodings, delimiters,
JSON shapes and the errors bad files get."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from rlm_gym.crawl.readers import (
    binary_content,
    crawl_result_from_items,
    decode,
    detect_format,
    ragged_rows,
    read_csv_items,
    read_items,
    read_json_items,
    sniff_delimiter,
)
from rlm_gym.quality.corpora import read_crawls
from tests.corpora import corpus_or_skip


@pytest.fixture(scope="module")
def realdata() -> Path:
    """The ``realdata`` corpus folder (``../shared/corpora``; a skip where it is absent)."""
    return corpus_or_skip("realdata")


@pytest.fixture(scope="module")
def raw_files(realdata) -> list[Path]:
    """The scrapers' own 30 output files the corpus was built from."""
    return sorted((realdata / "raw").iterdir())


@pytest.fixture(scope="module")
def crawls(realdata) -> list[dict]:
    return read_crawls(realdata)


# otodom.csv has no header row: its names come from the scraper's FIELDNAMES (the README says).
OTODOM_COLUMNS = [
    "url",
    "tytul",
    "dzielnica",
    "cena",
    "powierzchnia",
    "ogrod_fragment",
    "zrodlo",
    "data_dodania",
]


def test_the_corpus_has_one_raw_file_per_crawl(raw_files, crawls):
    assert len(raw_files) == len(crawls) == 30


@pytest.mark.parametrize("index", range(30), ids=[f"{n:02d}" for n in range(1, 31)])
def test_each_raw_file_reads_as_the_corpus_built_it(index, raw_files, crawls):
    path = raw_files[index]
    columns = OTODOM_COLUMNS if "otodom" in path.name else None
    items = read_items(path, columns=columns)
    # crawls.jsonl holds the first <= 100 records, JSON-normalised (build.py).
    normalised = json.loads(json.dumps(items[:100], ensure_ascii=False))
    assert normalised == crawls[index]["data"]


@pytest.mark.parametrize(
    ("key", "encoding"),
    [
        ("02_daraz", "cp1252"),
        ("12_zomato", "utf-8-sig"),
        ("20_ameli", "cp1252"),
        ("01_jumia", "utf-8"),
    ],
)
def test_encodings_of_the_corpus_are_detected(key, encoding, raw_files):
    (path,) = [path for path in raw_files if path.name.startswith(key)]
    assert decode(path.read_bytes())[1] == encoding


def test_the_tab_separated_file_named_csv_is_sniffed(raw_files):
    (path,) = [path for path in raw_files if path.name.startswith("02_daraz")]
    assert sniff_delimiter(decode(path.read_bytes())[0]) == "\t"


def test_utf16_with_a_byte_order_mark():
    text = "name;preis\nSofa;1.299,00 €\n"
    for data in (codecs.BOM_UTF16_LE + text.encode("utf-16-le"), text.encode("utf-16")):
        assert read_items(data, name="x.csv") == [{"name": "Sofa", "preis": "1.299,00 €"}]


def test_cp1252_fallback_and_latin1_last_resort():
    assert decode("Café £5".encode("cp1252")) == ("Café £5", "cp1252")
    # 0x81 is undefined in cp1252: Latin-1 still decodes it
    assert decode(b"caf\xe9 \x81") == ("café \x81", "latin-1")


def test_a_forced_encoding_that_does_not_fit_says_where():
    with pytest.raises(ValueError, match="not utf-8: byte 0xe9 at offset 3"):
        decode(b"caf\xe9", "utf-8")
    with pytest.raises(ValueError, match="Unknown `encoding`"):
        decode(b"x", "utf-9")


@pytest.mark.parametrize(
    ("text", "delimiter"),
    [
        ('a,b,c\n1,"2,5",3\n', ","),
        ('name;price\n"Sofa, grey";"1.299,00 €"\nLamp;12\n', ";"),
        ("a\tb\n1,5\t2,5\n", "\t"),
        ("a|b\nx|y\n", "|"),
        ("title\nOne, two and three\n", ","),
    ],
)
def test_delimiter_is_sniffed(text, delimiter):
    assert sniff_delimiter(text) == delimiter


def test_csv_cells_stay_strings_and_short_rows_lack_keys():
    items = read_csv_items("name,price,rating\nSofa,,4.5\nLamp,12\n")
    assert items == [
        {"name": "Sofa", "price": "", "rating": "4.5"},
        {"name": "Lamp", "price": "12", "rating": None},
    ]


def test_csv_without_header_takes_columns():
    assert read_csv_items("Sofa,12\n", columns=["name", "price"]) == [
        {"name": "Sofa", "price": "12"}
    ]


def test_csv_keeps_newlines_inside_quoted_cells():
    items = read_csv_items('title,body\nA,"line one\r\nline two"\n')
    assert items == [{"title": "A", "body": "line one\r\nline two"}]


SOFA, LAMP = {"name": "Sofa", "price": "€ 1.299"}, {"name": "Lamp", "price": "€ 12"}


@pytest.mark.parametrize(
    "text",
    [
        json.dumps([SOFA, LAMP], indent=2),  # Scrapy "json" feed
        json.dumps(SOFA) + "\n" + json.dumps(LAMP) + "\n",  # Scrapy "jsonlines" feed
        json.dumps(SOFA, indent=4) + json.dumps(LAMP, indent=4),  # written one after another
        json.dumps({"products": [SOFA, LAMP], "page": 1, "total": 2}),
        json.dumps({"8121": [SOFA, LAMP]}),
        json.dumps([SOFA]) + "\n" + json.dumps([LAMP]),  # arrays appended to one file
    ],
    ids=["array", "json-lines", "concatenated", "container-key", "only-key", "appended-arrays"],
)
def test_json_shapes_give_the_same_items(text):
    assert read_json_items(text) == [SOFA, LAMP]


def test_a_single_object_is_one_item_and_items_key_picks_a_list():
    product = {"Product Name": "Keyboard", "Reviews": [{"text": "good"}]}
    assert read_json_items(json.dumps(product)) == [product]
    assert read_json_items(json.dumps(product), items_key="Reviews") == [{"text": "good"}]
    with pytest.raises(ValueError, match="Did you mean 'Reviews'"):
        read_json_items(json.dumps(product), items_key="Review")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[{"a": 1},\n {"a": 2,}]', "line 2 column 10: invalid JSON"),
        ("42", "expected JSON objects or an array of them, got a number"),
        ("   \n", "no JSON value"),
    ],
)
def test_bad_json_says_what_and_where(text, message):
    with pytest.raises(ValueError, match=message):
        read_json_items(text)


def test_read_items_refuses_crawl_results_and_empty_files():
    with pytest.raises(ValueError, match="holds crawl results"):
        read_items(b'{"success": true, "data": []}\n')
    with pytest.raises(ValueError, match="empty"):
        read_items(b"\n\n")
    with pytest.raises(ValueError, match="Did you mean 'csv'"):
        read_items(b"a,b\n", "cvs")


@pytest.mark.parametrize(
    ("first", "name", "expected"),
    [
        (b'{"success": true, "data": [{"a": 1}]}', "", "results"),
        (b'{"data": [], "domain": "x"}', "", "results"),
        (b'{"name": "Sofa", "data": "spec sheet"}', "", "items"),
        (b"[", "feed.json", "items"),
        (b"{", "github.json", "items"),
        (b"name,price", "", "csv"),
        (b'{"a": 1}', "export.csv", "csv"),
        (codecs.BOM_UTF8 + b'{"success": false, "data": []}', "", "results"),
    ],
)
def test_detect_format(first, name, expected):
    assert detect_format(first, name) == expected


def test_crawl_result_from_items_has_the_spec_shape():
    result = crawl_result_from_items(
        [SOFA], ["name"], pages=3, execution_time_ms=9000, pattern_type="product_list", domain="x"
    )
    assert result == {
        "success": True,
        "data": [SOFA],
        "navigation_result": {"pages_collected": 3, "strategy_used": "unknown"},
        "execution_time_ms": 9000.0,
        "errors": [],
        "extraction_schema": {"required": ["name"]},
        "pattern_type": "product_list",
        "domain": "x",
    }


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "it looks like a PNG image"),
        (b"PK\x03\x04\x14\x00", "a zip archive, such as an Excel .xlsx (export it as CSV)"),
        (b"\x1f\x8b\x08\x00", "gzip-compressed (decompress it first)"),
        (b"name,price\nSofa,\x00\x00\n", "a NUL byte at offset 16"),
    ],
)
def test_binary_content_is_named_and_refused(data, problem):
    assert problem in binary_content(data)
    with pytest.raises(ValueError, match="binary content, not text"):
        read_items(data, name="export.csv")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32", "utf-8-sig", "cp1252"])
def test_text_in_any_encoding_with_its_mark_is_not_binary(encoding):
    assert binary_content("name;price\nSofa;12,99 €\n".encode(encoding)) is None


def test_the_corpus_files_are_not_binary(raw_files):
    assert [path.name for path in raw_files if binary_content(path.read_bytes())] == []


def test_ragged_rows_are_named_by_the_line_they_start_on():
    text = 'name,note\n"Sofa","two\nlines"\nLamp,5,extra\n\nChair\n'
    assert ragged_rows(text) == [(4, 3, 2), (6, 1, 2)]
    assert ragged_rows("Sofa,12\nLamp\n", columns=["name", "price"]) == [(2, 1, 2)]
    assert ragged_rows("name,price\nSofa,12\n") == []
