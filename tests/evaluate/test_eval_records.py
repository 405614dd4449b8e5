"""The input schema and reader: valid rows, bad rows with line numbers, CSV, aliases."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faithguard.evaluate.records import BadRow, EvalRecord, Row, count_rows, detect_format, read_records


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_jsonl_bad_rows_have_line_numbers(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "in.jsonl",
        [
            json.dumps({"query": "q1", "response": "a1"}),
            "",
            "{not json",
            json.dumps({"query": "q2"}),
            json.dumps(["a", "list"]),
            json.dumps({"id": "x", "query": "q3", "response": "a3"}),
            json.dumps({"id": "x", "query": "q4", "response": "a4"}),
            json.dumps({"query": "   ", "response": "a5"}),
            json.dumps({"messages": [{"role": "user", "content": "hi there"}], "response": "hello"}),
        ],
    )
    items = list(read_records(path))
    bad = {b.line: b.error for b in items if isinstance(b, BadRow)}
    good = [r for r in items if isinstance(r, Row)]
    assert sorted(bad) == [3, 4, 5, 7, 8]
    assert "invalid JSON" in bad[3]
    assert "response" in bad[4]
    assert "JSON object" in bad[5]
    assert "duplicate id" in bad[7]
    assert "query" in bad[8]
    assert [(r.line, r.key) for r in good] == [(1, "line:1"), (6, "x"), (9, "line:9")]
    assert count_rows(path) == 8


def test_json_too_deep_or_a_number_too_long_is_a_bad_row_not_the_end_of_the_run(tmp_path: Path) -> None:
    # RecursionError / ValueError ended the whole run with a traceback and no summary (helper 95)
    good = json.dumps({"query": "q1", "response": "a1"})
    deep = '{"query": "q", "response": "a", "meta": ' + "[" * 100_000 + "]" * 100_000 + "}"
    long = '{"query": "q", "response": "a", "n": ' + "9" * 5_000 + "}"
    path = _write(tmp_path / "in.jsonl", [deep, long, good])
    items = list(read_records(path))
    bad = {b.line: b.error for b in items if isinstance(b, BadRow)}
    assert bad == {1: "unreadable JSON: nested too deeply", 2: "unreadable JSON: a number too long to convert"}
    assert [r.line for r in items if isinstance(r, Row)] == [3]
    cells = tmp_path / "in.csv"
    cells.write_text("query,response,documents\nq,a," + '"' + "[" * 5_000 + "]" * 5_000 + '"\nq2,a2,\n', "utf-8")
    rows = list(read_records(cells))
    assert isinstance(rows[0], BadRow) and rows[0].error == "unreadable JSON in a cell: nested too deeply"
    assert isinstance(rows[1], Row)


def test_non_utf8_line_is_a_bad_row(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(b'{"query": "ok", "response": "fine"}\n{"query": "\xff\xfe", "response": "x"}\n')
    items = list(read_records(path))
    assert isinstance(items[0], Row)
    assert isinstance(items[1], BadRow) and items[1].line == 2 and "UTF-8" in items[1].error


def test_hypotermqa_aliases_and_gold() -> None:
    rec = EvalRecord.model_validate(
        {
            "questionId": 7,
            "question": "What is Nano-Sync Fusion?",
            "response": "I do not know that term.",
            "isHypotheticalQuestion": True,
            "terms": [{"term": "Nano-Sync Fusion", "isHypotheticalTerm": True}, {"term": "nanorobotics"}],
            "topic": "tech",
        }
    )
    assert rec.id == "7" and rec.query == "What is Nano-Sync Fusion?"
    assert rec.hypothetical is True
    gold = rec.gold()
    assert gold["is_hypothetical"] is True
    assert gold["terms"][0] == {"term": "Nano-Sync Fusion", "is_hypothetical": True}
    assert rec.model_extra == {"topic": "tech"}


def test_hypothetical_inferred_from_terms() -> None:
    rec = EvalRecord.model_validate({"query": "q", "response": "r", "terms": [{"term": "a", "is_hypothetical": False}]})
    assert rec.hypothetical is False
    assert EvalRecord.model_validate({"query": "q", "response": "r"}).hypothetical is None


def test_csv_with_json_cells_and_bad_rows(tmp_path: Path) -> None:
    path = tmp_path / "in.csv"
    path.write_text(
        "id,query,response,documents,gold_perfect,gold_verdicts\n"
        'a,"Summarise, please",done,"[""doc one"", ""doc two""]",true,omission;fabricated_term\n'
        "b,q2,r2,,no,\n"
        "c,q3\n"
        'd,"multi\nline query",r4,,,\n'
        "e,q5,r5,[broken,,\n",
        encoding="utf-8",
    )
    assert detect_format(path) == "csv"
    items = list(read_records(path))
    good = {r.key: r for r in items if isinstance(r, Row)}
    bad = {b.line: b.error for b in items if isinstance(b, BadRow)}
    assert good["a"].record.documents == ["doc one", "doc two"]
    assert good["a"].record.gold_perfect is True
    assert good["a"].record.gold_verdicts == ["omission", "fabricated_term"]
    assert good["b"].record.gold_perfect is False and good["b"].record.documents == []
    assert good["d"].line == 5 and good["d"].record.query == "multi\nline query"
    assert bad == {4: "expected 6 cells, got 2", 7: bad[7]}
    assert "JSON" in bad[7]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.text(max_size=60), max_size=8))
def test_arbitrary_lines_never_crash_and_each_row_is_accounted(tmp_path: Path, lines: list[str]) -> None:
    path = tmp_path / "fuzz.jsonl"
    clean = [ln.replace("\n", " ").replace("\r", " ") for ln in lines]
    path.write_bytes(("\n".join(clean) + "\n").encode("utf-8", "surrogatepass"))
    items = list(read_records(path))
    physical = path.read_bytes().split(b"\n")
    expected = sum(1 for raw in physical if raw.strip())
    assert len(items) == expected == count_rows(path)
    assert all(isinstance(i, Row | BadRow) for i in items)
    assert len({i.line for i in items}) == len(items)
