"""An answer that silently changes the task while the content is present: misinterpretation candidate."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.followup import FollowupDetector

ARTICLE = (
    "The harbour authority extended the ferry timetable after commuters petitioned for later crossings. "
    "In the first month ridership on weekday evenings rose by a fifth, and the operator hired six extra "
    "deckhands from its own depot instead of agencies. Fares stayed the same, but the council warned that "
    "the subsidy would be reviewed in spring if the evening boats kept running half empty on Mondays."
)
ON_TASK = (
    "The harbour authority added later ferry crossings after a commuter petition. Evening ridership rose by "
    "a fifth in the first month, six deckhands were hired from the depot, fares did not change, and the "
    "council will review the subsidy in spring if Monday evening boats stay half empty."
)
OFF_TASK = (
    "Here is a simple weeknight pasta: boil salted water, cook spaghetti until al dente, then toss it with "
    "garlic gently fried in olive oil, a pinch of chilli flakes and grated parmesan. Finish with chopped "
    "parsley and black pepper, and serve straight away while everything is still hot and glossy."
)
#: Off task, but sharing one distinctive word with the article ("deckhands"): one shared word is chance.
OFF_TASK_ONE_WORD = (
    "Sailing clubs welcome beginners every summer. New members learn knots, rigging and basic navigation, and "
    "the best deckhands often go on to skipper small dinghies on the lake within a season, especially when "
    "they practise capsize drills early and keep a simple log of the wind on every outing they join."
)
SPANISH = (
    "La autoridad portuaria amplió el horario del transbordador después de una petición de los usuarios. "
    "En el primer mes, el número de pasajeros de las tardes laborables aumentó una quinta parte, y el "
    "operador contrató a seis marineros de su propio depósito. Las tarifas no cambiaron, pero el consejo "
    "revisará la subvención en primavera."
)

#: The material is a colon tail inside the request's own sentence: its words are material, not the request's.
TOPICS = (
    "Write study notes on the following topics: the harbour ferry timetable extension after the commuter petition, "
    "evening ridership growth in the first month, deckhands hired from the operator's own depot instead of agencies, "
    "unchanged fares, and the council's spring subsidy review if Monday evening boats keep running half empty."
)

CASES = [
    ("material_in_the_request_sentence_on_task", CallContext(query=TOPICS), ON_TASK, False),
    ("material_in_the_request_sentence_off_task", CallContext(query=TOPICS), OFF_TASK, True),
    ("off_task_with_document", CallContext(query="Summarise the article.", documents=[ARTICLE]), OFF_TASK, True),
    ("off_task_inline", CallContext(query="Summarise the article below.\n\n" + ARTICLE), OFF_TASK, True),
    (
        "off_task_one_shared_word",
        CallContext(query="Summarise the article.", documents=[ARTICLE]),
        OFF_TASK_ONE_WORD,
        True,
    ),
    ("on_task", CallContext(query="Summarise the article.", documents=[ARTICLE]), ON_TASK, False),
    ("translation", CallContext(query="Translate the article into Spanish.", documents=[ARTICLE]), SPANISH, False),
    ("no_reference", CallContext(query="Give me a pasta recipe.", documents=[ARTICLE]), OFF_TASK, False),
    ("short_answer", CallContext(query="Summarise the article.", documents=[ARTICLE]), "Pasta is nice.", False),
    # a brief message noun (strong only by its communication share) is not a document the answer must echo
    (
        "brief_noun_not_checked",
        CallContext(query="Suggest other words for the caption.", documents=[ARTICLE]),
        OFF_TASK,
        False,
    ),
    (
        "brief_noun_beside_a_document",
        CallContext(query="Suggest a caption for the article.", documents=[ARTICLE]),
        OFF_TASK,
        True,
    ),
]


@pytest.mark.parametrize(("name", "ctx", "response", "flag"), CASES, ids=[c[0] for c in CASES])
def test_engagement(name: str, ctx: CallContext, response: str, flag: bool) -> None:
    ctx.response = response
    res = FollowupDetector().run(ctx)
    assert bool(res.verdicts) is flag, (name, res.findings)
    if flag:
        assert res.verdicts[0].kind == "misinterpretation" and res.verdicts[0].severity.value == "warning"
