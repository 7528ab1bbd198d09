# ruff: noqa: RUF001 - multilingual word tables and mojibake patterns are the point
"""Word tables behind the crawl field checks: field-name tokens per type and value vocabularies.

Everything here is data (frozensets and tuples of lower-case strings) so that the rules in
:mod:`rlm_gym.crawl.field_values` and :mod:`rlm_gym.crawl.fields` stay table-driven: adding a
language is adding words here. The words come from the formats of real listing, review, news,
job, event and real-estate pages in the common scraping languages (en, fr, de, es, pt, it, nl,
pl, ru, id, vi, tr, plus a few CJK/Arabic forms), not from any one data set.

Example:
    >>> "preis" in NAME_TOKENS["price"], "sao" in NAME_TOKENS["rating"]
    (True, True)
    >>> "pln" in CURRENCY_CODES, "zł" in CURRENCY_WORDS
    (True, True)
"""

from __future__ import annotations

__all__ = [
    "NAME_TOKENS",
    "WEAK_NAME_TOKENS",
    "TEXT_TOKENS",
    "ID_TOKENS",
    "NAME_LIKE_TOKENS",
    "DURATION_TOKENS",
    "DATE_SUFFIX_TOKENS",
    "NAME_BIGRAMS",
    "STRONG_COUNT_MODIFIERS",
    "NUMBER_MODIFIERS",
    "CLOCK_TOKENS",
    "SUBORDINATE_TOKENS",
    "CUT_TOKENS",
    "PLACEHOLDERS",
    "PLACEHOLDER_NOUNS",
    "PLACEHOLDER_PREFIXES",
    "PLACEHOLDER_SUFFIXES",
    "PLACEHOLDER_TAILS",
    "CJK_PLACEHOLDER_PREFIXES",
    "CJK_PLACEHOLDER_SUFFIXES",
    "CJK_NAME_SUFFIXES",
    "CURRENCY_CODES",
    "CURRENCY_SYMBOLS",
    "CURRENCY_WORDS",
    "FREE_WORDS",
    "PRICE_QUALIFIERS",
    "STAR_WORDS",
    "STAR_GLYPHS",
    "RATING_UNITS",
    "SCALE_WORDS",
    "COUNT_UNITS",
    "NUMBER_SUFFIXES",
    "MONTHS",
    "WEEKDAYS",
    "RELATIVE_DAYS",
    "RELATIVE_MARKERS",
    "TIME_UNITS",
    "CJK_POSTED_WORDS",
    "NUMBER_WORDS",
    "ERROR_PHRASES",
    "ERROR_TEXTS",
    "HTML_TAGS",
]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# --------------------------------------------------------------------------------------------
# field names
# --------------------------------------------------------------------------------------------
NAME_TOKENS: dict[str, frozenset[str]] = {
    "price": _words(
        "price prices pricing preis preise prix precio precios preço preços preco precos prezzo "
        "prezzi prijs prijzen pris priser hinta cena ceny giá gia цена цены стоимость "
        "harga fiyat fiyatı fiyati ücret kaltmiete warmmiete miete mieten rent rental rents "
        "salary salaries wage wages gehalt lohn salaire salario salarios salário sueldo lương "
        "luong зарплата wynagrodzenie pensja gaji maaş maas fee fees cost costs kosten koszt "
        "coût cout costo coste custo amount amounts betrag montant importe monto valor tarif "
        "tarifa tariff msrp mrp rrp fare fares charge charges shipping versand envío envio frete "
        "budget deposit kaution 价格 價格 価格 售价 السعر سعر"
    ),
    "rating": _words(
        "rating star sao bewertung score scores rated puntuación puntuacion "
        "valoración valoracion calificación calificacion avaliação avaliacao "
        "beoordeling ocena рейтинг оценка penilaian peringkat puan değerlendirme 评分 評分 評価 "
        "تقييم"
    ),
    "count": _words(
        "count counts cnt quantity quantities qty inventory votes vote views viewers "
        "followers follower likes downloads installs sold sales orders "
        "purchases applicants applications candidaturas employees members subscribers "
        "watchers forks servings serves portions rooms bedrooms beds bathrooms baths "
        "toilets superficie surfaces powierzchnia fläche flaeche wohnfläche "
        "metraje sqft sqm m2 pages episodes seats "
        "capacity guests attendees participants anzahl cantidad quantité quantite quantidade "
        "количество liczba jumlah số lượng miktar adet habitaciones dormitorios quartos "
        "chambres pièces pieces zimmer pokoje комнат комнаты baños banheiros площадь "
        "dibaca helpful thumbs upvotes downvotes shares retweets clicks hits visits plays "
        "listens streams minutes mins terjual sayısı sayisi adedi"
    ),
    "date": _words(
        "date dates datum daten fecha fechas ngày ngay дата даты tanggal tarih "
        "published publish publication posted updated created modified released issued "
        "scraped crawled fetched timestamp datetime time times when deadline expires expiry "
        "expiration birthday dob year month zeit uhrzeit heure hora horário horario czas "
        "время waktu saat thời gian 日期 日付 时间 تاريخ"
    ),
    "email": _words("email emails mail mails correo courriel epost почта 邮箱 邮件"),
    "phone": _words(
        "phone phones telephone telephones tel tele telefon telefone telefono teléfono "
        "téléphone telefoon mobile mobil móvil movil cell cellphone handy fax whatsapp "
        "phonenumber sdt điện thoại телефон тел 电话 電話"
    ),
    "url": _words(
        "url urls uri href link links website websites homepage src image images "
        "img imgs photo picture pictures thumbnail thumbnails thumb logo icon avatar "
        "banner poster cover ссылка ссылки enlace enlaces lien liens bild bilder foto fotos "
        "imagen imagem immagine zdjęcie zdjecie 链接 リンク رابط"
    ),
}
"""Tokens that give a field its type on their own (lower-case, accents kept)."""

WEAK_NAME_TOKENS: dict[str, str] = {
    "stars": "rating",
    "note": "rating",
    "total": "count",
    "number": "count",
    "num": "count",
    "nb": "count",
    "nr": "count",
    "numero": "count",
    "número": "count",
    "data": "date",
    "ratings": "rating",
    "reviews": "count",
    "bewertungen": "count",
    "avis": "text",
    "size": "count",
    "duration": "count",
    "comments": "count",
    "points": "count",
    "ulasan": "count",
    "opinie": "count",
    "opiniones": "count",
    "отзывы": "count",
    "replies": "count",
    "answers": "count",
    "stock": "count",
    "area": "count",
    "surface": "count",
    "prep": "count",
    "cook": "count",
    "rate": "rating",
    "rates": "rating",
    "staff": "count",
    "hours": "count",
    "heures": "count",
    "stunden": "count",
    "horas": "count",
    "grade": "rating",
    "nota": "rating",
    "voto": "rating",
    "site": "url",
    "web": "url",
    "photos": "url",
}
"""Tokens that only *suggest* a type: the column's values decide ("stars" holds 4.5 on a recipe
site and 46.3k on GitHub; "data" is a date in Portuguese and Polish, anything in English)."""

ID_TOKENS = _words(
    "id ids uid uuid guid sku skus isbn ean upc asin gtin mpn slug hash key keys code codes "
    "ref reference identifier"
)
"""Identifier tokens: a field carrying one is text, whatever else it names (`product_id`)."""

NAME_LIKE_TOKENS = _words(
    "name names title titles text texts label caption alt anchor headline heading tytul tytuł "
    "título titulo titel titre nome nombre название заголовок judul tiêu tên"
)
"""Tokens of human-readable labels; with a url token the name does not decide (`Title link`)."""

TEXT_TOKENS = (
    ID_TOKENS
    | NAME_LIKE_TOKENS
    | _words(
        "by author authors autor autores auteur user username reviewer seller sellers vendor "
        "store shop brand description desc summary resume résumé content contents body "
        "comment review opinion feedback message category categories tags tag genre type types "
        "kind format currency currencies curr symbol unit units status availability condition "
        "location address city region country state zone timezone tz language languages lang "
        "experience level discount discounts savings saving percent info details detail "
        "features specs specification specifications model variant color colour material "
        "descripcion descripción descrição descricao beschreibung opis описание deskripsi "
        "moneda divisa währung waehrung devise moeda валюта "
        "source method mode company employer venue place district neighbourhood neighborhood "
        "dzielnica место название жанр"
    )
)
"""Tokens whose presence makes a field text even next to a type token (`price_currency`,
`created_by`, `review_text`)."""

DURATION_TOKENS = _words(
    "prep cook cooking total reading read wait waiting duration run running runtime length "
    "minutes mins min hours hrs seconds secs"
)
"""Qualifiers that turn a time field into a duration (a count of minutes): `prep_time`."""

DATE_SUFFIX_TOKENS = _words("at on")
"""Tokens that mean a date when they end a name (`created_at`, `posted_on`) or stand alone."""

STRONG_COUNT_MODIFIERS = _words(
    "count counts cnt qty quantity anzahl cantidad liczba jumlah количество sayısı sayisi"
)
"""Tokens that make any compound a count (`review_count`, `rating_count`, `image_count`)."""

NUMBER_MODIFIERS = _words("number num nb nr no numero número nummer numer số")
""""Number" tokens: a count when they lead (`numberOfReviews`, `num_ratings`) or follow a
plural (`reviews_number`), an identifier after a singular noun (`model_number`)."""

CLOCK_TOKENS = _words("time times zeit tiempo tempo temps czas время waktu thời")
"""Time tokens that become a duration next to a DURATION qualifier (`prep_time`)."""

SUBORDINATE_TOKENS = _words("address addr info value val raw formatted display str string")
"""Descriptor tokens that never head a compound (`email_address`, `Time value`)."""

CUT_TOKENS = _words("per pro par por za")
"""Tokens after which the rest of a name is a unit, not the head (`price_per_m2`)."""

NAME_BIGRAMS: dict[str, str] = {
    "đánh giá": "rating?",
    "danh gia": "rating?",
    "số lượng": "count",
    "so luong": "count",
    "điện thoại": "phone",
    "dien thoai": "phone",
    "thời gian": "date",
    "ngày đăng": "date",
    "giá bán": "price",
    "lượt bán": "count",
    "đã bán": "count",
    "lượt xem": "count",
    "e mail": "email",
    "số sao": "rating",
}
"""Two-token names read as one (Vietnamese writes words in syllables: "đánh giá" is a rating,
not a price); a trailing "?" makes the type a hint."""

# --------------------------------------------------------------------------------------------
# values
# --------------------------------------------------------------------------------------------
CJK_NAME_SUFFIXES: dict[str, str] = {
    # zh (simplified and traditional)
    "价格": "price", "價格": "price", "售价": "price", "價": "price", "价": "price",
    "租金": "price", "月租": "price", "费用": "price", "費用": "price", "费": "price",
    "費": "price", "薪资": "price", "薪資": "price", "薪水": "price", "工资": "price",
    "月薪": "price", "年薪": "price", "首付": "price", "金额": "price", "金額": "price",
    "面积": "count", "面積": "count", "数量": "count", "數量": "count", "人数": "count",
    "人數": "count", "次数": "count", "件数": "count", "个数": "count", "個數": "count",
    "页数": "count", "销量": "count", "銷量": "count", "浏览量": "count", "播放量": "count",
    "阅读量": "count", "评论数": "count", "点赞数": "count", "收藏数": "count",
    "粉丝数": "count", "年限": "count",
    "评分": "rating", "評分": "rating", "分数": "rating", "分數": "rating", "星级": "rating",
    "日期": "date", "时间": "date", "時間": "date",
    "电话": "phone", "電話": "phone", "手机": "phone", "手機": "phone", "手机号": "phone",
    "电话号码": "phone", "手机号码": "phone", "邮箱": "email", "邮件": "email",
    "链接": "url", "網址": "url", "网址": "url", "图片": "url", "圖片": "url",
    "编号": "text", "編號": "text", "名称": "text", "名稱": "text", "名": "text",
    "描述": "text", "说明": "text", "類型": "text", "类型": "text", "地址": "text",
    # ja
    "価格": "price", "料金": "price", "値段": "price", "家賃": "price", "給与": "price",
    "評価": "rating", "日付": "date", "日時": "date",  # 面積 and 件数 are shared with zh
    "メール": "email", "リンク": "url", "画像": "url",
    # ko
    "가격": "price", "요금": "price", "금액": "price", "월세": "price", "보증금": "price",
    "면적": "count", "개수": "count", "조회수": "count", "인원": "count", "평점": "rating",
    "별점": "rating", "점수": "rating", "날짜": "date", "일자": "date", "일시": "date",
    "전화": "phone", "전화번호": "phone", "이메일": "email", "링크": "url", "이미지": "url",
}  # fmt: skip
"""Endings of CJK field names, which are written without spaces and put the head noun last:
"挂牌价" (listing price) and "单价" (unit price) end in 价, "建筑面积" (floor area) in 面积,
"挂牌时间" (listing time) in 时间. The longest matching ending decides."""

PLACEHOLDERS = frozenset(
    {
        # en
        "n/a", "n.a.", "n.a", "na", "n/d", "null", "nil", "none", "unknown", "undefined",
        "nan", "-", "--", "---", "—", "–", "...", "…", "?", "??", "tbd", "tba", "tbc", "todo",
        "not available", "not found", "not specified", "not provided", "no data", "no info",
        "none provided", "not applicable", "unavailable", "#n/a", "#value!", "#ref!", "(none)",
        "(null)", "(empty)", "empty", "blank", "placeholder", "lorem ipsum", "xxx", "test",
        "not given", "not listed", "not stated", "not disclosed", "not set", "not known",
        "none given", "none listed", "none found", "nothing found", "no results",
        "no results found", "to be announced", "to be confirmed", "to be determined",
        # fr
        "non renseigné", "non renseigne", "non disponible", "non communiqué", "non communique",
        "inconnu", "inconnue", "non précisé", "non precise", "non spécifié", "non specifie",
        "n.c.", "aucun", "aucune", "néant", "neant",
        # es
        "no disponible", "sin datos", "sin información", "sin informacion", "desconocido",
        "desconocida", "no especificado", "sin especificar", "no aplica", "s/d",
        # pt
        "não informado", "nao informado", "não disponível", "nao disponivel", "indisponível",
        "indisponivel", "desconhecido", "desconhecida", "sem informação", "sem informacao",
        "sem dados", "não especificado", "nao especificado", "não se aplica",
        # de
        "keine angabe", "keine angaben", "k.a.", "k. a.", "k.a", "unbekannt",
        "nicht verfügbar", "nicht verfuegbar", "nicht angegeben", "keine daten", "entfällt",
        # it
        "non disponibile", "sconosciuto", "sconosciuta", "non specificato", "nessun dato",
        "n.d.", "n.d", "non pervenuto",
        # nl
        "onbekend", "niet beschikbaar", "niet opgegeven", "geen gegevens", "geen informatie",
        # pl
        "brak", "brak danych", "brak informacji", "nie podano", "nieznany", "nieznana", "b.d.",
        "b/d",
        # ru / uk
        "нет данных", "нет", "неизвестно", "не указано", "не указан", "не указана",
        "нет информации", "н/д", "немає даних", "невідомо",
        # vi
        "không có", "không rõ", "chưa có", "chưa cập nhật", "đang cập nhật",
        "không có thông tin", "không xác định",
        # id / ms
        "tidak ada", "tidak tersedia", "tidak diketahui", "belum ada", "tiada",
        # tr
        "bilinmiyor", "yok", "bilgi yok", "belirtilmemiş", "belirtilmemis", "mevcut değil",
        "veri yok",
        # zh (a lone 无 is left out: it is the answer "no" as often as "none", 有/无)
        "暂无", "暂无数据", "无数据", "暂无信息", "未知", "不详", "待定", "未填写", "未公开",
        "未提供", "暫無", "暫無資料", "無資料", "不明", "未定",
        # ja
        "なし", "該当なし", "未設定", "未入力", "未記入", "情報なし", "データなし", "ー", "－",
        # ko
        "없음", "정보 없음", "정보없음", "미정", "미상", "알 수 없음", "데이터 없음",
    }
)  # fmt: skip
"""Strings that stand for a missing value (compared stripped and lower-cased)."""

PLACEHOLDER_NOUNS = _words(
    # en
    "data info information description desc details detail title name image images photo "
    "photos picture pictures thumbnail preview review reviews rating ratings comment comments "
    "summary content text value results result price date address phone email website "
    "author category location company salary "
    # es / pt
    "dato datos información informacion descripción descripcion imagen imágenes imagenes foto "
    "fotos título titulo nombre reseñas opiniones comentarios valoraciones precio detalles "
    "dados informação informacao informações informacoes descrição descricao imagem imagens "
    "nome avaliações avaliacoes comentários preço preco "
    # fr / de / it / nl
    "données donnees informations titre nom avis commentaires prix détails "
    "daten angabe angaben informationen beschreibung bild bilder titel bewertungen "
    "kommentare preis dati informazioni descrizione immagine immagini titolo recensioni "
    "commenti prezzo dettagli gegevens informatie beschrijving afbeelding naam prijs "
    # ru / pl / tr / id
    "данных информации описания фото изображения названия отзывов комментариев цены "
    "danych informacji opisu zdjęć zdjęcia tytułu nazwy opinii komentarzy ceny "
    "veri bilgi açıklama aciklama resim fotoğraf başlık yorum fiyat "
    "informasi deskripsi gambar judul ulasan komentar harga "
    # zh / ja / ko
    "数据 信息 描述 简介 图片 标题 评价 评论 评分 价格 资料 详情 内容 資料 資訊 "
    "データ 情報 説明 画像 タイトル レビュー 評価 価格 詳細 "
    "데이터 정보 설명 이미지 제목 리뷰 평점 가격 내용 "
    # vi single syllables; its two-syllable nouns are added below
    "ảnh giá"
) | frozenset(("dữ liệu", "thông tin", "mô tả", "hình ảnh", "tiêu đề", "đánh giá", "bình luận"))
"""Nouns of scraped data ("description", "datos", "数据") that a negation turns into a stand-in
for a missing value: "No description", "sin datos", "暂无数据", "bilgi yok"."""

PLACEHOLDER_PREFIXES = (
    "no", "not", "without", "sin", "sem", "pas de", "pas d'", "aucun", "aucune", "kein",
    "keine", "keinen", "nessun", "nessuna", "nessuno", "geen", "нет", "без", "brak", "không có",
    "chưa có", "tidak ada", "belum ada", "tanpa", "暂无", "暫無", "无", "無", "没有", "沒有",
)  # fmt: skip
"""Negations that make "<negation> <data noun>" a placeholder ("No description", "sin datos",
"brak opisu", "暂无图片"); only with a noun of :data:`PLACEHOLDER_NOUNS`, since "No Country for
Old Men", "sin gluten" and "无抵押" (no mortgage) are real values."""

PLACEHOLDER_SUFFIXES = (
    "not available", "not found", "not provided", "not specified", "not given", "not listed",
    "not set", "unavailable", "missing", "n/a", "no disponible", "não disponível",
    "non disponible", "nicht verfügbar", "non disponibile", "niet beschikbaar", "yok",
    "なし", "無し", "없음", "不详", "未知", "不明",
)  # fmt: skip
"""Endings that make "<data noun> <ending>" a placeholder ("Image not available",
"bilgi yok", "情報なし", "정보 없음")."""

PLACEHOLDER_TAILS = _words(
    "available found provided given yet specified listed entered added set shown disponible "
    "disponível verfügbar disponibile"
)
"""Words that may follow "<negation> <data noun>" ("No reviews yet", "No image available")."""

CJK_PLACEHOLDER_PREFIXES = ("暂无", "暫無", "未知")
"""Chinese prefixes that make any short noun a placeholder: "暂无X" is "no X yet", "未知X" is
"unknown X" (未知结构, 暂无评分)."""

CJK_PLACEHOLDER_SUFFIXES = ("不详", "未知", "待定", "不明", "未定", "미정", "미상")
"""CJK endings that make any short noun a placeholder: "地址不详" (address unknown), "价格待定"
(price to be decided), "価格未定", "住所不明"."""

CURRENCY_CODES = _words(
    "aed afn all amd ang aoa ars aud awg azn bam bbd bdt bgn bhd bif bmd bnd bob brl bsd btn "
    "bwp byn bzd cad cdf chf clp cny cop crc cuc cup cve czk djf dkk dop dzd egp ern etb eur "
    "fjd fkp gbp gel ghs gip gmd gnf gtq gyd hkd hnl hrk htg huf idr ils inr iqd irr isk jmd "
    "jod jpy kes kgs khr kmf kpw krw kwd kyd kzt lak lbp lkr lrd lsl lyd mad mdl mga mkd mmk "
    "mnt mop mru mur mvr mwk mxn myr mzn nad ngn nio nok npr nzd omr pab pen pgk php pkr pln "
    "pyg qar ron rsd rub rwf sar sbd scr sdg sek sgd shp sle sll sos srd ssp stn svc syp szl "
    "thb tjs tmt tnd top try ttd twd tzs uah ugx usd uyu uzs ves vnd vuv wst xaf xcd xof xpf "
    "yer zar zmw zwl rmb ntd"
)
"""ISO 4217 currency codes (lower-case), plus the common aliases RMB and NTD."""

CURRENCY_SYMBOLS = frozenset("$€£¥₹₩₽₦₫৳₱₺₴₪฿₡₲₵₸₭₮₼₾﷼¢₨")
"""One-character currency signs."""

CURRENCY_WORDS = _words(
    "us$ usd$ c$ ca$ a$ au$ nz$ hk$ s$ sg$ nt$ r$ mx$ rd$ us dollar dollars euro euros pound "
    "pounds rs rs. inr. rp rp. tl zł zl złotych kr kr. kn ft lei лв руб руб. р. р грн dh dhs "
    "đ vnđ vnd đồng dong ksh kes rm sr qr dhs. fr. chf. yen yuan 元 円 원 ج.م ريال درهم جنيه "
    "egp. le taka tk tk. naira ₦. peso pesos reais real rupee rupees rupiah ringgit baht lira"
)
"""Local currency names and prefixed dollar signs (lower-case)."""

FREE_WORDS = _words(
    "free kostenlos gratis gratuit gratuite gratuito gratuita grátis darmowy darmowa "
    "bezpłatnie bezpłatny бесплатно miễn ücretsiz gratuït 免费 無料 مجاني"
)
"""Words for a stated zero price ("Free", "Kostenlos", "Free shipping")."""

PRICE_QUALIFIERS = _words(
    "from starting at starts as low only now was sale special offer approx approx. ca ca. "
    "circa about around min min. max max. minimum maximum up to ab bis von à partir de desde "
    "a partir od do от до từ mulai per each ea mo month monthly yr year yearly annual annually "
    "wk week weekly day daily night nightly hr hour hourly pp person pcm pw pa p.m. m² m2 sqft "
    "incl incl. inkl inkl. excl excl. vat mwst tva iva ttc ht plus shipping delivery lieferung "
    "net gross brutto netto list retail price preis prix precio cena giá harga "
    "monat mois mes mês miesiąc месяц tháng bulan ay und y et e and or to"
)
"""Words allowed around a price amount ("From", "/mo", "approx.", "inkl. MwSt.")."""

STAR_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
"""Star words as scrapers see them in class names and alt texts (books.toscrape "Three")."""

STAR_GLYPHS = frozenset("★☆✩✪✫✬✭✮✯✰⭐🌟½")
"""Characters that draw a star rating ("★★★★☆", "4.4★")."""

RATING_UNITS = _words(
    "star stars sao étoile étoiles etoile etoiles stern sterne sternen estrella estrellas "
    "estrela estrelas stella stelle ster sterren gwiazdka gwiazdki gwiazdek звезда звезды "
    "звёзд звезд bintang yıldız yildiz 星 ★ ⭐ bubble bubbles bolinhas bulles"
)
"""Units after a star score ("4.5 stars", "5 sao", "4 étoiles", "4,5 Sterne")."""

SCALE_WORDS = frozenset(
    (
        "/",
        "out of",
        "of",
        "sur",
        "von",
        "de",
        "su",
        "uit",
        "na",
        "из",
        "trên",
        "dari",
        "üzerinden",
        "em",
        "z",
        "от",
    )
)
"""Words between a score and its scale ("4.5 out of 5", "4,5 von 5", "8 sur 10")."""

COUNT_UNITS = _words(
    "review reviews rating ratings vote votes comment comments sold order orders follower "
    "followers like likes view views download downloads install installs answer answers "
    "question questions people customers users members items item results products product "
    "helpful verified purchase purchases times kali dibaca terjual ulasan penilaian orang "
    "đánh giá lượt bán đã người bewertung bewertungen rezension rezensionen verkauft mal "
    "avis commentaires vendus fois reseña reseñas opiniones valoraciones vendidos veces "
    "avaliações avaliacoes comentários vendidos vezes recensioni venduti volte recensies "
    "beoordelingen verkocht opinie opinii ocen sprzedanych razy отзыв отзыва отзывов оценок "
    "продано раз değerlendirme yorum satıldı kez m² m2 sqm sqft ft² sq ft mins min minutes "
    "minute hr hrs hour hours sec secs seconds servings serves portions rooms beds baths "
    "bedrooms bathrooms pcs pieces units copies stock left available applicants "
    "applications candidaturas candidatos candidates employees watchers forks stars "
    "subscribers points point pts karma upvotes bd bds ba bath ulasan terjual opiniones "
    "reseñas avaliações commentaires 条 件 人 評価 レビュー 评价 تقييم تقييمات"
)
"""Words a count may carry ("197 đánh giá", "1,234 ratings", "28 sold", "Dibaca 34.743 kali")."""

NUMBER_SUFFIXES = {
    "k": 1e3, "m": 1e6, "b": 1e9, "mn": 1e6, "bn": 1e9, "mil": 1e3, "mio": 1e6, "mln": 1e6,
    "mrd": 1e9, "tys": 1e3, "tys.": 1e3, "тыс": 1e3, "тыс.": 1e3, "млн": 1e6, "rb": 1e3,
    "ribu": 1e3, "jt": 1e6, "juta": 1e6, "n": 1e3, "nghìn": 1e3, "tr": 1e6, "triệu": 1e6,
    "tsd": 1e3, "tsd.": 1e3, "lakh": 1e5, "lac": 1e5, "cr": 1e7, "crore": 1e7, "万": 1e4,
    "千": 1e3, "億": 1e8, "亿": 1e8, "bin": 1e3, "milyon": 1e6,
}  # fmt: skip
"""Abbreviations of thousands and millions after a number ("1.5K", "2,5 mil", "3 тыс.")."""

MONTHS = _words(
    # en
    "jan january feb february mar march apr april may jun june jul july aug august sep sept "
    "september oct october nov november dec december "
    # fr
    "janv janvier févr fevr février fevrier mars avr avril mai juin juil juillet août aout "
    "septembre octobre novembre déc décembre decembre "
    # de / nl
    "januar jänner februar märz maerz mär okt oktober dez dezember januari februari maart "
    "mei juni juli augustus oktober "
    # es / pt / it
    "ene enero febrero marzo abr abril mayo junio julio ago agosto septiembre setiembre "
    "octubre noviembre dic diciembre janeiro fev fevereiro março marco maio junho julho set "
    "setembro out outubro novembro dez dezembro gen gennaio febbraio aprile maggio giugno "
    "luglio settembre ottobre novembre dicembre "
    # pl (nominative and genitive)
    "sty styczeń stycznia lut luty lutego marzec marca kwi kwiecień kwietnia maj maja cze "
    "czerwiec czerwca lip lipiec lipca sie sierpień sierpnia wrz wrzesień września paź "
    "październik października lis listopad listopada gru grudzień grudnia "
    # ru (nominative, genitive, short)
    "январь января янв февраль февраля фев март марта мар апрель апреля апр май мая июнь "
    "июня июн июль июля июл август августа авг сентябрь сентября сен сент октябрь октября "
    "окт ноябрь ноября ноя нояб декабрь декабря дек "
    # id / ms
    "januari februari maret april mei juni juli agustus september oktober november desember "
    "agu okt des "
    # tr
    "ocak şubat subat mart nisan mayıs mayis haziran temmuz ağustos agustos eylül eylul ekim "
    "kasım kasim aralık aralik "
    # vi (tháng N is handled as a pattern)
    "tháng thg "
    # ar (common spellings)
    "يناير فبراير مارس أبريل ابريل مايو يونيو يوليو أغسطس اغسطس سبتمبر أكتوبر اكتوبر نوفمبر "
    "ديسمبر"
)
"""Month names and abbreviations in the common scraping languages (lower-case)."""

WEEKDAYS = _words(
    "mon monday tue tues tuesday wed wednesday thu thur thurs thursday fri friday sat saturday "
    "sun sunday lun lundi mardi mer mercredi jeu jeudi ven vendredi sam samedi dim dimanche "
    "mo montag di dienstag mi mittwoch do donnerstag fr freitag sa samstag so sonntag lunes "
    "martes miércoles jueves viernes sábado domingo segunda terça quarta quinta sexta "
    "понедельник вторник среда четверг пятница суббота воскресенье пн вт ср чт пт сб вс "
    "senin selasa rabu kamis jumat sabtu minggu"
)
"""Weekday names (a weekday next to a day number is part of a date: "Thu, 30 June")."""

RELATIVE_DAYS = frozenset(
    {
        "today", "yesterday", "tomorrow", "now", "just now", "just posted", "recently",
        "tonight", "this week",
        "last week", "last month", "last year", "this month", "aujourd'hui", "aujourd’hui",
        "hier", "demain", "heute", "gestern", "morgen", "vorgestern", "hoy", "ayer", "mañana",
        "hoje", "ontem", "amanhã", "amanha", "oggi", "ieri", "domani", "vandaag", "gisteren",
        "dzisiaj", "dziś", "dzis", "wczoraj", "jutro", "сегодня", "вчера", "завтра",
        "hari ini", "kemarin", "besok", "hôm nay", "hôm qua", "ngày mai", "bugün", "dün",
        "yarın", "今天", "昨天", "明天", "今日", "昨日", "刚刚", "刚才", "剛剛", "前天",
        "一昨日", "おととい", "明日", "오늘", "어제", "내일", "그저께", "방금", "방금 전",
    }
)  # fmt: skip
"""Whole relative dates ("Today", "yesterday", "hôm qua")."""

RELATIVE_MARKERS = _words(
    "ago back há ha atrás atras hace vor il fa geleden temu назад lalu yang trước önce "
    "前 ago. posted updated active since in dans en em tra за через"
)
"""Words that make "N <unit>" a relative date ("2 days ago", "vor 3 Tagen", "3 дня назад")."""

TIME_UNITS = _words(
    "s sec secs second seconds m min mins minute minutes h hr hrs hour hours d day days w wk "
    "wks week weeks mo mos month months y yr yrs year years "
    "seconde secondes minute minutes heure heures jour jours semaine semaines mois an ans "
    "année années sekunde sekunden minute minuten stunde stunden tag tage tagen woche wochen "
    "monat monate monaten jahr jahre jahren segundo segundos minuto minutos hora horas día "
    "días dia dias semana semanas mes meses mês año años ano anos secondo secondi ora ore "
    "giorno giorni settimana settimane mese mesi anno anni seconde minuut minuten uur dag "
    "dagen week weken maand maanden jaar jaren sekunda sekund minuta minut godzina godzin "
    "godziny dzień dni tydzień tygodnie tygodni miesiąc miesiące miesięcy rok lata lat "
    "секунду секунды секунд минуту минуты минут час часа часов день дня дней неделю недели "
    "недель месяц месяца месяцев год года лет detik menit jam hari minggu bulan tahun giây "
    "phút giờ ngày tuần tháng năm saniye dakika saat gün hafta ay yıl 秒 分钟 小时 天 周 "
    "个月 年 분 시간 일 주 개월"
)
"""Time units of relative dates in the common languages ("days", "Tagen", "semana", "ngày")."""

CJK_POSTED_WORDS = (
    "发布", "發布", "發佈", "发表", "發表", "更新", "投稿", "公開", "公开", "掲載", "作成", "编辑",
    "작성", "등록", "게시", "업데이트",
)  # fmt: skip
"""Verbs glued after a CJK relative date ("3天前发布", "posted 3 days ago"; "1日前更新")."""

ERROR_PHRASES = (
    "access denied", "robot check", "are you a robot", "are you a human",
    "verify you are human", "verify you are a human", "404 not found", "404 - not found",
    "404 error", "error 404", "403 forbidden", "500 internal server error",
    "502 bad gateway", "503 service unavailable", "too many requests", "request blocked",
    "you have been blocked", "sorry, you have been blocked", "unusual traffic",
    "just a moment...", "checking your browser", "attention required", "pardon our interruption",
    "please enable javascript", "please turn on javascript", "javascript is disabled",
    "javascript is required", "please enable cookies", "enable javascript and cookies",
    "this page isn't available", "this site can't be reached", "seite nicht gefunden",
    "page introuvable", "página no encontrada", "página não encontrada", "страница не найдена",
    "acceso denegado", "accès refusé", "zugriff verweigert", "please complete the captcha",
    "complete the captcha", "enter the characters you see below",
)  # fmt: skip
"""Beginnings of error, anti-bot and loading page texts (matched lower-cased, at the start of
short texts)."""

ERROR_TEXTS = frozenset(
    {
        "loading", "loading...", "loading…", "please wait", "please wait...", "captcha",
        "forbidden", "not found", "page not found", "error", "an error occurred",
        "something went wrong", "service unavailable", "bad gateway", "internal server error",
        "just a moment", "request timed out", "connection timed out", "cargando...",
        "carregando...", "chargement...", "chargement en cours...", "wird geladen...",
        "загрузка...", "memuat...", "đang tải...", "yükleniyor...", "caricamento...",
    }
)  # fmt: skip
"""Whole texts of error and loading pages ("Loading...", "Forbidden"): only the exact text,
since "Loading dock" and "Forbidden City tour" are real content."""

HTML_TAGS = _words(
    "a abbr address area article aside audio b base bdi bdo blockquote body br button canvas "
    "caption cite code col colgroup data datalist dd del details dfn dialog div dl dt em embed "
    "fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 head header hr html i "
    "iframe img input ins kbd label legend li link main map mark meta meter nav noscript "
    "object ol optgroup option output p param picture pre progress q rp rt ruby s samp script "
    "section select small source span strong style sub summary sup svg table tbody td "
    "template textarea tfoot th thead time title tr track u ul var video wbr center"
)
"""HTML element names: `<span ...>` or `</div>` in a value is markup residue."""

NUMBER_WORDS = _words(
    "a an one two three four five six seven eight nine ten un une uno una um uma ein eine einem "
    "einer einen zwei drei due tre één een twee jeden jedna dwa один одна два три satu dua tiga "
    "bir iki üç một hai ba"
)
"""Small numbers written as words in relative dates ("one month ago", "vor einem Tag")."""
