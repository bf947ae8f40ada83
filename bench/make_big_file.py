"""Build a realistic ~2,000-line training file from the bundled samples (for benchmarks)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def big_training_file(lines: int = 2000, shape: str = "calls") -> str:
    """Concatenate sample scripts, each wrapped in its own function so names do not collide.

    shape "calls": each function is called right after it is defined (a long top-level
    script); "main": all are called, in order, from a `main()` at the end (the other common
    layout, and the worst case for resuming: every edit above it runs `main()` again)."""
    sources = sorted((ROOT / "samples").rglob("*.py"))
    header = "import numpy as np\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n"
    chunks: list[str] = [header]
    total = header.count("\n")
    i = 0
    while total < lines:
        src = sources[i % len(sources)].read_text(encoding="utf-8")
        src = re.sub(r'^"""[\s\S]*?"""\n', "", src)
        body = "\n".join("    " + ln if ln.strip() else "" for ln in src.splitlines())
        call = f"\n\nblock_{i}()\n" if shape == "calls" else "\n"
        chunk = f"\ndef block_{i}():\n{body}\n    return None\n{call}"
        chunks.append(chunk)
        total += chunk.count("\n")
        i += 1
    if shape == "main":
        chunks.append("\ndef main():\n" + "".join(f"    block_{k}()\n" for k in range(i)) + '\n\nif __name__ == "__main__":\n    main()\n')
    return "".join(chunks)


if __name__ == "__main__":
    print(big_training_file())
