"""Tables and plots of an analysis: terminal text, CSV, Markdown and a PNG of % of optimal against N."""
from __future__ import annotations

from pathlib import Path

import pandas as pd


def percent_table(df: pd.DataFrame, index: str, columns: str, values: str) -> pd.DataFrame:
    """Pivot long results into a rows x columns table of percentages (keeps the rows' first-seen order)."""
    table = df.pivot_table(index=index, columns=columns, values=values, aggfunc="first", sort=False) * 100.0
    table.columns.name = None
    return table


def to_markdown(table: pd.DataFrame, digits: int = 2) -> str:
    """A GitHub Markdown table of `table` (index as the first column)."""
    head = [str(table.index.name or "")] + [str(c) for c in table.columns]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * len(table.columns)) + "|"]
    for idx, row in table.iterrows():
        cells = [f"{v:.{digits}f}" if isinstance(v, float) and v == v else ("" if v != v else str(v)) for v in row]
        lines.append("| " + " | ".join([str(idx)] + cells) + " |")
    return "\n".join(lines)


def to_text(table: pd.DataFrame, digits: int = 2) -> str:
    """Fixed-width text of a table for the terminal."""
    return table.to_string(float_format=lambda v: f"{v:.{digits}f}", na_rep="-")


class Report:
    """Collects titled tables, prints them as they come and writes them as CSV plus one Markdown file."""

    def __init__(self, out_dir: Path, title: str):
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.sections: list[str] = [f"# {title}", ""]

    def text(self, paragraph: str) -> None:
        print(paragraph)
        self.sections += [paragraph, ""]

    def table(self, name: str, title: str, table: pd.DataFrame, note: str = "") -> None:
        """Print `table`, write it to <name>.csv and add it to the Markdown report."""
        print(f"\n== {title} ==")
        if note:
            print(note)
        print(to_text(table))
        table.to_csv(self.out_dir / f"{name}.csv", float_format="%.4f")
        self.sections += [f"## {title}", ""] + ([note, ""] if note else []) + [to_markdown(table), ""]

    def write(self, name: str = "report.md", append: bool = False) -> Path:
        """Write the Markdown report to out_dir/<name>, after what the file holds when `append`."""
        path = self.out_dir / name
        before = path.read_text() + "\n" if append and path.exists() else ""
        path.write_text(before + "\n".join(self.sections))
        return path


def plot_selection(results: pd.DataFrame, path: Path, title: str) -> Path:
    """% of optimal (oracle among the N selected, held-out shapes) against N, one line per selection method,
    one panel per normalisation."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    norms = list(dict.fromkeys(results["normalisation"]))
    methods = list(dict.fromkeys(results["selection"]))
    colours = {m: plt.get_cmap("tab20")(i % 20) for i, m in enumerate(methods)}
    cols = min(2, len(norms))
    rows = (len(norms) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.5 * cols, 4.5 * rows), squeeze=False, sharey=True)
    for ax, norm in zip(axes.flat, norms):
        part = results[results["normalisation"] == norm]
        for method in dict.fromkeys(part["selection"]):
            line = part[part["selection"] == method].sort_values("n")
            style = "--" if method == "top_n" else "-"
            ax.plot(line["n"], 100.0 * line["oracle"], style, marker=".", label=method, color=colours[method])
        ax.set_title(norm)
        ax.set_xlabel("number of configurations N")
        ax.set_ylabel("% of optimal (held-out geomean)")
        ax.grid(True, alpha=0.3)
    for ax in list(axes.flat)[len(norms):]:
        ax.set_visible(False)
    axes.flat[0].legend(fontsize=7, ncol=2)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
