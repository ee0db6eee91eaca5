#!/usr/bin/env python2
"""Figures from the published AWS backoff simulator itself, for a few cells.

The simulator behind the AWS Architecture Blog post "Exponential Backoff And
Jitter" is src/backoff_simulator.py in github.com/aws-samples/aws-arch-
backoff-simulator. It is Python 2, and its last line runs the blog's whole
sweep at 100 runs per cell. This script runs that file's own code unchanged
under Python 2.7 (it only leaves out the file's last line, the call to its
own sweep, and seeds Python's generator so the figures can be made again),
then drives the file's own `setup_sim` and `run_sim` for the cells asked for,
with as many runs per cell as asked for, exactly as its `run()` does for
each cell.

    python2 scripts/aws_upstream.py --simulator PATH/src/backoff_simulator.py \\
        --reps 2000 --seed 1 --out tests/data/aws-upstream.json

The storm lab's tests compare their own means with these cells
(tests/it/storm/aws.rs).
"""
import argparse
import json
import os
import random
import sys

# The cells pinned: few and small clients, where the port and this lab
# could drift apart unseen, and the sweep's far end.
CELLS = [(clients, name)
         for clients in (10, 50, 100, 190)
         for name in ("None", "Exponential", "FullJitter", "EqualJitter", "Decorr")]

# The simulator's names for the lab's algorithms.
LAB_NAME = {"None": "none", "Exponential": "exponential", "FullJitter": "full",
            "EqualJitter": "equal", "Decorr": "decorrelated"}


def load(path):
    """The simulator's definitions, without running its sweep."""
    with open(path) as f:
        lines = f.read().rstrip().split("\n")
    if lines[-1].strip() != "run()":
        sys.exit("the simulator's last line is not its sweep; is this backoff_simulator.py?")
    namespace = {"__name__": "backoff_simulator"}
    exec(compile("\n".join(lines[:-1]) + "\n", path, "exec"), namespace)
    return namespace


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--simulator", required=True, help="path to src/backoff_simulator.py")
    parser.add_argument("--reps", type=int, default=2000, help="runs per cell")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    random.seed(args.seed)
    sim = load(args.simulator)
    classes = dict((name, cls) for cls, name in sim["backoff_types"])
    cells = []
    devnull = open(os.devnull, "w")
    for clients, name in CELLS:
        stats = sim["Stats"]()
        total = 0.0
        for _ in range(args.reps):
            queue, stats = sim["setup_sim"](clients, classes[name], devnull, stats)
            total += sim["run_sim"](queue)
        cells.append({
            "clients": clients,
            "algorithm": LAB_NAME[name],
            "mean_calls": float(stats.calls) / args.reps,
            "mean_time_ms": total / args.reps,
        })
        sys.stderr.write("%d %s done\n" % (clients, name))
    doc = {
        "made_by": "python2 scripts/aws_upstream.py --simulator backoff_simulator.py --reps %d --seed %d"
                   " (Python %s; the simulator at aws-samples/aws-arch-backoff-simulator 66cb169)"
                   % (args.reps, args.seed, sys.version.split()[0]),
        "reps": args.reps,
        "seed": args.seed,
        "cells": cells,
    }
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
