"""A model-free word normaliser: irregular forms, then plural and verb suffixes stripped the same way on both sides."""

from __future__ import annotations

from functools import lru_cache

__all__ = ["IRREGULAR", "stem"]

_VOWELS = frozenset("aeiouy")


def _table(rows: str) -> dict[str, str]:
    """'base: form form ...' rows -> {form: base}."""
    out: dict[str, str] = {}
    for row in rows.strip().splitlines():
        base, _, forms = row.partition(":")
        for form in forms.split():
            out[form] = base.strip()
    return out


#: Irregular inflections mapped to their base form (verbs, nouns, a few adjectives).
IRREGULAR: dict[str, str] = _table(
    """
    be: am is are was were been being
    have: has had having
    do: does did done doing
    go: goes went gone
    write: wrote written
    run: ran
    begin: began begun
    build: built
    make: made
    find: found
    lead: led
    fight: fought
    teach: taught
    think: thought
    bring: brought
    buy: bought
    catch: caught
    seek: sought
    sell: sold
    tell: told
    give: gave given
    take: took taken
    see: saw seen
    know: knew known
    grow: grew grown
    draw: drew drawn
    fly: flew flown
    throw: threw thrown
    rise: rose risen
    fall: fell fallen
    win: won
    lose: lost
    hold: held
    keep: kept
    leave: left
    meet: met
    pay: paid
    say: said
    send: sent
    spend: spent
    stand: stood
    understand: understood
    become: became
    come: came
    eat: ate eaten
    speak: spoke spoken
    choose: chose chosen
    drive: drove driven
    freeze: froze frozen
    steal: stole stolen
    break: broke broken
    sing: sang sung
    swim: swam swum
    sink: sank sunk
    strike: struck stricken
    hide: hid hidden
    bite: bit bitten
    feel: felt
    deal: dealt
    mean: meant
    sleep: slept
    dig: dug
    hang: hung
    shoot: shot
    feed: fed
    flee: fled
    lend: lent
    bend: bent
    wear: wore worn
    tear: tore torn
    swear: swore sworn
    shake: shook shaken
    forget: forgot forgotten
    forgive: forgave forgiven
    ride: rode ridden
    arise: arose arisen
    awake: awoke awoken
    forbid: forbade forbidden
    get: got gotten
    sit: sat
    hear: heard
    light: lit
    lay: laid
    slay: slew slain
    spin: spun
    stick: stuck
    sting: stung
    swing: swung
    wind: wound
    bind: bound
    grind: ground
    shine: shone
    tread: trod trodden
    weave: wove woven
    person: people persons
    child: children
    man: men
    woman: women
    mouse: mice
    goose: geese
    foot: feet
    tooth: teeth
    ox: oxen
    louse: lice
    analysis: analyses
    crisis: crises
    thesis: theses
    hypothesis: hypotheses
    basis: bases
    axis: axes
    phenomenon: phenomena
    criterion: criteria
    cactus: cacti
    fungus: fungi
    nucleus: nuclei
    radius: radii
    stimulus: stimuli
    alumnus: alumni
    index: indices
    matrix: matrices
    appendix: appendices
    medium: media
    datum: data
    life: lives
    wife: wives
    knife: knives
    leaf: leaves
    wolf: wolves
    half: halves
    self: selves
    shelf: shelves
    thief: thieves
    good: better best
    bad: worse worst
    """
)


def _strip_suffix(w: str) -> str:
    if w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("s") and len(w) > 3 and not w.endswith(("ss", "us", "is", "'s")):
        w = w[:-1]
    verb = False
    for suffix in ("ing", "ed"):
        if w.endswith(suffix):
            rest = w[: -len(suffix)]
            if len(rest) >= 2 and any(ch in _VOWELS for ch in rest):
                w, verb = rest, True
                if len(w) > 2 and w[-1] == w[-2] and w[-1] not in _VOWELS and w[-1] not in "lsz":
                    w = w[:-1]
            break
    if not verb and len(w) > 2 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and w.endswith("y") and w[-2] not in _VOWELS:
        w = w[:-1] + "i"
    return w


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A matching key: lower case, possessive and irregular forms resolved, then suffixes stripped.

    Applied identically to request terms and response words, so "circumnavigated" and
    "circumnavigate", "stories" and "story", "ran" and "running" share a key.
    """
    w = word.lower().strip("'’")
    if w.endswith(("'s", "’s")):
        w = w[:-2]
    w = IRREGULAR.get(w, w)
    if len(w) <= 2 or not w.isalpha():
        return w
    return _strip_suffix(w)
