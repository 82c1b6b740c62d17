import re, sys, statistics
# per-second op/s from `run --progress 1s` lines; 20-second blocks from the cumulative op counts
pts = []
rates = []
for line in open(sys.argv[1]):
    m = re.search(r'measure ([\d,]+) ops, (?:(\d+)m)?(\d+)s of .*?\)\s+([\d,]+) op/s', line)
    if m:
        ops = int(m.group(1).replace(',', '')); t = int(m.group(2) or 0) * 60 + int(m.group(3))
        pts.append((t, ops)); rates.append(int(m.group(4).replace(',', '')))
print(f'{len(rates)} progress lines; op/s of a one-second interval: {min(rates):,}-{max(rates):,}, median {statistics.median(rates):,.0f}')
at = dict(pts)
blocks = []
for start in range(0, 140, 20):
    a = at.get(start, 0 if start == 0 else None); b = at.get(start + 20)
    if a is None or b is None:
        continue
    blocks.append((b - a) / 20)
mean = statistics.mean(blocks)
print('20-second blocks, op/s: ' + ', '.join(f'{x:,.0f}' for x in blocks))
print(f'their standard deviation: {statistics.stdev(blocks):,.0f} op/s = {statistics.stdev(blocks) / mean * 100:.1f} % of their mean {mean:,.0f}')
