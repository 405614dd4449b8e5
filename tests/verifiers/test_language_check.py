"""language:response_language: unknown where identification cannot be trusted, decided otherwise."""

from __future__ import annotations

import pytest

from faithguard.lexical.langid import script_letters
from faithguard.models import Status
from faithguard.verifiers import verify


def _status(code: str, response: str) -> Status:
    return verify("language:response_language", {"language": code}, response).status


def test_long_answers_are_decided() -> None:
    assert (
        _status("fr", "Le soleil se lève à l'est et se couche à l'ouest, comme chaque jour de l'année.")
        is Status.SATISFIED
    )
    assert (
        _status("fr", "The sun rises in the east and sets in the west, as it does every day of the year.")
        is Status.VIOLATED
    )


def test_few_latin_letters_are_unknown() -> None:
    assert _status("fr", "Bonjour !") is Status.UNKNOWN
    assert _status("de", "Good day!") is Status.UNKNOWN


def test_few_letters_of_a_script_one_language_owns_are_decided() -> None:
    assert _status("ko", "안녕하세요 감사합니다") is Status.SATISFIED
    assert script_letters("Bonjour !") == (7, True) and script_letters("안녕하세요")[1] is False


def test_a_language_the_identifier_cannot_tell_is_unknown_not_violated() -> None:
    # Maori is not among the model's languages: a Maori answer must not read as 'violated'
    assert _status("mi", "Kia ora koutou, he rā pai tēnei mō te hīkoi ki te awa me te whānau katoa.") is Status.UNKNOWN


def test_a_language_outside_the_named_ones_is_read_by_the_model() -> None:
    # Czech has no name the request reader looks for, but the model tells it apart: asked and answered, satisfied
    assert _status("cs", "Dobrý den, dnes je krásné počasí a jdeme se projít do parku u řeky.") is Status.SATISFIED
    assert _status("pl", "Dobrý den, dnes je krásné počasí a jdeme se projít do parku u řeky.") is Status.VIOLATED


def _wordfreq_languages() -> list[str]:
    import wordfreq

    from faithguard.lexical.langid import LANGUAGE_NAMES

    listed = set(wordfreq.available_languages("small"))
    return sorted(code for code in LANGUAGE_NAMES if code in listed)


@pytest.mark.parametrize("code", _wordfreq_languages())
def test_each_named_language_is_told_from_its_own_vocabulary(code: str) -> None:
    # Forty words of wordfreq's list for the language (ranks 60-99: past the function words every profile
    # shares), run together: the identifier must name the language with confidence. A resource's words, not ours.
    import wordfreq

    from faithguard.lexical.langid import identify

    ident = identify(" ".join(wordfreq.top_n_list(code, 100, wordlist="small")[60:100]))
    assert ident.language == code and ident.confidence >= 0.35


def test_a_mixed_text_is_read_whole() -> None:
    # The model weighs every script's evidence: a few Chinese words in English stay English, and a Korean
    # sentence with an English gloss is Korean though its Latin letters outnumber its Hangul syllables.
    from faithguard.lexical.langid import identify

    mixed = "A: Good morning, how was the trip to the coast? B: 很好，谢谢。 A: Did you see the old lighthouse?"
    assert identify(mixed).language == "en"
    glossed = "RAM은 랜덤 액세스 메모리(Random Access Memory, working storage)의 약자입니다."
    assert identify(glossed).language == "ko"


def test_the_model_reads_a_bounded_prefix() -> None:
    # An English opening long enough to decide, then as much French again: the reading is the opening's, and the
    # text after MODEL_CHARS costs nothing.
    from faithguard.lexical.langid import MODEL_CHARS, identify

    english = "The committee met on Tuesday to review the budget and plan the next season. " * 60
    french = "Le comité s'est réuni mardi pour examiner le budget et préparer la saison. " * 60
    assert len(english) >= MODEL_CHARS
    assert identify(english + french).language == "en"
    assert identify(french).language == "fr"
