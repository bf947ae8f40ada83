"""DG010: `torch.load` without `map_location` in code that also runs on CPU (H18)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from dtypeguard.engine.events import TorchLoad
from dtypeguard.engine.source import parse_quiet
from dtypeguard.findings import Finding, FixSpec, Related, RuleExamples, Severity, Span
from dtypeguard.rules.base import Context, ErrorPattern, Rule


def check(ctx: Context) -> Iterator[Finding]:
    ev = ctx.events
    if not ev.uses_cuda_check and not any(s.tagged for s in ev.saves):
        return  # a script that never asks for CUDA (nor fakes a GPU-written file) gives no evidence it runs on both
    for load in ev.loads:
        if load.map_cuda and not load.splat and not all(v.after_cuda for v in ev.loads if v.span == load.span):
            # a constant CUDA map location in code that also runs on CPU: any file fails there,
            # even one this machine wrote
            device = _device_at(ctx, load.span)
            yield RULE.finding(
                "`torch.load` with a CUDA `map_location` in a script that also runs on CPU: on a CPU-only machine every checkpoint fails "
                "to load (\"Attempting to deserialize object on a CUDA device\"), even one saved there",
                load.span,
                fixes=[FixSpec("set_kwarg", f"Use `map_location={device}`", load.span, True, (("name", "map_location"), ("value", device)))]
                if load.map_cuda == "keyword" else [],
            )
            continue
        if "map_location" in load.keywords or load.splat:
            continue  # given, or perhaps given through `**kwargs`
        saves = [s for s in ev.saves if load.path and s.path == load.path]
        if saves and not any(s.device in ("cuda", "auto") for s in saves):
            continue  # this script writes that file itself, and not from GPU tensors that we know of
        named = [s for s in ev.saves if load.file and s.file == load.file]
        if not saves and named and all(s.device == "cpu" for s in named):
            continue  # a file of that name written elsewhere in the script, from tensors known to be on the CPU
        if _written_first(load, ev.loads):
            continue  # reloaded in the run that wrote it: its devices exist on this machine
        if all(v.after_cuda for v in ev.loads if v.span == load.span):
            continue  # reached only after an unconditional `.cuda()`: a CPU-only run stops before it
        if _cuda_after(ctx, load.span) or load.span in ev.loads_before_gpu:
            # followed by an unconditional `.cuda()` (here, or on every path to the file's end: CBIM's
            # resume before `net.cuda()` in the caller, scan 45): a CPU-only run stops there, whatever the load does
            continue
        device = _device_at(ctx, load.span)
        if load.unpassed_at is not None:
            # a loading helper whose `map_location` defaults to None, called without one: the
            # argument goes in that call (the helper is right to take it)
            at = load.unpassed_at
            device = _device_at(ctx, at)
            yield RULE.finding(
                f"this call passes no `{load.unpassed_param}`, so the `torch.load` it runs gets `map_location=None`, in a script that also runs "
                "on CPU: a checkpoint saved on a GPU fails to load on a CPU-only machine (\"Attempting to deserialize object on a CUDA device\")",
                at,
                related=[Related.failing(load.span, "`torch.load` with `map_location=None`")],
                fixes=[FixSpec("add_kwarg", f"Pass `{load.unpassed_param}={device}`", at, True, (("name", load.unpassed_param), ("value", device)))],
            )
            continue
        yield RULE.finding(
            "`torch.load` without `map_location` in a script that also runs on CPU: a checkpoint saved "
            "on a GPU fails to load on a CPU-only machine (\"Attempting to deserialize object on a CUDA device\")",
            load.span,
            fixes=[FixSpec("add_kwarg", f"Add `map_location={device}`", load.span, True, (("name", "map_location"), ("value", device)))],
        )


def _device_at(ctx: Context, load: Span) -> str:
    """What `map_location=` names: the file's device variable when it is bound before the load
    runs, else `'cpu'` (the checkpoint then moves with the model). A device bound at the top of
    the file after the function that loads is called (`model = load_model(...)` then `device =
    ...`) would be a NameError."""
    name = ctx.device_name()
    tree = ctx.tree or parse_quiet(ctx.text)
    if not name or load.file:
        return name or "'cpu'"  # (a load in another file: where it runs is not followed here)
    if tree is None:
        return "'cpu'"
    bound = min((span.line for n, span in ctx.events.device_vars if n == name), default=None)
    if bound is None:
        return "'cpu'"
    top = next((stmt for stmt in tree.body if stmt.lineno <= load.line <= (stmt.end_lineno or stmt.lineno)), None)
    if top is None:
        return "'cpu'"
    if not isinstance(top, _DEFS):
        return name if bound < load.line else "'cpu'"  # run where it is written
    # in a function or class: run when something calls it; nothing before the binding may
    defined = {stmt.name for stmt in tree.body if isinstance(stmt, _DEFS)}
    for stmt in tree.body:
        if stmt.lineno >= bound:
            break
        if isinstance(stmt, (*_DEFS, ast.Import, ast.ImportFrom)):
            continue
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call):
                root = node.func
                while isinstance(root, (ast.Attribute, ast.Call, ast.Subscript)):
                    root = root.func if isinstance(root, ast.Call) else root.value
                if not isinstance(root, ast.Name) or root.id in defined:
                    return "'cpu'"  # may run the load before the device is bound
    return name


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _cuda_after(ctx: Context, load: Span) -> bool:
    """A `.cuda()` call that runs after the load whenever the load runs: in a statement after the
    one holding it, in the load's own block or a block around it inside the same function (or
    at the module's level), outside any `if`/`try` (a loop's body counts: FedRep's
    `torch.zeros(...).cuda()` each round after `if args.load_fed != 'n': ... torch.load(...)`,
    scan 40). Such a script cannot run on a CPU-only machine at all, so `map_location` there
    would only move the crash."""
    tree = ctx.tree or parse_quiet(ctx.text)
    if tree is None or load.file:
        return False

    def cuda(node: ast.AST) -> bool:
        if isinstance(node, (ast.If, ast.IfExp, ast.Try, ast.Lambda, *_DEFS)):
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "cuda":
            return True
        return any(cuda(child) for child in ast.iter_child_nodes(node))

    found = False
    body: list[ast.stmt] = tree.body
    while body:
        holder = next((s for s in body if s.lineno <= load.line <= (s.end_lineno or s.lineno)), None)
        if holder is None:
            return False
        if isinstance(holder, _DEFS):
            found = False  # what runs after a function is called is not followed from here
        else:
            found = found or any(cuda(stmt) for stmt in body if stmt.lineno > (holder.end_lineno or holder.lineno))
        blocks = [b for b in _blocks(holder) if b and b[0].lineno <= load.line <= (b[-1].end_lineno or b[-1].lineno)]
        body = blocks[0] if blocks else []
    return found


def _blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists directly inside a statement (a body, an `else`, handlers, `finally`)."""
    out: list[list[ast.stmt]] = []
    for name in ("body", "orelse", "finalbody"):
        block = getattr(stmt, name, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            out.append(block)
    out += [h.body for h in getattr(stmt, "handlers", [])]
    return out


def _written_first(load: TorchLoad, loads: list[TorchLoad]) -> bool:
    """The same run has saved that file on the way to this load, while the function that loads
    was running (`save(...)` then `torch.load(...)` a few lines later, or through a helper it
    called, or the best epoch's save inside the training loop before the load after it): the
    file was written on this machine, so its devices exist here. A save in a sibling function (a
    `train()` then an `infer()`) or in the other branch (`if not exists: train and save, else:
    load`) does not count: those are often separate runs on separate machines."""
    return all(v.after_save for v in loads if v.span == load.span)


# the part of the explanation that the hover over `torch.load` repeats
_FACTS = {"device_tag": "Checkpoints remember the device each tensor was saved from"}

RULE = Rule(
    code="DG010",
    name="torch-load-without-map-location",
    severity=Severity.WARNING,
    summary="torch.load without map_location in code that also runs on CPU",
    explanation=(
        f"{_FACTS['device_tag']}. On a machine without CUDA, "
        "loading a GPU checkpoint fails with \"Attempting to deserialize object on a CUDA device but "
        "torch.cuda.is_available() is False\". Load with `map_location='cpu'` (or "
        "`map_location=device`), then move the model. A constant `map_location='cuda:0'` fails there for every "
        "file, one saved on that machine too. Reported only in scripts that check "
        "`torch.cuda.is_available()`, i.e. that are meant to run on both."
    ),
    facts=_FACTS,
    hazards=("H18",),
    reported_at='a `torch.load(...)` without `map_location` (or with a constant CUDA one: `map_location="cuda:0"`) in code that also runs on CPU',
    errors=(
        ErrorPattern(
            r"Attempting to deserialize object on a CUDA device",
            (
                "Attempting to deserialize object on a CUDA device but "
                "torch.cuda.is_available() is False."
            ),
            "hazards.md H18",
        ),
    ),
    hint=(
        "the checkpoint holds CUDA tensors; load it with torch.load(path, map_location='cpu') "
        "(or map_location=device), then move the model."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            # `.cuda()` on one path only: the other reaches the load on a CPU-only machine
            "import torch\nuse_cuda = torch.cuda.is_available()\nmodel = torch.nn.Linear(2, 2)\nif use_cuda:\n    model = model.cuda()\nstate = torch.load('ckpt.pt')  # <-\n",
            "import torch\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nstate = torch.load('model.pt')  # <-\n",
            # a save in a sibling function: training and inference are often separate runs on separate machines
            "import torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\ndef train(path):\n    model = torch.nn.Linear(2, 2).to(device)\n    torch.save(model.state_dict(), path)\ndef infer(path):\n    return torch.load(path)  # <-\ntrain('last.pt')\ninfer('last.pt')\n",
            # saved in the other branch: the load reads an earlier run's file
            "import os\nimport torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nmodel = torch.nn.Linear(2, 2).to(device)\n"
            "if not os.path.exists('vae.model'):\n    torch.save(model.state_dict(), 'vae.model')\nelse:\n    model.load_state_dict(torch.load('vae.model'))  # <-\n",
            # a file written with CUDA storage tags by a hand-made `location_tag` patch: what a GPU run writes
            "import contextlib\nimport torch\n@contextlib.contextmanager\ndef saved_on_gpu():\n    orig = torch.serialization.location_tag\n"
            "    torch.serialization.location_tag = lambda storage: 'cuda:0'\n    try:\n        yield\n    finally:\n"
            "        torch.serialization.location_tag = orig\nwith saved_on_gpu():\n    torch.save(torch.nn.Linear(2, 2).state_dict(), 'w.pt')\n"
            "state = torch.load('w.pt')  # <-\n",
            # the same patch by assignment, put back in a `finally`
            "import torch\ndef save_on_gpu(path):\n    orig = torch.serialization.location_tag\n    torch.serialization.location_tag = lambda s: 'cuda:0'\n"
            "    try:\n        torch.save(torch.nn.Linear(2, 2).state_dict(), path)\n    finally:\n        torch.serialization.location_tag = orig\n"
            "save_on_gpu('w.pt')\nstate = torch.load('w.pt')  # <-\n",
            # a file of the same name saved from an optimizer whose state's device is not known (on the GPU when there is one)
            "import os\nimport torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nmodel = torch.nn.Linear(2, 2).to(device)\n"
            "opt = torch.optim.AdamW(model.parameters())\ndef resume(src):\n    opt.load_state_dict(torch.load(os.path.join(src, 'optimizer.pt')))  # <-\n"
            "def save(out):\n    torch.save(opt.state_dict(), os.path.join(out, 'optimizer.pt'))\nresume('ckpt')\nsave('out')\n",
            # a tagger registered for every later save: it writes CUDA storage tags for CPU tensors
            "import os\nimport torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\ndef saved_on_gpu_box(d):\n"
            "    torch.serialization.register_package(0, lambda s: 'cuda:0' if s.device.type == 'cpu' else None, lambda o, loc: None)\n"
            "    torch.save(torch.nn.Linear(2, 2).state_dict(), os.path.join(d, 'enc.ckpt'))\n"
            "def main(d):\n    return torch.load(os.path.join(d, 'enc.ckpt'))  # <-\nsaved_on_gpu_box('runs')\nmain('runs')\n",
            # a loading method whose `map_location` defaults to None, called without one: the call is where it goes
            "import torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nclass Net(torch.nn.Module):\n"
            "    def load(self, path, map_location=None):\n        self.load_state_dict(torch.load(path, map_location=map_location))\n"
            "        return self.to(device)\nmodel = Net().load('vmgp.pt')  # <-\n",
            # the same through a helper whose parameter has another name (SadTalker's `load_cpk(..., device=None)`)
            "import torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\ndef load_cpk(path, model=None, device=None):\n"
            "    model.load_state_dict(torch.load(path, map_location=device))\nnet = torch.nn.Linear(2, 2)\n"
            "load_cpk('exp.pth', model=net, device=device)\nload_cpk('pose.pth', model=net)  # <-\n",
            # a CUDA map location written as a constant, in a script with a CPU branch (AtlasNet, scan 28):
            # on a CPU-only machine it fails even for the file this run saved
            "import torch\ndevice = torch.device('cuda:0') if torch.cuda.is_available() else torch.device('cpu')\n"
            "model = torch.nn.Linear(2, 2).to(device)\ntorch.save(model.state_dict(), 'network.pth')\n"
            "model.load_state_dict(torch.load('network.pth', map_location='cuda:0'))  # <-\n",
        ],
        good=[
            # reached only after an unconditional `.cuda()`: a run without a GPU stops before the load
            "import torch\nuse_cuda = torch.cuda.is_available()\nmodel = torch.nn.Linear(2, 2).cuda()\nstate = torch.load('ckpt.pt')\n",
            "import torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\ndef load(path, device={'cuda:0': 'cpu'}):\n    return torch.load(path, device)\n",
            # the same method given one by its caller
            "import torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nclass Net(torch.nn.Module):\n"
            "    def load(self, path, map_location=None):\n        self.load_state_dict(torch.load(path, map_location=map_location))\n"
            "        return self.to(device)\nmodel = Net().load('vmgp.pt', map_location=device)\n",
            "import os\nimport tempfile\nimport torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\ncache = os.path.join(tempfile.gettempdir(), 'vectors.pt')\nif os.path.isfile(cache):\n    vectors = torch.load(cache)\nelse:\n    vectors = torch.zeros(10, 4, device='cpu')\n    torch.save(vectors, cache)\n",
            "import torch\ndef load_checkpoint(path, **kwargs):\n    return torch.load(path, **kwargs)\nif torch.cuda.is_available():\n    state = load_checkpoint('ckpt.pt', map_location='cuda')\n",
            "import torch\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nstate = torch.load('model.pt', map_location=device)\n",
            "import torch\nstate = torch.load('model.pt')\n",
            # a context manager of the script's own that does not touch `location_tag`
            "import contextlib\nimport torch\n@contextlib.contextmanager\ndef quiet():\n    yield\nwith quiet():\n    torch.save(torch.nn.Linear(2, 2).state_dict(), 'w.pt')\nstate = torch.load('w.pt')\n",
            # reloaded in the run that wrote it, by the function that had it written: its devices exist here
            # the file (matched by its name) is written by this script from tensors it moved to the CPU
            "import os\nimport torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\ndef convert(model, path):\n"
            "    model.to(device='cpu')\n    torch.save(model.state_dict(), path)\ndef load(model, ckpt):\n"
            "    model.load_state_dict(torch.load(ckpt, mmap=True))\ndef main(d):\n    model = torch.nn.Linear(2, 2)\n"
            "    path = os.path.join(d, 'lit_model.pth')\n    convert(model, path)\n    load(model, path)\n    model.to(device)\nmain('out')\n",
            "import os\nimport torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\ndef save(model, out, step):\n    torch.save(model.state_dict(), os.path.join(out, f'{step}_lora.pt'))\ndef main(out):\n    model = torch.nn.Linear(2, 2).to(device)\n    save(model, out, 10)\n    state = torch.load(os.path.join(out, f'{10}_lora.pt'))\nmain('runs')\n",
            # a CUDA map location only where CUDA is available, or after a run without one stopped
            "import torch\nif torch.cuda.is_available():\n    state = torch.load('ckpt.pt', map_location='cuda')\nelse:\n    state = torch.load('ckpt.pt', map_location='cpu')\n",
            "import torch\nuse_cuda = torch.cuda.is_available()\nif not use_cuda:\n    raise SystemExit('needs a GPU')\nstate = torch.load('x.pt', map_location='cuda')\n",
        ],
    ),
)
