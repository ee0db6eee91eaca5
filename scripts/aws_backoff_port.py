#!/usr/bin/env python3
"""Reference figures for the AWS "Exponential Backoff And Jitter" experiment.

This is a fresh Python 3 port of the rules of the simulator published with the
AWS Architecture Blog post (github.com/aws-samples/aws-arch-backoff-simulator,
src/backoff_simulator.py). It follows the same model: one row with a version
number on an optimistic-concurrency server, N clients that all start at time 0,
read the version, then write conditionally on it; a stale write fails and that
client backs off and reads again. Every message spends |Normal(10 ms, 2 ms)| on
the network, the backoff base is 5 ms and the cap 2000 ms.

It serves two purposes in this project: its figures are the reference for the
storm lab's AWS table (tests/data/aws-reference.json), and its running time is
the speed baseline that `make bench` compares the Rust simulator against.

Rerun the reference figures (takes a quarter of an hour; cells with few
clients, whose completion times vary most, get more runs):

    nice -n 10 python3 scripts/aws_backoff_port.py --sweep --reps 400 \
        --client-runs 80000 --seed 1 --out tests/data/aws-reference.json

Time the same sweep without writing figures (prints wall-clock seconds):

    python3 scripts/aws_backoff_port.py --sweep --reps 100 --seed 1 --time-only

One cell:

    python3 scripts/aws_backoff_port.py --clients 50 --algorithm full --reps 100

Each run draws from its own random.Random, seeded with the string
"<seed>/<clients>/<algorithm>/<rep>", so every figure is reproducible and
does not depend on which other cells were run.
"""

import argparse
import datetime
import heapq
import json
import os
import platform
import random
import sys
import time

NET_MEAN_MS = 10.0
NET_SD_MS = 2.0
BASE_MS = 5
CAP_MS = 2000

ALGORITHMS = ("none", "exponential", "full", "equal", "decorrelated")
SWEEP_CLIENTS = tuple(range(10, 200, 10))

# What a message delivers when it arrives.
READ_AT_SERVER = 0
READ_REPLY_AT_CLIENT = 1
WRITE_AT_SERVER = 2
WRITE_REPLY_AT_CLIENT = 3


def make_sleeper(algorithm, rng):
    """Returns a function from the failure count (1 after the first failed
    write, never reset) to the sleep in ms, for one client."""
    if algorithm == "none":
        return lambda failures: 0

    def ceiling(failures):
        # Integer arithmetic: 5 * 2**n, capped at 2000.
        return min(CAP_MS, (2 ** failures) * BASE_MS)

    if algorithm == "exponential":
        return ceiling
    if algorithm == "full":
        return lambda failures: rng.uniform(0, ceiling(failures))
    if algorithm == "equal":
        def equal(failures):
            half = ceiling(failures) // 2  # always exact: the ceiling is even
            return half + rng.uniform(0, half)
        return equal
    if algorithm == "decorrelated":
        # Each client keeps its previous sleep, which starts at the base; the
        # failure count plays no part.
        previous = [BASE_MS]

        def decorrelated(_failures):
            previous[0] = min(CAP_MS, rng.uniform(BASE_MS, previous[0] * 3))
            return previous[0]
        return decorrelated
    raise ValueError("unknown algorithm: %s" % algorithm)


def run_once(clients, algorithm, rng):
    """Simulates one contention episode. Returns (write calls, failed writes,
    completion time in ms), the completion time being the moment the last
    client receives the reply to its successful write."""
    normal = rng.normalvariate

    def delay():
        return abs(normal(NET_MEAN_MS, NET_SD_MS))

    version = 0
    writes = 0
    failed = 0
    failures = [0] * clients
    sleepers = [make_sleeper(algorithm, rng) for _ in range(clients)]

    # Entries are (arrival time, order of sending, kind, client, payload).
    # Arrival times are continuous, so ties are practically impossible; should
    # one happen, the message sent first is delivered first.
    queue = []
    sent = 0
    for client in range(clients):
        queue.append((delay(), sent, READ_AT_SERVER, client, None))
        sent += 1
    heapq.heapify(queue)

    now = 0.0
    while queue:
        now, _, kind, client, payload = heapq.heappop(queue)
        if kind == READ_AT_SERVER:
            nxt = (now + delay(), sent, READ_REPLY_AT_CLIENT, client, version)
        elif kind == READ_REPLY_AT_CLIENT:
            nxt = (now + delay(), sent, WRITE_AT_SERVER, client, payload)
        elif kind == WRITE_AT_SERVER:
            writes += 1
            ok = payload == version
            if ok:
                version += 1
            else:
                failed += 1
            nxt = (now + delay(), sent, WRITE_REPLY_AT_CLIENT, client, ok)
        else:  # WRITE_REPLY_AT_CLIENT
            if payload:
                continue  # this client is done
            failures[client] += 1
            # The network delay is drawn before the sleep, as in the original;
            # the read reaches the server after both.
            travel = delay()
            nxt = (now + travel + sleepers[client](failures[client]), sent,
                   READ_AT_SERVER, client, None)
        heapq.heappush(queue, nxt)
        sent += 1
    return writes, failed, now


def run_cell(clients, algorithm, reps, seed):
    total_writes = total_failed = 0
    total_time = 0.0
    for rep in range(reps):
        rng = random.Random("%d/%d/%s/%d" % (seed, clients, algorithm, rep))
        writes, failed, finish = run_once(clients, algorithm, rng)
        total_writes += writes
        total_failed += failed
        total_time += finish
    return {
        "clients": clients,
        "algorithm": algorithm,
        "reps": reps,
        "mean_calls": total_writes / reps,
        "mean_failed_writes": total_failed / reps,
        "mean_time_ms": total_time / reps,
    }


def reps_for(clients, reps, client_runs):
    """Runs for a cell: at least `reps`, and at least `client_runs` clients'
    runs in all. Completion times vary most from run to run with few
    clients, which are also the cheapest to run, so a cell with few clients
    gets more runs."""
    return max(reps, -(-client_runs // clients))


def sweep(reps, seed, progress=None, client_runs=0):
    cells = []
    for clients in SWEEP_CLIENTS:
        for algorithm in ALGORITHMS:
            cells.append(run_cell(clients, algorithm, reps_for(clients, reps, client_runs), seed))
        if progress:
            progress(clients)
    return cells


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sweep", action="store_true",
                        help="clients 10..190 by 10, all five algorithms")
    parser.add_argument("--clients", type=int, help="one cell: number of clients")
    parser.add_argument("--algorithm", choices=ALGORITHMS, help="one cell: algorithm")
    parser.add_argument("--reps", type=int, default=100, help="runs per cell")
    parser.add_argument("--client-runs", type=int, default=0,
                        help="with --sweep: give each cell at least this many client runs in all"
                             " (clients x runs), so cells with few clients get more runs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="write the sweep's figures to this JSON file")
    parser.add_argument("--time-only", action="store_true",
                        help="print only the sweep's wall-clock seconds")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)

    if args.sweep:
        progress = None
        if not (args.quiet or args.time_only):
            progress = lambda c: print("clients %d done" % c, file=sys.stderr)
        started = time.perf_counter()
        cells = sweep(args.reps, args.seed, progress, args.client_runs)
        seconds = time.perf_counter() - started
        if args.time_only:
            print("%.2f" % seconds)
            return 0
        niceness = os.nice(0)
        command = " ".join(["python3", "scripts/aws_backoff_port.py"] + sys.argv[1:])
        if niceness:
            command = "nice -n %d %s" % (niceness, command)
        result = {
            "made_by": "%s (Python %s, %s; sweep took %.0f s)" % (
                command,
                platform.python_version(),
                datetime.date.today().isoformat(),
                seconds),
            "reps": args.reps,
            "client_runs": args.client_runs,
            "seed": args.seed,
            "cells": cells,
        }
        text = json.dumps(result, indent=1) + "\n"
        if args.out:
            with open(args.out, "w") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        print("sweep took %.2f s" % seconds, file=sys.stderr)
        return 0

    if args.clients is None or args.algorithm is None:
        parser.error("give --sweep, or --clients and --algorithm")
    cell = run_cell(args.clients, args.algorithm, args.reps, args.seed)
    print(json.dumps(cell))
    return 0


if __name__ == "__main__":
    sys.exit(main())
