# The depthwise/default rules compared on one run's per-configuration columns: python3 rules.py DIR (DIR holding run1-dw-*.json and run2-dw-*.json)
import json,math,sys
geo=lambda v: math.exp(sum(map(math.log,v))/len(v))
SM=132
def rules(r):
    w,s=r['window'],r['stride']; oh,ow,c=r['out_h'],r['out_w'],r['out_k']
    t=lambda L: r['batch']*oh*ow*(c//L)
    small = w<=3 and s==1
    c4 = small or t(4)>=256*SM
    seg = w<=3 and r['batch']*oh*((ow+3)//4)*c >= 512*SM
    old = 'pixel_c4' if c4 else ('segment4' if seg else 'pixel')
    cur = 'pixel_c4' if c4 else ('pixel_c2' if t(2)>=256*SM else ('segment4' if seg else 'pixel'))
    r1 = 'pixel_c4' if c4 else 'pixel_c2'
    return dict(old=old,cur=cur,r1=r1)
for d, run in ((sys.argv[1], r) for r in ("run1", "run2")):
  for n in ['conv_grouped','conv_depthwise_unseen']:
    j=json.load(open(f'{d}/{run}-dw-{n}.json')); acc={}
    for r in j['rows']:
        al=r['algorithms']; cud=r['refs']['cudnn']['gflops']
        if 'depthwise/pixel_c2' not in al: continue
        for k,v in rules(r).items(): acc.setdefault(k,[]).append(al['depthwise/'+v]['gflops']/cud)
        acc.setdefault('default(measured)',[]).append(al['depthwise/default']['gflops']/cud)
        acc.setdefault('best',[]).append(max(x['gflops'] for x in al.values())/cud)
    print(run,n,{k:round(geo(v),3) for k,v in acc.items()})
