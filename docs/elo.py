"""Elo table of a round robin: reads the referee's --json summaries named
rr_<p1>_<p2>.json in the directory given as the only argument, fits a
Bradley-Terry (logistic Elo) model to all games (draw = half a point) with
Hunter's MM iterations, anchors ANCHOR (minimax: it has informative results against most strategies) at 0, and prints Markdown tables:
Elo with 95 % error bars from the Fisher information, then every pairing.

    python3 docs/elo.py DIR
"""
ANCHOR = 'minimax'
import json, glob, math, itertools, sys
# Bradley-Terry (logistic Elo) fit of all pairwise results, draws as half points.
if len(sys.argv) != 2 or not glob.glob(sys.argv[1] + '/rr_*.json'):
    print('elo.py: expected one directory holding rr_<p1>_<p2>.json referee summaries', file=sys.stderr)
    sys.exit(2)
res = {}
for f in glob.glob(sys.argv[1] + '/rr_*.json'):
    d = json.load(open(f))
    a, b = d['p1']['name'], d['p2']['name']
    res[(a, b)] = (d['p1']['wins'], d['p1']['draws'], d['p1']['losses'],
                   d['p1']['timeouts'], d['p2']['timeouts'])
names = sorted({n for k in res for n in k})
score = {n: 0.0 for n in names}; games = {}
for (a, b), (w, dr, l, _, _) in res.items():
    n = w + dr + l; s = w + dr / 2
    games[(a, b)] = n; games[(b, a)] = n
    score[a] += s; score[b] += n - s
r = {n: 0.0 for n in names}
for _ in range(5000):  # MM iterations (Hunter 2004)
    new = {}
    for i in names:
        den = sum(games.get((i, j), 0) / (10 ** (r[i] / 400) + 10 ** (r[j] / 400)) for j in names if j != i)
        # a strategy without a point counts 0.25 so that the fit stays finite
        new[i] = 400 * math.log10(max(score[i], 0.25) / den)
    m = new[ANCHOR]; r = {k: v - m for k, v in new.items()}
# standard errors from the Fisher information (random fixed at 0)
free = [n for n in names if n != ANCHOR]
k = math.log(10) / 400
H = [[0.0] * len(free) for _ in free]
for x, i in enumerate(free):
    for j in names:
        if j == i: continue
        p = 1 / (1 + 10 ** ((r[j] - r[i]) / 400)); v = games.get((i, j), 0) * p * (1 - p) * k * k
        H[x][x] += v
        if j in free: H[x][free.index(j)] -= v
# invert H (small Gauss-Jordan)
n = len(free); A = [row[:] + [1.0 if q == x else 0.0 for q in range(n)] for x, row in enumerate(H)]
for c in range(n):
    piv = A[c][c]; A[c] = [v / piv for v in A[c]]
    for q in range(n):
        if q != c:
            f = A[q][c]; A[q] = [a - f * b for a, b in zip(A[q], A[c])]
se = {i: math.sqrt(A[x][n + x]) for x, i in enumerate(free)}; se[ANCHOR] = 0.0
print('| strategy | Elo (' + ANCHOR + ' = 0) | ± 95 % | score |')
print('|---|---|---|---|')
for nm in sorted(names, key=lambda q: -r[q]):
    tot = sum(games.get((nm, j), 0) for j in names)
    print(f'| {nm} | {r[nm]:+.0f} | {1.96*se[nm]:.0f} | {100*score[nm]/tot:.1f} % |')
print()
print('| p1 vs p2 | p1 W-D-L | p1 score ± 95 % | timeouts p1/p2 |')
print('|---|---|---|---|')
for (a, b), (w, dr, l, t1, t2) in sorted(res.items()):
    n = w + dr + l; s = (w + dr / 2) / n
    var = (w * (1 - s) ** 2 + dr * (0.5 - s) ** 2 + l * s ** 2) / n
    print(f'| {a} vs {b} | {w}-{dr}-{l} | {100*s:.0f} % ± {196*math.sqrt(var/n):.0f} | {t1}/{t2} |')
