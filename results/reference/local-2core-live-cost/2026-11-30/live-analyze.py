import json, glob, statistics, os
import sys
O=sys.argv[1] if len(sys.argv) > 1 else 'results/runs/live-cost'
def ops(tag):
    f=glob.glob(f'{O}/{tag}/*/*client-leader.json')
    return json.load(open(f[0]))['measured']['opsPerSecond']
rows=[]
for p in (1,2,3):
    w=ops(f'p{p}-with'); wo=ops(f'p{p}-without')
    print(f'pair {p}: without {wo:,.0f} op/s, with {w:,.0f} op/s, with / without {w/wo:.3f}')
for p in (1,2,3):
    t={'data.json':[], 'metrics':[]}; codes={}
    for line in open(f'{O}/p{p}-with-polls.txt'):
        ts,path,code,sec=line.split()
        codes[code]=codes.get(code,0)+1
        if code=='200': t[path].append(float(sec)*1000)
    for k,v in t.items():
        v.sort()
        print(f'pair {p} {k}: {len(v)} answered, median {statistics.median(v):.1f} ms, max {max(v):.1f} ms, 90th {v[int(0.9*len(v))-1]:.1f} ms; codes {codes}')
