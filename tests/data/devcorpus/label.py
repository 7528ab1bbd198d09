#!/usr/bin/env python3
"""Write labels.json for the dev corpus's crawls.jsonl, following the rules in ../realdata/README.md.

The rules are not restated here: every value judge (`judge_text`, `judge_price`, `judge_rating`, `judge_count`,
`judge_date`, `judge_url`, `judge_email`, `judge_phone`), the constants they use (PLACEHOLDERS, RESIDUE, MOJIBAKE,
MONTHS, RELATIVE) and the sampling helpers (`dedupe`, `shape`, GOOD) are IMPORTED from ../realdata/label.py, so
both corpora are labelled by literally the same code. This file only adds what is specific to these crawls:
  * FIELD_TYPES: the type of every required field, judged by its name (any language) and its values;
  * OVERRIDES: per-dataset hand calls the generic rules cannot make - each one looked at by hand, with its reason;
  * DATASETS: pattern types (acceptable, best first), verdict and its reason, written after reading
    `python3 label.py --stats` and `--sample`;
  * EXTRA: notable values that must be labelled even if the sampler would skip them.
Sampled values per required field: distinct values in file order, invalid ones first (the original's sampler).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import OrderedDict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # our build.py (the original label.py imports a module named `build` on load)

_spec = importlib.util.spec_from_file_location("realdata_label", HERE.parent / "realdata" / "label.py")
rules = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rules)

# the original rules, by name (nothing below redefines them)
judge_text, judge_price, judge_rating = rules.judge_text, rules.judge_price, rules.judge_rating
judge_count, judge_date, judge_url = rules.judge_count, rules.judge_date, rules.judge_url
judge_email, judge_phone = rules.judge_email, rules.judge_phone
JUDGES, PLACEHOLDERS, RESIDUE, MOJIBAKE = rules.JUDGES, rules.PLACEHOLDERS, rules.RESIDUE, rules.MOJIBAKE
dedupe, shape, GOOD, _num = rules.dedupe, rules.shape, rules.GOOD, rules._num

# --------------------------------------------------------------------------------------------
# per-dataset configuration
# --------------------------------------------------------------------------------------------
FIELD_TYPES = {
    "olx": {"Title": "text", "Model": "text", ' "Brand"': "text", ' "Year"': "date", ' "Fuel"': "text",
            ' "Price"': "price", ' "KM_Driven"': "count", ' "Description"': "text", "URL": "url"},
    "carfax": {"Title": "text", "Cost": "price", "Miles": "count", "Colour": "text", "Body": "text"},
    "loscoches": {"Model": "text", "Price": "price", "year": "date", "kms": "count"},
    "drom": {"name": "text", "link": "url", "parameters": "text", "city": "text", "price_rub": "price"},
    "donedeal": {"year": "date", "name": "text", "engine_size": "text", "mileage(km)": "count", "price(eur)": "price",
                 "link": "url"},
    "autoplius": {"Url": "url", "Brand": "text", "Model": "text", "Price": "price", "Date of manufacture": "date",
                  "Mileage": "count", "Engine": "text", "Fuel type": "text", "Body type": "text", "Gearbox": "text",
                  "Color": "text"},
    "dangdang": {"name": "text", "price": "price", "press": "text", "content": "text"},
    "amazonin": {"title": "text", "reviews": "text"},
    "grbest": {"Title": "text", "URL": "url", "Authors": "text", "Avg Ratings": "rating", "Rating": "count",
               "Published_year": "date"},
    "grgenre": {"author": "text", "book_title": "text", "pages_amt": "count", "price": "price", "publish_date": "date",
                "rating_avg": "rating", "ratings_amt": "count", "reviews_amt": "count"},
    "grtop": {"title": "text", " author": "text", " image": "url", " rating": "rating"},
    "grlist": {"book_url": "url", "name": "text", "author": "text", "author_url": "url", "score": "count",
               "isbn": "text", "rating": "rating", "rating_count": "count", "review_count": "count",
               "page_count": "count", "year": "date", "genres": "text"},
    "lianjia": {"链接": "url", "小区": "text", "格局": "text", "面积（平方米）": "count", "地铁线路": "text", "地铁站": "text",
                "距地铁距离（米）": "count", "总价（万）": "price", "每平米价格（元）": "price", "看房次数": "count"},
    "lianjiarent": {"direction": "text", "zone": "text", "title": "text", "money": "price", "meters": "count",
                    "location": "text"},
    "suumo": {"マンション名": "text", "住所": "text", "立地1": "text", "築年数": "count", "建物の高さ": "count", "階層": "text",
              "賃料料": "price", "管理費": "price", "敷/礼/保証/敷引,償却": "price", "間取り": "text", "専有面積": "count",
              "詳細URL": "url"},
    "hh": {"name": "text", "tags": "text", "link": "url", "experience": "text", "lower_salary": "price",
           "upper_salary": "price", "currency": "text"},
    "hhorsk": {"Название": "text", "Компания": "text", "Зарплата": "price", "Ссылка": "url"},
    "jobsearchaz": {"Job_name": "text", "Company_name": "text"},
    "djinni": {"title": "text", "technologies": "text"},
    "seattle": {"Name": "text", "Date & Time": "date", "Location": "text", "Type": "text", "Region": "text"},
    "vnexpress": {"title": "text", "category": "text", "date": "date", "body": "text"},
    "shorouk": {"url": "url", "title": "text", "author": "text", "published_at": "date", "description": "text",
                "site_name": "text", "text": "text"},
    "rbc": {"category": "text", "title": "text", "publish_date": "date", "fronturl": "url", "picture": "url",
            "text": "text"},
    "investing": {"title": "text", "link": "url", "content": "text", "author": "text", "published": "date"},
    "yellowpages": {"name": "text", "phone": "phone", "categories": "text", "location": "text", "website": "url",
                    "yellowpages_url": "url"},
    "ypcontacts": {"company_name": "text", "telephone": "phone", "street": "text", "locality": "text", "region": "text",
                   "postal_code": "text", "website": "url"},
    "openrice": {"Name": "text", "Address": "text", "Food Type": "text", "Price Range": "price", "Smile Score": "count",
                 "Cry Score": "count", "Contact": "phone", "Opening Hours": "text", "URL": "url"},
    "beli": {"Name": "text", "Price": "text", "Categories": "text", "Neighborhood": "text", "City": "text",
             "Rating": "rating"},
    "lehigh": {"primaryEmailAddress": "email", "firstName": "text", "lastName": "text", "description": "text",
               "name": "text", "status": "text"},
    "lazada": {"name": "text", "stars": "rating", "date": "date", "review": "text"},
    "flipkart": {"Review_Date": "date", "User_Rating_Out_Of_5": "rating", "Review_Title": "text", "Review_Body": "text"},
    "flipkartrm": {"Name": "text", "Rating": "rating", "Review Heading": "text", "Review": "text"},
    "transfermarkt": {"club_name": "text", "avg_age": "count", "total_market_value": "price"},
}

# calls made by hand on values the generic rules cannot settle: (key, field) -> callable(value) -> (valid, why) | None
# (None = use the generic judge). Each class was looked at by hand on the values it touches.
def _year_date(v):
    """A model / publication year ("2013") or year-month ("2022-04") - ISO 8601 at reduced precision."""
    s = v.strip() if isinstance(v, str) else ""
    m = re.fullmatch(r"(\d{4})(-(0[1-9]|1[0-2]))?", s)
    if m and 1900 <= int(m.group(1)) <= 2030:
        return True, "year" + ("-month" if m.group(2) else "") + " (ISO 8601 reduced precision), a plausible year"
    return None


ENTITY = re.compile(r"&(?:amp|lt|gt|quot|apos|nbsp|#0*39|#\d{2,5});", re.I)


def _entity_residue(v):
    if isinstance(v, str) and ENTITY.search(v):
        return False, "HTML entity residue ('&amp;amp;') left in the text - markup residue, same class as '<span>'"
    return None


def _carfax_cost(v):
    s = (v or "").strip()
    if s.startswith("Location:"):
        return False, "the listing's location line shifted into the price field (the scraper takes line 6 of the card)"
    if re.fullmatch(r"Price: \$[\d,]+\$[\d,]+/mo est\.", s):
        return False, "two amounts glued without a separator (price and monthly estimate: '$9,980$165/mo') - joined values"
    return None


def _one_cjk_word(v):
    if isinstance(v, str) and re.fullmatch(r"[\u4e00-\u9fff]", v.strip()):
        return True, "one CJK character that is a whole word (南 = south-facing); the one-character rule targets stray Latin characters"
    return None


def _currency_symbol(v):
    if isinstance(v, str) and re.fullmatch(r"[₽$€£¥₸₴]|[A-Z]{3}", v.strip()):
        return True, "currency symbol - the complete value of a currency field"
    return None


def _opening_hours(v):
    if isinstance(v, str) and re.search(r"\d{2}:\d{2}\d{2}:\d{2}", v):
        return False, "several opening-hour ranges glued without a separator ('08:00 - 16:0017:30 - 22:00') - joined values"
    return None


def _price_tier(v):
    if isinstance(v, str) and re.fullmatch(r"\${1,4}", v.strip()):
        return True, "price level on the site's $-$$$$ scale (a category, not an amount)"
    return None


def _read_more(v):
    if isinstance(v, str) and v.rstrip().endswith("READ MORE"):
        return False, "UI link text 'READ MORE' glued onto the review text (the collapsed review, not its full text)"
    return None


def _stringified_list_date(v):
    if isinstance(v, str) and v.strip().startswith("[") and v.strip().endswith("]"):
        return False, "stringified Python list around the date (\"['Thứ hai, 26/10/2020, 22:21 (GMT+7)']\") - same class as the text rule"
    return None


def _ru_not_given(v):
    if isinstance(v, str) and v.strip().lower() in ("не указана", "не указано", "з/п не указана"):
        return False, "placeholder 'Не указана' ('not specified') - no salary in the field"
    return None


def _review_objects(v):
    """ab-KS Amazon 'reviews': a list of {review_text, review_time}; each element must carry text and a date."""
    if not isinstance(v, list) or not v:
        return False, "empty list"
    bad = [e for e in v if not (isinstance(e, dict) and judge_text(e.get("review_text"))[0]
                                and judge_date(e.get("review_time"))[0])]
    return (not bad, f"{len(v)} review objects, each with text and an ISO date" if not bad
            else f"{len(bad)} of {len(v)} review objects have an empty review_text")


OVERRIDES = {
    ("olx", ' "Year"'): _year_date,
    ("loscoches", "year"): _year_date,
    ("donedeal", "year"): _year_date,
    ("autoplius", "Date of manufacture"): _year_date,
    ("grbest", "Published_year"): _year_date,
    ("grlist", "year"): _year_date,
    ("grgenre", "publish_date"): _year_date,
    ("olx", "Title"): _entity_residue,
    ("olx", ' "Description"'): _entity_residue,
    ("carfax", "Cost"): _carfax_cost,
    ("lianjiarent", "direction"): _one_cjk_word,
    ("hh", "currency"): _currency_symbol,
    ("openrice", "Opening Hours"): _opening_hours,
    ("beli", "Price"): _price_tier,
    ("flipkartrm", "Review"): _read_more,
    ("vnexpress", "date"): _stringified_list_date,
    ("hhorsk", "Зарплата"): _ru_not_given,
    ("amazonin", "reviews"): _review_objects,
}

# openrice: the Address field holds the restaurant's name on every row - judged against the item's own name
ITEM_HOOKS = {
    ("openrice", "Address"): lambda v, it: ((False, "the address field repeats the restaurant's name - wrong element "
                                              "scraped, no address") if isinstance(v, str) and v == it.get("Name") else None),
}
EXTRA = {
    "olx": [(' "Year"', "2007\r")],
    "grbest": [("Rating", "698,883")],
    "grtop": [(" rating", "really")],
    "suumo": [("敷/礼/保証/敷引,償却", "7.8万円/7.8万円")],
    "lazada": [("name", "by S***.")],
    "hh": [("experience", "Требуемый опыт работы: 3–6 лет")],
}

P = {"product": ["product_list", "price_extraction"], "price": ["price_extraction", "product_list"],
     "vehicle": ["product_list", "price_extraction", "generic_extraction"],
     "books": ["product_list", "generic_extraction"], "catalogue": ["product_list", "generic_extraction"],
     "pwr": ["product_with_reviews", "review_extraction"], "review": ["review_extraction"],
     "article": ["article_extraction"], "contact": ["contact_info", "business_listing"],
     "business": ["business_listing", "contact_info"], "job": ["job_listing"], "event": ["event_listing"],
     "estate": ["real_estate_listing"], "generic": ["generic_extraction"],
     "groups": ["contact_info", "business_listing", "generic_extraction"]}

# pattern types (acceptable, best first), verdict, reason - written after reading --stats and --sample
DATASETS = {
    "olx": (P["vehicle"], "flawed", "Used-car classifieds from olx.in (Bengaluru, Honda Civic). The hand-rolled CSV writer left quote "
            "residue in the header keys (' \"Brand\"', ' \"Year\"') and a carriage return inside every Year and KM_Driven cell "
            "('2007\\r', '75,000km\\r' - valid once stripped); 8 titles/descriptions carry HTML entity residue ('95918&amp;amp;49982') "
            "and one description mojibake ('Â '). Prices, URLs, models valid; a few ads are spare parts, not cars."),
    "carfax": (P["vehicle"], "flawed", "carfax.com used cars (Selenium, header-less file). The price field never holds a clean price: "
               "84 % glue price and monthly estimate ('Price: $9,980$165/mo est.'), 16 % hold the location line shifted in "
               "('Location: Hempstead, NY (18 miles ...)'). 45 of 70 rows (64 %) are exact repeats. Title, miles, colour, body valid."),
    "loscoches": (P["vehicle"], "clean", "Spanish (Colombia) used-car dealer: model, price in pesos with dot grouping ('31.800.000'), "
                  "model year and km - all valid (one km '004' is zero-padded but a number)."),
    "drom": (P["vehicle"], "clean", "Russian car classifieds (auto.drom.ru, ';'-separated): name with year, link, a parameters string "
             "('1.8 л (126 л.с.), бензин, ...'), city and '529 000₽' prices - all valid, no duplicates."),
    "donedeal": (P["vehicle"], "clean", "Irish car classifieds (donedeal.ie, Ford): year, name, engine, mileage and euro price as bare "
                 "numbers, listing links - all valid."),
    "autoplius": (P["vehicle"], "clean", "Lithuanian car classifieds (en.autoplius.lt) opened ad by ad: core specs valid ('2022-04' "
                  "year-month, '27 500 km', '111 199 ' euro prices without sign); colour absent on 10 ads and one mileage empty "
                  "(not shown by those ads) - 98.7 %. (VIN 'WBACW210...\\n Show' UI text exists but is not a required field.)"),
    "dangdang": (P["product"], "clean", "Chinese bookstore listing (dangdang.com, Scrapy): titles, '¥50.20' prices and publishers valid; "
                 "13 % of blurbs are the scraper's 'N/A' for books the listing shows without one (genuinely missing). 96.7 %."),
    "amazonin": (P["pwr"], "flawed", "Two amazon.in smartwatch pages with 100 nested reviews each ({review_text, review_time}); titles "
                 "are site-truncated ('...Horizon Curve...') but readable. 3 reviews of the first product have an empty text, so "
                 "that list fails the element rule (as the original's Amazon list). Low confidence: the defect is 1.5 % of reviews."),
    "grbest": (P["books"], "flawed", "Goodreads best-books list. Every row is written twice (50 of 100 exact duplicates). The column "
               "named 'Rating' holds rating COUNTS ('698,883', '1,002,966') - typed count from its values and valid as such; 'Avg "
               "Ratings' holds the 0-5 average. One Published_year is empty."),
    "grgenre": (P["books"], "flawed", "Goodreads books by genre with detail pages. The price field holds the buy-button's store name on "
                "80 % of rows ('Kindle Unlimited\\n', 'Amazon UK', 'Amazon') - no amount; 10 % have no page count. Ratings "
                "('4.50'), counts and dates ('January 27th 2017') are valid."),
    "grtop": (P["catalogue"], "clean", "Goodreads top list as a catalogue without prices: title, author, cover URL and 0-5 rating. One "
              "rating is the word 'really' (a wrong token on one card) - 99.8 %, not systematic. Header cells keep a leading space."),
    "grlist": (P["books"], "clean", "Goodreads list with detail pages: site-relative book links ('/book/show/2767052-the-hunger-games'), "
               "list score and rating/review counts, 0-5 ratings, years - valid; 27 % of ISBNs are the scraper's 'null' for editions "
               "Goodreads shows without one (genuinely missing). 97.8 %."),
    "lianjia": (P["estate"], "clean", "Beijing second-hand flats (bj.lianjia.com), Chinese keys: link, compound, layout '4室1厅', area, "
                "metro line/station/distance, total price in 万 and price per m² - all valid."),
    "lianjiarent": (P["estate"], "flawed", "Shanghai rentals (sh.lianjia.com): the spider yields the same first card 30 times - 29 of 30 "
                    "rows are exact duplicates, one listing in all. Its values are valid ('6400' rent, '90平米  ' with trailing "
                    "spaces, direction '南'). Low confidence: so much duplication could be called broken."),
    "suumo": (P["estate"], "clean", "Japanese rentals (suumo.jp), an Excel UTF-16 tab-separated save: names, addresses, stations, "
              "'築60年', '7.8万円' rents, '19.8m2' areas, URLs valid; deposit/key-money pair in one site field ('7.8万円/7.8万円'). "
              "'-' fees and '-/-' deposits are the site's 'none' - invalid as values, not a scraper bug. 99.5 %."),
    "hh": (P["job"], "flawed", "Russian job board (hh.ru) with detail pages. 'tags' is a stringified Python list on every row; salaries "
           "are empty on 79 % (no salary published) and with them the currency; some links are ad-click redirects "
           "(adsrv.hh.ru/click?...) - absolute URLs, valid. Experience keeps its UI label ('Требуемый опыт работы: 3–6 лет')."),
    "hhorsk": (P["job"], "flawed", "hh.ru (Orsk) search page: titles, companies and links valid, but the salary is 'Не указана' "
               "('not specified') on all 17 vacancies - the field never carries a salary."),
    "jobsearchaz": (P["job"], "clean", "Azerbaijani job board (jobsearch.az): job titles and companies padded with spaces "
                    "(' Memar ') but readable - all valid. (The pandas index column is not a required field.)"),
    "djinni": (P["job"], "clean", "Ukrainian IT job board (djinni.co, Scrapy), 12 Python vacancies: title and technology list valid."),
    "seattle": (P["event"], "clean", "visitseattle.org event listing: names, 'Now through 1/28/2024' / dated entries, venues, types, "
                "regions - all valid."),
    "vnexpress": (P["article"], "broken", "Vietnamese news (vnexpress.net, Scrapy): every title, category, body and date is a stringified "
                  "Python list (\"['Hà Nội phân công ...']\"), some 'dates' are career timelines from profile pages, 27 of 100 rows "
                  "repeat - no required value is usable as scraped."),
    "shorouk": (P["article"], "flawed", "Arabic (Egyptian) news reached through Google News RSS and fetched page by page: 10 % of "
                "articles failed to fetch (403) and carry an empty text, 31 % have no author, 4 % no site name. Titles, URLs, "
                "ISO dates and descriptions valid; two bodies are a repeated caption ('آخرون ...') but readable."),
    "rbc": (P["article"], "clean", "Russian news (rbc.ru search API as the site serves it): category, title, ISO date, URL, picture "
            "and text valid on all 20."),
    "investing": (P["article"], "flawed", "investing.com news with detail pages: titles, links and bodies valid, but 'published' is "
                  "empty on every article and the author on 82 % - fields never filled."),
    "yellowpages": (P["business"], "clean", "yellowpages.com restaurants (Scrapy): names, '(219) 874-4268' phones, joined category "
                    "lists, addresses and listing URLs valid; 30 % have no website (the listing shows none). 95.0 %."),
    "ypcontacts": (P["contact"], "clean", "yellowpages.com real-estate companies, Cincinnati: company, phone, street, locality "
                   "('Cincinnati, ' keeps a comma), region, zip, website - valid; one empty row per results page (1 here) and 3 "
                   "repeats. 99.0 %."),
    "openrice": (P["business"], "flawed", "Hong Kong restaurants (openrice.com, English). The Address field repeats the restaurant name "
                 "on every row (wrong element); 21 % of opening hours glue several ranges ('08:00 - 16:0017:30 - 22:00'); 7 % "
                 "'N/A' phones. Price ranges ('$51-100'), smile/cry counts and URLs valid."),
    "beli": (P["business"] + ["generic_extraction"], "flawed", "Beli app restaurant list (New York): every rating is a bare 0-10 score "
             "('10.0', '9.99590570719603') - outside 0-5 with no scale, all rejected; 22 % empty neighbourhood, 18 % empty "
             "categories, 'None' price levels. '$$$' price levels are typed text (a category) and valid."),
    "lehigh": (P["groups"], "flawed", "Directory of Lehigh University student clubs (CampusLabs Engage JSON in the page, header-less "
               "file): every description keeps its '<p>' markup; emails, contact names, club names and status valid; 3 repeats."),
    "lazada": (P["review"], "flawed", "Lazada Philippines product reviews (Puppeteer), Tagalog/English: 32 % have an empty text "
               "(rating-only reviews kept as rows); stars are 1-5 numbers, '26 Apr 2023' dates valid; reviewer names are the "
               "site's masked byline ('by S***.')."),
    "flipkart": (P["review"], "clean", "flipkart.com book reviews: dd/mm/yyyy dates, ratings out of 5, titles and bodies - all valid."),
    "flipkartrm": (P["review"], "flawed", "flipkart.com phone reviews: every review text ends with the 'READ MORE' link text - the "
                   "collapsed teaser was scraped, not the review. Names, 1-5 ratings and headings valid."),
    "transfermarkt": (P["generic"], "clean", "Austrian Bundesliga clubs (transfermarkt.com): club, average age, market value "
                      "('€179.50m') - all valid, 12 clubs."),
}


def judge(key, field, ftype, value, item=None):
    ihook = ITEM_HOOKS.get((key, field))
    if ihook is not None and item is not None:
        got = ihook(value, item)
        if got is not None:
            return got
    hook = OVERRIDES.get((key, field))
    if callable(hook):
        got = hook(value)
        if got is not None:
            return got
    elif isinstance(hook, dict) and json.dumps(value, ensure_ascii=False) in hook:
        return hook[json.dumps(value, ensure_ascii=False)]
    return JUDGES[ftype](value)


# --------------------------------------------------------------------------------------------
# machinery (the original's, bound to this corpus's tables)
# --------------------------------------------------------------------------------------------
def load():
    import build  # noqa: E402  (this directory's build.py)
    crawls = [json.loads(l) for l in (HERE / "crawls.jsonl").read_text(encoding="utf-8").splitlines() if l.strip()]
    return [s["key"] for s in build.SOURCES], crawls, build.FIRST_LINE


def field_report(key, crawl):
    req = crawl["extraction_schema"]["required"]
    items = dedupe(crawl["data"])
    rep = OrderedDict()
    for f in req:
        ftype = FIELD_TYPES[key][f]
        vals = []
        for it in items:
            if isinstance(it, dict) and f not in it:
                vals.append((None, False, "field absent from the item (null here)"))
                continue
            v = it.get(f) if isinstance(it, dict) else None
            ok, why = judge(key, f, ftype, v, it)
            vals.append((v, ok, why))
        rep[f] = (ftype, vals)
    return items, rep


def stats(key, crawl):
    items, rep = field_report(key, crawl)
    n_all = len(crawl["data"])
    tot = sum(len(v) for _, v in rep.values())
    ok = sum(1 for _, v in rep.values() for x in v if x[1])
    junk_items = sum(1 for i in range(len(items)) if not any(rep[f][1][i][1] for f in rep))
    return dict(items=n_all, unique=len(items), dupes=n_all - len(items), valid=ok, total=tot,
                pct=round(100 * ok / tot, 1) if tot else 0.0, junk_items=junk_items,
                per_field={f: (t, sum(1 for x in v if x[1]), len(v)) for f, (t, v) in rep.items()})


HUGE = {("amazonin", "reviews")}  # one valid example for huge values (as the original does for READMEs / review lists)


def sample(key, crawl, n_bad=3):
    items, rep = field_report(key, crawl)
    out = []
    for f, (ftype, vals) in rep.items():
        seen, bad, good_by_shape = set(), [], OrderedDict()
        for v, ok, why in vals:
            k = json.dumps(v, ensure_ascii=False, sort_keys=True)
            if k in seen:
                continue
            seen.add(k)
            rec = {"field": f, "value": v, "valid": ok, "why": why}
            if ok:
                good_by_shape.setdefault(shape(v), []).append(rec)
            else:
                bad.append(rec)
        n_good = 1 if (key, f) in HUGE else GOOD[ftype]
        by_why = OrderedDict()
        for rec in bad:
            by_why.setdefault(re.sub(r"^[\d.,]+ ", "", rec["why"]), []).append(rec)
        bad = []
        while len(bad) < n_bad and any(by_why.values()):  # round-robin over failure reasons
            for recs in by_why.values():
                if recs and len(bad) < n_bad:
                    bad.append(recs.pop(0))
        good = []
        while len(good) < n_good and any(good_by_shape.values()):  # round-robin over formats
            for recs in good_by_shape.values():
                if recs and len(good) < n_good:
                    good.append(recs.pop(0))
        have = {json.dumps(r["value"], ensure_ascii=False, sort_keys=True) for r in bad + good}
        for ef, ev in EXTRA.get(key, []):
            k = json.dumps(ev, ensure_ascii=False, sort_keys=True)
            if ef == f and k not in have:
                for v, ok, why in vals:
                    if json.dumps(v, ensure_ascii=False, sort_keys=True) == k:
                        (bad if not ok else good).append({"field": f, "value": v, "valid": ok, "why": why})
                        have.add(k)
                        break
        out += bad + good
    return out


def write_labels():
    keys, crawls, first = load()
    out = []
    for n, (k, c) in enumerate(zip(keys, crawls), first):
        pts, verdict, why = DATASETS[k]
        out.append({"line": n, "domain": c["domain"], "source": c["source"],
                    "field_types": {f: FIELD_TYPES[k][f] for f in c["extraction_schema"]["required"]},
                    "pattern_types": pts, "verdict": verdict, "why": why, "values": sample(k, c)})
    (HERE / "labels.json").write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(len(out), "datasets,", sum(len(x["values"]) for x in out), "labelled values")


def main(argv):
    keys, crawls, first = load()
    if "--stats" in argv:
        only = argv[argv.index("--stats") + 1] if len(argv) > argv.index("--stats") + 1 else None
        for n, (k, c) in enumerate(zip(keys, crawls), first):
            if only and k != only:
                continue
            s = stats(k, c)
            print(f"{n:2d} {k:13s} items={s['items']:3d} uniq={s['unique']:3d} junk={s['junk_items']:2d} "
                  f"valid={s['pct']:5.1f}%")
            _, rep = field_report(k, c)
            for f, (t, ok, tot) in s["per_field"].items():
                if ok < tot:
                    bad = OrderedDict()
                    for v, good, why in rep[f][1]:
                        if not good:
                            bad.setdefault(json.dumps(v, ensure_ascii=False)[:70], why)
                    print(f"      {f!r:24s} {t:6s} {ok}/{tot}  e.g. {list(bad.items())[:3]}")
    elif "--sample" in argv:
        only = argv[argv.index("--sample") + 1] if len(argv) > argv.index("--sample") + 1 else None
        tot = 0
        for k, c in zip(keys, crawls):
            s = sample(k, c)
            tot += len(s)
            if only and k != only:
                continue
            print(f"=== {k} ({len(s)})")
            for x in s:
                v = json.dumps(x["value"], ensure_ascii=False)
                print(f"   {'OK ' if x['valid'] else 'BAD'} [{x['field']}] {v[:110]}  -- {x['why']}")
        print("total sampled", tot)
    else:
        write_labels()


if __name__ == "__main__":
    main(sys.argv[1:])
