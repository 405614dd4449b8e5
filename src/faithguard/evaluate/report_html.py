"""A self-contained HTML report of an evaluation summary, with hand-drawn inline SVG charts."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

__all__ = ["bar_chart", "grouped_bar_chart", "render_html"]

_COLORS = ("#3b6ea8", "#e08a2c", "#4b9b5f", "#b5485c", "#7a5ea8", "#8c6d3f", "#5f8f9c")
_STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem;color:#222;max-width:1100px}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.25rem .6rem;text-align:right}
th:first-child,td:first-child{text-align:left}.grid{display:flex;flex-wrap:wrap;gap:1.5rem}
figure{margin:0}figcaption{font-weight:600;margin-bottom:.3rem}.muted{color:#777}
svg text{font-size:11px;fill:#333}
"""


def _esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _num(value: Any, pct: bool = False) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        if pct:
            return f"{value:.1%}"
        return str(int(value)) if value.is_integer() else f"{value:.2f}"
    return _esc(value)


def _short(label: str, limit: int = 16) -> str:
    """An axis label that fits its slot: underscores as spaces, long ones cut with an ellipsis."""
    text = label.replace("_", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def bar_chart(
    labels: Sequence[str],
    values: Sequence[float],
    *,
    title: str,
    width: int = 460,
    height: int = 220,
    percent: bool = False,
    max_value: float | None = None,
) -> str:
    """A vertical bar chart as an inline ``<svg>`` (values labelled on the bars)."""
    n = max(1, len(values))
    top = max_value if max_value is not None else max([*values, 0.0]) or 1.0
    left, bottom, pad_top = 48, 38, 16
    plot_w, plot_h = width - left - 8, height - bottom - pad_top
    slot = plot_w / n
    bar_w = max(2.0, slot * 0.7)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="{_esc(title)}" viewBox="0 0 {width} {height}">',
        f'<line x1="{left}" y1="{pad_top + plot_h}" x2="{width - 8}" y2="{pad_top + plot_h}" stroke="#999"/>',
        f'<text x="{left - 4}" y="{pad_top + 4}" text-anchor="end">{_esc(_num(top, percent))}</text>',
        f'<text x="{left - 4}" y="{pad_top + plot_h}" text-anchor="end">0</text>',
    ]
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        h = 0.0 if top <= 0 else plot_h * max(0.0, value) / top
        x = left + i * slot + (slot - bar_w) / 2
        y = pad_top + plot_h - h
        color = _COLORS[i % len(_COLORS)]
        text = _num(value, percent) if percent or isinstance(value, float) else str(int(value))
        out.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar_w:.1f}" height="{h:.1f}" fill="{color}">'
            f"<title>{_esc(label)}: {_esc(text)}</title></rect>"
        )
        out.append(f'<text x="{x + bar_w / 2:.1f}" y="{y - 3:.1f}" text-anchor="middle">{_esc(text)}</text>')
        axis_y = pad_top + plot_h + 14
        out.append(f'<text x="{x + bar_w / 2:.1f}" y="{axis_y}" text-anchor="middle">{_esc(_short(label))}</text>')
    out.append("</svg>")
    return "".join(out)


def grouped_bar_chart(
    groups: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None], float]],
    *,
    title: str,
    width: int = 460,
    height: int = 220,
) -> str:
    """Bars per group, one per series; each series is (name, values, its own maximum)."""
    left, bottom, pad_top = 12, 52, 16
    plot_w, plot_h = width - left - 8, height - bottom - pad_top
    slot = plot_w / max(1, len(groups))
    bar_w = slot * 0.7 / max(1, len(series))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="{_esc(title)}" viewBox="0 0 {width} {height}">',
        f'<line x1="{left}" y1="{pad_top + plot_h}" x2="{width - 8}" y2="{pad_top + plot_h}" stroke="#999"/>',
    ]
    for gi, group in enumerate(groups):
        x0 = left + gi * slot + slot * 0.15
        for si, (name, values, top) in enumerate(series):
            value = values[gi]
            h = 0.0 if value is None or top <= 0 else plot_h * max(0.0, min(value, top)) / top
            x = x0 + si * bar_w
            y = pad_top + plot_h - h
            text = "–" if value is None else (f"{value:.0%}" if top == 1.0 else f"{value:.1f}")
            out.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar_w * 0.9:.1f}" height="{h:.1f}" '
                f'fill="{_COLORS[si % len(_COLORS)]}"><title>{_esc(group)} {_esc(name)}: {_esc(text)}</title></rect>'
            )
            out.append(f'<text x="{x + bar_w * 0.45:.1f}" y="{y - 3:.1f}" text-anchor="middle">{_esc(text)}</text>')
        out.append(
            f'<text x="{x0 + bar_w * len(series) / 2:.1f}" y="{pad_top + plot_h + 14}" '
            f'text-anchor="middle">{_esc(group)}</text>'
        )
    for si, (name, _, top) in enumerate(series):
        y = height - 26
        x = left + si * 170
        scale = "%" if top == 1.0 else f"0–{top:g}"
        out.append(f'<rect x="{x}" y="{y}" width="10" height="10" fill="{_COLORS[si % len(_COLORS)]}"/>')
        out.append(f'<text x="{x + 14}" y="{y + 9}">{_esc(name)} ({_esc(scale)})</text>')
    out.append("</svg>")
    return "".join(out)


def _figure(caption: str, svg: str) -> str:
    return f"<figure><figcaption>{_esc(caption)}</figcaption>{svg}</figure>"


def _kv_table(rows: Sequence[tuple[str, str]]) -> str:
    body = "".join(f"<tr><td>{_esc(k)}</td><td>{v}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


def _agreement_table(gold: dict[str, Any]) -> str:
    items = [("perfect (positive: hallucinated)", gold["perfect"])] if "perfect" in gold else []
    items += [(f"verdict {k}", v) for k, v in (gold.get("verdicts") or {}).items()]
    if not items:
        return ""
    head = "<tr><th>label</th><th>n</th><th>accuracy</th><th>precision</th><th>recall</th></tr>"
    body = "".join(
        f"<tr><td>{_esc(label)}</td><td>{a['n']}</td><td>{_num(a['accuracy'], True)}</td>"
        f"<td>{_num(a['precision'], True)}</td><td>{_num(a['recall'], True)}</td></tr>"
        for label, a in items
    )
    return f"<h2>Agreement with gold labels</h2><table>{head}{body}</table>"


def render_html(summary: dict[str, Any], title: str = "faithguard evaluation") -> str:
    """The whole report page (no external resources)."""
    rows = summary["rows"]
    overview = [
        ("rows evaluated", f"{rows['evaluated']} ({rows['ok']} ok, {rows['errors']} errors)"),
        ("bad input rows", _num(rows["bad_rows"])),
        ("Perfect rate", f"{_num(summary['perfect_rate'], True)} of {summary['decided']} decided rows"),
        ("mean Constraint Score", f"{_num(summary['mean_constraint_score'])} over {summary['scored']} scored rows"),
    ]
    hypo = summary.get("hypoterm")
    if hypo:
        overview.append(
            (
                "HypoTermQA score",
                f"{_num(hypo['score'], True)} over {hypo['labelled']} answer-labelled of "
                f"{hypo['hypothetical_questions']} invented-term questions",
            )
        )
    cons = summary.get("consistency")
    if cons:
        overview.append(("short-long agreement", f"{_num(cons['agreement'], True)} of {cons['decided']} parts"))
        slaq = cons["slaq"]
        if slaq["facts"]:
            overview.append(
                ("SLAQ alignment / signed", f"{_num(slaq['alignment'])} / {_num(slaq['signed_alignment'])}")
            )
    hist = summary["score_histogram"]
    hist_labels = [f"{i * 10 // len(hist)}–{(i + 1) * 10 // len(hist)}" for i in range(len(hist))]
    viol = summary["violations_by_category"]
    verdicts = summary["verdict_rates"]
    diff = summary["difficulty"]
    levels = ["easy", "hard"] + (["none"] if diff.get("none", {}).get("rows") else [])
    charts = [
        _figure("Constraint Score histogram", bar_chart(hist_labels, [float(c) for c in hist], title="scores")),
        _figure(
            "Violated constraints by category",
            bar_chart(list(viol["counts"]), [float(v) for v in viol["counts"].values()], title="violations")
            if viol["total"]
            else "<p class=muted>no violated constraint</p>",
        ),
        _figure(
            "Verdict rates by kind (share of rows)",
            bar_chart(list(verdicts), [v["rate"] for v in verdicts.values()], title="verdicts", percent=True)
            if verdicts
            else "<p class=muted>no verdict</p>",
        ),
        _figure(
            "Easy (≤ 4 constraints) vs Hard (> 4)",
            grouped_bar_chart(
                [f"{lv} ({diff[lv]['rows']})" for lv in levels],
                [
                    ("Perfect rate", [diff[lv]["perfect_rate"] for lv in levels], 1.0),
                    ("mean CS", [diff[lv]["mean_constraint_score"] for lv in levels], 10.0),
                ],
                title="difficulty",
            ),
        ),
    ]
    gold = summary.get("gold")
    raw = html.escape(json.dumps(summary, indent=2, ensure_ascii=False))
    return (
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
        f"<title>{_esc(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{_esc(title)}</h1>{_kv_table(overview)}"
        f"<h2>Charts</h2><div class=grid>{''.join(charts)}</div>"
        f"{_agreement_table(gold) if gold else ''}"
        f"<h2>Summary (JSON)</h2><details><summary>show</summary><pre>{raw}</pre></details>"
        "</body></html>\n"
    )
