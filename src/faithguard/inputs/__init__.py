"""Input checks before the LLM call: content the request refers to but does not supply."""

from faithguard.inputs.followup import FollowupDetector, classify_followup
from faithguard.inputs.missing import MissingContentDetector, analyse, clarification_text

__all__ = ["FollowupDetector", "MissingContentDetector", "analyse", "clarification_text", "classify_followup"]
