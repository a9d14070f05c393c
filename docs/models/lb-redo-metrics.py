#!/usr/bin/env python3
"""Regenerates the metrics table of docs/models/lb-redo.md from the CLI (run from the repository root).

Each row is one exhaustive `kcheck check lb-redo ... --json` run per variant; the cells are the
maxima over all reachable states of redos / stat-passes / stat-work (CPU visits) per call."""
import json, subprocess, sys

def run(variant, cpus, groups, scenario, pulls):
    cmd = ["./kcheck", "check", "lb-redo", "--variant", variant, "--cpus", str(cpus),
           "--param", f"groups={groups}", "--param", f"scenario={scenario}", "--param", f"pulls={pulls}",
           "--property", "redos", "--property", "stat-passes", "--property", "stat-work",
           "--property", "spurious-redos", "--json", "--quiet"]
    out = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)["results"]
    m = {r["property"]: r["metrics"][r["property"]] for r in out}
    r0 = out[0]
    assert r0["complete"] and all(r["verdict"] == "HOLDS" for r in out), out
    return m, r0["states"], r0["seconds"]

configs = []
for cpus in (4, 6, 8, 12, 16):
    for groups in (2, cpus):
        m = cpus - (cpus + groups - 1) // groups
        for scenario, pulls in (("race", "1"), ("race", str(max(1, m - 1))), ("pinned", "auto"), ("all", "auto")):
            if scenario == "race" and pulls == "1" and m - 1 <= 1 and configs and configs[-1][:3] == (cpus, groups, "race"):
                continue
            configs.append((cpus, groups, scenario, pulls, m))
seen = set()
print("| N | groups | m | scenario | pulls | before: redos / passes / work | rfc | after | states (before) | s (before) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for cpus, groups, scenario, pulls, m in configs:
    key = (cpus, groups, scenario, pulls)
    if key in seen:
        continue
    seen.add(key)
    cells = []
    states = secs = None
    for v in ("before", "rfc", "after"):
        mm, st, s = run(v, cpus, groups, scenario, pulls)
        cells.append(f"{mm['redos']} / {mm['stat-passes']} / {mm['stat-work']}"
                     + (f" ({mm['spurious-redos']} spurious)" if mm['spurious-redos'] else ""))
        if v == "before":
            states, secs = st, s
    shown = pulls if pulls != "auto" else ("0" if scenario == "pinned" else "1")
    print(f"| {cpus} | {groups} | {m} | {scenario} | {shown} | " + " | ".join(cells) + f" | {states:,} | {secs:.2f} |")
    sys.stdout.flush()
