"""DG006: class-index targets of cross_entropy / NLLLoss that are float or int32 (H09)."""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.engine.call_effects import INDEX_METHODS, ONE_HOT
from dtypeguard.engine.events import LossCall
from dtypeguard.engine.values import WIDE, Tensor, is_float
from dtypeguard.findings import Finding, Related, RuleExamples, Severity, Span
from dtypeguard.rules.base import (
    Context,
    ErrorPattern,
    Rule,
    convert_fix,
    dtype_root,
    dtype_words,
    fails_here,
    tensor,
)

_WORD = {
    "float32": "Float", "float64": "Double", "int32": "Int", "int16": "Short", "float16": "Half", "bfloat16": "BFloat16", "bool": "Bool",
    "int64": "Long", "uint8": "Byte", "int8": "Char",
}


def check(ctx: Context) -> Iterator[Finding]:
    yield from _targets(ctx)
    yield from _weights(ctx)
    yield from _index_ops(ctx)


def _index_ops(ctx: Context) -> Iterator[Finding]:
    """Labels used as the index of `scatter_`/`gather`/`index_select` (a hand-written one-hot or
    loss) must be int64 or int32; float labels fail there."""
    seen: set[Span] = set()
    for op in ctx.events.ops:
        method = op.name.removeprefix("torch")[1:-2] if op.name.startswith((".", "torch.")) and op.name.endswith("()") else ""
        if op.name == ONE_HOT and op.inputs:
            index = tensor(op.inputs[0])  # (recorded only when it is not int64)
            error = "one_hot is only applicable to index tensor of type LongTensor."
        elif method not in INDEX_METHODS or not op.inputs:
            continue
        else:
            index = tensor(op.inputs[0])
            if index is None or index.dtype is None or not (is_float(index.dtype) or index.dtype == "bool"):
                continue
            base = method.rstrip("_")
            kernel = "scatter" if base.startswith("scatter") else base
            error = f"{kernel}(): Expected dtype int32 or int64 for index" if base in ("index_select", "index_add", "index_copy", "index_fill") else f"{kernel}(): Expected dtype int32/int64 for index"
        if index is None or index.dtype is None:
            continue
        root = dtype_root(index, op.span, prefer_cast=True)
        if root in seen:
            continue  # the same index fails first at its first use: nothing after it runs
        seen.add(root)
        related = fails_here(root, op.span, error)
        if index.origin is not None and index.origin.span != root:
            related.append(Related(index.origin.span, f"the index becomes {index.dtype} here: {index.origin.why}"))
        yield RULE.finding(
            f"the {'class indices given to `F.one_hot`' if op.name == ONE_HOT else f'index of `{op.name}`'} {'are' if op.name == ONE_HOT else 'is'} {dtype_words(index.dtype)}: "
            f"it fails at {op.span.line_ref()} with \"{error}\"",
            root,
            related=related,
            fixes=convert_fix(ctx, index, op.arg_spans[0] if op.arg_spans else None, "int64", "an index must be int64"),
        )


def _targets(ctx: Context) -> Iterator[Finding]:
    for loss in ctx.events.losses:
        if loss.kind != "class":
            continue
        if isinstance(loss.target, Tensor) and loss.target.kind == "pyint":
            yield RULE.finding(
                f"the target is a Python int, not a tensor: {loss.name} fails with \"argument 'target' (position 2) "
                "must be Tensor, not int\" (iterating a Dataset directly yields single, uncollated labels; "
                "iterate a DataLoader, which batches them into an int64 tensor)",
                loss.span,
            )
            continue
        target = tensor(loss.target)
        output = tensor(loss.output)
        if (
            target is not None and target.dtype and target.dtype != WIDE and not is_float(target.dtype) and target.dtype != "bool"
            and "entropy" in loss.name.lower() and output is not None and output.ndim is not None and target.ndim == output.ndim
            and output.ndim >= 2
        ):
            yield _probability_ints(ctx, loss, target, output)
            continue
        if target is None or target.dtype in (None, "int64", "uint8", WIDE):  # WIDE may be int64: fine
            continue
        if target.dtype.startswith(("float", "bfloat")):
            # float targets are valid class *probabilities* when shaped like the logits; we only
            # know it is wrong when the target came out of an integer label source
            if not _looks_like_labels(target, tensor(loss.output)):
                continue
        related = [Related(target.origin.span, f"the target becomes {target.dtype} here: {target.origin.why}")] if target.origin else []
        error = f"expected target dtype to be Long or Byte, but got {_WORD.get(target.dtype, target.dtype)}"
        root = dtype_root(target, loss.span, prefer_cast=True, float_data=is_float(target.dtype))
        yield RULE.finding(
            f"class-index targets are {dtype_words(target.dtype)}: {loss.name} at {loss.span.line_ref()} fails with \"{error}\"",
            root,
            related=[*fails_here(root, loss.span, error), *related],
            fixes=convert_fix(ctx, target, loss.target_span, "int64", "class indices must be int64"),
        )


def _probability_ints(ctx: Context, loss: LossCall, target: Tensor, output: Tensor) -> Finding:
    """Integer targets shaped like the logits (one-hot or multi-hot rows): cross-entropy reads a
    target of the input's rank as class probabilities, which must be floating point."""
    error = f"Expected floating point type for target with class probabilities, got {_WORD.get(target.dtype or '', target.dtype)}"
    related = [Related(target.origin.span, f"the target becomes {target.dtype} here: {target.origin.why}")] if target.origin else []
    root = dtype_root(target, loss.span, prefer_cast=True)
    want = output.dtype if is_float(output.dtype) else "float32"
    return RULE.finding(
        f"these targets are {dtype_words(target.dtype)} with the logits' {output.ndim} dimensions, so {loss.name} at line "
        f"{loss.span.line} reads them as class probabilities and fails with \"{error}\" (one-hot rows: convert them with "
        "`.float()`, or pass class indices with `.argmax(1)`)",
        root,
        related=[*fails_here(root, loss.span, error), *related],
        fixes=convert_fix(ctx, target, loss.target_span, want or "float32", "class probabilities must be floating point"),
    )


def _weights(ctx: Context) -> Iterator[Finding]:
    """A class weight of another dtype than the predictions: a float64 NumPy weight, or integer
    counts (`counts.max() // counts`, set 75), which the loss refuses as well."""
    for loss in ctx.events.losses:
        out, weight = tensor(loss.output), tensor(loss.weight)
        if loss.kind != "class" or out is None or weight is None or loss.weight_at is None or loss.autocast:
            continue
        if not is_float(out.dtype) or weight.dtype is None or weight.dtype == WIDE or out.dtype == weight.dtype:
            continue
        error = f"expected scalar type {_WORD.get(out.dtype or '', out.dtype)} but found {_WORD.get(weight.dtype or '', weight.dtype)}"
        root = dtype_root(weight, loss.weight_at)
        related = fails_here(root, loss.span, error)
        if weight.origin is not None and weight.origin.span != root:
            related.append(Related(weight.origin.span, f"the weight becomes {weight.dtype} here: {weight.origin.why}"))
        yield RULE.finding(
            f"the class weights are {dtype_words(weight.dtype)} but the predictions are {dtype_words(out.dtype)}: "
            f"{loss.name} at {loss.span.line_ref()} fails with \"{error}\"",
            root,
            related=related,
            fixes=convert_fix(ctx, weight, None, out.dtype or "float32", "class weights must match the predictions"),
        )


def _looks_like_labels(target: Tensor, output: Tensor | None) -> bool:
    """Float targets are class probabilities when shaped like the logits. They are class
    indices when they came from integers (`randint(...).float()`), or when they have one
    dimension less than the logits (torch's test for class indices: a 1-D target for 2-D
    logits, (N, H, W) for (N, C, H, W)), or are a DataLoader batch of one number per sample."""
    if target.one_hot:
        return False
    if output is not None and output.ndim is not None and target.ndim == output.ndim:
        return False  # shaped like the logits: probabilities (one-hot rows made float), whatever they came from
    if target.from_ints:
        return True
    per_sample = target.ndim == 1 and target.collated
    # one dimension less than the logits ((N, H, W) for (N, C, H, W)): class indices, torch's own rule
    return per_sample or (output is not None and output.ndim is not None and output.ndim >= 2 and target.ndim == output.ndim - 1)


RULE = Rule(
    code="DG006",
    name="class-target-dtype",
    severity=Severity.ERROR,
    summary="cross_entropy / NLLLoss class targets must be int64",
    explanation=(
        "For class-index targets, CrossEntropyLoss/NLLLoss need an int64 (or uint8) tensor of shape "
        "(N,); float or int32 labels fail with \"expected target dtype to be Long or Byte, but got "
        "Float\" (or \"Int\"); a single Python int label (iterating a Dataset instead of a DataLoader) "
        "fails with \"must be Tensor, not int\". Float targets are only valid as class probabilities with the same "
        "shape as the logits. Convert labels with `.long()`."
    ),
    hazards=("H09",),
    reported_at=(
        'where the class-index target became float or int32 (its creation or cast); related information at '
        'the `cross_entropy`/`NLLLoss` call that fails'
    ),
    errors=(
        ErrorPattern(
            r"expected target dtype to be Long or Byte",
            "expected target dtype to be Long or Byte, but got Float",
            "hazards.md H09",
        ),
        ErrorPattern(
            r"Expected floating point type for target with class probabilities",
            "Expected floating point type for target with class probabilities, got Long",
            "tests/realworld3/broken/f07_deepethogram_long_multilabel_ce.py",
            hint=(
                "the target has the logits' shape, so CrossEntropyLoss reads it as class "
                "probabilities, which must be float; pass class indices (target.argmax(1), "
                "int64 of shape (N,)) or a float one-hot (target.float())."
            ),
        ),
        ErrorPattern(
            r"argument 'target' \(position 2\) must be Tensor, not int",
            "cross_entropy_loss(): argument 'target' (position 2) must be Tensor, not int",
            "tests/verify/test_verify_explain.py",
            traceback_contains="cross_entropy",
        ),
        ErrorPattern(
            r"argument 'target' \(position 2\) must be Tensor, not int",
            "nll_loss_nd(): argument 'target' (position 2) must be Tensor, not int",
            "tests/verify/test_verify_explain.py",
            traceback_contains="nll_loss",
        ),
    ),
    hint=(
        "class-index targets for CrossEntropyLoss/NLLLoss must be int64 (or uint8) of shape "
        "(N,); use target.long()."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            # a segmentation mask cast to float like the image, then one-hot encoded (a Dice loss in multiclass mode)
            "import numpy as np\nimport torch\nimport torch.nn.functional as F\nmask = np.random.randint(0, 4, size=(2, 8, 8))\n"
            "y = torch.from_numpy(mask.astype('float32'))  # <-\noh = F.one_hot(y.view(2, -1), 4)\n",
            # one-hot int64 rows shaped like the logits: read as class probabilities, which must be float
            "import numpy as np\nimport torch\nfrom torch import nn\nmodel = nn.Linear(3, 4)\ny = torch.from_numpy(np.eye(4, dtype=np.int64)[np.random.randint(0, 4, 8)])  # <-\nloss = nn.CrossEntropyLoss()(model(torch.randn(8, 3)), y)\n",
            'import numpy as np\nimport torch\nmasks = np.random.randint(0, 4, size=(8, 16, 16))\nlabels = torch.from_numpy(masks).float()  # <-\npred = torch.rand(8, 4, 16, 16).softmax(1)\none_hot = torch.zeros_like(pred)\none_hot.scatter_(1, labels.unsqueeze(1), 1)\n',
            "import numpy as np\nimport torch\nfrom torch import nn\nfrom torch.utils.data import DataLoader, Dataset\nclass Ratings(Dataset):\n    def __init__(self):\n        self.x = np.random.rand(16, 4).astype(np.float32)\n        self.y = np.array([1.0, 0.0, 2.0, 1.0] * 4)  # <-\n    def __len__(self):\n        return 16\n    def __getitem__(self, i):\n        return self.x[i], self.y[i]\nmodel = nn.Linear(4, 3)\nfor x, y in DataLoader(Ratings(), batch_size=4):\n    nn.CrossEntropyLoss()(model(x), y)\n",
            "import numpy as np\nimport torch\nfrom torch import nn\nfrom torch.utils.data import DataLoader, TensorDataset\ny = np.random.randint(0, 3, 16).astype(np.int32)  # <-\nds = TensorDataset(torch.randn(16, 4), torch.from_numpy(y))\nloaders = {'train': DataLoader(ds, batch_size=4), 'val': DataLoader(ds, batch_size=4)}\nmodel = nn.Linear(4, 3)\ncriterion = nn.CrossEntropyLoss()\nfor phase in ['train', 'val']:\n    for x, labels in loaders[phase]:\n        loss = criterion(model(x), labels)\n",
            "import numpy as np\nimport torch\nfrom torch import nn\ncounts = np.array([50, 30, 20])\nw = torch.from_numpy(100.0 / counts)  # <-\nmodel = nn.Linear(4, 3)\nnn.CrossEntropyLoss(weight=w)(model(torch.randn(8, 4)), torch.randint(0, 3, (8,)))\n",
            "import torch\nimport torch.nn.functional as F\nlogits = torch.randn(4, 3)\nlabels = torch.tensor([0, 1, 2, 1], dtype=torch.int32)  # <-\nF.cross_entropy(logits, labels)\n",
            "import torch\nimport torch.nn.functional as F\nfrom torch.utils.data import Dataset\n\nclass Digits(Dataset):\n    def __len__(self):\n        return 4\n\n    def __getitem__(self, i):\n        return torch.randn(3), int(i % 2)\n\nmodel = torch.nn.Linear(3, 2)\nfor x, y in Digits():\n    loss = F.cross_entropy(model(x), y)  # <-\n",
            "import torch\nfrom torch import nn\ncrit = nn.CrossEntropyLoss()\nmodel = nn.Linear(5, 3)\ny = torch.randint(0, 3, (8,)).float()  # <-\nloss = crit(model(torch.randn(8, 5)), y)\n",
        ],
        good=[
            "import numpy as np\nimport torch\nimport torch.nn.functional as F\nmask = np.random.randint(0, 4, size=(2, 8, 8))\n"
            "y = torch.from_numpy(mask.astype('float32'))\noh = F.one_hot(y.long().view(2, -1), 4)\n",
            "import numpy as np\nimport torch\nfrom torch import nn\nmodel = nn.Linear(3, 4)\ny = torch.from_numpy(np.eye(4, dtype=np.int64)[np.random.randint(0, 4, 8)]).argmax(1)\nloss = nn.CrossEntropyLoss()(model(torch.randn(8, 3)), y)\n",
            'import numpy as np\nimport torch\nmasks = np.random.randint(0, 4, size=(8, 16, 16))\nlabels = torch.from_numpy(masks)\npred = torch.rand(8, 4, 16, 16).softmax(1)\none_hot = torch.zeros_like(pred).scatter_(1, labels.unsqueeze(1), 1)\n',
            "import numpy as np\nimport torch\nfrom torch import nn\nfrom torch.utils.data import DataLoader, Dataset\nclass Soft(Dataset):\n    def __init__(self):\n        self.x = np.random.rand(16, 4).astype(np.float32)\n        self.y = np.random.rand(16, 3).astype(np.float32)\n    def __len__(self):\n        return 16\n    def __getitem__(self, i):\n        return self.x[i], self.y[i]\nmodel = nn.Linear(4, 3)\nfor x, y in DataLoader(Soft(), batch_size=4):\n    nn.CrossEntropyLoss()(model(x), y)\n",
            "import torch\nimport torch.nn.functional as F\nscores = torch.randn(8, 4)\ngt = torch.randint(0, 4, (8,))\nprobs = F.one_hot(gt, 4).float()\nF.cross_entropy(scores, probs)\n",
            "import numpy as np\nimport torch\nfrom torch import nn\ncounts = np.array([50, 30, 20])\nw = torch.from_numpy(100.0 / counts).float()\nmodel = nn.Linear(4, 3)\nnn.CrossEntropyLoss(weight=w)(model(torch.randn(8, 4)), torch.randint(0, 3, (8,)))\n",
            "import torch\nimport torch.nn.functional as F\nF.cross_entropy(torch.randn(4, 3), torch.tensor([0, 1, 2, 1]))\n",
            "import torch\nimport torch.nn.functional as F\nprobs = torch.softmax(torch.randn(4, 3), dim=1)\nF.cross_entropy(torch.randn(4, 3), probs)\n",
            "import numpy as np\nimport torch\nfrom torch import nn\ny = torch.from_numpy(np.random.randint(0, 3, size=8))\nnn.CrossEntropyLoss()(torch.randn(8, 3), y)\n",
        ],
    ),
)
