"""language:response_language: unknown where identification cannot be trusted, decided otherwise."""

from __future__ import annotations

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
    # Czech is not among the identifier's languages: a Czech answer must not read as 'violated'
    assert _status("cs", "Dobrý den, dnes je krásné počasí a jdeme se projít do parku u řeky.") is Status.UNKNOWN
