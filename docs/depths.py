import json, re, sys, statistics as st
# Midgame depth (d<N> or s<N> in MSG) of player `who`: median and minimum over
# moves that had a choice (a forced move searches depth 1), and the slowest
# reply of later turns.
f=sys.argv[1]; who=sys.argv[2]
L=[json.loads(l) for l in open(f)][1:]
d=[]; forced=0; slow=0
for g in L:
    for m in g['moves']:
        if m['by']!=who: continue
        if m['limit_ms']<1000: slow=max(slow, m['ms'])
        mm=re.match(r'[ds](\d+) ', m.get('msg') or '')
        if not mm: continue
        if int(mm.group(1))==1 and (m.get('msg') or '').startswith('s1 '): forced+=1; continue
        d.append(int(mm.group(1)))
print(f"{who}: midgame depth median {st.median(d)} min {min(d)} over {len(d)} moves ({forced} forced moves left out); slowest later turn {slow} ms")
