import re, sys, pathlib
sys.path.insert(0, ".")
from dtypeguard.analysis import check_source
from tests.engine.expectations import expected
EX = re.compile(r"\s*#\s*expect:\s*((?:DG\d{3}[\s,]*)+)")
write = "--write" in sys.argv
for folder in ["samples/hazards", "samples", "tests/corpus/hazards", "tests/heldout/hazards", "samples/fixed", "samples/clean"]:
    for p in sorted(pathlib.Path(folder).glob("*.py")):
        text = p.read_text()
        if "expect:" not in text and "hazards" not in folder: 
            pass
        exp = expected(text)
        got = {(f.span.line, f.code) for f in check_source(text, str(p)).findings}
        if exp == got: continue
        print(p, "lost", sorted(exp - got), "new", sorted(got - exp))
        if write and "heldout" not in folder or (write and "--heldout" in sys.argv):
            lines = text.split("\n")
            # remove markers for lost, add for new; keep others
            bylines = {}
            for l, c in got: bylines.setdefault(l, set()).add(c)
            for i, line in enumerate(lines):
                m = EX.search(line)
                if m:
                    lines[i] = line[:m.start()]
            for l, codes in bylines.items():
                lines[l-1] = lines[l-1].rstrip() + "  # expect: " + " ".join(sorted(codes))
            p.write_text("\n".join(lines))
