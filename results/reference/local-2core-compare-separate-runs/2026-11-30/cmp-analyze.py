import csv, glob, statistics, itertools, math, re, sys
# per run: the median over rounds of each scenario's op/s, from summary.csv; then new/base for each ordered pair
B = sys.argv[1] if len(sys.argv) > 1 else 'results/runs/compare-study/cmp'
def med(run):
    f = glob.glob(f'{B}/{run}/**/summary.csv', recursive=True)[0]
    by = {}
    for r in csv.DictReader(open(f)):
        by.setdefault(r['scenario'], []).append(float(r['ops_per_s']))
    return {k: statistics.median(v) for k, v in by.items()}
U = ['1-U', '3-U', '4-U', '6-U']; P = ['2-P', '5-P']
m = {r: med(r) for r in U + P}
sc = list(m['1-U'].keys())
per, geo = [], []
for a, b in itertools.permutations(U, 2):
    rs = [m[b][s] / m[a][s] for s in sc]
    per += rs; geo.append(math.exp(sum(map(math.log, rs)) / len(rs)))
print(f'same build, {len(geo)} ordered pairs: new/base op/s per scenario {min(per):.2f}-{max(per):.2f}; geometric mean of the 4 scenarios {min(geo):.2f}-{max(geo):.2f}')
for a, b in [('1-U', '2-P'), ('3-U', '2-P'), ('4-U', '5-P'), ('6-U', '5-P')]:
    rs = [m[b][s] / m[a][s] for s in sc]
    g = math.exp(sum(map(math.log, rs)) / len(rs))
    print(f'planted {b} against {a}: per scenario ' + ', '.join(f'{s} {r:.2f}' for s, r in zip(sc, rs)) + f'; geometric mean {g:.2f}')
for r in U + P:
    print(r, ', '.join(f'{s} {v:,.0f}' for s, v in m[r].items()))
