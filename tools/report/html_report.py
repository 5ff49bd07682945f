#!/usr/bin/env python3
"""Render `portkern report --json FILE` as an HTML page with one PNG chart per device and part, a table of
the DNN operators, and the whole networks' times per back end beside PyTorch's (network_view.py).

Usage: python3 tools/report/html_report.py build/report.json build/report/ [--torch net-torch.json ...]
Writes DIR/index.html and DIR/<device>-<part>.png (ratios to the vendor per shape or layer, 1.0 marked) and
DIR/<device>-networks.png. --torch: `tools/net/torch_net.py --json` files, shown on the device of that name.
"""
import argparse
import html
import json
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import network_view  # noqa: E402

PARTS = {  # report key -> (title, label of one row, what the ratio compares)
    "transpose": ("Kernel model overhead: tiled transpose", lambda r: f"{r['rows']}x{r['cols']}", "portable / hand-written"),
    "gemm": ("GEMM fp32, precision accurate", lambda r: f"{r['m']}x{r['n']}x{r['k']} b{r['batch']}",
             "portkern / best vendor (fp32)"),
    "gemm_ieee": ("GEMM fp32, precision ieee", lambda r: f"{r['m']}x{r['n']}x{r['k']} b{r['batch']}",
                  "portkern / best vendor (fp32)"),
    "gemm_tf32": ("GEMM fp32, precision tf32", lambda r: f"{r['m']}x{r['n']}x{r['k']} b{r['batch']}",
                  "portkern / vendor TF32"),
    "conv2d_vgg16": ("conv2d VGG-16, batch 1", lambda r: r["layer"], "portkern / vendor"),
    "conv2d_resnet50": ("conv2d ResNet-50, batch 1", lambda r: r["layer"], "portkern / vendor"),
}


def rows_of(entry, key):
    part = entry.get(key)
    if part is None:
        return []
    return part["rows"] if isinstance(part, dict) else part


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def chart(rows, label, title, ylabel, path):
    """Bars: the ratio to the vendor at the same precision (fp32); dots, where measured: the ratio to the
    vendor with TF32 tensor cores allowed (a lower precision, never in the ratio)."""
    ratios = [r.get("ratio") or 0 for r in rows]
    fig, ax = plt.subplots(figsize=(max(6, 0.28 * len(rows) + 2), 3.6))
    ax.bar(range(len(rows)), ratios, color=["#2a7" if x >= 1 else "#c44" for x in ratios], label="vs vendor fp32")
    tf32 = [(i, r["gflops"] / r["ref_tf32"]["gflops"]) for i, r in enumerate(rows)
            if r.get("ref_tf32") and r["ref_tf32"].get("gflops")]
    if tf32:
        ax.plot([i for i, _ in tf32], [x for _, x in tf32], "k.", label="vs vendor TF32")
        ax.legend(fontsize=7)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([label(r) for r in rows], rotation=90, fontsize=7)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{title}: geomean {geomean(ratios):.3f}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def ops_table(rows):
    """The DNN operators: time, bandwidth, native twin (GPU) and check, one line per benchmark row."""
    def num(v, fmt):
        return "-" if v is None else format(v, fmt)
    head = ("<tr><th>operator</th><th>variant</th><th>ms</th><th>GB/s</th><th>of copy</th><th>GFLOP/s</th>"
            "<th>native ms</th><th>portable / native time</th><th>max error</th><th>verified</th></tr>")
    lines = [f"<tr><td>{html.escape(r['op'])}</td><td>{html.escape(r['variant'])}</td><td>{num(r['time_ms'], '.4f')}</td>"
             f"<td>{num(r['gbps'], '.1f')}</td><td>{r['fraction_of_copy']:.0%}</td><td>{num(r['gflops'], '.1f')}</td>"
             f"<td>{num(r['native_time_ms'], '.4f')}</td><td>{num(r['ratio'], '.3f')}</td>"
             f"<td>{r['max_error']:.1e}</td><td>{'yes' if r['ok'] else 'NO'}</td></tr>" for r in rows]
    return "<h3>DNN operators (seed 004)</h3><table border=1 cellpadding=3>" + head + "".join(lines) + "</table>"


def precision_table(entry):
    """The precision view: per precision measured, the geomean ratio to the vendor at that precision and the
    largest errors against float64 of portkern and of that vendor (docs/precision.md)."""
    lines = []
    for key in ("gemm", "gemm_ieee", "gemm_tf32"):
        rows = rows_of(entry, key)
        if not rows:
            continue
        precision = rows[0].get("precision", "accurate")
        ours = max((r.get("max_rel_error") or 0.0) for r in rows)
        theirs = max((r["refs"][r["ref_library"]].get("max_rel_error") or 0.0) for r in rows
                     if r.get("ref_library") in r.get("refs", {})) if any(r.get("ref_library") for r in rows) else float("nan")
        lines.append(f"<tr><td>{html.escape(precision)}</td><td>{geomean([r.get('ratio') for r in rows]):.3f}</td>"
                     f"<td>{html.escape(str(rows[0].get('ref_precision', '')))}</td><td>{ours:.1e}</td>"
                     f"<td>{theirs:.1e}</td><td>{len(rows)}</td></tr>")
    if len(lines) < 2:
        return ""
    return ("<h3>GEMM by precision</h3><table border=1 cellpadding=4><tr><th>precision</th><th>geomean ratio</th>"
            "<th>vendor at</th><th>portkern max rel error</th><th>vendor max rel error</th><th>rows</th></tr>"
            + "".join(lines) + "</table>")


def main():
    parser = argparse.ArgumentParser(description="Render portkern report's JSON as HTML")
    parser.add_argument("report", help="portkern report --json FILE")
    parser.add_argument("out", help="the folder to write index.html and the charts to")
    parser.add_argument("--torch", action="append", default=[],
                        help="PyTorch's network times: tools/net/torch_net.py --json FILE (repeatable)")
    args = parser.parse_args()
    report = json.load(open(args.report))
    torch_rows = network_view.load_torch(args.torch)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    body = ["<h1>portkern performance-portability report</h1>",
            "<p>Each ratio compares portkern with the vendor library measured in the same run on the same data "
            "(&gt; 1: portkern faster).</p>"]
    for entry in report["devices"]:
        dev = entry["device"]
        body.append(f"<h2>{html.escape(dev['device'])}: {html.escape(dev['name'])} ({html.escape(dev['arch'])})</h2>")
        summary, charts = [], []
        for key, (title, label, ylabel) in PARTS.items():
            rows = rows_of(entry, key)
            if not rows:
                continue
            png = f"{dev['device'].replace(':', '')}-{key}.png"
            chart(rows, label, title, ylabel, out / png)
            summary.append(f"<tr><td>{html.escape(title)}</td><td>{geomean([r.get('ratio') for r in rows]):.3f}</td>"
                           f"<td>{len(rows)}</td></tr>")
            charts.append(f"<h3>{html.escape(title)}</h3><img src='{png}' alt='{html.escape(title)}'>")
        body.append("<table border=1 cellpadding=4><tr><th>part</th><th>geomean ratio</th><th>rows</th></tr>"
                    + "".join(summary) + "</table>")
        body.append(precision_table(entry))
        body.extend(charts)
        if entry.get("ops"):
            body.append(ops_table(entry["ops"]))
        body.append(network_view.section(entry, torch_rows, out))
    (out / "index.html").write_text("<!doctype html><html><head><meta charset='utf-8'><title>portkern report</title>"
                                    "</head><body style='font-family:sans-serif'>" + "\n".join(body) + "</body></html>")
    print(f"wrote {out / 'index.html'}")


if __name__ == "__main__":
    main()
