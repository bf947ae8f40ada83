"""Build a realistic ~2,000-line training file from the bundled samples (for benchmarks)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def big_training_file(lines: int = 2000) -> str:
    """Concatenate sample scripts, each wrapped in its own function so names do not collide."""
    sources = sorted((ROOT / "samples").rglob("*.py"))
    header = "import numpy as np\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n"
    chunks: list[str] = [header]
    total = header.count("\n")
    i = 0
    while total < lines:
        src = sources[i % len(sources)].read_text(encoding="utf-8")
        src = re.sub(r'^"""[\s\S]*?"""\n', "", src)
        body = "\n".join("    " + ln if ln.strip() else "" for ln in src.splitlines())
        chunk = f"\ndef block_{i}():\n{body}\n    return None\n\n\nblock_{i}()\n"
        chunks.append(chunk)
        total += chunk.count("\n")
        i += 1
    return "".join(chunks)


if __name__ == "__main__":
    print(big_training_file())
