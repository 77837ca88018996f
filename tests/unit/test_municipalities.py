"""Kosovo's municipalities (models/municipalities.py): the list and the finder of what people
type."""

import pytest

from storefront.models import municipalities as places


def test_all_thirty_eight_with_unique_ascii_keys_and_names():
    assert len(places.MUNICIPALITIES) == 38
    keys = [m.key for m in places.MUNICIPALITIES]
    assert len(set(keys)) == 38
    assert all(k.isascii() and k == k.lower() and " " not in k for k in keys)
    assert len({m.sq for m in places.MUNICIPALITIES}) == 38
    assert len({m.en for m in places.MUNICIPALITIES}) == 38
    assert places.BY_KEY[places.HOME].sq == "Prishtinë"


def test_no_two_municipalities_share_a_spelling():
    seen: dict[str, str] = {}
    for m in places.MUNICIPALITIES:
        for spelling in places._spellings(m):
            assert seen.setdefault(spelling, m.key) == m.key, spelling


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("Prishtinë", "prishtine"),
        ("PRISHTINA", "prishtine"),
        ("Priština", "prishtine"),
        ("pristina", "prishtine"),
        ("  prishtine ", "prishtine"),
        ("Peć", "peje"),
        ("Pec", "peje"),
        ("peja", "peje"),
        ("Đakovica", "gjakove"),
        ("Djakovica", "gjakove"),
        ("gjakova", "gjakove"),
        ("GJAKOVË", "gjakove"),
        ("Uroševac", "ferizaj"),
        ("urosevac", "ferizaj"),
        ("Mitrovica", "mitrovice"),
        ("North Mitrovica", "mitrovice_veriut"),
        ("mitrovice e veriut", "mitrovice_veriut"),
        ("Fushe-Kosove", "fushe_kosove"),
        ("fushë kosova", "fushe_kosove"),
        ("Kosovo Polje", "fushe_kosove"),
        ("Hani i Elezit", "hani_elezit"),
        ("Gracanica", "gracanice"),
        ("Graçanicë", "gracanice"),
        ("Novo Brdo", "novoberde"),
        ("Shterpce", "shterpce"),
        ("Štrpce", "shterpce"),
        ("decan", "decan"),
        ("Zubin Potok", "zubin_potok"),
        ("zubinpotok", "zubin_potok"),
        ("Mamusa", "mamushe"),
        ("gjakove", "gjakove"),
    ],
)
def test_finds_what_people_type(typed, key):
    found = places.find(typed)
    assert found is not None and found.key == key


@pytest.mark.parametrize("typed", ["", "   ", "Tirana", "Skopje", "Prishtinëx", None, 12])
def test_anything_else_is_not_a_municipality(typed):
    assert places.find(typed) is None


def test_every_name_and_key_finds_itself():
    for m in places.MUNICIPALITIES:
        for text in (m.key, m.sq, m.en, m.sq.upper(), places.plain(m.sq), *m.aliases):
            assert places.find(text) is m, text


def test_choices_are_sorted_in_the_language_of_the_page():
    sq = places.choices("sq")
    en = places.choices("en")
    assert len(sq) == len(en) == 38
    assert [places.plain(n) for _k, n in sq] == sorted(places.plain(n) for _k, n in sq)
    assert dict(en)["mitrovice_veriut"] == "North Mitrovica"
    assert dict(sq)["prishtine"] == "Prishtinë"
    assert places.shown_name("Pejë", "en") == "Peja"
    assert places.shown_name("Somewhere", "en") == "Somewhere"
