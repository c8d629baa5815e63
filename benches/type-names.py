#!/usr/bin/env python3
"""Struct and enum names defined in more than one file under ROOT (each
with its file, line and visibility), for "each type name once" in
docs/architecture.md. A name private to its file may repeat another's.

Usage: benches/type-names.py [ROOT=src]
"""
import os,re,collections,sys
root=sys.argv[1] if len(sys.argv)>1 else "src"
re_t=re.compile(r"^\s*(pub(?:\([^)]*\))?\s+)?(struct|enum|type|trait)\s+([A-Z]\w*)")
d=collections.defaultdict(list)
for dp,_,fs in os.walk(root):
  for f in fs:
    if not f.endswith(".rs"):continue
    p=os.path.join(dp,f)
    for i,l in enumerate(open(p)):
      m=re_t.match(l)
      if m and m.group(2) in("struct","enum"):
        d[m.group(3)].append((p,i+1,(m.group(1) or "").strip() or "private"))
n=0
for k,v in sorted(d.items()):
  files={p for p,_,_ in v}
  if len(files)>1:
    n+=1
    print(k, "; ".join(f"{p}:{i} {vis}" for p,i,vis in v))
print(n,"names in more than one file")
