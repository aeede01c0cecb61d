#!/usr/bin/env python3
"""CPU by family over all threads, from a suite.json (runexp suite).

Usage: scripts/suite-families.py SUITE.json [TIME-V.txt]

Prints the suite's wall time, its process CPU (user + system, every
thread: getrusage, or /usr/bin/time -v's output when given), the
utilisation of its workers, the longest unit of work (a cell, or a part
of one) and, by family, the CPU time of the configs' tasks -- each
cell's or part's thread and the helpers its parallel loops borrowed
(package par: products, rows, splits, GIST, claims), with its Start and
report -- then the rest of the process's CPU (the garbage collector, the
runtime, the comparison and index) shared among the families in
proportion to their tasks' CPU, and that share's total.
Standard library only.
"""
import json
import re
import sys

FAMILIES = [
    ("A&H Fig. 4 (Lasso/GPS and its readings)", lambda n: n.startswith("abrahamsen-hansen-fig4")),
    ("Nguyen (RKPCA, Algorithm 1, robust)", lambda n: n.startswith("nguyen-")),
    ("Zheng et al. (LPKPCA, GIST features)", lambda n: n.startswith("zheng-lpkpca-")),
    ("the rest", lambda n: True),
]


def main():
    rep = json.load(open(sys.argv[1]))
    wall, workers = rep["seconds"], rep.get("workers", 0)
    cpu = rep.get("cpu_seconds", 0.0)
    if len(sys.argv) > 2:
        txt = open(sys.argv[2]).read()
        u = re.search(r"User time \(seconds\): ([\d.]+)", txt)
        s = re.search(r"System time \(seconds\): ([\d.]+)", txt)
        if u and s:
            cpu = float(u.group(1)) + float(s.group(1))
    tasks = sum(r.get("cpu_seconds", 0.0) for r in rep["runs"])
    print("wall %.1f s (%.1f min), process CPU %.0f s, utilisation %.0f%% of %d workers" % (
        wall, wall / 60, cpu, 100 * cpu / (wall * workers) if wall and workers else 0, workers))
    longest = (0, "", "")
    for r in rep["runs"]:
        for t in r.get("cell_times") or []:
            c = max(t["seconds"], t["cpu_seconds"])
            if c > longest[0]:
                unit = t["key"] + ("#part=%d/%d" % (t.get("part", 0), t["parts"]) if t.get("parts") else "")
                longest = (c, r["name"], unit)
    print("longest unit %.1f s (max of wall and CPU): %s %s" % longest)
    rest = max(cpu - tasks, 0)
    print("tasks' CPU %.0f s (%.0f%% of the process's); the other %.0f s shared by tasks' CPU" % (
        tasks, 100 * tasks / cpu if cpu else 0, rest))
    by = {}
    n = {}
    for r in rep["runs"]:
        for name, match in FAMILIES:
            if match(r["name"]):
                by[name] = by.get(name, 0) + r.get("cpu_seconds", 0.0)
                n[name] = n.get(name, 0) + 1
                break
    print("%-42s %7s %10s %10s %6s" % ("family", "configs", "tasks CPU-s", "all CPU-s", "share"))
    for name, _ in FAMILIES:
        t = by.get(name, 0)
        allc = t + (rest * t / tasks if tasks else 0)
        print("%-42s %7d %10.0f %10.0f %5.0f%%" % (name, n.get(name, 0), t, allc, 100 * allc / cpu if cpu else 0))


if __name__ == "__main__":
    main()
