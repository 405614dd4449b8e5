"""English number words: the one table every module reads numbers written as words from."""

from __future__ import annotations

__all__ = ["CARDINALS", "ORDINALS", "SCALES", "cardinal"]

_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
_ONES += "seventeen eighteen nineteen"
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety"
_ORDS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
_ORDS += "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"

#: zero..nineteen and the tens (twenty..ninety).
CARDINALS: dict[str, int] = {w: i for i, w in enumerate(_ONES.split())} | {
    w: 10 * i for i, w in enumerate(_TENS.split(), start=2)
}
#: first..twentieth, and twenty-first (centuries).
ORDINALS: dict[str, int] = {w: i for i, w in enumerate(_ORDS.split(), start=1)} | {"twenty-first": 21}
#: Number words that scale a count ("a dozen", "two hundred", "a million").
SCALES: dict[str, int] = {"dozen": 12, "hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}


def cardinal(word: str) -> int | None:
    """The number one word writes: digits ("14") or a cardinal of :data:`CARDINALS` ("three"); None otherwise."""
    word = word.lower()
    return int(word) if word.isdigit() else CARDINALS.get(word)
