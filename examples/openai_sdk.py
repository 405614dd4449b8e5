"""The official openai client, guarded, against a local fake OpenAI-compatible server it starts itself."""

from __future__ import annotations

import openai

from faithguard import Guard, Policy
from faithguard.integrations.fake_upstream import FakeOpenAIServer
from faithguard.integrations.openai import wrap
from faithguard.integrations.warmup import warm


def main() -> None:
    guard = Guard(judge=None)
    warm(guard)  # load the models now: the first call is then scored like the rest
    with FakeOpenAIServer(["Visit the Louvre museum in Paris."]) as server:
        client = openai.OpenAI(base_url=server.url, api_key="sk-local", max_retries=0)
        wrap(client, guard, policy=Policy.annotate())
        messages = [{"role": "user", "content": "Which museum in Paris should I visit?"}]
        completion = client.chat.completions.create(model="local", messages=messages)  # type: ignore[arg-type]
        report = completion.faithguard_report  # type: ignore[attr-defined]
        print("answer:", completion.choices[0].message.content)
        print("score:", report.constraint_score, "verdicts:", [v.kind for v in report.verdicts] or "none")
        stream = client.chat.completions.create(model="local", messages=messages, stream=True)  # type: ignore[arg-type]
        text = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)
        print("streamed:", text)
        client.close()
    guard.close()


if __name__ == "__main__":
    main()
