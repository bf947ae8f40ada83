"""Print the Broken and Correct tables of README_h.md from the script headers and markers."""
import glob
import os
import re

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def info(path):
    lines = open(path).read().splitlines()
    hdr = {k: lines[i].split(": ", 1)[1] for i, k in enumerate(["source", "reported-error", "outcome", "root-cause", "expect"], start=1)}
    hdr["desc"] = lines[0][3:]
    alt = [i + 1 for i, l in enumerate(lines) if re.search(r"#\s*root-cause-alt\b", l)]
    fh = [i + 1 for i, l in enumerate(lines) if re.search(r"#\s*fails-here\b", l)]
    hdr["alt"] = str(alt[0]) if alt else "-"
    hdr["fh"] = str(fh[0]) if fh else "-"
    hdr["rc"] = hdr["root-cause"].replace("line ", "")
    return hdr


def table(kind):
    rows = ["| file | expect | root-cause | alt | fails-here | outcome | source |", "|---|---|---|---|---|---|---|"]
    for p in sorted(glob.glob(os.path.join(HERE, kind, "*.py"))):
        h = info(p)
        outcome = h["outcome"] if kind == "broken" else f"{h['desc']} (exit 0)"
        rows.append(f"| `{os.path.basename(p)}` | {h['expect']} | {h['rc']} | {h['alt']} | {h['fh']} | {outcome.replace('|', '/')} | {h['source']} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print("## Broken\n")
    print(table("broken"))
    print("\n## Correct (all exit 0, expect no finding)\n")
    print(table("correct"))
