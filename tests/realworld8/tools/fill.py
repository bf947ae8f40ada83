"""Fill `root-cause: line N` from the markers, `{FH}`/`{RC}` placeholders, and `outcome: AUTO` from a real run.

usage: python tools/fill.py [files...]   (default: every broken/*.py)
"""
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = "/work/main/.venv/bin/python"


def run(path):
    p = subprocess.run([PY, path], capture_output=True, text=True, timeout=300, cwd=HERE)
    line = None
    for m in re.finditer(r'File "([^"]+)", line (\d+)', p.stderr):
        if os.path.realpath(m.group(1)) == os.path.realpath(path):
            line = int(m.group(2))
    errs = [l for l in p.stderr.splitlines() if re.match(r"^[\w.]+(Error|Exception):", l)]
    return p.returncode, (errs[-1] if errs else ""), line, p.stdout + p.stderr


def main():
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(HERE, "broken", "*.py")))
    for path in files:
        lines = open(path).read().split("\n")
        rc = [i + 1 for i, l in enumerate(lines) if re.search(r"#\s*root-cause(?![-\w])", l)]
        fh = [i + 1 for i, l in enumerate(lines) if re.search(r"#\s*fails-here\b", l)]
        if rc:
            lines[4] = f"root-cause: line {rc[0]}"
        if fh:
            lines[3] = lines[3].replace("{FH}", str(fh[0]))
        if lines[3].strip() == "outcome: AUTO":
            code, exc, line, out = run(path)
            if code == 0:
                print(f"{os.path.basename(path)}: exited 0, cannot fill AUTO\n{out[-500:]}")
                continue
            if "Weights only load failed" in exc:
                m = re.search(r"(WeightsUnpickler error: Unsupported global: GLOBAL \S+ was not an allowed global by default\.)", out)
                exc = exc.split(" This file")[0] + " ... " + (m.group(1) if m else "") + " ..."
            lines[3] = f"outcome: {exc} at line {line}"
            if fh and fh[0] != line:
                print(f"{os.path.basename(path)}: raised at {line} but fails-here at {fh[0]}")
        open(path, "w").write("\n".join(lines))
        print(f"{os.path.basename(path)}: {lines[3][:150]} | {lines[4]}")


if __name__ == "__main__":
    main()
