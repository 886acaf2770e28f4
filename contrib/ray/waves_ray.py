#!/usr/bin/env python3
"""Runs a `waves batch` manifest as Ray tasks: the manifest is cut into
chunks, each chunk is one task that pipes its items into
`waves batch --manifest -`, and the chunks' results are merged into one
results file.

    python contrib/ray/waves_ray.py --manifest manifest.jsonl --results results.jsonl \\
        [--waves PATH] [--chunks N] [--address ADDR] [--num-cpus 2] \\
        [--cpus-per-chunk 1] [--memory-mb MB] [--max-retries 3] [--cwd DIR] \\
        [--timeout S] [--force]

Chunk K of N holds the items whose position mod N is K (as `--shard K/N`).
A chunk whose waves exits 75 (temporary failure) or is killed by a signal,
or whose Ray worker dies, is run again, up to --max-retries times; 65 (some
items failed for good) and 64 (usage) are not retried. Rerunning is safe:
waves batch skips the items already done.

Locally (no --address) this starts a Ray of --num-cpus CPUs in this process
and stops it at the end. On a cluster, --address auto (on a cluster node) or
ray://HEAD:10001: there the waves binary, the inputs, the outputs and --cwd
must be at the same paths on every node (a shared file system); the results
come back through Ray, not the file system.

Results: JSON lines, one per item, in manifest order: waves batch's own
lines ({"id","input","output","status","reason","exit_status","seconds","peak_rss_mb"}),
and for the items of a chunk that never ran to the end a line with status
"failed" and the reason.

Exit status: 0 every chunk exited 0; 64 some chunk said usage (or this
script's own usage); else 75 some chunk still failed temporarily after its
retries (a rerun can help); else 65 some items failed for good (or the
manifest is not JSON lines); else the highest other status; 69 ray does
not import (no venv: make cluster-deps). Progress and a summary line go to
stderr; failures are one line starting "waves-ray:".
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

EX_OK, EX_USAGE, EX_DATAERR, EX_UNAVAILABLE, EX_TEMPFAIL = 0, 64, 65, 69, 75
PROG = "waves-ray"


def say(message):
    print(f"{PROG}: {message}", file=sys.stderr, flush=True)


class TemporaryChunkFailure(Exception):
    """A chunk whose waves exited 75 or was killed: Ray retries the task."""

    def __init__(self, chunk, status, results, stderr_tail):
        super().__init__(f"chunk {chunk}: waves batch {describe(status)}")
        self.chunk, self.status, self.results, self.stderr_tail = chunk, status, results, stderr_tail

    def __reduce__(self):
        return (TemporaryChunkFailure, (self.chunk, self.status, self.results, self.stderr_tail))


def describe(status):
    if status < 0:
        return f"was killed by signal {-status}"
    return f"exited {status}"


def run_chunk(chunk, lines, waves, options, cwd):
    """One chunk: `waves batch --manifest -` with the chunk's lines on stdin.
    Returns {"chunk", "status", "results", "stderr"}; raises
    TemporaryChunkFailure for a status worth a retry."""
    with tempfile.TemporaryDirectory(prefix="waves-ray-chunk-") as folder:
        results_path = os.path.join(folder, "results.jsonl")
        command = [waves, "batch", "--manifest", "-", "--results", results_path] + options
        try:
            process = subprocess.run(command, input="".join(lines), cwd=cwd, text=True,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except OSError as error:  # no such binary, not executable: the same on every try
            return {"chunk": chunk, "status": EX_USAGE, "results": [], "stderr": f"cannot run {waves}: {error}"}
        results = []
        if os.path.exists(results_path):
            with open(results_path, encoding="utf-8") as file:
                results = [line if line.endswith("\n") else line + "\n" for line in file if line.strip()]
    tail = "\n".join(process.stderr.strip().splitlines()[-5:])
    if process.returncode == EX_TEMPFAIL or process.returncode < 0:
        print(f"{PROG}: chunk {chunk}: waves batch {describe(process.returncode)}; Ray retries it", file=sys.stderr, flush=True)
        raise TemporaryChunkFailure(chunk, process.returncode, results, tail)
    return {"chunk": chunk, "status": process.returncode, "results": results, "stderr": tail}


def read_manifest(path):
    """The manifest's lines and each item's output (its key: outputs are
    unique in a manifest); exits 65 on a line that is not an item."""
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as error:
        say(f"cannot read manifest {path}: {error.strerror}")
        sys.exit(EX_DATAERR)
    lines, items = [], []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            if not isinstance(item, dict) or not item.get("input") or not item.get("output"):
                raise ValueError
        except ValueError:
            say(f"{path} line {number}: not an item (one JSON object a line with \"input\" and \"output\")")
            sys.exit(EX_DATAERR)
        lines.append(line.rstrip("\n") + "\n")
        items.append(item)
    return lines, items


def failed_line(item, reason):
    return json.dumps({"id": str(item.get("id", item["input"])), "input": item["input"], "output": item["output"],
                       "status": "failed", "reason": reason, "seconds": None, "peak_rss_mb": None}) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="waves_ray.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--manifest", required=True, help="the manifest (JSON lines), or - for stdin")
    parser.add_argument("--results", required=True, help="the merged results file (JSON lines)")
    parser.add_argument("--waves", default="waves", help="the waves binary (default: waves on PATH)")
    parser.add_argument("--chunks", type=int, help="how many tasks (default: the cluster's CPUs)")
    parser.add_argument("--address", help="a Ray cluster (auto, or ray://HEAD:10001); default: a local Ray")
    parser.add_argument("--num-cpus", type=int, default=2, help="the local Ray's CPUs (default 2)")
    parser.add_argument("--cpus-per-chunk", type=int, default=1, help="CPUs a chunk takes, and its --jobs (default 1)")
    parser.add_argument("--memory-mb", type=int, help="memory a chunk reserves, in MB (Ray's memory resource)")
    parser.add_argument("--max-retries", type=int, default=3, help="retries of a chunk that exits 75 or dies (default 3)")
    parser.add_argument("--cwd", default=os.getcwd(), help="where relative paths start (default: here)")
    parser.add_argument("--timeout", type=float, help="give up after this many seconds (exit 75)")
    parser.add_argument("--force", action="store_true", help="passed to waves batch: write every output")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit:
        sys.exit(EX_USAGE if exit.code else EX_OK)
    for name in ("chunks", "num_cpus", "cpus_per_chunk", "memory_mb"):
        value = getattr(args, name)
        if value is not None and value < 1:
            say(f"--{name.replace('_', '-')} must be 1 or more")
            return EX_USAGE
    if args.max_retries < 0:
        say("--max-retries must be 0 or more")
        return EX_USAGE

    waves = args.waves
    if os.sep in waves:
        waves = os.path.abspath(waves)
        if args.address is None and not os.access(waves, os.X_OK):
            say(f"{waves} is not an executable file (give --waves PATH)")
            return EX_USAGE
    elif args.address is None and shutil.which(waves) is None:
        say(f"no {waves} on PATH (give --waves PATH)")
        return EX_USAGE
    cwd = os.path.abspath(args.cwd)
    lines, items = read_manifest(args.manifest)

    if not args.address:
        # A Ray of this machine alone: on the loopback address (Ray picks the
        # machine's network address otherwise: this switch, read when ray
        # is imported, is the only one that makes its node 127.0.0.1), and
        # no usage report.
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if not sys.stderr.isatty():
        os.environ.setdefault("RAY_COLOR_PREFIX", "0")  # the tasks' lines without colour codes
    started = time.monotonic()
    try:
        import ray
    except ImportError:
        say("ray does not import: run make cluster-deps (or contrib/ray/setup-venv.sh) and use .build/ray-venv/bin/python")
        return EX_UNAVAILABLE
    imported = time.monotonic()
    if args.address:
        ray.init(address=args.address, log_to_driver=True)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, log_to_driver=True)
    init_seconds = time.monotonic() - imported

    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        count = max(1, min(args.chunks or cpus, len(items) or 1))
        chunks = [list(range(k, len(items), count)) for k in range(count)]
        options = ["--progress", "none", "--jobs", str(args.cpus_per_chunk)] + (["--force"] if args.force else [])
        remote = ray.remote(max_retries=args.max_retries, retry_exceptions=[TemporaryChunkFailure])(run_chunk)
        resources = {"num_cpus": args.cpus_per_chunk}
        if args.memory_mb:
            resources["memory"] = args.memory_mb * 1024 * 1024
        pending = {}
        for k, positions in enumerate(chunks):
            if positions:
                ref = remote.options(**resources).remote(k, [lines[p] for p in positions], waves, options, cwd)
                pending[ref] = k
        say(f"{len(items)} items in {len(pending)} chunks on {cpus} CPUs (import ray {imported - started:.1f} s, ray.init {init_seconds:.1f} s)")

        outcomes = {}
        deadline = None if args.timeout is None else started + args.timeout
        while pending:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            done, _ = ray.wait(list(pending), num_returns=1, timeout=left)
            if not done:
                for ref in pending:
                    ray.cancel(ref, force=True)
                for k in pending.values():
                    outcomes[k] = {"status": EX_TEMPFAIL, "results": [], "reason": f"not done after {args.timeout:g} s"}
                say(f"timed out after {args.timeout:g} s: {len(pending)} chunks cancelled")
                break
            ref = done[0]
            k = pending.pop(ref)
            try:
                value = ray.get(ref)
                outcome = {"status": value["status"], "results": value["results"], "reason": value["stderr"]}
            except ray.exceptions.RayTaskError as error:
                cause = getattr(error, "cause", None)
                if type(cause).__name__ != TemporaryChunkFailure.__name__:
                    cause = error if isinstance(error, TemporaryChunkFailure) else None
                if cause is not None:
                    outcome = {"status": EX_TEMPFAIL, "results": cause.results,
                               "reason": f"waves batch {describe(cause.status)} on each of {args.max_retries + 1} tries: {cause.stderr_tail}"}
                else:
                    outcome = {"status": EX_TEMPFAIL, "results": [], "reason": f"the chunk's task failed: {str(error).splitlines()[0]}"}
            except ray.exceptions.RayError as error:  # the worker died (OOM, killed) more often than retried
                outcome = {"status": EX_TEMPFAIL, "results": [], "reason": f"the chunk's worker failed: {type(error).__name__}"}
            outcomes[k] = outcome
            counts = {}
            for line in outcome["results"]:
                status = json.loads(line).get("status", "?")
                counts[status] = counts.get(status, 0) + 1
            summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "no results"
            say(f"chunk {k}: exit {outcome['status']} ({summary})")
            if outcome["status"] not in (EX_OK, EX_DATAERR) and outcome["reason"]:
                say(f"chunk {k}: {outcome['reason'].splitlines()[-1] if outcome['reason'].strip() else ''}")
    finally:
        if not args.address:
            ray.shutdown()

    # Merge in manifest order (outputs are unique: the key); an item of a
    # chunk without its result line gets a "failed" line with the reason.
    position = {item["output"]: p for p, item in enumerate(items)}
    merged, extra = [None] * len(items), []
    for k, outcome in sorted(outcomes.items()):
        for line in outcome["results"]:
            try:
                p = position.get(json.loads(line).get("output"))
            except ValueError:
                p = None
            if p is None or merged[p] is not None:
                extra.append(line)
            else:
                merged[p] = line
        for p in chunks[k]:
            if merged[p] is None:
                reason = f"chunk {k} {'exited ' + str(outcome['status'])} before this item's result"
                if outcome["status"] == EX_TEMPFAIL and outcome["reason"]:
                    reason = f"chunk {k}: {outcome['reason'].splitlines()[0]}"
                merged[p] = failed_line(items[p], reason)
    results = os.path.abspath(args.results)
    os.makedirs(os.path.dirname(results), exist_ok=True)
    partial = f"{results}.partial.{os.getpid()}"
    with open(partial, "w", encoding="utf-8") as file:
        file.writelines([line for line in merged if line] + extra)
    os.replace(partial, results)

    statuses = [outcome["status"] for outcome in outcomes.values()]
    if EX_USAGE in statuses:
        status = EX_USAGE
    elif EX_TEMPFAIL in statuses:
        status = EX_TEMPFAIL
    elif EX_DATAERR in statuses:
        status = EX_DATAERR
    else:
        status = max(statuses, default=EX_OK)
    counts = {}
    for line in merged:
        if line:
            s = json.loads(line).get("status", "?")
            counts[s] = counts.get(s, 0) + 1
    say(f"{len(items)} items: {', '.join(f'{n} {s}' for s, n in sorted(counts.items())) or 'none'}; "
        f"results in {args.results}; {time.monotonic() - started:.1f} s; exit {status}")
    return status


if __name__ == "__main__":
    sys.exit(main())
