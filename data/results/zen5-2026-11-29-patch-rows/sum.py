import sys, glob, re, statistics as st
tag = sys.argv[1]
def parse(f):
    rows = {}
    geo = None
    for line in open(f):
        m = re.search(r"geomean ratio .*?: ([0-9.]+) over", line)
        if m: geo = float(m.group(1))
        parts = line.split()
        if len(parts) > 8 and 'onednn' in line:
            # find ratio column: first token after vendor GFLOP/s; use regex on 'onednn X Y'
            m = re.search(r"onednn\s+([0-9.]+)\s+([0-9.]+)\s+(\d+)%", line)
            if m: rows[parts[0]] = (float(m.group(2)), float(m.group(1)))
    return rows, geo
res = {}
for b in ("base", "new"):
    files = sorted(glob.glob(f"/tmp/ab/{tag}_{b}_*.txt"))
    res[b] = [parse(f) for f in files]
layers = list(res["base"][0][0].keys())
print(f"{'layer':28s} {'base ratio (min-max)':>22s} {'new ratio (min-max)':>22s}")
for l in layers:
    out = []
    for b in ("base", "new"):
        r = [x[0][l][0] for x in res[b] if l in x[0]]
        out.append(f"{st.median(r):.3f} ({min(r):.3f}-{max(r):.3f})")
    print(f"{l:28s} {out[0]:>22s} {out[1]:>22s}")
for b in ("base", "new"):
    g = [x[1] for x in res[b] if x[1]]
    print(b, "geomean", f"{st.median(g):.3f} ({min(g):.3f}-{max(g):.3f})", "runs", len(g))
