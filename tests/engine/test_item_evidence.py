"""A constraint asked of a list's items holds only when it holds of every item (engine/placed.py, satisfy.py).

Cases written for these classes (session 16), none copied from an evaluation set: a place or a period asked of
listed items, a count met by repeated items, an exclusion met by something inside the excluded place, a kind met
by only some items. One item that fits is no evidence for the others, and the asked place's own name in an intro
line is none for any item.
"""

from __future__ import annotations

import pytest
from helpers import judge, status_of

from faithguard.lexical import wordnet

needs_wordnet = pytest.mark.skipif(not wordnet.available(), reason="Debian wordnet-base (or nltk) not installed")


@needs_wordnet
@pytest.mark.parametrize(
    ("query", "answer", "status"),
    [
        # every item inside: satisfied, with or without the place named
        ("Suggest three cities to see in Japan.", "1. Kyoto\n2. Osaka\n3. Nagoya", "satisfied"),
        ("Suggest three cities to see in Japan.", "Cities in Japan:\n1. Kyoto\n2. Osaka\n3. Nagoya", "satisfied"),
        # one item inside, one placed elsewhere by GeoNames: violated, however the intro line names the place
        ("Suggest three cities to see in Japan.", "Cities in Japan:\n1. Kyoto\n2. Lima\n3. Osaka", "violated"),
        ("Name two countries in Europe.", "1. Norway\n2. Chile", "violated"),
        # one item inside, the others unknown to the resources: no evidence for them
        ("Name two rivers in Spain.", "1. The Ebro\n2. The Zorbrook", "unknown"),
    ],
)
def test_a_place_asked_of_listed_items_needs_every_item(query: str, answer: str, status: str) -> None:
    ctx, _ = judge(query, answer)
    place = next(c for c in ctx.constraints if str(c.category) == "location")
    assert str(place.status) == status, place.reason


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("1. Jaws (1975)\n2. Rocky (1976)\n3. Alien (1979)", "satisfied"),
        ("1. Jaws (1975)\n2. Rocky\n3. Alien", "unknown"),  # two items give no date
        ("1. Jaws (1975)\n2. Rocky (1976)\n3. Heat (1995)", "violated"),
    ],
)
def test_a_period_asked_of_listed_items_needs_every_item_dated_inside(answer: str, status: str) -> None:
    ctx, _ = judge("Name three films from the 1970s.", answer)
    assert status_of(ctx, "1970s") == status


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("1. Oak\n2. Birch\n3. Maple", "satisfied"),
        ("1. Oak\n2. oak\n3. Oak.", "unknown"),  # one tree named three times
        ("- Birch\n- Birch\n- Maple", "unknown"),  # three lines, two trees
    ],
)
def test_repeated_items_do_not_make_up_a_count(answer: str, status: str) -> None:
    ctx, _ = judge("Name three trees.", answer)
    assert status_of(ctx, "three") == status


@needs_wordnet
@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("1. Lima\n2. Santiago", "satisfied"),
        ("1. Lima\n2. Rio de Janeiro", "violated"),  # Rio lies in the excluded Brazil
    ],
)
def test_an_excluded_place_is_named_by_what_lies_in_it(answer: str, status: str) -> None:
    ctx, _ = judge("Suggest two South American cities, excluding Brazil.", answer)
    assert status_of(ctx, "Brazil") == status


@needs_wordnet
@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("1. Madrid\n2. Lisbon", "satisfied"),
        ("1. Madrid\n2. Barcelona", "unknown"),  # Barcelona is a city, not a capital
    ],
)
def test_a_kind_asked_of_listed_items_needs_every_item(answer: str, status: str) -> None:
    ctx, _ = judge("Name two capitals in Europe.", answer)
    assert status_of(ctx, "capitals") == status


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        # an item nothing places that names the asked place itself is inside it
        ("1. The Rijksmuseum, in Amsterdam\n2. The Van Gogh Museum in Amsterdam", "satisfied"),
        # the place after a negation ("not in", "outside", "far from") places nothing
        ("1. The Rijksmuseum (not in Amsterdam)\n2. The Van Gogh Museum, far from Amsterdam", "unknown"),
    ],
)
def test_an_item_naming_the_place_itself_is_inside_unless_negated(answer: str, status: str) -> None:
    ctx, _ = judge("Recommend two museums in Amsterdam.", answer)
    assert status_of(ctx, "Amsterdam") == status
