"""Kosovo's 38 municipalities, as plain data that every layer reads (as models/kinds.py
declares the service kinds): where a booking's services are taken (its `city`), what the
transport there costs (BusinessSettings.transport_fees, by key; services/booking/transport.py).

Each has a stable ASCII key (the settings' key, never shown), its Albanian name (what a booking's
`city` column stores: readable in the CSV and the staff's messages), its English name, and the
other spellings people type (Serbian, older, without diacritics). `find` reads any of them, in
any case, with or without diacritics."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True)
class Municipality:
    key: str  # stable, ASCII: the settings' key
    sq: str  # its Albanian name: what a booking's `city` stores
    en: str  # its English name
    aliases: tuple[str, ...] = ()  # other spellings people type

    def name(self, language: str) -> str:
        """Its name in `language` ('en': English; otherwise Albanian)."""
        return self.en if language == "en" else self.sq


# The home town: the business's own (its transport costs nothing unless the owner says so).
HOME = "prishtine"

MUNICIPALITIES: tuple[Municipality, ...] = (
    Municipality("prishtine", "Prishtinë", "Pristina", ("Prishtina", "Priština", "Pristina")),
    Municipality("prizren", "Prizren", "Prizren", ("Prizreni",)),
    Municipality("peje", "Pejë", "Peja", ("Peć", "Pec", "Peja")),
    Municipality("gjakove", "Gjakovë", "Gjakova", ("Đakovica", "Djakovica", "Dakovica")),
    Municipality("ferizaj", "Ferizaj", "Ferizaj", ("Uroševac", "Ferizaji")),
    Municipality("gjilan", "Gjilan", "Gjilan", ("Gnjilane", "Gjilani")),
    Municipality(
        "mitrovice",
        "Mitrovicë",
        "Mitrovica",
        ("South Mitrovica", "Mitrovicë e Jugut", "Mitrovica e Jugut", "Kosovska Mitrovica"),
    ),
    Municipality(
        "mitrovice_veriut",
        "Mitrovicë e Veriut",
        "North Mitrovica",
        ("Mitrovica e Veriut", "Severna Mitrovica", "Sjeverna Mitrovica", "Mitrovica North"),
    ),
    Municipality("podujeve", "Podujevë", "Podujeva", ("Podujevo",)),
    Municipality("vushtrri", "Vushtrri", "Vushtrri", ("Vučitrn", "Vushtrria")),
    Municipality("suhareke", "Suharekë", "Suhareka", ("Suva Reka", "Suvareka")),
    Municipality("rahovec", "Rahovec", "Rahovec", ("Orahovac", "Rahoveci")),
    Municipality("drenas", "Drenas", "Drenas", ("Glogovac", "Gllogoc", "Gllogovc")),
    Municipality("lipjan", "Lipjan", "Lipjan", ("Lipljan", "Lipjani")),
    Municipality("malisheve", "Malishevë", "Malisheva", ("Mališevo",)),
    Municipality("kamenice", "Kamenicë", "Kamenica", ()),
    Municipality("viti", "Viti", "Viti", ("Vitina", "Vitia")),
    Municipality("decan", "Deçan", "Deçan", ("Dečani", "Deçani", "Decane")),
    Municipality("istog", "Istog", "Istog", ("Istok", "Istogu")),
    Municipality("kline", "Klinë", "Klina", ()),
    Municipality("skenderaj", "Skenderaj", "Skenderaj", ("Srbica", "Skenderaji")),
    Municipality("dragash", "Dragash", "Dragash", ("Dragaš", "Dragashi")),
    Municipality("fushe_kosove", "Fushë Kosovë", "Fushë Kosova", ("Kosovo Polje", "Fushë-Kosovë")),
    Municipality("kacanik", "Kaçanik", "Kaçanik", ("Kačanik", "Kaçaniku")),
    Municipality("shtime", "Shtime", "Shtime", ("Štimlje", "Shtimja")),
    Municipality("obiliq", "Obiliq", "Obiliq", ("Obilić", "Obiliqi")),
    Municipality("leposaviq", "Leposaviq", "Leposavić", ()),
    Municipality("gracanice", "Graçanicë", "Gračanica", ()),
    Municipality(
        "hani_elezit", "Hani i Elezit", "Elez Han", ("Đeneral Janković", "Deneral Jankovic")
    ),
    Municipality("zvecan", "Zveçan", "Zvečan", ()),
    Municipality("shterpce", "Shtërpcë", "Štrpce", ("Shtërpca",)),
    Municipality("novoberde", "Novobërdë", "Novo Brdo", ("Novobërda",)),
    Municipality("zubin_potok", "Zubin Potok", "Zubin Potok", ()),
    Municipality("junik", "Junik", "Junik", ("Juniku",)),
    Municipality("mamushe", "Mamushë", "Mamusha", ("Mamuša", "Mamuşa")),
    Municipality("ranillug", "Ranillug", "Ranilug", ()),
    Municipality("kllokot", "Kllokot", "Klokot", ("Kllokoti",)),
    Municipality("partesh", "Partesh", "Parteš", ()),
)

BY_KEY: dict[str, Municipality] = {m.key: m for m in MUNICIPALITIES}

# Letters that do not decompose into a letter and a mark (NFKD): written as people type them
# without the keyboard's diacritics.
_PLAIN = str.maketrans({"đ": "dj", "ð": "dj", "ł": "l", "ø": "o", "ß": "ss"})


def plain(text: str) -> str:
    """'  Fushë-Kosovë ' -> 'fushe kosove': lowercase, without diacritics, one space between
    words (hyphens, dots and commas are spaces)."""
    lowered = str(text or "").strip().lower()
    # 'Đakovica' is typed 'Djakovica' or 'Dakovica': both are aliases; 'đ' reads as 'dj'.
    lowered = lowered.translate(_PLAIN)
    decomposed = unicodedata.normalize("NFKD", lowered)
    letters = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(re.split(r"[\s\-.,_/]+", letters)).strip()


def _spellings(m: Municipality) -> set[str]:
    names = {m.key, m.sq, m.en, *m.aliases}
    # The Albanian definite form people write: 'Prishtinë' -> 'Prishtina', 'Gjakovë' -> 'Gjakova'.
    names |= {n[:-1] + "a" for n in (m.sq, m.en) if n.endswith("ë")}
    names |= {n.replace("ë e ", "a e ") for n in names}
    return {plain(n) for n in names} | {plain(n).replace(" ", "") for n in names}


_INDEX: dict[str, Municipality] = {}
for _m in MUNICIPALITIES:
    for _spelling in _spellings(_m):
        # Two municipalities never share a spelling (tests/unit/test_municipalities.py).
        _INDEX.setdefault(_spelling, _m)


def find(text: object) -> Municipality | None:
    """The municipality `text` names (its key, Albanian or English name, or a spelling people
    type: 'PRISHTINA', 'Priština', 'peje', 'Đakovica', 'Urosevac'); None for anything else."""
    if not isinstance(text, str):
        return None
    key = plain(text[:120])
    if not key:
        return None
    return _INDEX.get(key) or _INDEX.get(key.replace(" ", ""))


def by_key(key: object) -> Municipality | None:
    return BY_KEY.get(key) if isinstance(key, str) else None


def choices(language: str) -> list[tuple[str, str]]:
    """(key, name in `language`) of every municipality, sorted by that name (the forms'
    choice)."""
    return sorted(
        ((m.key, m.name(language)) for m in MUNICIPALITIES),
        key=lambda pair: plain(pair[1]),
    )


def shown_name(stored: object, language: str) -> str:
    """A booking's `city` in `language`: a municipality's name there, else the text as stored
    (a booking from before the list)."""
    found = find(stored) if isinstance(stored, str) else None
    return found.name(language) if found else str(stored or "")
