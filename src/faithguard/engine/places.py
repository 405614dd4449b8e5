"""A small hand-written gazetteer: countries by continent, regions, US states and major cities with their country."""

from __future__ import annotations

from faithguard.engine.lexicon import words

__all__ = ["PLACE_PREFIXES", "PLACE_SUFFIXES", "contains", "is_place", "place_parents"]

_CONTINENTS: dict[str, str] = {
    "europe": """albania andorra armenia austria azerbaijan belarus belgium bosnia bosnia and herzegovina bulgaria
        croatia cyprus czechia czech republic denmark estonia finland france georgia germany greece hungary iceland
        ireland italy kosovo latvia liechtenstein lithuania luxembourg malta moldova monaco montenegro netherlands
        holland north macedonia norway poland portugal romania russia san marino serbia slovakia slovenia spain
        sweden switzerland ukraine united kingdom uk great britain britain england scotland wales northern ireland
        vatican city prussia bohemia castile aragon flanders""",
    "asia": """afghanistan bahrain bangladesh bhutan brunei cambodia china hong kong india indonesia iran iraq israel
        japan jordan kazakhstan kuwait kyrgyzstan laos lebanon malaysia maldives mongolia myanmar burma nepal
        north korea south korea korea oman pakistan palestine philippines qatar saudi arabia singapore sri lanka
        syria taiwan tajikistan thailand timor-leste east timor turkey turkmenistan united arab emirates uae
        uzbekistan vietnam yemen persia siam ceylon tibet""",
    "africa": """algeria angola benin botswana burkina faso burundi cameroon cape verde central african republic chad
        comoros congo democratic republic of the congo djibouti egypt equatorial guinea eritrea eswatini ethiopia
        gabon gambia ghana guinea guinea-bissau ivory coast kenya lesotho liberia libya madagascar malawi mali
        mauritania mauritius morocco mozambique namibia niger nigeria rwanda senegal seychelles sierra leone
        somalia south africa south sudan sudan tanzania togo tunisia uganda zambia zimbabwe abyssinia""",
    "north america": """united states usa u.s. us america canada mexico guatemala belize honduras el salvador
        nicaragua costa rica panama cuba jamaica haiti dominican republic bahamas barbados trinidad and tobago
        puerto rico greenland""",
    "south america": """argentina bolivia brazil chile colombia ecuador guyana paraguay peru suriname uruguay
        venezuela""",
    "oceania": """australia new zealand fiji papua new guinea samoa tonga vanuatu solomon islands kiribati micronesia
        tuvalu nauru palau""",
}

_US_STATES = """alabama alaska arizona arkansas california colorado connecticut delaware florida hawaii idaho illinois
    indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota mississippi missouri
    montana nebraska nevada new hampshire new jersey new mexico new york state north carolina north dakota ohio
    oklahoma oregon pennsylvania rhode island south carolina south dakota tennessee texas utah vermont virginia
    washington state west virginia wisconsin wyoming"""

_CITIES: dict[str, str] = {
    "united states": """new york new york city los angeles chicago houston phoenix philadelphia san antonio san diego
        dallas san francisco seattle boston miami atlanta denver detroit las vegas washington d.c. new orleans
        portland austin nashville baltimore pittsburgh minneapolis honolulu silicon valley""",
    "canada": "toronto montreal vancouver ottawa calgary quebec edmonton winnipeg",
    "mexico": "mexico city guadalajara monterrey cancun tijuana",
    "england": "london manchester birmingham liverpool leeds bristol oxford cambridge",
    "scotland": "glasgow edinburgh",
    "northern ireland": "belfast",
    "france": "paris marseille lyon toulouse nice bordeaux lille strasbourg nantes",
    "germany": "berlin munich hamburg frankfurt cologne stuttgart dresden leipzig bonn",
    "italy": "rome milan naples turin florence venice genoa bologna palermo pisa",
    "spain": "madrid barcelona seville valencia bilbao malaga granada toledo",
    "portugal": "lisbon porto",
    "netherlands": "amsterdam rotterdam the hague utrecht",
    "belgium": "brussels antwerp ghent bruges",
    "switzerland": "zurich geneva bern basel",
    "austria": "vienna salzburg",
    "greece": "athens thessaloniki sparta",
    "russia": "moscow saint petersburg st. petersburg novosibirsk vladivostok",
    "poland": "warsaw krakow",
    "czechia": "prague",
    "hungary": "budapest",
    "sweden": "stockholm gothenburg",
    "norway": "oslo bergen",
    "denmark": "copenhagen",
    "finland": "helsinki",
    "ireland": "dublin cork",
    "turkey": "istanbul ankara constantinople",
    "ukraine": "kyiv kiev odesa kharkiv",
    "china": "beijing shanghai guangzhou shenzhen wuhan chengdu xi'an nanjing hangzhou",
    "japan": "tokyo osaka kyoto yokohama hiroshima nagoya sapporo",
    "south korea": "seoul busan",
    "india": "delhi new delhi mumbai bombay bangalore bengaluru kolkata calcutta chennai hyderabad",
    "pakistan": "karachi lahore islamabad",
    "indonesia": "jakarta bali",
    "thailand": "bangkok",
    "vietnam": "hanoi ho chi minh city saigon",
    "philippines": "manila",
    "egypt": "cairo alexandria",
    "kenya": "nairobi",
    "nigeria": "lagos abuja",
    "south africa": "johannesburg cape town durban pretoria",
    "morocco": "casablanca marrakesh rabat",
    "brazil": "sao paulo são paulo rio de janeiro brasilia",
    "argentina": "buenos aires",
    "peru": "lima cusco",
    "chile": "santiago",
    "colombia": "bogota bogotá medellin",
    "australia": "sydney melbourne brisbane perth adelaide canberra",
    "new zealand": "auckland wellington",
    "israel": "jerusalem tel aviv",
    "iran": "tehran",
    "iraq": "baghdad",
    "saudi arabia": "riyadh mecca",
    "united arab emirates": "dubai abu dhabi",
}

_REGIONS: dict[str, str] = {
    "europe": "scandinavia balkans iberia mediterranean western europe eastern europe northern europe southern europe",
    "asia": "middle east southeast asia east asia south asia central asia siberia far east",
    "africa": "sahara sub-saharan africa west africa east africa north africa",
    "north america": "caribbean central america latin america new england",
    "south america": "amazonia patagonia",
}

_ALIASES: dict[str, str] = {
    "usa": "united states",
    "u.s.": "united states",
    "us": "united states",
    "america": "united states",
    "uk": "united kingdom",
    "great britain": "united kingdom",
    "britain": "united kingdom",
    "holland": "netherlands",
    "czech republic": "czechia",
    "burma": "myanmar",
    "uae": "united arab emirates",
    "korea": "south korea",
}

_PART_OF: dict[str, str] = {n: "united kingdom" for n in ("england", "scotland", "wales", "northern ireland")}

#: Last words that make a capitalised name a place ("Pacific Ocean", "Rocky Mountains").
PLACE_SUFFIXES = words(
    "river ocean sea mountains mountain range island islands bay gulf strait straits valley desert peninsula province "
    "county city republic kingdom empire canal coast plateau basin falls lake lakes archipelago sound"
)
#: First words that make a capitalised name a place ("Mount Everest", "Lake Victoria").
PLACE_PREFIXES = words("mount mt. mt lake cape gulf isle port fort saint st. st")


def _bar_separated(text: str) -> list[str]:
    """'a|b c|d' -> ['a', 'b c', 'd']."""
    return [p for p in text.split("|") if p]


def _names(block: str) -> list[str]:
    """Split a whitespace list in which multiword names are written with single spaces: longest match later."""
    return [w for w in block.split() if w]


def _build() -> dict[str, tuple[str, ...]]:
    """Every known place -> its enclosing places (country, continent), most specific first."""
    parents: dict[str, tuple[str, ...]] = {}
    continent_of: dict[str, str] = {}
    for continent, block in _CONTINENTS.items():
        parents[continent] = ()
        for name in _phrases(block):
            continent_of[name] = continent
    for name, continent in continent_of.items():
        canon = _ALIASES.get(name, _PART_OF.get(name, name))
        parents[name] = ((canon,) if canon != name else ()) + (continent,)
    for state in _phrases(_US_STATES):
        parents[state] = ("united states", "north america")
    for country, block in _CITIES.items():
        continent = continent_of.get(country, "")
        for city in _phrases(block):
            parents.setdefault(city, (country, continent) if continent else (country,))
    for continent, block in _REGIONS.items():
        for region in _phrases(block):
            parents.setdefault(region, (continent,))
    parents.setdefault("americas", ())
    parents.setdefault("antarctica", ())
    for name in ("north america", "south america"):
        parents[name] = ("americas",)
    return parents


_KNOWN_MULTI = _bar_separated(
    "bosnia and herzegovina|czech republic|united kingdom|great britain|northern ireland|vatican city|san marino|"
    "north macedonia|hong kong|north korea|south korea|saudi arabia|sri lanka|timor-leste|east timor|"
    "united arab emirates|burkina faso|cape verde|central african republic|democratic republic of the congo|"
    "equatorial guinea|ivory coast|sierra leone|south africa|south sudan|united states|el salvador|costa rica|"
    "dominican republic|trinidad and tobago|puerto rico|new zealand|papua new guinea|solomon islands|new hampshire|"
    "new jersey|new mexico|new york state|north carolina|north dakota|rhode island|south carolina|south dakota|"
    "washington state|west virginia|new york|new york city|los angeles|san antonio|san diego|san francisco|"
    "las vegas|washington d.c.|new orleans|silicon valley|mexico city|the hague|saint petersburg|st. petersburg|"
    "new delhi|ho chi minh city|cape town|sao paulo|são paulo|rio de janeiro|buenos aires|tel aviv|abu dhabi|"
    "western europe|eastern europe|northern europe|southern europe|middle east|southeast asia|east asia|south asia|"
    "central asia|far east|sub-saharan africa|west africa|east africa|north africa|central america|latin america|"
    "new england|north america|south america"
)


def _phrases(block: str) -> list[str]:
    """Names in a whitespace-separated block, joining the known multiword names."""
    text = " " + " ".join(block.split()) + " "
    found: list[str] = []
    for name in sorted(_KNOWN_MULTI, key=len, reverse=True):
        needle = f" {name} "
        while needle in text:
            found.append(name)
            text = text.replace(needle, " ", 1)
    found.extend(_names(text))
    return found


_PARENTS: dict[str, tuple[str, ...]] = _build()


def is_place(name: str) -> bool:
    """Whether a lower-cased name is a known country, region, state, city or continent."""
    return name in _PARENTS


def place_parents(name: str) -> tuple[str, ...]:
    """The known places that enclose ``name`` (canonical country first, then continent)."""
    return _PARENTS.get(name, ())


def contains(outer: str, inner: str) -> bool | None:
    """Whether place ``inner`` lies in (or is) ``outer``; None when ``outer`` is not a known place."""
    outer = _ALIASES.get(outer, outer)
    inner_canon = _ALIASES.get(inner, inner)
    if outer not in _PARENTS:
        return None
    if inner_canon == outer or inner == outer:
        return True
    chain = set(_PARENTS.get(inner, ())) | set(_PARENTS.get(inner_canon, ()))
    for p in list(chain):
        chain |= set(_PARENTS.get(p, ()))
    return outer in chain
