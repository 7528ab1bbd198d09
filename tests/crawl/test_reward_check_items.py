"""check_items: the per-item, per-field verdicts, column context included."""

from __future__ import annotations

import pytest

from rlm_gym.crawl import check_items, crawl_reward


def _result(data, required=None) -> dict:
    result = {"success": True, "data": data}
    if required is not None:
        result["extraction_schema"] = {"required": required}
    return result


def test_one_verdict_per_row_in_order_duplicates_included():
    data = [{"title": "Giá vàng hôm nay"}, {"title": "N/A"}, {"title": "Giá vàng hôm nay"}]
    verdicts = check_items(_result(data, ["title"]))
    assert verdicts == [
        {"title": (True, "")},
        {"title": (False, "placeholder")},
        {"title": (True, "")},
    ]


def test_a_missing_required_field_is_reported_missing():
    verdicts = check_items(_result([{"title": "Giá vàng hôm nay tăng mạnh"}], ["title", "author"]))
    assert verdicts == [{"title": (True, ""), "author": (False, "missing")}]


def test_without_required_fields_each_items_own_fields_are_checked():
    verdicts = check_items(_result([{"name": "Phở 24", "email": "not an address"}]))
    assert verdicts[0]["name"] == (True, "")
    assert verdicts[0]["email"][0] is False


def test_a_non_dict_item_fails_every_required_field():
    verdicts = check_items(_result(["<div>row</div>"], ["title"]))
    assert verdicts == [{"title": (False, "not a dict item")}]


def test_a_header_row_scraped_as_data_is_rejected():
    data = [
        {"product_title": "product_title", "price": "price"},
        {"product_title": "Ấm siêu tốc", "price": "199.000đ"},
    ]
    verdicts = check_items(_result(data, ["product_title", "price"]))
    assert verdicts[0]["product_title"] == (False, "header row")
    assert verdicts[1]["product_title"] == (True, "")


def test_a_bare_rating_or_count_in_a_person_or_comment_field_is_a_shifted_column():
    data = [
        {"author": "Nguyễn Văn A", "comment": "Sản phẩm rất tốt", "rating": "5 sao"},
        {"author": "197 đánh giá", "comment": "5 sao", "rating": "4 sao"},
    ]
    verdicts = check_items(_result(data, ["author", "comment", "rating"]))
    assert verdicts[0] == {"author": (True, ""), "comment": (True, ""), "rating": (True, "")}
    assert verdicts[1]["author"] == (False, "shifted column")
    assert verdicts[1]["comment"] == (False, "shifted column")


def test_one_title_on_every_item_is_a_page_wide_value():
    data = [{"title": "Top deals", "price": f"${10 + i}.99"} for i in range(6)]
    verdicts = check_items(_result(data, ["title", "price"]))
    assert all(verdict["title"] == (False, "page-wide value") for verdict in verdicts)
    assert all(verdict["price"] == (True, "") for verdict in verdicts)


def test_a_shared_value_on_fewer_than_five_items_is_not_page_wide():
    data = [{"title": "Top deals", "price": f"${10 + i}.99"} for i in range(4)]
    assert all(v["title"] == (True, "") for v in check_items(_result(data, ["title", "price"])))


def test_a_hotel_name_shared_by_all_reviews_of_one_hotel_is_not_page_wide():
    data = [
        {"hotelName": "Hotel Saigon", "review": f"Phòng sạch sẽ, lần {i}", "rating": 4}
        for i in range(6)
    ]
    verdicts = check_items(_result(data, ["hotelName", "review", "rating"]))
    assert all(verdict["hotelName"] == (True, "") for verdict in verdicts)


def test_check_items_is_the_judgement_crawl_reward_uses():
    data = [{"title": "Top deals", "price": f"${10 + i}.99"} for i in range(6)]
    result = _result(data, ["title", "price"])
    verdicts = check_items(result)
    details = crawl_reward(result).details
    invalid = sum(not valid for verdict in verdicts for valid, _ in verdict.values())
    assert details["valid_share"] == pytest.approx(1 - invalid / 12)
    assert details["fields"]["title"]["invalid"] == 6
    assert any(defect.startswith("title:") for defect in details["defects"])


def test_bad_results_raise_like_crawl_reward():
    with pytest.raises(ValueError, match="missing `data`"):
        check_items({"success": True})


def _articles(titles: list[str]) -> dict:
    data = [
        {"title": title, "author": f"Tác giả {i}", "content": f"Nội dung bài {i} rất dài."}
        for i, title in enumerate(titles)
    ]
    return _result(data, ["title", "author", "content"])


def test_one_or_two_word_headlines_of_an_article_listing_are_section_headings():
    titles = ["Giá vàng hôm nay tăng mạnh", "Bão số 3 đổ bộ miền Trung", "Polling", "Tin mới"]
    titles.append("Thủ tướng thăm Nhật Bản tuần tới")
    verdicts = check_items(_articles(titles))
    assert [verdict["title"] for verdict in verdicts] == [
        (True, ""),
        (True, ""),
        (False, "section heading"),
        (False, "section heading"),
        (True, ""),
    ]


def test_short_headlines_are_judged_only_with_a_sample_of_five_items():
    verdicts = check_items(_articles(["Polling", "Giá vàng hôm nay tăng mạnh"]))
    assert verdicts[0]["title"] == (True, "")


def test_headlines_in_scripts_without_spaces_are_not_section_headings():
    titles = [
        "東京株式市場が大幅反発",
        "台風10号が九州に接近",
        "新内閣が発足",
        "円安が進む",
        "選挙",
    ]
    assert all(v["title"] == (True, "") for v in check_items(_articles(titles)))


def test_a_sentence_in_an_author_field_is_not_a_name():
    data = [
        {"title": "Giá vàng hôm nay tăng mạnh", "author": "Nguyễn Văn A"},
        {"title": "Bão số 3 đổ bộ miền Trung", "author": "By Jane Doe and John Roe, Staff"},
        {
            "title": "Thủ tướng thăm Nhật Bản",
            "author": ">> Chia sẻ bài viết của bạn cho trang Ý kiến tại đây.",
        },
    ]
    verdicts = check_items(_result(data, ["title", "author"]))
    assert [verdict["author"] for verdict in verdicts] == [
        (True, ""),
        (True, ""),
        (False, "not a name"),
    ]


def test_a_clean_product_list_of_generic_numbered_names_is_excellent():
    data = [
        {"name": f"Item {i}", "price": f"${10 + i}.99", "rating": round(3.5 + i / 30, 1)}
        for i in range(15)
    ]
    signal = crawl_reward(_result(data, ["name", "price", "rating"]))
    assert signal.details["tier"] == "excellent"
    assert signal.details["defects"] == []


def test_a_number_among_titles_or_models_is_a_name_not_a_shifted_column():
    # goodreads (line 41): "1984" among book titles; autoplius (line 36): BMW models "320".
    titles = ["To Kill a Mockingbird", "1984", "Pride and Prejudice", "Animal Farm"]
    models = ["320", "X5", "A4 Avant", "Golf"]
    data = [{"title": t, "model": m, "price": "$9"} for t, m in zip(titles, models, strict=True)]
    verdicts = check_items(_result(data, ["title", "model", "price"]))
    assert all(v["title"] == (True, "") and v["model"] == (True, "") for v in verdicts)


def test_a_name_column_of_numbers_is_still_a_shifted_column():
    data = [{"name": str(n), "price": f"${n}.99"} for n in (12, 48, 75, 250)]
    data.append({"name": "Desk lamp", "price": "$5.99"})
    verdicts = check_items(_result(data, ["name", "price"]))
    assert [v["name"][1] for v in verdicts[:4]] == ["shifted column"] * 4
