"""One fixture table per structural pattern of the missing-content check, run by one parametrised test.

Every row was written for its pattern (never copied from an evaluation set). ``wordnet`` marks rows
whose decision needs the WordNet database (Debian ``wordnet-base``); they skip with a reason without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector
from faithguard.lexical.wordnet_mmap import available as wordnet_available
from faithguard.models import Message

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
        "empty_label_chain",
        "an empty content label followed by an empty label of any name (not a content kind) is still a slot",
        [
            Case(
                "Task: Name three rivers.\nModel answer:\nVerdict:\nSay whether the answer is right.",
                True,
                wordnet=True,
            ),
            Case(
                "Task: Name three rivers.\nModel answer: Nile, Amazon, "
                "Danube.\nVerdict:\nSay whether the answer is right.",
                False,
                wordnet=True,
            ),
            Case("Essay:\n" + TEXT + "\nTone: formal\nRate the essay.", False, wordnet=True),
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
            Case("Which of the listed flights lands earliest?", True),
            Case("Reword the underlined clause so it sounds friendlier.", True),
            Case("Which of the listed flights lands earliest?", False, (TEXT,)),
            Case("Which airlines are listed on the stock exchange?", False),
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
    Spec(
        "numbered_part",
        "a numbered part of a determined whole ('clause 4 of the lease') presupposes that text",
        [
            Case("What does paragraph 7 of the tenancy agreement allow?", True, wordnet=True),
            Case("Quote line 3 of my poem back to me.", True, wordnet=True),
            Case("Solve exercise 4 from the problem sheet.", True, wordnet=True),
            Case("What does paragraph 7 of the tenancy agreement allow?", False, (TEXT,), wordnet=True),
            Case("What happened on day 3 of the expedition?", False, wordnet=True),
            Case("What does Article 51 of the UN Charter permit?", False, wordnet=True),
        ],
    ),
    Spec(
        "person_modifier",
        "a modifier naming a person makes a message specific, like a possessive ('the tenant email')",
        [
            Case("Draft a reply to the tenant message about the boiler.", True, wordnet=True),
            Case("Draft a reply to the tenant message about the boiler.\n\nTenant: " + TEXT, False, wordnet=True),
            Case("What makes a good message to a new tenant?", False, wordnet=True),
        ],
    ),
    Spec(
        "first_person_relative",
        "a noun followed by a clause whose subject is the user is an item the user holds (unless negated)",
        [
            Case("Interpret the warning I keep seeing on boot.", True, wordnet=True),
            Case("Mark the quizzes my pupils handed in.", True, wordnet=True),
            Case("Interpret the warning I keep seeing on boot: fan speed low.", False, wordnet=True),
            Case("Where should I plant the shrub I just bought?", False, wordnet=True),
            Case("Write a limerick about the parcel I never received.", False, wordnet=True),
            # an indefinite object of a creation verb is the answer's own output, whoever will use it
            Case("Draft a polite refusal letter my assistant can reuse for vendors.", False, wordnet=True),
            Case(  # flagged before the rule
                "Write a short, upbeat response template my staff can adapt when we get a late delivery.",
                False,
                wordnet=True,
            ),
            Case("Compose a short speech I can give at the retirement lunch.", False, wordnet=True),
            Case("Draft a reply to the letter my assistant forwarded.", True, wordnet=True),
        ],
    ),
    Spec(
        "deictic_pronoun",
        "a pronoun standing for material nothing introduces ('Condense this.')",
        [
            Case("Condense this for a slide.", True),
            Case("What does this imply for tenants?", True),
            Case("Condense this for a slide: " + TEXT, False),
            Case("I am learning Welsh. How should I pace this?", False),
            Case("Why is the sky blue and why is it darker at dusk?", False),
            Case("Could you put that into Italian?", True),
            Case("eli5 this pls", True),
            Case("My landlord raised the rent by forty percent. Can he do that?", False),
            Case("Why do sailors say that?", False),
            Case("Could you put that into Italian?", False, history=(("user", TEXT),)),
        ],
    ),
    Spec(
        "determiner_across_a_verb",
        "in supplied prose, 'the' before a verb belongs to another phrase ('the plan added two weeks')",
        [
            Case("Pull the dates out of the memo.", True),
            Case("Pull the dates out of the memo.\n\n" + TEXT + " The plan added two weeks of rota notes.", False),
        ],
    ),
    Spec(
        "narration_is_not_a_reference",
        "an item the user narrates about ('I skimmed the brochure and it bored me') is not handed over",
        [
            Case("I skimmed the brochure and it bored me. Any tips for staying awake?", False),
            Case("The memo was shredded by accident. How do I tell my boss?", False),
            Case("I finished the brochure. Can you proofread it?", True),
        ],
    ),
    Spec(
        "label_then_request_about_it",
        "an empty 'Label:' line whose next line is a request naming the label's kind is an unfilled slot",
        [
            Case("Prompt: Name three rivers.\nReply:\n\nScore the reply above from 1 to 5.", True),
            Case("Prompt: Name three rivers.\nReply:\nThe Nile, the Amazon and the Danube.\n\nScore the reply.", False),
            Case(
                "Question:\nWhich river is longest?\n\nAnswer:\nThe Nile, by most counts.\n\nIs the answer right?",
                False,
            ),
        ],
    ),
    Spec(
        "coordinated_ordinals",
        "'the first and second X' needs as many items as the highest ordinal",
        [
            Case("Contrast the first and third drafts.", True, (TEXT, OTHER)),
            Case("Contrast the first and third drafts.", False, (TEXT, OTHER, TEXT)),
            Case("What caused the first and second world wars?", False),
        ],
    ),
    Spec(
        "trailing_colon",
        "a request that ends on a colon announces content that is not there",
        [
            Case("Turn this into a numbered checklist:", True),
            Case("Turn this into a numbered checklist:", False, (TEXT,)),
            Case("Turn this into a numbered checklist: buy seeds, dig beds, water weekly.", False),
        ],
    ),
    Spec(
        "strong_sense_filed_as_communication",
        "a noun whose first WordNet sense is filed outside communication/artifact/person is not strong",
        [
            Case("What are the cheapest options for a first flat?", False, wordnet=True),
            Case("What does the invoice list as the due date?", True, wordnet=True),
        ],
    ),
    Spec(
        "identifier_after_noun",
        "a number naming the item ('the status code 503') marks a world entity; a unit count does not",
        [
            Case("What does the status code 503 mean?", False),
            Case("Trim the letter 3 sentences shorter.", True),
        ],
    ),
    Spec(
        "cited_source",
        "'according to the X' / 'based on the X' cites X as the request's source, unless X is a named work",
        [
            Case("According to the notes, when is the next inspection?", True),
            Case("Based on the minutes, who objected?", True),
            Case("According to the Koran, how many pillars are there?", False),
            Case("Based on the minutes, who objected?", False, (TEXT,)),
        ],
    ),
    Spec(
        "label_body_ends_at_a_line_about_its_kind",
        "under the last label, a later line that points at the label's kind is the request, not the body",
        [
            Case("Report 1: Sales rose in May.\nWhich of the four reports is most upbeat?", True),
            Case(
                "Report 1: Sales rose in May.\nReport 2: Sales fell in June.\nWhich of the two reports is upbeat?",
                False,
            ),
        ],
    ),
    Spec(
        "enumerated_items",
        "each enumerated line that reads as content is one item; instruction lines are not",
        [
            Case("Which of these three slogans is catchiest?\n1. Fresh every day\n2. Baked at dawn", True),
            Case("Which of these two slogans is catchiest?\n1. Fresh every day\n2. Baked at dawn", False),
            Case("Compare the two memos.\n- Focus on tone\n- Keep it brief", True),
        ],
    ),
    Spec(
        "enumerated_tail_after_colon",
        "an enumerated list after a colon on the request line is one item per line, not one colon tail",
        [
            Case("Pick the strongest of these three mottos:\n1. Built to last\n2. Quiet power\n3. Made here", False),
            Case("Pick the strongest of these four mottos:\n1. Built to last\n2. Quiet power\n3. Made here", True),
            Case("Order these two steps:\n- Drain the pasta\n- Salt the water", False),
            # most lines read as content, so a line opening like an instruction ("Your ...") is an item too
            Case(
                "Which of these three mottos fits a bakery?\n1. Warm loaves "
                "daily\n2. Crumbs of joy\n3. Your corner oven",
                False,
            ),
            Case("Summarise the two reports:\n- Keep it short\n- Use plain words", True),
        ],
    ),
    Spec(
        "group_modifier_form_as_written",
        "a modifier naming a body of people reads a form with its own WordNet entry by that entry ('minutes')",
        [
            Case("List the decisions in the council minutes.", True, wordnet=True),
            Case("What did the staff minutes record about the rota?", True, wordnet=True),
            Case("List the decisions in the council minutes.", False, (TEXT,), wordnet=True),
            Case("What happens to bread dough in the minutes after kneading?", False, wordnet=True),
            Case("Plan a quiz for the last minutes of the lesson.", False, wordnet=True),
        ],
    ),
    Spec(
        "ordinal_item",
        "an ordinal before a noun that can be a text ('cited' lexname test) picks out one of the user's items",
        [
            Case("Is the fourth survey larger than the others?", True, (TEXT, OTHER), wordnet=True),
            Case("What sample size did the second survey's authors use?", True, wordnet=True),
            Case("Is the second survey larger than the first?", False, (TEXT, OTHER), wordnet=True),
            Case("What is the second stage of grief?", False, wordnet=True),
            Case("Explain the first law of motion.", False, wordnet=True),
            Case("What does the second source claim about tides?", True, wordnet=True),
            Case("What does the second source claim about tides?", False, (TEXT, OTHER), wordnet=True),
            Case("Which country hosted the second summit of the G20 leaders?", False, wordnet=True),
        ],
    ),
    Spec(
        "deictic_determiner",
        "'this/these' + a noun the request acts on, with nothing before it, points at unsupplied material",
        [
            Case("Why does this warning keep appearing?", True, wordnet=True),
            Case("Tidy up these lines for me.", True, wordnet=True),
            Case("What should we cook this weekend?", False, wordnet=True),
            Case("Can this cactus survive a frost?", False, wordnet=True),
            Case("How long does this kind of repair usually take?", False, wordnet=True),
            Case("Why does this process take so long at the passport office?", False, wordnet=True),
            Case("Why does this warning keep appearing?", False, history=(("user", TEXT),), wordnet=True),
        ],
    ),
    Spec(
        "placed_below_or_above",
        "'the X (participle) below/above' ending the phrase is material the request places, whatever X is",
        [
            Case("Point out the weak spots in the strategy outlined below.", True),
            Case("Point out the weak spots in the strategy outlined below.\n\n" + TEXT, False),
            Case("Is the meadow below the dam flooded every spring?", False),
        ],
    ),
    Spec(
        "request_object_text",
        "'the X' right after the request's opening verb, X a text by its first two senses ('shown' test), is material",
        [
            Case("Paraphrase the slogan for a younger audience.", True, wordnet=True),
            Case("Please shorten the caption to five words.", True, wordnet=True),
            Case("Paraphrase the slogan for a younger audience.", False, (TEXT,), wordnet=True),
            Case("Explain the controversy over daylight saving time.", False, wordnet=True),
            Case("Describe the climate of Patagonia.", False, wordnet=True),
            Case("Does the slogan of Nike come from a prison quote?", False, wordnet=True),
        ],
    ),
    Spec(
        "salutation_paragraph",
        "a paragraph that greets a named person is a letter or email, greeting and sign-off included",
        [
            Case("Is this email too blunt?\n\nDear Mr Okafor, we cannot refund the deposit. Regards, Lee", False),
            Case("Is this email too blunt?\n\nHello everyone, thanks!", True),
        ],
    ),
    Spec(
        "part_inside_a_whole",
        "a paragraph or sentence named beside its document needs no item of its own",
        [
            Case("Carry on the story from its final paragraph.", False, history=(("user", "Story: " + TEXT),)),
            Case("Carry on the story from its final paragraph.", True),
            Case("Set the memo beside the report.", True, (TEXT,)),
        ],
    ),
    Spec(
        "the_conversation_itself",
        "'our previous discussion' / 'the chat' is satisfied by any earlier turn, however short",
        [
            Case("Recap our earlier discussion in one line.", True, wordnet=True),
            Case(
                "Recap our earlier discussion in one line.",
                False,
                history=(("user", "Tea or coffee for a late shift?"), ("assistant", "Green tea: less caffeine.")),
                wordnet=True,
            ),
        ],
    ),
    Spec(
        "cited_communication_noun",
        "a communication noun after a citing phrase ('given the search results') is the request's source",
        [
            Case("Given the search results, when did the bridge open?", True, wordnet=True),
            Case("Given the search results, when did the bridge open?", False, (TEXT,), wordnet=True),
            Case("Using the scientific method, plan a test of seed growth.", False, wordnet=True),
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
