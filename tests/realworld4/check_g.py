"""Fill/verify header line numbers against markers and re-run every script (python check.py [--fill])."""
import glob
import os
import re
import subprocess
import sys

PY = "/work/main/.venv/bin/python"
HERE = os.path.dirname(os.path.abspath(__file__))


def markers(lines):
    rc = [i + 1 for i, l in enumerate(lines) if re.search(r"# root-cause(?!-)", l)]
    alt = [i + 1 for i, l in enumerate(lines) if "# root-cause-alt" in l]
    fh = [i + 1 for i, l in enumerate(lines) if "# fails-here" in l]
    return rc, alt, fh


def header(text):
    doc = text.split('"""')[1]
    keys = {}
    for line in doc.splitlines()[1:]:
        if ":" in line:
            k, v = line.split(":", 1)
            keys[k.strip()] = v.strip()
    keys["title"] = doc.splitlines()[0]
    return keys


def run(path):
    p = subprocess.run([PY, path], capture_output=True, text=True, timeout=120)
    out = p.stdout + p.stderr
    frames = re.findall(r'File "%s", line (\d+)' % re.escape(path), out)
    last_err = ""
    for l in out.strip().splitlines()[::-1]:
        if re.match(r"^[\w.]*(Error|Exception)\b", l):
            last_err = l
            break
    return p.returncode, (int(frames[-1]) if frames else None), last_err, out


def main():
    fill = "--fill" in sys.argv
    rows, problems = [], []
    for path in sorted(glob.glob(os.path.join(HERE, "broken", "*.py"))) + sorted(glob.glob(os.path.join(HERE, "correct", "*.py"))):
        text = open(path).read()
        lines = text.splitlines()
        rc, alt, fh = markers(lines)
        broken = "/broken/" in path
        if fill and broken:
            text = text.replace("{RC}", str(rc[0]) if rc else "-").replace("{FH}", str(fh[0]) if fh else "-")
            open(path, "w").write(text)
            lines = text.splitlines()
        h = header(text)
        name = os.path.relpath(path, HERE)
        if broken:
            if len(rc) != 1:
                problems.append(f"{name}: {len(rc)} root-cause markers")
            if len(fh) != 1:
                problems.append(f"{name}: {len(fh)} fails-here markers")
            if h.get("root-cause") != f"line {rc[0] if rc else '-'}":
                problems.append(f"{name}: header root-cause {h.get('root-cause')} != marker {rc}")
            m = re.search(r"at line (\d+)", h.get("outcome", ""))
            if m and fh and int(m.group(1)) != fh[0]:
                problems.append(f"{name}: outcome line {m.group(1)} != fails-here {fh[0]}")
        else:
            if rc or alt or fh:
                problems.append(f"{name}: correct script carries markers")
            if h.get("expect") != "none" or h.get("root-cause") != "-":
                problems.append(f"{name}: correct header expect/root-cause wrong")
        code, frame, err, full = run(path)
        outcome = h.get("outcome", "")
        expects_ok = outcome.startswith("ok") or outcome.startswith("cuda-only")
        if expects_ok and code != 0:
            problems.append(f"{name}: expected clean run, got rc={code} {err}")
        if not expects_ok:
            if code == 0:
                problems.append(f"{name}: expected an error, exit 0")
            else:
                msg = outcome.split(" at line")[0]
                if "..." in msg:
                    frags = [f.strip() for f in msg.split("...") if f.strip()]
                    if not err.startswith(frags[0]) or not all(f in full for f in frags):
                        problems.append(f"{name}: outcome fragments {frags!r} not all in the real output")
                elif msg != err:
                    problems.append(f"{name}: outcome {msg!r} != real {err!r}")
                if fh and frame != fh[0]:
                    problems.append(f"{name}: innermost frame line {frame} != fails-here {fh[0]}")
        rows.append((name, h.get("expect"), rc[0] if rc else "-", alt[0] if alt else "-", fh[0] if fh else "-", code, err[:70]))
    for r in rows:
        print(" | ".join(str(x) for x in r))
    print("\nPROBLEMS:" if problems else "\nall checks passed")
    for p in problems:
        print("  " + p)


if __name__ == "__main__":
    main()
