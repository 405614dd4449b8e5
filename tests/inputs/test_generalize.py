"""Fixtures for the general mechanisms of issue #12: one table per mechanism, positive and negative rows.

Every row was written for its mechanism here (never copied from an evaluation set). ``wordnet`` marks rows whose
decision needs the WordNet database (Debian ``wordnet-base``); they skip with a reason without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector
from faithguard.lexical.wordnet_mmap import available as wordnet_available
from faithguard.models import Message

PROSE = (
    "The ferry operator added a second evening crossing in June after queues at the harbour grew past the "
    "car park, and says the extra sailing will stay until the bridge repairs end next spring."
)


@dataclass(frozen=True)
class Case:
    query: str
    missing: bool
    documents: tuple[str, ...] = ()
    history: tuple[tuple[str, str], ...] = ()
    wordnet: bool = False


@dataclass(frozen=True)
class Spec:
    name: str
    why: str
    cases: list[Case] = field(default_factory=list)
    #: whether attaching documents supplies the positives (an empty section is still an empty slot in the text)
    docs_clear: bool = True


SPECS = [
    Spec(
        "antecedent_in_request",
        "a definite noun the request itself introduced earlier (a count, a bare or indefinite noun) is that new item",
        [
            Case("Write three riddles about winter. Number the three riddles.", False, wordnet=True),
            Case("Compose a limerick of 2 stanzas, then give the stanzas titles.", False, wordnet=True),
            Case(
                "Draft a quiz with 5 questions on volcanoes. Then answer these questions yourself.", False, wordnet=True
            ),
            Case("Produce an essay on tides and a summary based on the essay's argument.", False, wordnet=True),
            # the user's own items: introduced in a first-person clause, still to be supplied
            Case("I have two essays on tides. Compare the two essays.", True, wordnet=True),
            Case("We got three riddles from a reader. Rank the three riddles.", True, wordnet=True),
            # no antecedent at all
            Case("Rank the three riddles by difficulty.", True, wordnet=True),
            Case("Based on the essay's argument, list two weaknesses.", True, wordnet=True),
        ],
    ),
    Spec(
        "part_of_created_text",
        "after a sentence asking for a new text, its parts ('the stanzas', 'the fourth sentence') are the new text's",
        [
            Case("Write a poem about rain. Separate the stanzas with a blank line.", False, wordnet=True),
            # a text part whose textual sense is WordNet's third ("verse": poetry, then a line of metrical text)
            Case("Write a song about trains. Keep the third verse under four lines.", False, wordnet=True),
            Case("Is the third verse too long?", True, wordnet=True),
            Case("Write an email to a landlord. The second paragraph must mention the heating.", False, wordnet=True),
            # any cardinal counts the new text (the one number table), not only the small ones
            Case("Write eight short poems about frost. Separate the stanzas with a blank line.", False, wordnet=True),
            Case("Compose a ballad for a child. Give the headings in bold.", False, wordnet=True),
            # no creation before: the parts belong to a text the user holds
            Case("Separate the stanzas with a blank line.", True, wordnet=True),
            Case("Is the second paragraph too long?", True, wordnet=True),
            # creation in the same sentence as the reference does not make the reference the new text
            Case("Write a reply that quotes the second paragraph.", True, wordnet=True),
            # a part as the object of a verb coordinated after the creation clause is the new text's (round 7)
            Case("Compose a limerick and put the final stanza in italics.", False, wordnet=True),
            Case("Draft a short email, then underline the second sentence.", False, wordnet=True),
            # a part inside the creation clause, or with no verb after "and", belongs to a held text
            Case("Write a summary of the first chapter.", True, wordnet=True),
            Case("Write a haiku about the sea and the second stanza of my poem.", True, wordnet=True),
        ],
    ),
    Spec(
        "output_clause_after_noun",
        "a second-person creation clause after the noun ('the lyrics you write') names the assistant's output",
        [
            Case("Add a short gloss under the lyrics you write.", False, wordnet=True),
            Case("Keep the essay you compose under 300 words.", False, wordnet=True),
            Case("Add a short gloss under the lyrics I wrote.", True, wordnet=True),
            Case("Keep the essay under 300 words.", True, wordnet=True),
        ],
    ),
]

SPECS += [
    Spec(
        "communication_share",
        "a definite noun whose WordNet uses are mostly communication names a text in a sentence of the request",
        [
            Case("Shorten the itinerary email's caption to six words.", True, wordnet=True),
            Case("Halve every quantity in the recipe.", True, wordnet=True),
            Case("Is the caption too long?", True, wordnet=True),
            Case("Halve every quantity in the recipe.", False, (PROSE,), wordnet=True),
            # a topic after the noun, a superlative, a unit of language, or the noun inside supplied prose
            Case("Explain the controversy over school uniforms.", False, wordnet=True),
            Case("Which is the most famous caption in cartoon history?", False, wordnet=True),
            Case("Write a haiku that uses the word lantern twice.", False, wordnet=True),
            Case("Describe a lighthouse keeper; keep the total words under 90.", False, wordnet=True),
            Case("What should I wear to the concert tonight?", False, wordnet=True),
            Case("What time does the debate start on channel four?", False, wordnet=True),
            Case(
                "Summarise the passage below in one line.\n\n" + PROSE.replace("the car park", "the timetable"), False
            ),
        ],
    ),
    Spec(
        "wordnet_compound",
        "two nouns that form one WordNet compound lemma are read as that compound ('press release', 'warning light')",
        [
            Case("List the quotes in the press release.", True, wordnet=True),
            Case("Pull the dates out of the press release.", True, wordnet=True),
            Case("List the quotes in the press release.", False, (PROSE,), wordnet=True),
            Case("What does the warning light on a tractor mean?", False, wordnet=True),
            # the closed spelling WordNet lists ("bookclub", "songbook"): the first noun only modifies the second
            Case("Suggest three novels for my book club to read this winter.", False, wordnet=True),
            # the parser reads "club" as an apposition here: only the compound lemma keeps "my book" out
            Case(
                "Can you outline Middlemarch in four sentences? It's for my book club - we're all nurses.",
                False,
                wordnet=True,
            ),
            Case("Recommend a warm-up for our song book evening.", False, wordnet=True),
            Case("Suggest three novels like my book.", True, wordnet=True),
        ],
    ),
    Spec(
        "portion_beside_whole",
        "a noun naming a portion ('the relevant bit') beside the whole it is part of counts no item of its own",
        [
            Case(
                "Going by the spreadsheet (I've pasted the relevant bit below), which month had the highest spend?"
                "\n\n| Month | Spend |\n|---|---|\n| January | 420 |\n| February | 515 |\n| March | 388 |",
                False,
                wordnet=True,
            ),
            Case(
                "Going by the spreadsheet (I've pasted the relevant bit below), which month had the highest spend?",
                True,
                wordnet=True,
            ),
        ],
    ),
    Spec(
        "answer_field",
        "an empty label ending the request after a filled label is the template's answer field, not a missing input",
        [
            Case(
                "Label the tone of the customer message below as calm, annoyed or furious.\n\nMessage: I have been "
                "waiting eleven days for a refund and nobody answers the phone. Sort it out today.\n\nTone:",
                False,
            ),
            Case(
                "Write a summary of the article.\n\nArticle: The council approved the new cycle lanes on Tuesday "
                "after a long debate about parking on the high street.\n\nSummary:",
                False,
            ),
            # single line breaks, and labels of any name
            Case("Tag the mood of the note.\nNote: Can't wait for the beach trip on Friday!\nMood:", False),
            Case("Put it in German.\nEnglish: The library closes at six.\nGerman:", False),
            Case("Tag the mood of the note.\nNote:\nMood:", True),
            Case("Label the tone of the customer message as calm, annoyed or furious.\n\nMessage:\n\nTone:", True),
            Case("Summarize the background.\n\nBackground:", True),
        ],
        docs_clear=False,
    ),
    Spec(
        "plural_entry_object",
        "as the request's object, a plural with its own WordNet entry is read by it ('the minutes': a record)",
        [
            Case("Condense the minutes into five bullet points for the chair.", True, wordnet=True),
            Case("Translate the instructions into Polish for my neighbour.", True, wordnet=True),
            Case(
                "Translate the instructions into Polish: remove the lid, stir the soup well and serve it cold.",
                False,
                wordnet=True,
            ),
            Case("Count the minutes until the bus comes and write a haiku about waiting.", False, wordnet=True),
            Case("How many minutes does the walk to the station take?", False, wordnet=True),
        ],
    ),
    Spec(
        "empty_list_items",
        "two or more list items with nothing after their bullet or number are a list left to fill",
        [
            Case("Going by my scores below, which course should I drop?\n\nmy scores:\n- \n- \n- \n\ncheers", True),
            Case("Which of my options is cheapest?\n\nOptions:\n-\n-", True),
            Case("Which of my options is cheapest?\n\nOptions:\n- bus pass 40\n- bike 120", False),
            Case("Make a packing list with five bullets:\n-\n-", False),  # the answer's own outline
            Case("Write a haiku.\n\n---\n\nThen a limerick about tea.", False),  # a rule, not a list
        ],
        docs_clear=False,
    ),
    Spec(
        "relative_that",
        "a relative 'that' introduces a clause about the noun before it; only a demonstrative 'that' is material",
        [
            Case("Write a riddle about a gadget that you would like to sell.", False),
            Case("Draft an ad for a bike that my neighbour wants to sell. Keep it upbeat.", False),
            Case("Can you translate that into Spanish?", True),
        ],
    ),
    Spec(
        "identity_question",
        "a question of identity about a bare demonstrative ('What bird is this?') asks about something shown",
        [
            Case("What bird is this?", True),
            Case("Which typeface are these? Need a match for our flyer.", True, wordnet=True),
            Case("What time is this meeting?", False),
            Case("What bird is this?", False, ("A small brown bird with a red chest and a thin beak, seen in May.",)),
        ],
    ),
    Spec(
        "deictic_judged",
        "a demonstrative the request asks to be judged ('Is that correct?') stands for shown material",
        [
            Case("Is that grammatically correct?", True),
            Case("Does this sound polite enough for my landlord?", True),
            Case("My dog sleeps most of the day. Is that normal for a puppy?", False),  # the antecedent is there
            Case("Is it true that owls can turn their heads all the way round?", False),
            Case("Is that grammatically correct?", False, history=(("user", "Me and him goes to the market."),)),
            Case("Name two birds that are blue.", False),  # a relative 'that' describes the noun before it
            Case("Recommend some board games that are fun for a family of four.", False),
        ],
    ),
    Spec(
        "cited_source_opening",
        "a sentence opening 'From the X,' or 'Going by the X,' cites the X as the request's source",
        [
            Case("From the table, which region grew fastest last year?", True, wordnet=True),
            Case("Going by the chart, which month had the most returns?", True, wordnet=True),
            Case("From the beginning, explain how photosynthesis works.", False, wordnet=True),
            Case("From the book Dune, who is Paul's mother?", False, wordnet=True),
            Case("Based on the book Dune, who is Paul's mother?", False, wordnet=True),
        ],
    ),
    Spec(
        "generic_noun_phrase",
        "a superlative or a prepositional phrase about an indefinite makes the phrase a kind ('the best recipe for')",
        [
            Case("What is the best recipe for flatbread?", False, wordnet=True),
            Case("What does the error on a checkout page usually mean?", False, wordnet=True),
            Case("Is the recipe for flatbread too salty?", True, wordnet=True),
            Case("Summarize the transcript in a sentence.", True, wordnet=True),
        ],
    ),
]

SPECS += [
    Spec(
        "first_person_pointer_contracted",
        "the user's own clause, contracted or before a demonstrative, points at an item ('the error I'm getting')",
        [
            Case("Explain the error I'm getting.", True, wordnet=True),
            Case("What does the warning I've been seeing mean?", True, wordnet=True),
            Case("Why am I getting this error?", True, wordnet=True),
            Case("Explain the error I'm getting: disk quota exceeded on volume two.", False, wordnet=True),
            Case("Why am I getting this error?", False, (PROSE,), wordnet=True),
            Case("I'm visiting this city next spring; what should I see?", False, wordnet=True),
            Case("Why am I getting headaches after coffee?", False, wordnet=True),
        ],
    ),
]

SPECS += [
    Spec(
        "content_compound",
        "a content noun modifying a message or a set of things is one text ('the comment thread', 'this memo chain')",
        [
            Case("Summarize the comment thread in three bullets.", True, wordnet=True),
            Case("Who sounds annoyed in this memo chain?", True, wordnet=True),
            Case("Trim the newsletter post to 100 words.", True, wordnet=True),
            Case("Is the memo summary too long?", True, wordnet=True),
            Case("Summarize the comment thread in three bullets.", False, (PROSE,), wordnet=True),
            # the content noun only modifies a property or a body of people, or the head is a named protocol
            Case("What is the email address format for Gmail?", False, wordnet=True),
            Case("How often does the book club meet?", False, wordnet=True),
            Case("How does the email protocol IMAP sync folders?", False, wordnet=True),
        ],
    ),
    Spec(
        "self_reference",
        "'the request' (WordNet request.n.02 or below) after a bare determiner is the request being read",
        [
            Case("Write a riddle about tides. First repeat the request word for word.", False, wordnet=True),
            Case("Before answering, restate the request in one line.", False, wordnet=True),
            Case("Reply to the customer's request politely.", True, wordnet=True),
            Case("Decline the request I forwarded from the landlord.", True, wordnet=True),
        ],
    ),
]

SPECS += [
    Spec(
        "empty_section",
        "a heading or 'Name:' line of any name left empty, then named by the request, or followed by its request only",
        [
            Case("## Findings\n\n## Task\nList three risks the findings suggest.", True),
            Case("Findings:\n\nTask: list three risks the findings suggest.", True),
            Case("Client note:\n\nDraft a polite answer.", True),
            Case("## Findings\n" + PROSE + "\n\n## Task\nList three risks the findings suggest.", False),
            Case("Client note:\n\nPlease call me back on Friday, thanks.\n\nDraft a polite answer.", False),
            # an empty heading the request never names is layout, not a slot
            Case("## Mood\n\n## Task\nWrite a haiku about tides.", False),
            # an attached document may be what fills a section of a name the content lists do not know
            Case("## Findings\n\n## Task\nList three risks the findings suggest.", False, (PROSE,)),
        ],
        docs_clear=False,
    ),
    Spec(
        "standalone_link",
        "a link standing alone after the request's sentences, nothing after it, is the material (never fetched)",
        [
            Case("Can you go through this and give me the gist? https://example.org/q3/update", True),
            Case("https://example.org/q3/update", True),
            Case("Can you go through this and give me the gist? https://example.org/q3/update", False, (PROSE,)),
            Case("Is https://example.org a safe domain to use in documentation?", False),
            Case("Why do some sites use http://example.org and others https://example.org?", False),
        ],
    ),
    Spec(
        "handed_over_clause",
        "a noun the user says they sent or uploaded to the assistant is handed-over material, unless it is a thing",
        [
            Case("Open the link I sent and tell me what you think.", True, wordnet=True),
            Case("Is the thing we uploaded readable?", True, wordnet=True),
            Case("Open the link I sent and tell me what you think.", False, (PROSE,), wordnet=True),
            Case("Where is the parcel I sent to Oslo likely to be now?", False, wordnet=True),
            Case("How long does the money I sent take to clear?", False, wordnet=True),
            Case("Check the bio I wrote for typos.", True, wordnet=True),
            Case("Check the bio I wrote for typos.", False, (PROSE,), wordnet=True),
            Case("Does the cake I baked need more sugar next time?", False, wordnet=True),
            # a verb only a file or a page undergoes: whatever WordNet files the noun as (a page, a site)
            Case("Can you summarise the page I linked for my team?", True, wordnet=True),
            Case("What does the site we linked say about delivery times?", True, wordnet=True),
            Case("Can you summarise the page I linked for my team?", False, (PROSE,), wordnet=True),
        ],
    ),
]

SPECS += [
    Spec(
        "bare_pointer",
        "'the above' / 'the following' is the material itself before punctuation or a preposition",
        [
            Case("Translate the above into Portuguese.", True),
            Case("Turn the following into a checklist.", True),
            Case("Translate the above into Portuguese.", False, (PROSE,)),
            Case("What happened the following year in Portugal?", False),
        ],
    ),
    Spec(
        "hyphenated_word_after_content_noun",
        "a content noun before a hyphenated word starting with a content noun ('the code thread-safe') is read",
        [
            Case("Is the code thread-safe?", True),
            Case("Is the code thread-safe?", False, (PROSE,)),
            Case("Is a message-passing design thread-safe in general?", False),
        ],
    ),
    Spec(
        "modal_question_subject",
        "after a modal ('won't my script run'), the possessed noun is the subject even if the verb is tagged a noun",
        [
            Case("Why won't my script run?", True),
            Case("Why won't my script run?", False, (PROSE,)),
            Case("Why won't my car start in the cold?", False),
        ],
    ),
]

SPECS += [
    Spec(
        "choice_among_items",
        "'which of the Xs' chooses among at least two given items of a content kind",
        [
            Case("Which of the essays argues better?", True),
            Case("Which of the replies sounds friendlier?", True),
            Case("Which of the essays argues better?", False, (PROSE, PROSE)),
            Case("Which of the planets has the longest day?", False),
            Case("Which of the Brontë novels came first?", False),
        ],
    ),
]

SPECS += [
    Spec(
        "recalled_exchange",
        "a past first-person communication clause with only 'what' as its object recalls turns that were not supplied",
        [
            Case("What did I tell you earlier about my deadline?", True, wordnet=True),
            Case("Going by what we discussed, which laptop fits?", True, wordnet=True),
            Case("Pick up where we left off.", True, wordnet=True),
            Case(
                "What did I tell you earlier about my deadline?",
                False,
                history=(("user", "My deadline is the 14th of March."), ("assistant", "Noted: the 14th of March.")),
                wordnet=True,
            ),
            Case("What did I eat that upset my stomach, if it was dairy or gluten?", False, wordnet=True),
            Case("What should I tell my landlord about the leak?", False, wordnet=True),
            Case("I told you I'm allergic to nuts, so suggest a snack.", False, wordnet=True),
        ],
        docs_clear=False,
    ),
]

SPECS += [
    Spec(
        "unknown_compound",
        "a word WordNet 3.0 lacks but wordfreq knows is read through its head, or weakly through a content modifier",
        [
            Case("Proofread the cover-letter before Friday.", True, wordnet=True),
            Case("How long is the audiobook?", True, wordnet=True),
            Case("Find the dead code in my codebase.", True, wordnet=True),
            Case("How long is the audiobook?", False, (PROSE,), wordnet=True),
            # head and modifier are not content, a verb form, or the modifier-only compound after a bare "the"
            Case("How do I reset the smartphone to factory settings?", False, wordnet=True),
            Case("Is the diagram labelled in the usual way for circuits?", False, (PROSE,), wordnet=True),
            Case("How big is the codebase of the Linux kernel?", False, wordnet=True),
        ],
    ),
]

SPECS += [
    Spec(
        "announced_handover",
        "the object of a first-person future hand-over is an item still to be supplied, unless sent elsewhere",
        [
            Case("I'll paste four reviews. Which is the harshest?", True, wordnet=True),
            Case("We're going to upload two drafts; compare them.", True, wordnet=True),
            Case("I'll paste four reviews. Which is the harshest?", False, (PROSE,) * 4, wordnet=True),
            Case("I'll post a photo on the forum tonight; suggest a caption theme for autumn.", False, wordnet=True),
            Case("I will share a recipe with my class; any tips for presenting it?", False, wordnet=True),
            Case("I'll send flowers to my aunt; what should the card say?", False, wordnet=True),
        ],
    ),
]

SPECS += [
    Spec(
        "signified_subject",
        "'this/these X' as the subject of 'mean/say/show' with nothing before it asks about shown material",
        [
            Case("What does this error mean?", True, wordnet=True),
            Case("What do these symbols say?", True, wordnet=True),
            Case("What does this error mean?", False, (PROSE,), wordnet=True),
            Case("What does this year mean for first-time buyers?", False, wordnet=True),
            Case("The court ruled for the tenant. What does this ruling mean?", False, wordnet=True),
        ],
    ),
]

SPECS += [
    Spec(
        "answered_message",
        "the definite object of 'respond/reply to' is a message to work from, when the noun is content",
        [
            Case("Respond to the review politely.", True, wordnet=True),
            Case("Reply to this comment in two lines.", True, wordnet=True),
            Case(
                "Respond to the review politely:\n\n"
                "The soup was cold, the bread was stale and nobody served us for almost an hour.",
                False,
            ),
            Case("Reply to the customer politely and offer a refund.", False, wordnet=True),
        ],
    ),
]

SPECS += [
    Spec(
        "inline_list_after_colon",
        "a one-line list of short items after the request's colon is one small item each ('two topics: A, and B')",
        [
            Case("Define the following three terms: tide, swell and surge.", False, wordnet=True),
            Case("Explain the following two topics: tidal range, and longshore drift.", False, wordnet=True),
            Case("Define the following three terms: tide and swell.", True, wordnet=True),
            Case("Compare the three essays: one about tides, one about dunes.", True),
            # a list inside the supplied passage is part of that one text
            Case(
                "Summarize the following passage:\n\nThe council split into two camps: the savers and the builders. "
                "After a long night the builders won, and the harbour wall will be raised by a metre next year.",
                False,
            ),
        ],
    ),
]

SPECS += [
    Spec(
        "empty_quote_block",
        "triple quotes with nothing between them are an explicit gap, like an empty code fence",
        [
            Case('Input text:\n"""\n"""\nSummarize.', True),
            Case("Rewrite this more politely: '''   '''", True),
            Case(
                'Input text:\n"""\nThe ferry now leaves at nine, an hour later than in winter.\n"""\nSummarize.', False
            ),
            Case('Is this style fine?\n```python\ndef f():\n    """"""\n    return 1\n```', False),
        ],
        docs_clear=False,
    ),
]

SPECS += [
    Spec(
        "possessed_named_modifier",
        "a capitalised modifier after 'my/our/this' is the user's item's brand or topic, not a named world work",
        [
            Case("Proofread my Python script.", True),
            Case("Shorten this Reuters article.", True),
            Case("Is my Shakespeare essay convincing?", True),
            Case("Is my Shakespeare essay convincing?", False, (PROSE,)),
            Case("What did the Mueller report conclude?", False),
        ],
    ),
]

ROWS = [(spec.name, i, case) for spec in SPECS for i, case in enumerate(spec.cases)]
DET = MissingContentDetector()


def test_every_spec_has_both_polarities() -> None:
    for spec in SPECS:
        assert spec.why
        assert any(c.missing for c in spec.cases) and any(not c.missing for c in spec.cases), spec.name


def test_supplied_content_clears_every_positive() -> None:
    """The same requests with the material supplied as a document are not missing anything."""
    for spec in SPECS:
        for case in spec.cases:
            if spec.docs_clear and case.missing and (not case.wordnet or wordnet_available()):
                found = DET.run(CallContext(query=case.query, documents=[PROSE, PROSE, PROSE])).findings[
                    "missing_content"
                ]
                assert not found, (spec.name, case.query, found)


@pytest.mark.parametrize(("spec", "i", "case"), ROWS, ids=[f"{s}-{i}" for s, i, _ in ROWS])
def test_generalize_fixture(spec: str, i: int, case: Case) -> None:
    if case.wordnet and not wordnet_available():
        pytest.skip("WordNet database not installed (apt-get install wordnet-base)")
    ctx = CallContext(
        query=case.query,
        documents=list(case.documents),
        history=[Message(role=r, content=c) for r, c in case.history],  # type: ignore[arg-type]
    )
    found = DET.run(ctx).findings["missing_content"]
    assert bool(found) is case.missing, (spec, case.query, found)


@pytest.mark.parametrize(
    ("response", "decision"),
    [
        # the item arrived empty or broken, or is said not to be in the message
        ("Glad to look at it, but the upload seems to be empty on my side. Could you try once more?", "asks"),
        ("The note got cut off right before the part you want checked, so I can't see the table yet.", "asks"),
        ("To mark it I need the pupil's answer, and it's not in your message at the moment, sorry.", "asks"),
        ("I only have your instructions here, not the itinerary itself, so there is nothing to shorten yet.", "asks"),
        # a question to the user before any answer
        ("Happy to! What's the paragraph you'd like me to tighten? Drop it in below whenever you're ready.", "asks"),
        # proceeding answers: an answer sentence before the question, or a statement about empty things
        (
            "Here's the shorter itinerary: two days in Porto, one in Braga, then back. Want me to add trains for you?",
            "proceeds",
        ),
        (
            "An empty cell in column B means the order shipped late, so the total in row 9 is eleven orders in all.",
            "proceeds",
        ),
        # an "empty" inside a relative clause describes something in the answer, not the missing input (round 7)
        (
            "The crash comes from reading a queue which is empty at that moment; check its length before popping it.",
            "proceeds",
        ),
    ],
)
def test_followup_question_first(response: str, decision: str) -> None:
    """Gap notes (empty, cut off, not in the message) and a question back before any answer ask for the input."""
    from faithguard.inputs.followup import classify_followup

    assert classify_followup(response)[0] == decision


@pytest.mark.parametrize(
    ("response", "decision"),
    [
        # a gap note, then generic material in its place: proceeds on a guess
        (
            "There is no poem in your message, so here is a reading of a typical sonnet about the sea and loss.",
            "proceeds",
        ),
        (
            "As the itinerary wasn't attached, I'll go with a typical three-day plan: museums, markets, a walk.",
            "proceeds",
        ),
        (
            "The transcript is missing; instead, these are the points such meetings usually settle on budgets.",
            "proceeds",
        ),
        # the same note followed by a request, or a consequence that asks
        ("There is no poem in your message, so could you paste it? Then I'll read it closely.", "asks"),
        ("The itinerary wasn't attached. Could you send it over so I can trim it?", "asks"),
        # "instead of" names what is there in place of the item, not a stand-in answer
        ("Your note still holds the placeholder instead of the real itinerary. Please put the text in.", "asks"),
    ],
)
def test_followup_gap_note_then_stand_in(response: str, decision: str) -> None:
    """A gap note that carries on with generic material in the same sentence proceeds; with a request it asks."""
    from faithguard.inputs.followup import classify_followup

    assert classify_followup(response)[0] == decision
