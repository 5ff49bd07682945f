#!/usr/bin/env python3
"""Analyse benchmark datasets the way seed 001 does (§4, §5) and recommend a deployment.

  python3 tools/tuning/analyze.py DATASET.csv [...] --out DIR [--op gemm|conv2d] [--family tiled] [--seed 0]
                                  [--deploy-header deploy/<class>/<op>.hpp --device-class <class>]
                                  [--networks data/shapes/gemm_nets.csv data/shapes/gemm_more_nets.csv ...]

Per family of configurations (all families in the data, or just --family):
 1. split the shapes into training and held-out test shapes (fixed seed, --test-fraction);
 2. for every normalisation x selection method x N (--n-min..--n-max), select N configurations on the
    training shapes and score them on the test shapes: the oracle among the N (the most any runtime choice
    could get), and decision trees A/B/C trained to pick among them;
 3. tables like seed 001's Figures 5/6 (selection method x N, per normalisation), Table 1/2 (classifier x N
    for one selection; classifier x selection method at the deployed N) and a PNG of % of optimal against N;
 4. the deployment: among depth-limited trees (B, C) with N <= --max-deploy-n (when any), the best held-out
    score; the smallest N within --tolerance of it; at that N the best (normalisation, selection, tree).
    The configurations and tree are then refitted on all shapes (unless --no-refit) for deployment.
When several families are analysed, a top-level decision tree chooses the family per shape (labels: the
family whose deployed choice is fastest) and the whole is scored on the test shapes against the best of all
configurations of all families.

With --networks (GEMM shape lists naming each shape's network in a `net` column, or conv2d layer lists whose
`layer` names it, dataset.read_networks), the deployment's recipe is
also scored by leaving whole networks out: for each network owning shapes of the dataset, every family's
selection (the chosen normalisation, selection method and N) and tree, and the family tree, are fitted again on
the shapes of the other networks only (a shape of several networks belongs to each: it is held out with any of
them; shapes of no listed network are always trained on) and scored on the network's shapes, as fractions of
the best of all configurations and of the best of each family; per network and the geomean over networks, next
to the random split's score. Each family's recipe is then chosen by that score rather than the random split's
(recipe_by_networks): the random split's choice competes with the coverage selections x N x the deployable trees,
and the best on networks left out is deployed.

Writes to --out: report.md (all tables), *.csv tables, selection_vs_n.png, scores.csv (every selection),
selection.json (the deployment, read by codegen.py); one subdirectory per family when there are several; for an
op whose hand-written rule is kept as a baseline (runtime_rules.py), deployed_vs_baseline.csv and the comparison in
selection.json; with --networks, leave_networks_out.csv, its section in report.md (the family's report, or one of
its own when there are several families) and in selection.json ("leave_networks_out").
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import _venv
    _venv.ensure()

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import classify  # noqa: E402
import codegen  # noqa: E402
import dataset  # noqa: E402
import evaluate  # noqa: E402
import normalise  # noqa: E402
import precision as precisions  # noqa: E402
import report  # noqa: E402
import runtime_rules  # noqa: E402
import selection  # noqa: E402
from features import feature_matrix, feature_names  # noqa: E402

# Leave-networks-out scores closer than this (a fraction of the best) are not told apart: over a few dozen
# networks of a few shapes each, 30 random splits of the same data moved a recipe's score by 3-4% (docs/tuning.md).
NETWORKS_NOISE = 0.01
REFERENCE_SELECTION = ("standard", "pca_kmeans/centroid")  # seed 001's Tables 1 and 2
TREES = ("DecisionTreeA", "DecisionTreeB", "DecisionTreeC", "CostTreeB", "CostTreeC")


@dataclass
class Options:
    seed: int = 0
    test_fraction: float = 0.25
    n_min: int = 4
    n_max: int = 15
    max_deploy_n: int = 8
    tolerance: float = 0.005
    normalisations: tuple[str, ...] = tuple(normalise.NORMALISATIONS)
    methods: tuple[str, ...] = tuple(selection.method_names())
    classifiers: tuple[str, ...] = classify.CLASSIFIERS
    refit: bool = True
    quiet: bool = False


@dataclass
class Deployment:
    """What one family deploys: its configurations and the tree choosing among them."""
    family: str
    configs: list[str]
    tree: dict | None
    normalisation: str
    selection: str
    classifier: str
    n: int
    score: float          # held-out geomean fraction of the family's best, with the held-out model
    oracle: float         # held-out oracle among the selected configurations
    heldout_choice: np.ndarray = field(repr=False, default=None)   # held-out model's column of the table, per shape
    deployed_choice: np.ndarray = field(repr=False, default=None)  # deployed model's column of the table, per shape


def log(opts: Options, message: str) -> None:
    if not opts.quiet:
        print(message, flush=True)


def family_split(table: dataset.PerfTable, test_keys: set) -> evaluate.Split:
    """Train/test indices of `table`'s shapes following a split of shape keys made on the whole dataset."""
    keys = shape_keys(table)
    test = np.array([i for i, k in enumerate(keys) if k in test_keys], dtype=int)
    train = np.array([i for i, k in enumerate(keys) if k not in test_keys], dtype=int)
    return evaluate.Split(train, test)


def shape_keys(table: dataset.PerfTable) -> list[tuple]:
    return [tuple(r) for r in table.shapes[table.shape_key].itertuples(index=False, name=None)]


def selection_grid(table: dataset.PerfTable, feats: np.ndarray, sp: evaluate.Split, ns: list[int],
                   opts: Options) -> tuple[pd.DataFrame, dict]:
    """Every (normalisation, method, N): selected configs, held-out oracle and tree scores."""
    perf_train, perf_test = table.perf[sp.train], table.perf[sp.test]
    rows, selected = [], {}
    for norm in opts.normalisations:
        x = normalise.NORMALISATIONS[norm](perf_train)
        started = time.time()
        for method in opts.methods:
            for n in ns:
                sel = selection.select(method, x, perf_train, feats[sp.train], n, opts.seed)
                selected[(norm, method, n)] = sel
                speeds = perf_train[:, sel]
                row = {"normalisation": norm, "selection": method, "n": n,
                       "oracle": evaluate.oracle_score(perf_test, sel)}
                for name in TREES:
                    model = classify.fit(name, feats[sp.train], speeds, opts.seed)
                    chosen = np.asarray(sel)[model.predict(feats[sp.test])]
                    row[name] = evaluate.choice_score(perf_test, chosen)
                rows.append(row)
        log(opts, f"  {norm}: {len(opts.methods)} selection methods x N={ns[0]}..{ns[-1]} "
                  f"({time.time() - started:.1f}s)")
    return pd.DataFrame(rows), selected


def classifier_scores(table: dataset.PerfTable, feats: np.ndarray, sp: evaluate.Split, sel: list[int],
                      opts: Options) -> dict[str, float]:
    """Held-out score of every classifier choosing among `sel`, plus the oracle."""
    perf_train, perf_test = table.perf[sp.train], table.perf[sp.test]
    out = {}
    for name in opts.classifiers:
        model = classify.fit(name, feats[sp.train], perf_train[:, sel], opts.seed)
        out[name] = evaluate.choice_score(perf_test, np.asarray(sel)[model.predict(feats[sp.test])])
    out["oracle (best of the N)"] = evaluate.oracle_score(perf_test, sel)
    return out


def choose_deployment(grid: pd.DataFrame, opts: Options) -> pd.Series:
    """The recommended (normalisation, selection, N, tree) row: see the module docstring, step 4."""
    long = grid.melt(id_vars=["normalisation", "selection", "n", "oracle"], value_vars=list(classify.DEPLOYABLE),
                     var_name="classifier", value_name="score")
    small = long[long["n"] <= opts.max_deploy_n]
    pool = small if not small.empty else long
    best = pool["score"].max()
    n = pool.loc[pool["score"] >= best - opts.tolerance, "n"].min()
    at_n = pool[pool["n"] == n].copy()
    # ties: prefer the shallower tree (C), then the order of normalisations and methods in the grid
    at_n["tree_rank"] = at_n["classifier"].map({"CostTreeC": 0, "DecisionTreeC": 1, "CostTreeB": 2,
                                                "DecisionTreeB": 3})
    at_n = at_n.sort_values(["score", "tree_rank"], ascending=[False, True], kind="stable")
    return at_n.iloc[0]


def analyse_family(table: dataset.PerfTable, sp: evaluate.Split, out_dir: Path, opts: Options,
                   title: str) -> Deployment:
    """Steps 2-4 of the module docstring for one family's table; returns its deployment."""
    family = "+".join(table.family_names())
    feats = feature_matrix(table.shapes, op=table.op)
    rep = report.Report(out_dir, title)
    rep.text(f"{table.n_shapes} shapes ({len(sp.train)} training, {len(sp.test)} held out), "
             f"{table.n_configs} configurations, {int((table.perf <= 0).sum())} failed measurements"
             + (f", {table.dropped_shapes} shapes dropped (every configuration failed)" if table.dropped_shapes
                else "") + ".")
    if table.n_configs == 1 or len(sp.train) < 2 or len(sp.test) < 1:
        # nothing to learn: deploy the configuration best on the most shapes, without a tree
        sel = selection.top_n(table.perf, 1)
        score = evaluate.oracle_score(table.perf[sp.test], sel) if len(sp.test) else 1.0
        rep.text(f"Deploying the single configuration {table.configs[sel[0]]} "
                 f"({'the only one' if table.n_configs == 1 else 'too few shapes to analyse'}).")
        rep.write()
        return Deployment(family, [table.configs[sel[0]]], None, "-", "all" if table.n_configs == 1 else "top_n",
                          "none", 1, score, score, np.full(table.n_shapes, sel[0], dtype=int),
                          np.full(table.n_shapes, sel[0], dtype=int))
    # N clusters need more training shapes than N (spectral clustering's embedding fails otherwise).
    ns = [n for n in range(opts.n_min, opts.n_max + 1) if n < table.n_configs and n < len(sp.train)] \
        or [min(table.n_configs, max(1, len(sp.train) - 1))]
    grid, selected = selection_grid(table, feats, sp, ns, opts)
    grid.to_csv(out_dir / "scores.csv", index=False, float_format="%.5f")

    for norm in opts.normalisations:
        part = grid[grid["normalisation"] == norm]
        table_ = report.percent_table(part, "selection", "n", "oracle")
        rep.table(f"selection_{norm}", f"Selection: % of optimal with the best of N ({norm} normalisation)",
                  table_, "Held-out geomean of the best of the N selected configurations (seed 001 Fig. 5/6).")
    report.plot_selection(grid, out_dir / "selection_vs_n.png", f"{title}: best of N selected, held-out shapes")

    chosen = choose_deployment(grid, opts)
    norm, method, n = chosen["normalisation"], chosen["selection"], int(chosen["n"])
    references = [REFERENCE_SELECTION] if REFERENCE_SELECTION[0] in opts.normalisations \
        and REFERENCE_SELECTION[1] in opts.methods else []
    if (norm, method) not in references:
        references.append((norm, method))
    for ref_norm, ref_method in references:
        by_n = pd.DataFrame({n_: classifier_scores(table, feats, sp, selected[(ref_norm, ref_method, n_)], opts)
                             for n_ in ns}) * 100.0
        by_n.index.name = "classifier"
        rep.table(f"classifiers_by_n_{ref_norm}_{ref_method.replace('/', '_')}",
                  f"Classifiers x N, selection {ref_method} ({ref_norm}) (seed 001 Tables 1/2)", by_n,
                  "Held-out geomean % of the best of all configurations; last row: the most achievable with the N.")
    by_sel = pd.DataFrame({m: classifier_scores(table, feats, sp, selected[(norm, m, n)], opts)
                           for m in opts.methods}) * 100.0
    by_sel.index.name = "classifier"
    rep.table("classifiers_by_selection", f"Classifiers x selection method, N={n} ({norm})", by_sel,
              "Held-out geomean % of the best of all configurations.")

    heldout_sel = selected[(norm, method, n)]
    heldout_tree = classify.fit(chosen["classifier"], feats[sp.train], table.perf[np.ix_(sp.train, heldout_sel)],
                                opts.seed)
    heldout_choice = np.asarray(heldout_sel)[heldout_tree.predict(feats)]
    if opts.refit:
        x_all = normalise.NORMALISATIONS[norm](table.perf)
        deploy_sel = selection.select(method, x_all, table.perf, feats, n, opts.seed)
        tree = classify.fit(chosen["classifier"], feats, table.perf[:, deploy_sel], opts.seed)
    else:
        deploy_sel, tree = heldout_sel, heldout_tree
    dep = Deployment(family, [table.configs[c] for c in deploy_sel], classify.tree_to_dict(tree, feature_names(table.op)),
                     norm, method, classify.spec(chosen["classifier"]), n, float(chosen["score"]),
                     float(chosen["oracle"]), heldout_choice, np.asarray(deploy_sel)[tree.predict(feats)])
    heldout_configs = [table.configs[c] for c in heldout_sel]
    rep.text(f"Deployment: N={n} configurations selected by {method} on {norm}-normalised data, chosen by "
             f"{dep.classifier}: {100 * dep.score:.2f}% of the best of all configurations on held-out shapes "
             f"(best of the N: {100 * dep.oracle:.2f}%). Configurations (held-out model): "
             f"{', '.join(heldout_configs)}." + (" Refitted on all shapes: " + ", ".join(dep.configs) + "."
                                                  if opts.refit else ""))
    rep.write()
    return dep


def family_choices(full: dataset.PerfTable, deps: list[Deployment], fam_tables: list[dataset.PerfTable],
                   attribute: str) -> np.ndarray:
    """shapes x families: column of `full` each family's model (Deployment.<attribute>) runs on each shape of
    `full`; -1 where the family has no successful configuration for the shape."""
    return full_columns(full, [getattr(dep, attribute) for dep in deps], fam_tables)


def full_columns(full: dataset.PerfTable, local_choices: list[np.ndarray],
                 fam_tables: list[dataset.PerfTable]) -> np.ndarray:
    """shapes x families: the columns of `full` of each family's choices (columns of its own table, per shape of
    it); -1 where the family's table lacks the shape."""
    keys = shape_keys(full)
    col = {c: i for i, c in enumerate(full.configs)}
    choice = np.full((full.n_shapes, len(fam_tables)), -1, dtype=int)
    for f, (local, ft) in enumerate(zip(local_choices, fam_tables)):
        where = {k: i for i, k in enumerate(shape_keys(ft))}
        for s, key in enumerate(keys):
            if key in where:
                choice[s, f] = col[ft.configs[local[where[key]]]]
    return choice


def with_fallback(full: dataset.PerfTable, chosen: np.ndarray) -> np.ndarray:
    """`chosen` (columns of `full`, -1 where the chosen family cannot run the shape) with the library's run-time
    fallback in place of -1, when the op has one (runtime_rules.py)."""
    fallback = runtime_rules.FALLBACKS.get(full.op)
    if fallback is None or fallback(full.device) not in full.configs:
        return chosen
    return np.where(chosen >= 0, chosen, full.configs.index(fallback(full.device)))


def family_speeds(full: dataset.PerfTable, choice: np.ndarray) -> np.ndarray:
    """shapes x families: the speed of each family's choice (0 where it cannot run the shape): the family tree's
    training targets."""
    return np.where(choice >= 0, np.take_along_axis(full.perf, np.maximum(choice, 0), axis=1), 0.0)


def family_tree(full: dataset.PerfTable, deps: list[Deployment], fam_tables: list[dataset.PerfTable],
                sp: evaluate.Split, opts: Options,
                names: tuple[str, ...] = classify.DEPLOYABLE) -> tuple[dict | None, float, str]:
    """Top-level tree choosing the family, the best on the random split among the classifiers `names`; returns
    (tree, held-out score vs all configurations, spec). Trained and scored with the families' held-out models;
    refitted on the deployed models' choices."""
    feats = feature_matrix(full.shapes, op=full.op)
    choice = family_choices(full, deps, fam_tables, "heldout_choice")
    speeds = family_speeds(full, choice)
    best = None
    for name in names:
        model = classify.fit(name, feats[sp.train], speeds[sp.train], opts.seed)
        fam = model.predict(feats[sp.test])
        score = evaluate.choice_score(full.perf[sp.test], with_fallback(full, choice[sp.test, fam]))
        if best is None or score > best[1] + 1e-12:
            best = (name, score, model)
    name, score, model = best
    if opts.refit:
        speeds = family_speeds(full, family_choices(full, deps, fam_tables, "deployed_choice"))
        model = classify.fit(name, feats, speeds, opts.seed)
    return classify.tree_to_dict(model, feature_names(full.op)), score, classify.spec(name)


def deployed_choice(full: dataset.PerfTable, result: dict, deps: list[Deployment],
                    tables: list[dataset.PerfTable]) -> np.ndarray:
    """Per shape of `full`, the column the deployment (as shipped: refitted trees, and the run-time fallback
    where its pick does not apply) runs; -1: a family that cannot run the shape, without a fallback."""
    choice = family_choices(full, deps, tables, "deployed_choice")
    if result["family_tree"] is None:
        return with_fallback(full, choice[:, 0])
    fam = classify.predict_dict(result["family_tree"], feature_matrix(full.shapes, op=full.op),
                                feature_names(full.op))
    return with_fallback(full, choice[np.arange(full.n_shapes), fam])


def compare_with_baseline(full: dataset.PerfTable, sp: evaluate.Split, result: dict, deps: list[Deployment],
                          tables: list[dataset.PerfTable], out_dir: Path) -> dict | None:
    """The deployment against the hand-written rule it replaces (runtime_rules.py), on the same measurements:
    geomean fraction of the best of all configurations on the held-out and on all shapes, and per-shape rows
    (deployed_vs_baseline.csv)."""
    if full.op not in runtime_rules.BASELINES:
        return None
    name, rule = runtime_rules.BASELINES[full.op]
    col = {c: i for i, c in enumerate(full.configs)}
    base = np.array([col.get(c, -1) for c in rule(full.shapes, full.device)])
    shipped = deployed_choice(full, result, deps, tables)
    rows = full.shapes.drop(columns="op").assign(
        best=[full.configs[i] for i in full.perf.argmax(axis=1)],
        deployed=[full.configs[i] if i >= 0 else "(cannot run)" for i in shipped], deployed_fraction=evaluate.choice_fractions(full.perf, shipped),
        baseline=[full.configs[i] if i >= 0 else "(missing)" for i in base], baseline_fraction=evaluate.choice_fractions(full.perf, base),
        held_out=np.isin(np.arange(full.n_shapes), sp.test))
    rows.to_csv(out_dir / "deployed_vs_baseline.csv", index=False, float_format="%.4f")
    return {"name": name,
            "heldout": {"baseline": evaluate.choice_score(full.perf[sp.test], base[sp.test]),
                        "deployment": result["score"]},
            "all_shapes": {"baseline": evaluate.choice_score(full.perf, base),
                           "deployment": evaluate.choice_score(full.perf, shipped)},
            "shapes_faster": int((rows.deployed_fraction > rows.baseline_fraction * 1.02).sum()),
            "shapes_slower": int((rows.deployed_fraction < rows.baseline_fraction / 1.02).sum())}


def fit_recipe(ft: dataset.PerfTable, dep: Deployment, feats: np.ndarray, train: np.ndarray,
               opts: Options) -> tuple[list[int], object] | None:
    """dep's recipe (normalisation, selection method, N, tree) fitted on the shapes `train` of `ft`: the selected
    columns and the fitted tree; None when those shapes are too few for N configurations."""
    perf = ft.perf[train]
    if dep.tree is None:   # one configuration deployed, without a tree
        return ([selection.top_n(perf, 1)[0]], classify.Constant(0)) if len(train) else None
    if len(train) <= dep.n:
        return None
    sel = selection.select(dep.selection, normalise.NORMALISATIONS[dep.normalisation](perf), perf, feats[train],
                           dep.n, opts.seed)
    return sel, classify.fit(classify.name_of(dep.classifier), feats[train], perf[:, sel], opts.seed)


def refitted_choice(ft: dataset.PerfTable, dep: Deployment, feats: np.ndarray, train: np.ndarray,
                    opts: Options) -> np.ndarray | None:
    """Per shape of `ft`, the column the family's recipe picks once fitted on the shapes `train` alone; None when
    those are too few for N configurations."""
    fitted = fit_recipe(ft, dep, feats, train, opts)
    return None if fitted is None else np.asarray(fitted[0])[fitted[1].predict(feats)]


def networks_score(ft: dataset.PerfTable, dep: Deployment, feats: np.ndarray, splits: dict[str, evaluate.Split],
                   opts: Options) -> float | None:
    """Geomean over networks of the family's score (fraction of its best) when dep's recipe is fitted without the
    network; None when a network leaves too few shapes to fit it."""
    scores = []
    for sp in splits.values():
        choice = refitted_choice(ft, dep, feats, sp.train, opts)
        if choice is None:
            return None
        scores.append(evaluate.choice_score(ft.perf[sp.test], choice[sp.test]))
    return evaluate.geomean(scores) if scores else None


def recipe_by_networks(ft: dataset.PerfTable, dep: Deployment, sp: evaluate.Split, networks: dict[tuple, set[str]],
                       out_dir: Path, opts: Options) -> Deployment:
    """The family's recipe chosen by leaving whole networks out instead of by the random split: among dep's own,
    and the coverage selections (top_n, greedy, dep's method) x N (n_min..max_deploy_n) x each deployable tree, the
    one with the best geomean over networks (the random split's choice unless beaten by more than NETWORKS_NOISE;
    ties: fewer configurations); refitted on all shapes like analyse_family's. A random split holds out shapes of networks it also trains on, so it
    favours recipes that remember networks over recipes that generalise to new ones (docs/tuning.md)."""
    if dep.tree is None:
        return dep
    feats = feature_matrix(ft.shapes, op=ft.op)
    splits = {net: s for net, s in evaluate.network_splits(shape_keys(ft), networks).items() if len(s.train)}
    if len(splits) < 2:
        return dep
    candidates = [dep] + [
        Deployment(dep.family, [], {}, dep.normalisation, method, classify.spec(tree), n, 0.0, 0.0)
        for method in dict.fromkeys(("greedy", "top_n", dep.selection)) if method in opts.methods
        for n in range(opts.n_min, opts.max_deploy_n + 1) if n < ft.n_configs
        for tree in classify.DEPLOYABLE]
    rows = []
    for cand in candidates:
        rows.append({"selection": cand.selection, "normalisation": cand.normalisation, "n": cand.n,
                     "classifier": cand.classifier, "networks": networks_score(ft, cand, feats, splits, opts)})
    table = pd.DataFrame(rows)
    table.to_csv(out_dir / "recipes_by_networks.csv", index=False, float_format="%.5f")
    scored = table.dropna(subset=["networks"])
    if scored.empty:
        return dep
    best = scored.loc[scored["networks"] >= scored["networks"].max() - 1e-9].sort_values("n", kind="stable").index[0]
    if best == 0 or scored.loc[best, "networks"] <= (table.loc[0, "networks"] or 0.0) + NETWORKS_NOISE:
        return dep
    cand = candidates[best]
    heldout = fit_recipe(ft, cand, feats, sp.train, opts)
    deployed = fit_recipe(ft, cand, feats, np.arange(ft.n_shapes), opts) if opts.refit else heldout
    sel, tree = deployed
    score = evaluate.choice_score(ft.perf[sp.test], np.asarray(heldout[0])[heldout[1].predict(feats[sp.test])])
    rep = report.Report(out_dir, "")
    rep.text(f"Chosen by leaving whole networks out instead ({len(splits)} networks, "
             f"`recipes_by_networks.csv`): N={cand.n} configurations by {cand.selection}, chosen by {cand.classifier}: "
             f"{100 * scored.loc[best, 'networks']:.2f}% of the family's best on networks left out, against "
             f"{100 * (table.loc[0, 'networks'] or 0.0):.2f}% for the random split's choice; "
             f"{100 * score:.2f}% on the random split's held-out shapes. Configurations: "
             f"{', '.join(ft.configs[c] for c in sel)}.")
    rep.write(append=True)
    return Deployment(dep.family, [ft.configs[c] for c in sel], classify.tree_to_dict(tree, feature_names(ft.op)),
                      cand.normalisation, cand.selection, cand.classifier, cand.n, score,
                      evaluate.oracle_score(ft.perf[sp.test], heldout[0]),
                      np.asarray(heldout[0])[heldout[1].predict(feats)], np.asarray(sel)[tree.predict(feats)])


def held_out_network(full: dataset.PerfTable, deps: list[Deployment], tables: list[dataset.PerfTable],
                     family_classifier: str | None, sp: evaluate.Split, opts: Options) -> dict:
    """The deployment's recipe fitted on the training shapes of `sp` and scored on its held-out shapes: the
    whole (family tree included) against the best of all configurations, each family against its own best
    (None where the family cannot be fitted or has none of the held-out shapes)."""
    test_keys = {shape_keys(full)[i] for i in sp.test}
    local, families = [], {}
    for dep, ft in zip(deps, tables):
        fsp = family_split(ft, test_keys)
        choice = refitted_choice(ft, dep, feature_matrix(ft.shapes, op=ft.op), fsp.train, opts)
        local.append(choice)
        families[dep.family] = evaluate.choice_score(ft.perf[fsp.test], choice[fsp.test]) \
            if choice is not None and len(fsp.test) else None
    score = None
    if all(c is not None for c in local):
        choice = full_columns(full, local, tables)
        fam = np.zeros(full.n_shapes, dtype=int)
        if family_classifier is not None:
            feats = feature_matrix(full.shapes, op=full.op)
            speeds = family_speeds(full, choice)
            fam = classify.fit(classify.name_of(family_classifier), feats[sp.train], speeds[sp.train],
                               opts.seed).predict(feats)
        picked = with_fallback(full, choice[np.arange(full.n_shapes), fam])
        score = evaluate.choice_score(full.perf[sp.test], picked[sp.test])
    return {"shapes": len(sp.test), "training_shapes": len(sp.train), "score": score, "families": families}


def geomean_of(values: list[float | None]) -> float | None:
    """Geomean of the values that are not None (None when none is)."""
    values = [v for v in values if v is not None]
    return evaluate.geomean(values) if values else None


def leave_networks_out(full: dataset.PerfTable, deps: list[Deployment], tables: list[dataset.PerfTable],
                       family_classifier: str | None, networks: dict[tuple, set[str]], opts: Options) -> dict:
    """Leave-networks-out scores of the deployment's recipe (module docstring): per network (held_out_network)
    and their geomeans over networks."""
    splits = evaluate.network_splits(shape_keys(full), networks)
    if not splits:
        raise dataset.DatasetError("no shape of the dataset is in the network shape lists")
    per_net = {net: held_out_network(full, deps, tables, family_classifier, sp, opts) for net, sp in splits.items()}
    labelled = set().union(*(set(sp.test) for sp in splits.values()))
    return {"networks": per_net,
            "unlabelled_shapes": full.n_shapes - len(labelled),
            "geomean": {"score": geomean_of([r["score"] for r in per_net.values()]),
                        "families": {d.family: geomean_of([r["families"][d.family] for r in per_net.values()])
                                     for d in deps}}}


def networks_report(out_dir: Path, full: dataset.PerfTable, loo: dict, deps: list[Deployment],
                    append: bool) -> None:
    """The leave-networks-out table (selection.json's "leave_networks_out") next to the random split's score:
    leave_networks_out.csv and a section of report.md (appended to the family's report when `append`)."""

    def percent(value: float | None) -> float:
        return float("nan") if value is None else 100.0 * value

    def row(counts: tuple, score: float | None, families: dict) -> dict:
        return {"held-out shapes": counts[0], "training shapes": counts[1], "% of best of all": percent(score),
                **{f"{d.family}: % of family best": percent(families[d.family]) for d in deps}}

    rows = {net: row((r["shapes"], r["training_shapes"]), r["score"], r["families"])
            for net, r in loo["networks"].items()}
    rows["geomean over networks"] = row(("", ""), loo["geomean"]["score"], loo["geomean"]["families"])
    split = loo["random_split"]
    rows["random split"] = row((split["held_out_shapes"], full.n_shapes - split["held_out_shapes"]), split["score"],
                               split["families"])
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "network"
    rep = report.Report(out_dir, f"{full.device} {full.op}: leaving whole networks out")
    rep.table("leave_networks_out", "Leave-networks-out: each network held out in turn", table,
              "The deployment's recipe (normalisation, selection method, N, trees) fitted on the other networks' "
              "shapes and scored on the network's (geomean % of the best of all configurations, and of the best "
              "configuration of each family); a shape of several networks is held out with each of them; shapes of "
              f"no listed network, always trained on: {loo['unlabelled_shapes']}. Network lists: "
              f"{', '.join(loo['network_files'])}. Last row: the random split's held-out score.")
    rep.write(append=append)


def analyse(paths: list[str], out_dir: Path, op: str = "gemm", family: str | None = None,
            device: str | None = None, opts: Options | None = None, networks: list[str] | None = None,
            precision: str = precisions.DEFAULT) -> dict:
    """Run the whole analysis; writes the outputs to out_dir and returns the selection (also selection.json).
    `networks`: shape lists with a `net` column for the leave-networks-out evaluation; `precision`: the
    deployment's, which keeps the configurations it allows (precision.py)."""
    opts = opts or Options()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    full = dataset.load(paths, op=op, family=family, device=device, precision=precision)
    families = full.family_names()
    log(opts, f"{full.device} {op}: {full.n_shapes} shapes x {full.n_configs} configurations, "
              f"families {', '.join(families)}")
    # A family that applies to no shape of the dataset (conv2d's depthwise and grouped on dense layers) has nothing
    # to choose among and is never deployed; kept, it would leave every leave-networks-out fit of the family tree
    # without a choice for it, and so without a score.
    empty = [fam for fam in families if full.family(fam).n_shapes == 0]
    if empty and len(empty) < len(families):
        log(opts, f"no shape measured for {', '.join(empty)}: not analysed")
        families = [fam for fam in families if fam not in empty]
    sp = evaluate.split(full.n_shapes, opts.test_fraction, opts.seed)
    batches = sorted({int(b) for b in full.shapes["batch"]}) if "batch" in full.shapes else []
    net_of_shape = dataset.read_networks(networks, op, batches) if networks else {}
    test_keys = {shape_keys(full)[i] for i in sp.test}
    deps, tables = [], []
    for fam in families:
        ft = full.family(fam)
        fam_dir = out_dir if len(families) == 1 else out_dir / fam
        log(opts, f"family {fam}: {ft.n_shapes} shapes x {ft.n_configs} configurations -> {fam_dir}")
        dep = analyse_family(ft, family_split(ft, test_keys), fam_dir, opts, f"{full.device} {op} {fam}")
        if networks:
            dep = recipe_by_networks(ft, dep, family_split(ft, test_keys), net_of_shape, fam_dir, opts)
        deps.append(dep)
        tables.append(ft)
    if len(deps) == 1:
        dep = deps[0]
        tree, score, fam_spec = None, dep.score, None
        summary = {"selection": f"{dep.selection} ({dep.normalisation})", "classifier": dep.classifier}
    else:
        tree, score, fam_spec = family_tree(full, deps, tables, sp, opts)
        if networks:   # the family tree too is chosen by leaving networks out (recipe_by_networks)
            loo = {name: leave_networks_out(full, deps, tables, classify.spec(name), net_of_shape, opts)
                   ["geomean"]["score"] or 0.0 for name in classify.DEPLOYABLE}
            log(opts, "family tree by networks left out: " + ", ".join(f"{n} {100 * v:.2f}%" for n, v in loo.items()))
            best = max(loo, key=loo.get)
            # differences within the noise of a score over a few dozen networks do not overrule the random split
            if loo[best] > loo[classify.name_of(fam_spec)] + NETWORKS_NOISE:
                tree, score, fam_spec = family_tree(full, deps, tables, sp, opts, (best,))
        used = sorted(classify.leaf_values(tree["root"]))
        if len(used) < len(deps):   # a family the tree never picks is not deployed
            log(opts, f"the family tree never picks {', '.join(d.family for i, d in enumerate(deps) if i not in used)}"
                      ": not deployed")
            tree = {**tree, "root": classify.relabel(tree["root"], {old: new for new, old in enumerate(used)})}
            deps, tables = [deps[i] for i in used], [tables[i] for i in used]
        summary = {"selection": "; ".join(f"{d.family}: {d.selection} ({d.normalisation})" for d in deps),
                   "classifier": f"family {fam_spec}; " + "; ".join(f"{d.family}: {d.classifier}" for d in deps)}
    result = {
        "schema": 1,
        "op": op,
        "precision": precision,
        "device": full.device,
        "datasets": [str(p) for p in paths],
        "generated": dt.date.today().isoformat(),
        "seed": opts.seed,
        "test_fraction": opts.test_fraction,
        "n_shapes": full.n_shapes,
        "score": score,
        "n_configs": sum(len(d.configs) for d in deps),
        **summary,
        "refit": "configurations and trees refitted on all shapes" if opts.refit else "held-out models",
        "family_tree": tree,
        "family_classifier": fam_spec,
        "families": [{"name": d.family, "configs": d.configs, "tree": d.tree, "n": d.n, "selection": d.selection,
                      "normalisation": d.normalisation, "classifier": d.classifier, "score": d.score,
                      "oracle": d.oracle} for d in deps],
    }
    if networks:
        loo = leave_networks_out(full, deps, tables, fam_spec, net_of_shape, opts)
        result["leave_networks_out"] = {
            "network_files": [str(p) for p in networks], **loo,
            "random_split": {"held_out_shapes": len(sp.test), "score": score,
                             "families": {d.family: d.score for d in deps}}}
        networks_report(out_dir, full, result["leave_networks_out"], deps, append=len(families) == 1)
        if loo["geomean"]["score"] is not None:
            log(opts, f"leave-networks-out: {100 * loo['geomean']['score']:.2f}% of the best of all configurations "
                      f"(geomean over {len(loo['networks'])} networks; random split {100 * score:.2f}%)")
    baseline = compare_with_baseline(full, sp, result, deps, tables, out_dir)
    if baseline:
        result["baseline"] = baseline
        log(opts, f"{baseline['name']}: {100 * baseline['heldout']['baseline']:.2f}% of the best on held-out shapes, "
                  f"{100 * baseline['all_shapes']['baseline']:.2f}% on all; the deployment as shipped: "
                  f"{100 * baseline['all_shapes']['deployment']:.2f}% on all ({baseline['shapes_faster']} shapes "
                  f"faster, {baseline['shapes_slower']} slower by more than 2%; {out_dir / 'deployed_vs_baseline.csv'})")
    (out_dir / "selection.json").write_text(json.dumps(result, indent=1) + "\n")
    log(opts, f"\nRecommended deployment ({out_dir / 'selection.json'}): {result['n_configs']} configurations, "
              f"selection {result['selection']}, classifier {result['classifier']}: held-out score "
              f"{100 * score:.2f}% of the best of all configurations.")
    return result


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("datasets", nargs="+", help="benchmark CSVs (device,op,family,config,<shape>,gflops,time_ms,reps)")
    p.add_argument("--out", required=True, type=Path, help="output directory")
    p.add_argument("--op", default="gemm", choices=sorted(dataset.SHAPE_COLUMNS))
    p.add_argument("--family", default=None, help="analyse only this family (default: all, plus a family tree)")
    p.add_argument("--device", default=None, help="device to analyse when the datasets hold several")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--test-fraction", type=float, default=0.25)
    p.add_argument("--n-min", type=int, default=4)
    p.add_argument("--n-max", type=int, default=15)
    p.add_argument("--max-deploy-n", type=int, default=8, help="preferred largest deployed N")
    p.add_argument("--tolerance", type=float, default=0.005,
                   help="take the smallest N whose score is within this fraction of the best")
    p.add_argument("--normalisations", default=",".join(normalise.NORMALISATIONS))
    p.add_argument("--methods", default=",".join(selection.method_names()))
    p.add_argument("--no-refit", action="store_true", help="deploy the held-out models instead of refitting")
    p.add_argument("--deploy-header", type=Path, default=None, help="also write the C++ header here")
    p.add_argument("--device-class", default=None, help="namespace / device class of the header")
    p.add_argument("--precision", default=precisions.DEFAULT, choices=precisions.PRECISIONS,
                   help="the deployment's precision: only configurations it allows are selected; a header for a "
                        "precision other than the default is the struct <op>_<precision>")
    p.add_argument("--networks", nargs="+", default=None, metavar="FILE",
                   help="GEMM shape lists with a net column (data/shapes/gemm_*.csv) or conv2d layer lists "
                        "(data/shapes/conv_*.csv): also score the deployment leaving each network out")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    opts = Options(seed=args.seed, test_fraction=args.test_fraction, n_min=args.n_min, n_max=args.n_max,
                   max_deploy_n=args.max_deploy_n, tolerance=args.tolerance,
                   normalisations=tuple(args.normalisations.split(",")), methods=tuple(args.methods.split(",")),
                   refit=not args.no_refit)
    unknown = [n for n in opts.normalisations if n not in normalise.NORMALISATIONS] + \
              [m for m in opts.methods if m not in selection.method_names()]
    if unknown:
        sys.exit(f"unknown normalisations/methods {unknown}")
    try:
        result = analyse(args.datasets, args.out, args.op, args.family, args.device, opts, args.networks,
                         args.precision)
    except dataset.DatasetError as err:
        sys.exit(f"error: {err}")
    if args.deploy_header:
        path = codegen.write(result, args.deploy_header, args.device_class)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
