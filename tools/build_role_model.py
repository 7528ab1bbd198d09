"""Build ``tables/value_roles.npz``: the model of :mod:`rlm_gym.quality.value_roles`.

Every training value is *generated*, never read from a crawl:

- Faker 40.54.0 (pinned in the ``tables`` extra) in every locale it ships: people, companies,
  addresses, streets, cities, countries, job titles, sentences, texts, words, colours, phone
  numbers, e-mails, URLs and paths, dates, codes (EAN, ISBN, UUID, plates, IBAN);
- babel 2.18.0 (CLDR) in the same locales: amounts with currencies in the locale's format,
  counts with its grouping, dates in its short/medium/long forms; and the tables
  ``tools/build_tables.py`` builds from CLDR (compact scale words "mld", "Millionen", "crore",
  relative-date patterns "{0} days ago", area units, count units);
- defect generators: a label glued before a value of another role ("Price: 3,7 mld"), key-value
  pairs glued without separators ("Area 71 m²Rooms 2Floor 3"), markup and code residue.

A linear softmax over hashed character 1-4-grams (the features of
:func:`rlm_gym.quality.value_roles.ngram_hashes`) is trained with numpy (Adagrad, fixed seed).
The script first trains on part of the locales and prints the accuracy on the locales left out
(the model's reach into unseen languages), then trains on every locale and writes the weights as
float16.

Usage:
    python tools/build_role_model.py [--per-role N] [--epochs N] [--out PATH]

Needs ``faker`` and ``babel`` (``pip install -e ".[tables]"``).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rlm_gym.quality import vocab  # noqa: E402
from rlm_gym.quality.value_roles import (  # noqa: E402
    HASH_BITS,
    ROLES,
    ngram_hashes,
    normalise,
    scores,
    softmax,
)

VERSIONS = {"faker": "40.54.0", "babel": "2.18.0"}
SEED = 35
HELD_OUT_EVERY = 4
"""Every fourth locale (sorted) is left out of the first training, to measure unseen languages."""

CURRENCIES = ("USD", "EUR", "GBP", "JPY", "CNY", "INR", "BRL", "PLN", "RUB", "TRY", "MXN", "IDR")
MEASURE_UNITS = ("m²", "m2", "sqft", "km", "kg", "cm³", "cm3", "KM", "hp", "kW", "l", "mm", "GB")
BADGES = ("VIP", "Hot", "New", "Top", "Sale", "Premium", "Featured", "Bestseller", "Promo")
MARKUP = (
    '<div class="{w}">{w}</div>',
    "<span>{w}</span>",
    "{{{{ {w} }}}}",
    "function {w}() {{ return {n}; }}",
    "[object Object]",
    '{{"{w}": {n}}}',
    "&nbsp;{w}&amp;",
    "<a href='/{w}'>{w}</a>",
    "var {w} = {n};",
    "${{{w}}}",
)


def _try(function: Callable[[], Any]) -> Any:
    try:
        return function()
    except (AttributeError, ValueError, KeyError, IndexError, TypeError):
        return None


class Generator:
    """Values of every role in one locale."""

    def __init__(self, locale: str, seed: int, tables: dict[str, Any]):
        from babel import Locale, UnknownLocaleError
        from faker import Faker

        self.fake = Faker(locale)
        self.fake.seed_instance(seed)
        self.rng = random.Random(seed)
        try:
            self.babel = Locale.parse(locale)
        except (UnknownLocaleError, ValueError):
            self.babel = Locale.parse("en_US")
        self.tables = tables

    def _amount(self) -> float:
        magnitude = self.rng.choice((1, 2, 3, 4, 5, 6, 7))
        value = self.rng.uniform(1, 10) * 10 ** (magnitude - 1)
        return round(value, self.rng.choice((0, 0, 2)))

    def person(self) -> str:
        fake = self.fake
        return self.rng.choice(
            (
                fake.name,
                fake.name,
                lambda: f"{fake.first_name()} {fake.last_name()}",
                fake.last_name,
            )
        )()

    def organisation(self) -> str:
        return self.fake.company()

    def place(self) -> str:
        fake = self.fake
        choice = self.rng.choice(
            (
                lambda: ", ".join(fake.address().splitlines()),
                fake.city,
                fake.city,
                fake.street_address,
                fake.street_name,
                fake.country,
                lambda: f"{fake.city()}, {fake.country()}",
            )
        )
        return _try(choice) or self.fake.city()

    def title(self) -> str:
        fake = self.fake
        return self.rng.choice(
            (
                fake.job,
                fake.job,
                lambda: fake.sentence(nb_words=self.rng.randint(3, 9)).rstrip("."),
                lambda: f"{fake.word().capitalize()} {fake.word()} {self.rng.randint(2, 900)}",
                lambda: _try(fake.catch_phrase) or fake.job(),
                self._product,
                self._product,
            )
        )()

    def _product(self) -> str:
        """A product or model name: a brand, a model code, a size ("Nord XR-200 64GB")."""
        brand = self.fake.company().split()[0].strip(",")
        model = self.fake.bothify(self.rng.choice(("?#", "??-###", "?###", "#.# ???"))).upper()
        unit = self.rng.choice(("GB", "mm", "W", "V", "L", "cm", "kg", "ml", "TB", '"'))
        size = f"{self.rng.choice((1, 2, 4, 8, 16, 32, 64, 128, 256, 512))}{unit}"
        words = [brand, self.fake.word().capitalize(), model, size][: self.rng.randint(2, 4)]
        return " ".join(words)

    def text(self) -> str:
        return self.fake.text(max_nb_chars=self.rng.choice((120, 200, 400)))

    def category(self) -> str:
        fake = self.fake
        return self.rng.choice(
            (
                fake.word,
                lambda: fake.word().capitalize(),
                lambda: _try(fake.color_name) or fake.word(),
                lambda: self.rng.choice(BADGES),
                lambda: f"{fake.word().capitalize()} > {fake.word()}",
                lambda: _try(fake.language_name) or fake.word(),
            )
        )()

    def amount(self) -> str:
        from babel.numbers import format_currency, format_decimal

        value = self._amount()
        currency = self.rng.choice(CURRENCIES)
        scale = self.rng.choice(sorted(self.tables["CLDR_SCALE_WORDS"]))
        word = self.rng.choice(sorted(self.tables["CLDR_CURRENCY_WORDS"]))
        number = format_decimal(value, locale=self.babel)
        choice = self.rng.randrange(10)
        if choice == 0:
            return number
        if choice == 1:
            return f"{self.rng.randint(1, 999)},{self.rng.randint(1, 9)} {scale}"
        if choice == 2:
            low = self.rng.randint(10, 90) * 1000
            high = format_decimal(low + self.rng.randint(1, 50) * 1000, locale=self.babel)
            low_text = format_decimal(low, locale=self.babel)
            return self.rng.choice((f"{low}-{high}", f"{low_text} - {high} {word}"))
        if choice == 3 and _try(self.fake.pricetag):
            return self.fake.pricetag()
        if choice == 4:
            return self.rng.choice((f"{number} {currency}", f"{currency} {number}"))
        if choice == 5:
            return f"{number} {word}"
        if choice == 6:
            period = self.rng.choice(("/mo", "/month", "/year", " a year", "/h", "/m²"))
            return format_currency(value, currency, locale=self.babel) + period
        return format_currency(value, currency, locale=self.babel)

    def number(self) -> str:
        from babel.numbers import format_decimal

        units = sorted(self.tables["COUNT_UNITS"])
        areas = sorted(self.tables["CLDR_AREA_UNITS"])
        count = self.rng.choice((self.rng.randint(0, 20), self.rng.randint(20, 100000)))
        choice = self.rng.randrange(7)
        if choice == 0:
            return str(count)
        if choice == 1:
            return format_decimal(count, locale=self.babel)
        if choice == 2:
            return f"{count} {self.rng.choice(units)}"
        if choice == 3:
            unit = self.rng.choice((*MEASURE_UNITS, self.rng.choice(areas)))
            return f"{format_decimal(self.rng.randint(1, 9000), locale=self.babel)} {unit}"
        if choice == 4:
            return f"({count})"
        if choice == 5:
            return f"{self.rng.randint(1, 99)}.{self.rng.randint(1, 9)}K"
        return f"{self.rng.randint(1, 9)} + {self.rng.randint(0, 2)}"

    def rating(self) -> str:
        score = round(self.rng.uniform(1, 5), 1)
        return self.rng.choice(
            (
                str(score),
                f"{score}/5",
                f"{round(score * 2, 1)}/10",
                f"{self.rng.randint(40, 100)}%",
                "★" * int(score) + "☆" * (5 - int(score)),
                f"{score} ★",
                str(score).replace(".", ","),
            )
        )

    def date(self) -> str:
        from babel.dates import format_date, format_datetime

        day = self.fake.date_time_between(start_date="-5y", end_date="+1y")
        choice = self.rng.randrange(8)
        if choice <= 2:
            return format_date(day, ("short", "medium", "long")[choice], locale=self.babel)
        if choice == 3:
            return format_datetime(day, "short", locale=self.babel)
        if choice == 4:
            return day.date().isoformat()
        if choice == 5:
            return day.strftime(self.rng.choice(("%d.%m.%Y", "%d/%m/%Y", "%m/%d/%Y", "%Y/%m/%d")))
        if choice == 6:
            pattern = self.rng.choice(sorted(self.tables["CLDR_RELATIVE_PATTERNS"]))
            return pattern.replace("{0}", str(self.rng.randint(1, 30)))
        return self.rng.choice(sorted(self.tables["CLDR_RELATIVE_DAYS"]))

    def url(self) -> str:
        fake = self.fake
        return self.rng.choice(
            (
                fake.url,
                fake.uri,
                fake.uri,
                lambda: "/" + fake.uri_path(),
                lambda: "/" + fake.uri_path() + f".{self.rng.randint(1, 99999)}.html",
                fake.image_url,
            )
        )()

    def email(self) -> str:
        fake = self.fake
        return self.rng.choice((fake.email, fake.company_email, fake.free_email))()

    def phone(self) -> str:
        fake = self.fake
        return self.rng.choice(
            (fake.phone_number, fake.phone_number, lambda: _try(fake.msisdn) or fake.phone_number())
        )()

    def identifier(self) -> str:
        fake = self.fake
        return self.rng.choice(
            (
                fake.ean13,
                fake.isbn13,
                lambda: str(fake.uuid4()),
                lambda: fake.bothify("??-#####").upper(),
                lambda: fake.bothify("######-#"),
                lambda: fake.sha1()[: self.rng.randint(8, 16)],
                lambda: _try(fake.license_plate) or fake.bothify("???-####"),
                lambda: _try(fake.iban) or fake.bban(),
                lambda: f"#{self.rng.randint(1000, 9999999)}",
            )
        )()

    def markup(self) -> str:
        template = self.rng.choice(MARKUP)
        return template.format(w=self.fake.word(), n=self.rng.randint(0, 999))

    def labelled(self) -> str:
        """A defect: a value with its label glued before it, or several key-value pairs glued."""
        tokens = sorted(set().union(*self.tables["NAME_TOKENS"].values()))
        roles = (self.amount, self.number, self.date, self.phone, self.place)
        if self.rng.random() < 0.35:
            pairs = [
                f"{self.rng.choice(tokens).capitalize()} {self.rng.choice(roles)()}"
                for _ in range(self.rng.randint(2, 4))
            ]
            return "".join(pairs)
        return f"{self.rng.choice(tokens).capitalize()}: {self.rng.choice(roles)()}"

    def value(self, role: str) -> str | None:
        text = _try(getattr(self, role))
        return text if isinstance(text, str) and text.strip() else None


def generate(locales: list[str], per_role: int) -> tuple[list[str], np.ndarray, list[str]]:
    """``per_role`` values of every role in every locale: texts, role indices, locales."""
    tables = vocab.load_tables()
    texts: list[str] = []
    labels: list[int] = []
    owners: list[str] = []
    for index, locale in enumerate(locales):
        generator = Generator(locale, SEED * 1000 + index, tables)
        for role_index, role in enumerate(ROLES):
            for _ in range(per_role):
                text = generator.value(role)
                if text is not None:
                    texts.append(text)
                    labels.append(role_index)
                    owners.append(locale)
    return texts, np.array(labels), owners


def _features(texts: list[str], chunk: int = 4096) -> list[tuple[np.ndarray, np.ndarray]]:
    return [
        ngram_hashes([normalise(text) for text in texts[start : start + chunk]])
        for start in range(0, len(texts), chunk)
    ]


def _batch(
    chunks: list[tuple[np.ndarray, np.ndarray]], chunk: int, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    buckets, owners = [], []
    for position, row in enumerate(rows):
        part_buckets, part_owners = chunks[row // chunk]
        local = row % chunk
        low, high = np.searchsorted(part_owners, [local, local + 1])
        buckets.append(part_buckets[low:high])
        owners.append(np.full(high - low, position))
    return np.concatenate(buckets), np.concatenate(owners)


def train(
    texts: list[str], labels: np.ndarray, epochs: int, seed: int = SEED
) -> tuple[np.ndarray, np.ndarray]:
    """A softmax layer over the hashed n-grams, trained by Adagrad on minibatches."""
    chunk = 4096
    chunks = _features(texts, chunk)
    rng = np.random.default_rng(seed)
    size, classes = 2**HASH_BITS, len(ROLES)
    weights = np.zeros((size, classes), dtype=np.float32)
    bias = np.zeros(classes, dtype=np.float32)
    squares = np.full((size, classes), 1e-6, dtype=np.float32)
    bias_squares = np.full(classes, 1e-6, dtype=np.float32)
    rate, l2, batch = 0.5, 1e-6, 512
    for epoch in range(epochs):
        order = rng.permutation(len(texts))
        loss = 0.0
        for start in range(0, len(order), batch):
            rows = order[start : start + batch]
            buckets, owners = _batch(chunks, chunk, rows)
            probabilities = softmax(scores(weights, bias, buckets, owners, len(rows)))
            target = labels[rows]
            loss -= np.log(probabilities[np.arange(len(rows)), target] + 1e-9).sum()
            delta = probabilities
            delta[np.arange(len(rows)), target] -= 1.0
            delta /= len(rows)
            norm = 1.0 / np.sqrt(np.maximum(np.bincount(owners, minlength=len(rows)), 1))
            per_gram = delta[owners] * norm[owners][:, None]
            gradient = np.stack(
                [
                    np.bincount(buckets, weights=per_gram[:, k], minlength=size)
                    for k in range(classes)
                ],
                axis=1,
            ).astype(np.float32)
            touched = np.unique(buckets)
            gradient[touched] += l2 * weights[touched]
            squares[touched] += gradient[touched] ** 2
            weights[touched] -= rate * gradient[touched] / np.sqrt(squares[touched])
            bias_gradient = delta.sum(axis=0)
            bias_squares += bias_gradient**2
            bias -= rate * bias_gradient / np.sqrt(bias_squares)
        print(f"  epoch {epoch + 1}: mean loss {loss / len(texts):.3f}", flush=True)
    return weights, bias


def accuracy(
    weights: np.ndarray, bias: np.ndarray, texts: list[str], labels: np.ndarray
) -> np.ndarray:
    """Predicted role index of each text."""
    predicted = []
    for buckets, owners in _features(texts):
        count = int(owners.max()) + 1 if len(owners) else 0
        predicted.append(scores(weights, bias, buckets, owners, count).argmax(axis=1))
    return np.concatenate(predicted)


def main(argv: list[str] | None = None) -> None:
    import babel
    import faker
    from faker.config import AVAILABLE_LOCALES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-role", type=int, default=60)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument(
        "--out", type=Path, default=ROOT / "rlm_gym" / "quality" / "tables" / "value_roles.npz"
    )
    args = parser.parse_args(argv)
    found = {"faker": faker.VERSION, "babel": babel.__version__}
    if found != VERSIONS:
        raise SystemExit(f"Expected the pinned versions {VERSIONS}, got {found}")
    locales = sorted(AVAILABLE_LOCALES)
    print(f"generating {args.per_role} values x {len(ROLES)} roles x {len(locales)} locales")
    texts, labels, owners = generate(locales, args.per_role)
    held = set(locales[::HELD_OUT_EVERY])
    train_rows = [i for i, locale in enumerate(owners) if locale not in held]
    test_rows = [i for i, locale in enumerate(owners) if locale in held]
    print(f"{len(texts)} values; first training without {len(held)} locales")
    weights, bias = train([texts[i] for i in train_rows], labels[train_rows], args.epochs)
    predicted = accuracy(weights, bias, [texts[i] for i in test_rows], labels[test_rows])
    truth = labels[test_rows]
    print(f"unseen locales: role accuracy {np.mean(predicted == truth):.3f}")
    from rlm_gym.quality.value_roles import _GROUP_OF

    print(f"unseen locales: group accuracy {np.mean(_GROUP_OF[predicted] == _GROUP_OF[truth]):.3f}")
    for index, role in enumerate(ROLES):
        mask = truth == index
        print(f"    {role:<13} {np.mean(predicted[mask] == index):.3f}")
    print("training on every locale")
    weights, bias = train(texts, labels, args.epochs)
    np.savez_compressed(
        args.out,
        weights=weights.astype(np.float16),
        bias=bias.astype(np.float16),
        roles=np.array(ROLES),
        built=np.array(f"faker {faker.VERSION} babel {babel.__version__} seed {SEED}"),
    )
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main(sys.argv[1:])
