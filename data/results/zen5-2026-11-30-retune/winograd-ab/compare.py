import json, glob, statistics, sys, math
d0=sys.argv[1]; th=float(sys.argv[2]) if len(sys.argv)>2 else 0.08
allr=[]
for net in ["vgg16-b1","resnet50-b1","unseen_nets-b1","vgg16-b4"]:
    res={}
    for v in ["base","new"]:
        for f in sorted(glob.glob(f"{d0}/{v}-{net}-r*.json")):
            for r in json.load(open(f))["rows"]:
                for c,a in r["algorithms"].items():
                    if a["gflops"]>0: res.setdefault((r["layer"],c),{}).setdefault(v,[]).append(a["gflops"]/r["ref_gflops"])
    for (l,c),d in sorted(res.items()):
        if "base" in d and "new" in d:
            b=statistics.median(d["base"]); n=statistics.median(d["new"]); allr.append(n/b)
            if abs(n/b-1)>th: print(f"{net:15s} {l:28s} {c:12s} base {[round(x,3) for x in d['base']]} new {[round(x,3) for x in d['new']]}  {n/b:.2f}x")
print("geomean new/base over", len(allr), "rows:", round(math.exp(sum(map(math.log,allr))/len(allr)),3), "min", round(min(allr),2), "max", round(max(allr),2))
