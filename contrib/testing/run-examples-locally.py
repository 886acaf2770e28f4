#!/usr/bin/env python3
"""Runs the command lines of the two examples that cannot run here, the
Kubernetes Indexed Job (contrib/kubernetes/waves-indexed-job.yaml) and the
AWS Batch array job (contrib/aws-batch/*.json), on this machine: each index
in turn, with the variable its scheduler sets (JOB_COMPLETION_INDEX,
AWS_BATCH_JOB_ARRAY_INDEX) and N as the files give it, and the examples'
/data (their shared volume) replaced by --workdir. It checks that the
examples' own commands drive `waves batch --shard auto` as they should;
it does not check Kubernetes or AWS themselves.

    .build/ray-venv/bin/python contrib/testing/run-examples-locally.py \\
        --waves PATH --manifest M --workdir DIR [--only kubernetes|aws-batch]

--waves is put first on PATH as `waves` (the examples call `waves`); the
manifest is copied to DIR/manifest.jsonl (the name both examples use), and
each index's results land in DIR/results-<index>.jsonl (Kubernetes) or
DIR/results/results-<index>.jsonl (AWS Batch, whose command makes the folder). PyYAML is
needed (the Ray venv has it, as Ray depends on it).

Exit status: 0 every index exited 0; else the worst of them in the
contract's order (64, then 75, then 65, then the highest); 2 own usage.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CONTRIB = os.path.dirname(HERE)


def kubernetes_commands(workdir):
    import yaml
    with open(os.path.join(CONTRIB, "kubernetes", "waves-indexed-job.yaml"), encoding="utf-8") as file:
        job = yaml.safe_load(file)
    container = job["spec"]["template"]["spec"]["containers"][0]
    for index in range(job["spec"]["completions"]):
        args = [a.replace("$(JOB_COMPLETION_INDEX)", str(index)) for a in container.get("args", [])]
        yield index, container["command"] + args, {"JOB_COMPLETION_INDEX": str(index)}


def aws_commands(workdir):
    folder = os.path.join(CONTRIB, "aws-batch")
    with open(os.path.join(folder, "waves-job-definition.json"), encoding="utf-8") as file:
        definition = json.load(file)
    with open(os.path.join(folder, "waves-array-job.json"), encoding="utf-8") as file:
        submission = json.load(file)
    parameters = dict(definition.get("parameters", {}), **submission.get("parameters", {}))
    command = [parameters[a[5:]] if a.startswith("Ref::") else a.replace("/data", workdir)
               for a in definition["containerProperties"]["command"]]
    for index in range(submission["arrayProperties"]["size"]):
        yield index, command, {"AWS_BATCH_JOB_ARRAY_INDEX": str(index)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--waves", required=True)
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--only", choices=["kubernetes", "aws-batch"])
    try:
        args = parser.parse_args()
    except SystemExit as exit:
        sys.exit(2 if exit.code else 0)
    workdir = os.path.abspath(args.workdir)
    os.makedirs(workdir, exist_ok=True)
    if os.path.abspath(args.manifest) != os.path.join(workdir, "manifest.jsonl"):
        shutil.copyfile(args.manifest, os.path.join(workdir, "manifest.jsonl"))
    bin_folder = tempfile.mkdtemp(prefix="waves-examples-")
    os.symlink(os.path.abspath(args.waves), os.path.join(bin_folder, "waves"))
    base = dict(os.environ, PATH=bin_folder + os.pathsep + os.environ.get("PATH", ""))
    for name in ("JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE",
                 "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT"):
        base.pop(name, None)
    statuses = []
    try:
        for example, commands in (("kubernetes", kubernetes_commands), ("aws-batch", aws_commands)):
            if args.only and args.only != example:
                continue
            for index, command, env in commands(workdir):
                process = subprocess.run(command, cwd=workdir, env=dict(base, **env))
                print(f"run-examples-locally: {example} index {index}: exit {process.returncode}", file=sys.stderr)
                statuses.append(process.returncode)
    finally:
        shutil.rmtree(bin_folder, ignore_errors=True)
    for status in (64, 75, 65):
        if status in statuses:
            return status
    return max(statuses, default=0)


if __name__ == "__main__":
    sys.exit(main())
