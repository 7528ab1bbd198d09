"""Placeholders in other words and languages, and negated words that are real values. Formats
from real pages (job boards, classifieds, shops, news), written for these tests."""

from __future__ import annotations

import pytest

from rlm_gym.quality import check_value

PLACEHOLDERS_BY_LANGUAGE = {
    "en": ["No description", "no data available", "No reviews yet", "No image available",
           "Image not available", "Not specified", "not listed", "Not given", "(no title)"],
    "zh": ["暂无", "暂无数据", "无数据", "未知", "不详", "待定", "未填写", "未公开", "暂无评分",
           "暂无图片", "未知来源", "地址不详", "价格待定", "暫無資料"],
    "ja": ["なし", "不明", "未定", "該当なし", "情報なし", "価格未定", "住所不明"],
    "ko": ["없음", "정보 없음", "미정", "데이터 없음"],
    "es": ["sin datos", "Sin información", "No disponible", "sin descripción"],
    "pt": ["sem informação", "Sem dados", "Não informado", "sem descrição"],
    "fr": ["non communiqué", "N.C.", "Non précisé", "pas de description", "Aucune information"],
    "de": ["keine Angabe", "k.A.", "nicht angegeben", "Keine Beschreibung", "Bild nicht verfügbar"],
    "it": ["non disponibile", "nessun dato", "N.D.", "nessuna descrizione"],
    "ru": ["нет данных", "не указано", "нет описания", "н/д"],
    "vi": ["không có", "Đang cập nhật", "chưa có thông tin", "không có mô tả"],
    "id": ["tidak ada", "tidak ada data", "belum ada ulasan", "tidak tersedia"],
    "tr": ["bilgi yok", "belirtilmemiş", "açıklama yok", "veri yok"],  # noqa: RUF001
    "pl": ["brak danych", "brak opisu", "nie podano", "b.d."],
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(PLACEHOLDERS_BY_LANGUAGE))
def test_placeholders_in_each_scraping_language_are_rejected(language):
    accepted = [
        value
        for value in PLACEHOLDERS_BY_LANGUAGE[language]
        if check_value("text", value) != "placeholder"
    ]
    assert accepted == []


@pytest.mark.parametrize(
    "value",
    [
        "No Country for Old Men", "No Time to Die", "No Man's Sky", "Nothing Compares 2 U",
        "sin gluten", "Sem juros", "无抵押", "无", "有", "Keine Kompromisse", "Non-stop flights",
        "Pas de deux", "Brak windy? Zadzwoń", "Not Another Teen Movie", "免费停车", "NC", "S/N",
    ],
)  # fmt: skip
def test_negated_words_that_are_real_values_stay_valid(value):
    # a negation only makes a placeholder with a noun of scraped data (description, data…);
    # 无 / 有 answer yes-no attributes (无电梯: no elevator), 无抵押 is "no mortgage"
    assert check_value("text", value) == ""
