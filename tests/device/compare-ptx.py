"""Compares the PTX of the timed (NoTrace) kernels of lessons 01-12 between two source trees, each
configured with CMake (it reads build/compile_commands.json): the check that a change to how kernels
are written (their trace policy, their file layout) left the code the GPU runs as it was. Runs on any
machine with nvcc; no GPU needed.
    python3 tests/device/compare-ptx.py BEFORE_TREE AFTER_TREE
Kernels are matched by name and template arguments (the mangled parameter types may be spelt through
the policy, In<NoTrace> for const float*); bodies are compared with the kernel's own name and the
names of function-local __shared__ arrays and the file-wide numbering of block labels masked. Exit status 1 when any kernel differs or is missing."""
import json
import os
import re
import subprocess
import sys
import tempfile

RENAMED = {"15finish_partials": "12sum_partials"}  # lesson 10's finishing kernel, renamed


def ptx_of(tree, out):
    commands = json.load(open(os.path.join(tree, "build", "compile_commands.json")))
    jobs = []
    for c in commands:
        m = re.search(r"lesson(\d\d)_gpu\b", c.get("output", "") + c["command"])
        if not m or int(m.group(1)) > 11:
            continue
        target = os.path.join(out, "lesson%s.ptx" % m.group(1))
        cmd = re.sub(r" -c (\S+) -o \S+", r" -ptx \1 -o " + target, c["command"])
        cmd = re.sub(r"--generate-code=\S+", "-arch=sm_90", cmd)
        jobs.append(subprocess.Popen(cmd, shell=True, cwd=c["directory"]))
        if len(jobs) == 2:
            [j.wait() for j in jobs]
            jobs = []
    [j.wait() for j in jobs]


def kernels(path):
    text = open(path).read()
    found = {}
    for m in re.finditer(r"\.visible \.entry (\S+)\((.*?)\n\}", text, re.S):
        name = m.group(1)
        if "NoTrace" not in name:
            continue
        body = m.group(0).replace(name, "KERNEL")
        body = re.sub(r"_ZZN[0-9A-Za-z_]+", "LOCAL_STATIC", body)
        body = re.sub(r"\$L__BB\d+_", "$L__BB_", body)  # block labels count functions in file order
        body = re.sub(r"//.*|\.loc\s.*", "", body)
        body = re.sub(r"\n\s*\n", "\n", body)
        key = name.split("NoTrace")[0]
        for old, new in RENAMED.items():
            key = key.replace(old, new)
        found[key] = body
    return found


def main():
    before, after = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        for side, tree in (("before", before), ("after", after)):
            os.makedirs(os.path.join(tmp, side))
            ptx_of(tree, os.path.join(tmp, side))
        total = same = 0
        for f in sorted(os.listdir(os.path.join(tmp, "before"))):
            old = kernels(os.path.join(tmp, "before", f))
            new = kernels(os.path.join(tmp, "after", f))
            for key, body in old.items():
                total += 1
                if key not in new:
                    print(f, "missing after:", key)
                elif new[key] != body:
                    print(f, "differs:", key)
                else:
                    same += 1
        print(f"{same} of {total} NoTrace kernels of lessons 01-12 have the same PTX")
        return 0 if same == total and total > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
