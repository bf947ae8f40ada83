"""Run every held-out script on the CPU and print its outcome (exit status and the
last exception line, or 'ok'). Usage: python tests/heldout/run_heldout.py [hazards|clean]"""
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


def outcome(path):
    proc = subprocess.run([sys.executable, "-W", "default", str(path)], capture_output=True, text=True,
                          timeout=300, cwd=path.parent)
    err = [re.sub(r"\x1b\[[0-9;]*m", "", l) for l in proc.stderr.splitlines() if l.strip()]
    warns = sorted({l.split(":", 3)[2].strip() + ":" + l.split(":", 3)[3][:110]
                    for l in err if "Warning:" in l and l.count(":") >= 3})
    if proc.returncode == 0:
        last = (proc.stdout.strip().splitlines() or [""])[-1]
        return "ok", last[:150], warns
    exc = [l for l in err if re.match(r"^[A-Za-z_][\w.]*(Error|Exception): ", l)]
    detail = exc[-1] if exc else (err[-1] if err else "")
    extra = [l.strip() for l in err if "Unsupported global" in l]
    if extra:
        detail = detail[:120] + " ... " + extra[-1]
    return f"exit {proc.returncode}", detail[:300], warns


def main(groups):
    for group in groups:
        for path in sorted((HERE / group).glob("*.py")):
            status, detail, warns = outcome(path)
            print(f"{group}/{path.name}: {status}: {detail}")
            for w in warns:
                print(f"    warning: {w}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["hazards", "clean"])
