#!/usr/bin/env python3
"""Emit the C++ deployment header (deploy/<device-class>/<op>.hpp) from an analysis's selection.json.

The header defines, in namespace portkern::deploy::<device_class with '-' -> '_'>, a struct named after the op
(<op>_<precision> with a `precision` member for a selection made for a precision other than the default, whose
header is deploy/<device-class>/<op>_<precision>.hpp) with: the device class, the deployed families, for an op with a run-time fallback (runtime_rules.FALLBACKS:
conv2d) `fallback`, the configuration the library runs where the pick does not apply to a call (computed for the
header's device class), one array of configuration strings per family, one decision tree function per family
(index into that family's array), `select_family` (index into `families`), and `configs_of(family)` /
`select_in(family, p, path)` to reach a family by name. Trees are nested
`if (le(path, "feature", feature, threshold))` tests over features computed from the op's problem (Problem or
ConvProblem) by the C++ expressions of features.py — the same definitions the trees were trained with. Each tree
is emitted pruned (`prune`: a split whose two sides are the same leaf becomes that leaf, bottom-up), defining only
the features its remaining splits test; selection.json keeps the trees as the analysis wrote them.

selection.json (written by analyze.py) holds, among other things:
  op, device, datasets, generated (date), score, n_configs, selection, classifier,
  families: [{name, configs: [...], tree: <tree> | null}, ...]   (tree null: a single configuration)
  family_tree: <tree> | null                                     (null: a single family)
where <tree> is classify.tree_to_dict's form: {"features": [...], "root": node},
node = {"leaf": index} | {"feature": name, "threshold": t, "le": node, "gt": node}.

Usage: python3 tools/tuning/codegen.py --selection OUT/selection.json --out deploy/<device-class>/<op>.hpp
       [--device-class NAME]   (default: the selection's device, e.g. "cpu-avx512")
"""
from __future__ import annotations

import argparse
import json
import keyword
import re
import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import _venv
    _venv.ensure(("numpy", "pandas"))  # runtime_rules imports pandas

from features import PROBLEM_TYPES, cpp_definition  # noqa: E402
from precision import DEFAULT as DEFAULT_PRECISION  # noqa: E402
from runtime_rules import FALLBACKS  # noqa: E402

RESERVED = {"device_class", "families", "fallback", "select_family", "configs_of", "select_in"}
CPP_KEYWORDS = {"and", "auto", "bool", "break", "case", "catch", "char", "class", "const", "continue", "default",
                "delete", "do", "double", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
                "friend", "goto", "if", "inline", "int", "long", "namespace", "new", "not", "operator", "or",
                "private", "protected", "public", "register", "return", "short", "signed", "sizeof", "static",
                "struct", "switch", "template", "this", "throw", "true", "try", "typedef", "union", "unsigned",
                "using", "virtual", "void", "volatile", "while"}


def identifier(name: str) -> str:
    """A C++ identifier for `name`: characters other than [A-Za-z0-9_] become '_', no leading digit."""
    ident = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not ident or ident[0].isdigit():
        ident = "_" + ident
    if ident in CPP_KEYWORDS or keyword.iskeyword(ident):
        ident += "_"
    return ident


def cpp_string(text: str) -> str:
    """A C++ string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def cpp_double(value: float) -> str:
    """A round-tripping C++ double literal."""
    text = repr(float(value))
    return text if any(ch in text for ch in ".einf") else text + ".0"


def prune(tree: dict | None) -> dict | None:
    """`tree` without dead splits, as a new dict (the argument is left as it is): bottom-up, a split whose `le`
    and `gt` subtrees are, once pruned themselves, the same leaf becomes that leaf. "features" lists only the
    features the remaining splits test (in the original order, i.e. of first use); "depth" and "leaves" are
    recomputed. None stays None."""
    if tree is None:
        return None
    used: set[str] = set()

    def node(n: dict) -> dict:
        if "leaf" in n:
            return {"leaf": int(n["leaf"])}
        le, gt = node(n["le"]), node(n["gt"])
        if "leaf" in le and le == gt:
            return le
        return {"feature": n["feature"], "threshold": n["threshold"], "le": le, "gt": gt}

    def walk(n: dict, depth: int) -> tuple[int, int]:  # (depth, leaves) of the subtree
        if "leaf" in n:
            return depth, 1
        used.add(n["feature"])
        (d_le, l_le), (d_gt, l_gt) = walk(n["le"], depth + 1), walk(n["gt"], depth + 1)
        return max(d_le, d_gt), l_le + l_gt

    root = node(tree["root"])
    depth, leaves = walk(root, 0)
    return {"features": [f for f in tree["features"] if f in used], "root": root, "depth": depth, "leaves": leaves}


def tree_body(tree: dict | None, indent: str, op: str = "gemm") -> list[str]:
    """C++ statements of a selector function: feature definitions, then the nested ifs, of the pruned tree."""
    tree = prune(tree)
    if tree is None or "leaf" in tree["root"]:
        leaf = 0 if tree is None else int(tree["root"]["leaf"])
        return [f"{indent}(void)p;", f"{indent}(void)path;", f"{indent}return {leaf};"]
    lines = [indent + cpp_definition(name, op) for name in tree["features"]]

    def node(n: dict, pad: str) -> None:
        if "leaf" in n:
            lines.append(f"{pad}return {int(n['leaf'])};")
            return
        feat = n["feature"]
        lines.append(f"{pad}if (le(path, {cpp_string(feat)}, {feat}, {cpp_double(n['threshold'])})) {{")
        node(n["le"], pad + "  ")
        lines.append(f"{pad}}} else {{")
        node(n["gt"], pad + "  ")
        lines.append(f"{pad}}}")

    node(tree["root"], indent)
    return lines


def header(selection: dict, device_class: str | None = None) -> str:
    """The text of the deployment header for `selection` (a parsed selection.json)."""
    device_class = device_class or selection.get("device_class") or selection["device"]
    op_name = selection.get("op", "gemm")
    precision = selection.get("precision", DEFAULT_PRECISION)
    op, problem = identifier(op_name), PROBLEM_TYPES[op_name]
    struct = op if precision == DEFAULT_PRECISION else identifier(f"{op_name}_{precision}")
    families = selection["families"]
    idents = []
    for fam in families:
        ident = identifier(fam["name"])
        if ident in RESERVED or ident == op or ident in idents:
            ident += "_configs"
        idents.append(ident)
    datasets = ", ".join(Path(d).name for d in selection.get("datasets", [])) or "unknown datasets"
    if selection.get("device") and selection["device"] != device_class:
        datasets += f" (measured on {selection['device']})"
    score = 100.0 * float(selection["score"])
    out = [
        f"// Generated by tools/tuning/codegen.py from {datasets} on {selection.get('generated', 'unknown date')} "
        f"— do not edit; regenerate with `portkern tune ... --deploy`.",
        f"// Held-out score: {score:.2f}% of the best of all configurations (geomean), "
        f"{selection['n_configs']} configurations, selection {selection['selection']}, "
        f"classifier {selection['classifier']}"
        + ("." if precision == DEFAULT_PRECISION else f"; for precision {precision} (its configurations only)."),
        "#pragma once",
        "#include <array>",
        "#include <cmath>",
        "#include <span>",
        "#include <string_view>",
        '#include "portkern/deploy/selector.hpp"',
        *(['#include "portkern/precision.hpp"'] if precision != DEFAULT_PRECISION else []),
        f"namespace portkern::deploy::{identifier(device_class)} {{",
        f"struct {struct} {{",
        f"  static constexpr std::string_view device_class = {cpp_string(device_class)};",
        *([f"  static constexpr Precision precision = Precision::{precision};"]
          if precision != DEFAULT_PRECISION else []),
        f"  static constexpr std::array<std::string_view, {len(families)}> families = "
        f"{{{', '.join(cpp_string(f['name']) for f in families)}}};",
    ]
    if op_name in FALLBACKS:
        out += ["  // The configuration the library runs where the pick does not apply to a call "
                "(tools/tuning/runtime_rules.py).",
                f"  static constexpr std::string_view fallback = {cpp_string(FALLBACKS[op_name](device_class))};"]
    for fam, ident in zip(families, idents):
        configs = ", ".join(cpp_string(c) for c in fam["configs"])
        out.append(f"  static constexpr std::array<std::string_view, {len(fam['configs'])}> {ident} = {{{configs}}};")
    out.append(f"  static int select_family(const {problem}& p, Path* path = nullptr) {{")
    out += tree_body(selection.get("family_tree") if len(families) > 1 else None, "    ", op_name)
    out.append("  }")
    for fam, ident in zip(families, idents):
        out.append(f"  static int select_{ident}(const {problem}& p, Path* path = nullptr) {{")
        out += tree_body(fam.get("tree"), "    ", op_name)
        out.append("  }")
    out.append("  // The configurations of `family` (empty when it is not deployed), and its tree's pick among them.")
    out.append("  static std::span<const std::string_view> configs_of(std::string_view family) {")
    for fam, ident in zip(families, idents):
        out.append(f"    if (family == {cpp_string(fam['name'])}) return {ident};")
    out += ["    return {};", "  }"]
    out.append(f"  static int select_in(std::string_view family, const {problem}& p, Path* path = nullptr) {{")
    for fam, ident in zip(families, idents):
        out.append(f"    if (family == {cpp_string(fam['name'])}) return select_{ident}(p, path);")
    out += ["    return 0;", "  }"]
    out += ["};", f"}}  // namespace portkern::deploy::{identifier(device_class)}", ""]
    return "\n".join(out)


def write(selection: dict, out: str | Path, device_class: str | None = None) -> Path:
    """Write the header for `selection` to `out` (creating its directory); returns the path."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(header(selection, device_class))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--selection", required=True, help="selection.json written by analyze.py")
    parser.add_argument("--out", required=True, help="header to write, e.g. deploy/cpu-avx512/conv2d.hpp")
    parser.add_argument("--device-class", default=None, help="namespace / device_class (default: the device)")
    args = parser.parse_args(argv)
    selection = json.loads(Path(args.selection).read_text())
    path = write(selection, args.out, args.device_class)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
