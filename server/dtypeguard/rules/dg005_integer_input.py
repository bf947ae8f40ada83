"""DG005: integer tensors into float layers, or float indices into an Embedding (H11)."""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.engine.call_effects import HISTC_INT, MATMUL
from dtypeguard.engine.values import Tensor, is_float, is_int
from dtypeguard.findings import Finding, FixSpec, Related, RuleExamples, Severity, Span
from dtypeguard.rules import refused
from dtypeguard.rules.base import (
    TORCH_NAMES,
    Context,
    ErrorPattern,
    Rule,
    convert_fix,
    dtype_root,
    dtype_words,
    fails_here,
    layer_dtype_error,
    tensor,
)

# C++ and ScalarType names torch's matmul errors use (tests/engine/test_rule_numbers.py makes
# the real errors on 0-row tensors and compares): the shared table, without bool (not a matmul operand here)
CPP_NAMES = {dtype: cpp for dtype, (_, cpp) in TORCH_NAMES.items() if dtype != "bool"}
SCALAR_NAMES = {dtype: scalar for dtype, (scalar, _) in TORCH_NAMES.items()}


def matmul_error(op: str, a: str, b: str) -> str | None:
    """What `torch.<op>` of an `a` and a `b` tensor raises on CPU (None: not one we know)."""
    if op in ("mm", "matmul", "@"):
        return f"expected m1 and m2 to have the same dtype, but got: {CPP_NAMES[a]} != {CPP_NAMES[b]}"
    if op == "bmm":
        return f"expected scalar type {SCALAR_NAMES[a]} but found {SCALAR_NAMES[b]}"
    return None


def _matmuls(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """`torch.matmul(weights, self.n_)` where one operand is an integer tensor (a
    `torch.arange` buffer): matmuls do not promote, so it raises."""
    for op in ctx.events.ops:
        name = op.name.rsplit(".", 1)[-1]
        if op.autocast or name not in MATMUL or len(op.inputs) != 2:
            continue
        a, b = tensor(op.inputs[0]), tensor(op.inputs[1])
        if a is None or b is None or a.dtype not in CPP_NAMES or b.dtype not in CPP_NAMES:
            continue
        if not ((is_float(a.dtype) and is_int(b.dtype)) or (is_int(a.dtype) and is_float(b.dtype))):
            continue
        error = matmul_error(name, a.dtype or "", b.dtype or "")
        if error is None:
            continue
        odd, other = (b, a) if is_int(b.dtype) else (a, b)
        root = dtype_root(odd, op.span)
        if root in seen:
            continue
        seen.add(root)
        related = fails_here(root, op.span, error)
        if odd.origin is not None and odd.origin.span != root:
            related.append(Related(odd.origin.span, f"it becomes {odd.dtype} here: {odd.origin.why}"))
        yield RULE.finding(
            f"this tensor is {dtype_words(odd.dtype)} but `{op.name}` at {op.span.line_ref()} multiplies it with "
            f"{dtype_words(other.dtype)}: matmuls do not promote, so it fails with \"{error}\"",
            root,
            related=related,
            fixes=convert_fix(ctx, odd, None, other.dtype or "float32", f"matches the other operand's {other.dtype}") or _at_creation(ctx, odd, other.dtype),
        )


def _at_creation(ctx: Context, odd: Tensor, dtype: str | None, why: str = "") -> list[FixSpec]:
    """`torch.arange(...)` made the integer operand (or `torch.Tensor(ids)` the float index): convert right there."""
    method = {"float32": "float", "float64": "double", "int64": "long"}.get(dtype or "")
    if method is None or odd.origin is None or not ctx.snippet(odd.origin.span).startswith("torch."):
        return []
    reason = why or f"matches the other operand's {dtype}"
    return [FixSpec("append_call", f"Convert where it is created: `.{method}()` ({reason})", odd.origin.span, True, (("method", method),))]


INDEX_ERROR = "tensors used as indices must be long, int, byte or bool tensors"


def _indexing(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """`self.ent_embeds[s]` with `s` a float (or int8/int16) tensor: torch refuses it as an
    index (the interpreter records such subscripts as `[]` ops)."""
    made: set[Span] = set()  # the first index made from a tensor fails; nothing after it runs
    for op in ctx.events.ops:
        if op.name != "[]" or len(op.inputs) != 2:
            continue
        idx = tensor(op.inputs[1])
        if idx is None or idx.dtype is None:
            continue
        root = dtype_root(idx, op.span, buffer=True)
        if root in seen or (idx.origin is not None and idx.origin.span in made):
            continue
        seen.add(root)
        if idx.origin is not None:
            made.add(idx.origin.span)
        related = fails_here(root, op.span, INDEX_ERROR)
        if idx.origin is not None and idx.origin.span != root:
            related.append(Related(idx.origin.span, f"the index becomes {idx.dtype} here: {idx.origin.why}"))
        yield RULE.finding(
            f"this tensor is {dtype_words(idx.dtype)} but is used as an index at {op.span.line_ref()}: it fails with \"{INDEX_ERROR}\"",
            root,
            related=related,
            fixes=convert_fix(ctx, idx, None, "int64", "indices must be integers") or _at_creation(ctx, idx, "int64", "indices must be integers"),
        )


# what an Embedding says of indices that are not Long or Int, by dtype (on CPU; checked against
# torch by tests/engine/test_rule_numbers.py)
EMBEDDING_GOT = {
    "float64": "torch.DoubleTensor", "float32": "torch.FloatTensor", "float16": "torch.HalfTensor", "bfloat16": "CPUBFloat16Type",
    "uint8": "torch.ByteTensor", "int8": "torch.CharTensor", "int16": "torch.ShortTensor",
}  # (bool indices: an EmbeddingBag fails otherwise, not claimed)


def embedding_error(dtype: str) -> str:
    return f"Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got {EMBEDDING_GOT[dtype]} instead"


def _histc(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """`torch.histc` of an integer tensor on the CPU: no kernel for integers (`.float()` first).
    Rooted where the tensor became integral (tt-xla's `expert_ids.int()`), related: the call."""
    for op in ctx.events.ops:
        if op.name != HISTC_INT or not op.inputs or not isinstance(op.inputs[0], Tensor) or op.inputs[0].dtype is None:
            continue
        t = op.inputs[0]
        name = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}.get(t.dtype or "", t.dtype or "")
        error = f"\"histogram_cpu\" not implemented for '{name}'"
        root = t.origin.span if t.origin is not None and not t.origin.span.file else op.span
        if root in seen:
            continue
        seen.add(root)
        yield RULE.finding(
            f"this tensor is {t.dtype}, and `torch.histc` has no integer kernel on the CPU: it fails with {error} "
            "(give it a float tensor: `.float()`)",
            root,
            related=fails_here(root, op.span, error),
        )


def check(ctx: Context) -> Iterator[Finding]:
    seen: set[Span] = set()  # one finding per root cause: an inner layer sees the same input
    yield from _matmuls(ctx, seen)
    yield from _indexing(ctx, seen)
    yield from _histc(ctx, seen)
    yield from _refused(ctx, seen)
    for fw in ctx.events.forwards:
        module = fw.module
        if module.index_after_float is not None and module.origin.span not in seen:
            seen.add(module.origin.span)
            error = "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead"
            yield RULE.finding(
                f"this Sequential feeds the float output of one layer to an Embedding as its indices: the forward pass at {fw.span.line_ref()} fails with \"{error}\" "
                "(embed each column separately and concatenate the vectors)",
                module.origin.span,
                related=[*fails_here(module.origin.span, fw.span, error), Related(module.index_after_float, "this Embedding receives float vectors, not indices")],
            )
            continue
        if not fw.inputs or module.dtype is None:
            continue
        x = tensor(fw.inputs[0])
        if x is None or x.dtype is None:
            continue
        use = fw.arg_spans[0] if fw.arg_spans else None
        related = [Related(x.origin.span, f"the input becomes {x.dtype} here: {x.origin.why}")] if x.origin else []
        if module.input_kind == "float" and is_int(x.dtype) and not (x.dtype == "uint8" and module.first_layer == "conv") and is_float(module.dtype):
            said = layer_dtype_error(module.first_layer, x.dtype, module.dtype)
            root = dtype_root(x, fw.span, buffer=True)
            if root in seen or (fw.nested and root == fw.span):
                continue
            seen.add(root)
            fails = f"fails with \"{said}\"" if said else "fails: the layer needs floating-point input"
            yield RULE.finding(
                f"integer input ({dtype_words(x.dtype)}) reaches a {module.dtype} layer: the forward pass at {fw.span.line_ref()} {fails}",
                root,
                related=[*fails_here(root, fw.span, said or "the layer needs floating-point input"), *related],
                fixes=convert_fix(ctx, x, use, module.dtype, "features must be floating point"),
            )
        elif module.input_kind == "index" and x.dtype in EMBEDDING_GOT:
            error = embedding_error(x.dtype)
            root = dtype_root(x, fw.span, buffer=True)
            if root in seen or (fw.nested and root == fw.span):
                continue
            seen.add(root)
            yield RULE.finding(
                f"an Embedding needs integer indices but gets {dtype_words(x.dtype)}: the forward pass at {fw.span.line_ref()} fails with \"{error}\"",
                root,
                related=[*fails_here(root, fw.span, error), *related],
                fixes=convert_fix(ctx, x, use, "int64", "embedding indices must be integers"),
            )


# integer dtypes as torch names them in error messages (verify maps these errors to DG005)
_INT = r"(?:Long|Int|Short|Char|Byte|Bool)"
_INT_C = r"(?:long int|int|short int|signed char|bool)"



def _refused(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """An operation torch refuses for this tensor's dtype (rules/refused.py)."""
    for r in refused.refusals_for(ctx, "DG005", seen):
        yield RULE.finding(
            f"this tensor is {r.operand.dtype}, and {refused.words(r.key)} at {r.span.line_ref()} refuses it: "
            f"it fails with \"{r.error.split(': ', 1)[-1]}\" ({r.advice})",
            r.root,
            related=r.related,
            fixes=r.fixes,
        )

RULE = Rule(
    code="DG005",
    name="integer-input-to-float-layer",
    severity=Severity.ERROR,
    summary="integer input into a float layer, or float indices into an Embedding",
    explanation=(
        "Integer feature tensors (e.g. from `torch.tensor([[1, 2, 3]])`, `torch.arange(n)` or an "
        "integer CSV column) cannot go into float layers: \"mat1 and mat2 must have the same dtype, "
        "but got Long and Float\". Convert features with `.float()`. Embedding is the opposite: it "
        "needs integer (Long/Int) indices, so convert with `.long()`."
    ),
    hazards=("H11",),
    reported_at=(
        'where the integer input (or the float indices for `nn.Embedding`) was made a tensor or cast; related '
        'information at the forward call that fails; likewise for an integer tensor given to an operation that only '
        'computes in floating point (`.mean()`, `softmax`, `norm`; `randn_like` at the call, which takes `dtype=`)'
    ),
    errors=(
        ErrorPattern(
            r"mean\(\): could not infer output dtype\. Input dtype must be either a floating point or complex dtype",
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long",
            "tests/realworld51/broken/at02_pyg_ogbn_products_gat_int_final_test_acc_mean.py",
            hint="mean() of an integer tensor: give it floats (`.float()`), or `mean(dtype=torch.float32)`.",
        ),
        ErrorPattern(
            r"\"(?:normal_kernel_cpu|check_uniform_bounds)\" not implemented for '(?:Long|Int|Short|Char|Byte|Bool)'",
            "\"normal_kernel_cpu\" not implemented for 'Long'",
            "tests/realworld51/broken/at03_thermostat_lime_randn_like_long_input_ids.py",
            hint="random numbers like an integer tensor: pass `dtype=torch.float` to `randn_like`/`rand_like`.",
        ),
        ErrorPattern(
            rf"must have the same dtype, but got {_INT} and \w+",
            "mat1 and mat2 must have the same dtype, but got Long and Float",
            "hazards.md H11",
        ),
        ErrorPattern(
            rf"expected m1 and m2 to have the same dtype, but got: {_INT_C} !=",
            "expected m1 and m2 to have the same dtype, but got: long int != float",
            "tests/verify/test_verify_explain.py",
        ),
        ErrorPattern(
            rf"expected scalar type {_INT} but found",
            "expected scalar type Long but found Float",
            "tests/verify/test_verify_explain.py",
        ),
        ErrorPattern(
            rf"Input type \({_INT_C}\) and bias type",
            "Input type (long int) and bias type (float) should be the same",
            "tests/verify/test_verify_explain.py",
        ),
        ErrorPattern(
            r"tensors used as indices must be long, int, byte or bool tensors",
            "tensors used as indices must be long, int, byte or bool tensors",
            "tests/engine/test_rule_numbers.py",
        ),
        ErrorPattern(
            r"Expected tensor for argument #1 'indices' to have one of the following scalar types",
            (
                "Expected tensor for argument #1 'indices' to have one of the following scalar "
                "types: Long, Int; but got torch.FloatTensor instead (while checking arguments "
                "for embedding)"
            ),
            "hazards.md H11",
        ),
    ),
    hint=(
        "an integer tensor went into a float layer; convert features with .float() (embedding "
        "indices are the opposite: they must be .long())."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            'import torch\nfrom torch import nn\nseq = nn.Sequential(  # <-\n    nn.Embedding(4, 8),\n    nn.Embedding(4, 8),\n)\nseq(torch.randint(0, 4, (2, 3)))\n',
            "import torch\nimport torch.nn as nn\nx = torch.tensor([[1, 2, 3]])  # <-\nnn.Linear(3, 1)(x)\n",
            "import torch\nfrom torch import nn\nemb = nn.Embedding(10, 4)\nidx = torch.rand(5) * 10  # <-\nemb(idx)\n",
            "import numpy as np\nimport torch\nfrom torch import nn\nlabels = np.random.randint(0, 5, size=(8, 4))\nlayer = nn.Linear(4, 2)\nlayer(torch.from_numpy(labels))  # <-\n",
            "import torch\nn = torch.arange(-4, 5).unsqueeze(0)  # <-\nw = torch.rand(8, 1)\ny = torch.matmul(w, n)\n",
            "import torch\ntable = torch.randn(10, 4)\nids = torch.Tensor([1, 2, 3])  # <-\nrows = table[ids]\n",
            "import torch\nfrom torch import nn\nemb = nn.Embedding(30, 4)\nids = torch.tensor([1, 2, 3], dtype=torch.uint8)  # <-\nemb(ids)\n",
            "import torch\naccs = torch.tensor([1, 0, 1])  # <-\nprint(accs.mean())\n",
        ],
        good=[
            'import torch\nfrom torch import nn\nseq = nn.Sequential(nn.Embedding(4, 8), nn.Flatten(), nn.Linear(24, 1))\nseq(torch.randint(0, 4, (2, 3)))\n',
            "import math\nimport torch\nfrom torch import nn\nclass PosEmb(nn.Module):\n    def __init__(self, dim):\n        super().__init__()\n        self.dim = dim\n    def forward(self, t):\n        freqs = torch.exp(torch.arange(self.dim // 2) * -math.log(10000.0))\n        emb = t[:, None] * freqs[None, :]\n        return torch.cat((emb.sin(), emb.cos()), dim=-1)\ntime_mlp = nn.Sequential(PosEmb(16), nn.Linear(16, 64), nn.GELU())\nt = torch.randint(0, 1000, (4,)).long()\ntime_mlp(t)\n",
            "import torch\nimport torch.nn as nn\nx = torch.tensor([[1, 2, 3]]).float()\nnn.Linear(3, 1)(x)\n",
            "import torch\nn = torch.arange(-4, 5).unsqueeze(0).float()\nw = torch.rand(8, 1)\ny = torch.matmul(w, n)\n",
            "import torch\nfrom torch import nn\nemb = nn.Embedding(10, 4)\nemb(torch.randint(0, 10, (5,)))\n",
            "import torch\ntable = torch.randn(10, 4)\nids = torch.Tensor([1, 2, 3])\nrows = table[ids.long()]\nkept = table[table[:, 0] > 0]\nsome = table[torch.tensor([1, 2], dtype=torch.int32), 1:]\nlookup = {ids: 1}[ids]\n",
            "import torch\nfrom torch import nn\nemb = nn.Embedding(30, 4)\nemb(torch.tensor([1, 2, 3], dtype=torch.int32))\n",
            "import torch\nfrom torch import nn\nmodel = nn.Sequential(nn.Embedding(10, 4), nn.Flatten(), nn.Linear(8, 1))\nmodel(torch.tensor([[1, 2]]))\n",
        ],
    ),
)
