"""One fixture table per structural pattern of the missing-content check, run by one parametrised test.

Every row was written for its pattern (never copied from an evaluation set). ``wordnet`` marks rows
whose decision needs the WordNet database (Debian ``wordnet-base``); they skip with a reason without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector
from faithguard.models import Message
from faithguard.terms.wordnet import available as wordnet_available

TEXT = (
    "The allotment society voted to share one rainwater tank between every four plots, after a dry summer "
    "left the lower beds cracked and the committee short of volunteers for hand watering."
)
OTHER = (
    "Night buses on the river line now run every twenty minutes instead of hourly, and the operator says "
    "the extra drivers were hired from its own depot staff rather than agencies."
)


@dataclass(frozen=True)
class Case:
    query: str
    missing: bool
    documents: tuple[str, ...] = ()
    system: str = ""
    history: tuple[tuple[str, str], ...] = ()
    wordnet: bool = False


@dataclass(frozen=True)
class Spec:
    name: str
    why: str
    cases: list[Case] = field(default_factory=list)


SPECS = [
    Spec(
        "wordnet_strong_class",
        "a bare definite NP whose most frequent WordNet sense is writing/visual content",
        [
            Case("What does the invoice say about late fees?", True, wordnet=True),
            Case("Is the diagram labelled correctly?", True, wordnet=True),
            Case("What does the invoice say about late fees?", False, (TEXT,), wordnet=True),
            Case("How is the weather in Lisbon in May?", False, wordnet=True),
            Case("What does the theory of evolution predict about islands?", False, wordnet=True),
        ],
    ),
    Spec(
        "wordnet_weak_class_needs_pointer",
        "a message-like noun refers to content only with a possessive/demonstrative",
        [
            Case("Answer the landlord's complaint in a calm tone.", True, wordnet=True),
            Case("Make my reply sound warmer.", True, wordnet=True),
            Case("What is a complaint in civil law?", False, wordnet=True),
            Case("Answer the landlord's complaint in a calm tone.\n\nLandlord: " + TEXT, False, wordnet=True),
        ],
    ),
    Spec(
        "future_or_receiving_supply",
        "content still to come ('I'll paste') or being received ('I'm getting')",
        [
            Case("Check the letter I'll paste after this for typos.", True),
            Case("Decode the warning message I keep getting.", True),
            Case("Decode the warning message I keep getting: disk quota exceeded on volume two.", False),
            Case("I'll write the letter myself; what greeting suits a landlord?", False),
        ],
    ),
    Spec(
        "markdown_section",
        "a markdown heading of a content kind with nothing under it before the next heading",
        [
            Case("## Essay\n\n## Instructions\nMark the essay out of ten.", True),
            Case("## Essay\n" + TEXT + "\n\n## Instructions\nMark the essay out of ten.", False),
            Case("## Instructions\nWrite an essay on rainwater.", False),
        ],
    ),
    Spec(
        "template_slot",
        "an empty 'Label:' line followed directly by another label",
        [
            Case("Customer feedback:\nSupport answer:\nIs the support answer adequate?", True, wordnet=True),
            Case(
                "Customer feedback: " + TEXT + "\nSupport answer: " + OTHER + "\nIs it adequate?", False, wordnet=True
            ),
            Case("Name: Ada\nCity: Leeds\nWrite a two-line bio.", False),
        ],
    ),
    Spec(
        "ids_by_label_name",
        "an item id the prose names but no label carries (compared by id, not count)",
        [
            Case("Weigh Option A against Option C.\n\nOption A: " + TEXT + "\n\nOption B: " + OTHER, True),
            Case("Weigh Option A against Option B.\n\nOption A: " + TEXT + "\n\nOption B: " + OTHER, False),
            Case("Summarise documents 1 through 3.", True, (TEXT, OTHER)),
            Case("Summarise documents 1 through 3.", False, (TEXT, OTHER, TEXT)),
        ],
    ),
    Spec(
        "attach_participle",
        "'the attached/enclosed/uploaded X' is supplied content whatever X is",
        [
            Case("Translate the enclosed leaflet into Welsh.", True),
            Case("Translate the enclosed leaflet into Welsh.", False, (TEXT,)),
            Case("Translate the word leaflet into Welsh.", False),
        ],
    ),
    Spec(
        "do_support_subject",
        "'does the X show ...': the NP is the subject even when the tagger reads the verb as a noun",
        [
            Case("What does the graph show for March?", True, wordnet=True),
            Case("Why does my script crash at startup?", True),
            Case("Why does my script crash at startup?\n\n```\nimport sys\nsys.exit(load())\n```", False),
        ],
    ),
    Spec(
        "definite_count",
        "'the two/three X' picks out items the user holds, for any content kind",
        [
            Case("Which of the two answers is more polite?", True),
            Case("Which of the two answers is more polite?\n\nAnswer 1: " + TEXT + "\n\nAnswer 2: " + OTHER, False),
        ],
    ),
    Spec(
        "not_inline_content",
        "a photo/chart/video cannot be supplied as prose: only an attachment stands for it",
        [
            Case("Summarise the video in three bullets.", True, wordnet=True),
            Case("Summarise the video in three bullets.", False, (TEXT,), wordnet=True),
            Case("Which video formats play on old phones?", False, wordnet=True),
        ],
    ),
    Spec(
        "unfetched_link",
        "a link introduced as the material ('this page: <url>') whose text was never fetched",
        [
            Case("Summarise this page: https://example.org/notes/7", True),
            Case("Summarise this page: https://example.org/notes/7", False, (TEXT,)),
            Case("Is https://example.org a safe site to use?", False),
        ],
    ),
    Spec(
        "earlier_turns_resolve",
        "content supplied in an earlier turn satisfies a later reference",
        [
            Case("Shorten the paragraph to one line.", False, history=(("user", "Paragraph: " + TEXT),)),
            Case("Shorten the paragraph to one line.", True, history=(("user", "Hi there"), ("assistant", "Hello!"))),
        ],
    ),
]

ROWS = [(spec.name, i, case) for spec in SPECS for i, case in enumerate(spec.cases)]
DET = MissingContentDetector()


def test_every_spec_has_both_polarities() -> None:
    for spec in SPECS:
        assert spec.why
        assert any(c.missing for c in spec.cases) and any(not c.missing for c in spec.cases), spec.name


@pytest.mark.parametrize(("spec", "i", "case"), ROWS, ids=[f"{s}-{i}" for s, i, _ in ROWS])
def test_structural_fixture(spec: str, i: int, case: Case) -> None:
    if case.wordnet and not wordnet_available():
        pytest.skip("WordNet database not installed (apt-get install wordnet-base)")
    ctx = CallContext(
        query=case.query,
        documents=list(case.documents),
        system=case.system,
        history=[Message(role=r, content=c) for r, c in case.history],  # type: ignore[arg-type]
    )
    found = DET.run(ctx).findings["missing_content"]
    assert bool(found) is case.missing, (spec, case.query, found)
