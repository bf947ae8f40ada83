"""DG017: a bf16/fp16 activation from inside autocast fed to a float32 layer outside it (H21)."""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.findings import Finding, FixSpec, Related, RuleExamples, Severity
from dtypeguard.rules.base import (
    Context,
    ErrorPattern,
    Rule,
    fails_here,
    layer_dtype_error,
    single_tensor_at,
    tensor,
)


def check(ctx: Context) -> Iterator[Finding]:
    seen = set()
    for fw in ctx.events.forwards:
        if fw.autocast or not fw.inputs or fw.module.input_kind != "float" or fw.span in seen:
            continue
        x = tensor(fw.inputs[0])
        if x is None or not x.autocast or x.dtype not in ("bfloat16", "float16") or fw.module.dtype != "float32":
            continue
        if fw.nested and x.origin is None:
            continue  # the outer call's input, reported there
        seen.add(fw.span)  # (a layer inside a forward: `@torch.autocast` on a submodule's forward leaks to the next layer)
        error = layer_dtype_error(fw.module.first_layer, x.dtype, "float32")
        if error is None:
            continue  # a float32 norm takes it in its own dtype; which later layer refuses it is not known here
        use = fw.arg_spans[0] if fw.arg_spans else None
        # reported where the activation is made inside autocast (where `.float()` or a wider
        # block goes), with the layer that fails as related information
        made = x.origin.span if x.origin is not None and x.origin.span.file == fw.span.file and "autocast" in x.origin.why else None
        root = made or fw.span
        related = fails_here(root, fw.span, error) if made else [Related(x.origin.span, "produced inside autocast here")] if x.origin else []
        yield RULE.finding(
            f"this {x.dtype} activation is produced inside `torch.autocast` and reaches a float32 layer outside it"
            f"{f' ({fw.span.line_ref()})' if made and made != fw.span else ''}: \"{error}\"",
            root,
            related=related,
            fixes=[
                # where it is made: every use outside the block (`projector(h1)`, `projector(h2)`) gets float32
                *([FixSpec("append_call", "Convert back where it is made: `.float()` (its uses outside autocast get float32)", made, True,
                           (("method", "float"),))] if made and made != fw.span and single_tensor_at(ctx, made) else []),
                *([FixSpec("append_call", "Convert back: `.float()`", use, True, (("method", "float"),))] if use else []),
            ],
        )


# parts of the explanation that the hover over `torch.autocast` repeats
_FACTS = {
    "scope": "Autocast changes the dtype of op outputs, not of parameters, and only inside the "
    "`with` block.",
    "leak": "Tensors that leave the block in bf16/fp16 fail in float32 layers called outside it",
}

RULE = Rule(
    code="DG017",
    name="autocast-output-leaks",
    severity=Severity.ERROR,
    summary="autocast activation fed to a float32 layer outside autocast",
    explanation=(
        f"{_FACTS['scope']} {_FACTS['leak']} "
        "(\"mat1 and mat2 must have the same dtype, but got BFloat16 and Float\"). Run the whole "
        "forward inside autocast, or `.float()` the activation. Computing the loss outside autocast "
        "is fine: elementwise losses promote."
    ),
    facts=_FACTS,
    hazards=("H21",),
    reported_at=(
        "where the bf16/fp16 activation is made inside `torch.autocast` (where `.float()` or a wider block goes), "
        "when that is in the same file; related information at the float32 layer called outside the block that fails"
    ),
    errors=(
        ErrorPattern(
            r"must have the same dtype, but got (?:BFloat16|Half) and Float",
            "mat1 and mat2 must have the same dtype, but got BFloat16 and Float",
            "hazards.md H21",
            source_contains="autocast",
        ),
        ErrorPattern(
            r"Input type \((?:c10::BFloat16|c10::Half|BFloat16|Half)\) and bias type \(float\)",
            "Input type (c10::BFloat16) and bias type (float) should be the same",
            "tests/verify/test_verify_explain.py",
            source_contains="autocast",
        ),
    ),
    hint=(
        "a bfloat16/float16 activation produced inside torch.autocast reached a float32 layer "
        "outside it; run the whole forward inside autocast, or .float() the activation."
    ),
    check=check,
    examples=RuleExamples(
        bad=["import torch\nfrom torch import nn\nenc = nn.Linear(4, 8)\nhead = nn.Linear(8, 1)\nwith torch.autocast('cpu', dtype=torch.bfloat16):\n    h = enc(torch.randn(2, 4))  # <-\nout = head(h)\n"],
        good=[
            "import torch\nfrom torch import nn\nenc = nn.Linear(4, 8)\nhead = nn.Linear(8, 1)\nwith torch.autocast('cpu', dtype=torch.bfloat16):\n    h = enc(torch.randn(2, 4))\n    out = head(h)\n",
            "import torch\nfrom torch import nn\nenc = nn.Linear(4, 8)\nwith torch.autocast('cpu', dtype=torch.bfloat16):\n    h = enc(torch.randn(2, 4))\nloss = nn.MSELoss()(h, torch.randn(2, 8))\n",
        ],
    ),
)
