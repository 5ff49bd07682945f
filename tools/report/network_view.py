"""The report's whole networks: each network's time per back end (portkern as deployed, its portable GEMMs
alone, the vendor's primitives) on each device `portkern report` ran on, beside PyTorch's where
`tools/net/torch_net.py --json` measured it on a device of the same name (html_report.py --torch FILE), "not
measured" otherwise. One table and one bar chart per device."""
import html
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

BACKENDS = [("deployed", "portkern deployed"), ("portable", "portkern portable"), ("vendor", "vendor")]
TORCH = [("torch_eager_ms", "PyTorch eager"), ("torch_graph_ms", "PyTorch CUDA graph")]
COLOURS = ["#2a7", "#7c5", "#c84", "#46b", "#89d"]


def load_torch(paths):
    """The rows of torch_net.py's JSON files (each a list of {model, batch, device, device_name, ...})."""
    rows = []
    for path in paths or []:
        with open(path) as f:
            rows.extend(json.load(f))
    return rows


def torch_row(torch_rows, device, model, batch):
    """PyTorch's row for this model and batch on this device: the same device and, where the file records it
    (older files do not), the same device name."""
    for r in torch_rows:
        if (r.get("model"), r.get("batch"), r.get("device")) == (model, batch, device["device"]) and \
                r.get("device_name", device["name"]) == device["name"]:
            return r
    return None


def networks(entry):
    """{(model, batch): {backend: row}} in the report's order."""
    found = {}
    for r in entry.get("networks", {}).get("rows", []):
        found.setdefault((r["model"], r["batch"]), {})[r["gemm"]] = r
    return found


def cell(row):
    if row is None:
        return "-"
    if "error" in row:
        return f"<i>not run: {html.escape(row['error'])}</i>"
    return f"{row['batch_ms']:.3f} ms"


def chart(device, found, torch_rows, path):
    """Grouped bars: ms per batch of each back end and of PyTorch, per network (lower is faster)."""
    labels = [label for _, label in BACKENDS] + [label for _, label in TORCH]
    times = {}   # (model, batch) -> ms of each series, None where not measured
    for (model, batch), rows in found.items():
        t = torch_row(torch_rows, device, model, batch)
        times[model, batch] = ([rows.get(key, {}).get("batch_ms") for key, _ in BACKENDS]
                               + [t.get(key) if t else None for key, _ in TORCH])
    shown = [s for s in range(len(labels)) if any(ms[s] for ms in times.values())]   # series with a bar
    measured_torch = any(s >= len(BACKENDS) for s in shown)
    fig, ax = plt.subplots(figsize=(7, 3.6))
    width, labelled = 0.8 / max(len(shown), 1), set()
    for m, ms in enumerate(times.values()):
        for slot, s in enumerate(shown):
            if ms[s]:
                x = m + (slot - (len(shown) - 1) / 2) * width
                ax.bar(x, ms[s], width, color=COLOURS[s], label=None if s in labelled else labels[s])
                labelled.add(s)
                ax.text(x, ms[s], f"{ms[s]:.3g}", ha="center", va="bottom", fontsize=6)
    ax.set_xticks(range(len(found)))
    ax.set_xticklabels([f"{model} b{batch}" for model, batch in found])
    ax.set_ylabel("ms per batch (lower: faster)")
    ax.set_title(f"{device['device']}: whole networks" + ("" if measured_torch else " (PyTorch not measured)"))
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def section(entry, torch_rows, out_dir):
    """The device's networks as HTML (a table and a chart written to out_dir), or "" without any."""
    device = entry["device"]
    found = networks(entry)
    if not found:
        return ""
    head = ("<tr><th>network</th><th>batch</th>" + "".join(f"<th>{label}</th>" for _, label in BACKENDS)
            + "".join(f"<th>{label}</th>" for _, label in TORCH)
            + "<th>vendor / deployed time</th><th>PyTorch (best) / deployed time</th></tr>")
    lines = []
    for (model, batch), rows in found.items():
        t = torch_row(torch_rows, device, model, batch)
        deployed = rows.get("deployed", {}).get("batch_ms")
        vendor = rows.get("vendor", {}).get("batch_ms")
        torch_best = min([t[k] for k, _ in TORCH if t and t.get(k)], default=None)
        torch_cells = "".join(f"<td>{t[k]:.3f} ms</td>" if t and t.get(k) else f"<td>{'-' if t else 'not measured'}</td>"
                              for k, _ in TORCH)
        ratios = [f"{other / deployed:.3f}" if deployed and other else "-" for other in (vendor, torch_best)]
        lines.append(f"<tr><td>{html.escape(model)}</td><td>{batch}</td>"
                     + "".join(f"<td>{cell(rows.get(key))}</td>" for key, _ in BACKENDS) + torch_cells
                     + "".join(f"<td>{r}</td>" for r in ratios) + "</tr>")
    png = f"{device['device'].replace(':', '')}-networks.png"
    chart(device, found, torch_rows, out_dir / png)
    engines = sorted({r["engine"] for rows in found.values() for r in rows.values() if "engine" in r})
    sources = sorted({f"PyTorch {t['torch']} on {t.get('device_name', t['device'])}"
                      + (f", {t['threads']} threads" if t.get("threads") else "")
                      for (model, batch) in found for t in [torch_row(torch_rows, device, model, batch)] if t})
    note = ("<p>Random weights (seed 1), fp32, median ms per batch. Engines: " + html.escape(", ".join(engines)) + ". "
            + (html.escape("; ".join(sources)) + " (tools/net/torch_net.py)." if sources else
               "PyTorch: not measured on this device (html_report.py --torch FILE from tools/net/torch_net.py --json).")
            + " Ratios &gt; 1: portkern deployed faster.</p>")
    return ("<h3>Whole networks</h3>" + note + "<table border=1 cellpadding=3>" + head + "".join(lines) + "</table>"
            + f"<img src='{png}' alt='whole networks'>")
