"""Runtime messages of PyTorch 2.13 (shared docs/hazards.md) map to the right rule codes."""

from __future__ import annotations

import pytest

from dtypeguard.verify.explain import HINTS, PATTERNS, RULE_NAMES, explain

CASES = [
    ("RuntimeError", "mat1 and mat2 must have the same dtype, but got Double and Float", "DG004"),
    ("RuntimeError", "expected m1 and m2 to have the same dtype, but got: double != float", "DG004"),
    ("RuntimeError", "Input type (double) and bias type (float) should be the same", "DG004"),
    ("RuntimeError", "Input type (unsigned char) and bias type (float) should be the same", "DG004"),
    ("RuntimeError", "Input type (float) and bias type (c10::Half) should be the same", "DG004"),
    ("RuntimeError", "expected scalar type Double but found Float", "DG004"),
    ("RuntimeError", "mixed dtype (CPU): all inputs must share same datatype.", "DG004"),
    ("ValueError", "RNN input dtype (torch.float64) does not match weight dtype (torch.float32). "
     "Convert input: input.to(torch.float32), or convert model: model.to(torch.float64)", "DG004"),
    ("RuntimeError", "prelu: Type promoting not supported. Got Double and Float", "DG004"),
    ("RuntimeError", "mat1 and mat2 must have the same dtype, but got Long and Float", "DG005"),
    ("RuntimeError", "mat1 and mat2 must have the same dtype, but got Int and Float", "DG005"),
    ("RuntimeError", "mat1 and mat2 must have the same dtype, but got Byte and Float", "DG005"),
    ("RuntimeError", "mat1 and mat2 must have the same dtype, but got Bool and Float", "DG005"),
    ("RuntimeError", "expected m1 and m2 to have the same dtype, but got: long int != float", "DG005"),
    ("RuntimeError", "expected scalar type Long but found Float", "DG005"),
    ("RuntimeError", "Expected tensor for argument #1 'indices' to have one of the following scalar "
     "types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding)",
     "DG005"),
    ("RuntimeError", "expected target dtype to be Long or Byte, but got Float", "DG006"),
    ("RuntimeError", "expected target dtype to be Long or Byte, but got Int", "DG006"),
    ("RuntimeError", "Found dtype Long but expected Float", "DG007"),
    ("RuntimeError", "Found dtype Double but expected Float", "DG007"),
    ("RuntimeError", "Expected all tensors to be on the same device, but found at least two devices, "
     "cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)", "DG009"),
    ("RuntimeError", "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should "
     "be the same or input should be a MKLDNN tensor and weight is a dense tensor", "DG009"),
    ("RuntimeError", "Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) "
     "should be the same", "DG004"),
    ("RuntimeError", "Expected a 'cuda' device type for generator but found 'cpu'", "DG003"),
    ("RuntimeError", "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() "
     "is False.", "DG010"),
    ("UnpicklingError", "Weights only load failed. ... Unsupported global: GLOBAL argparse.Namespace",
     "DG011"),
    ("ValueError", "Attempting to unscale FP16 gradients.", "DG014"),
    ("RuntimeError", "expected dtype double for `end` but got dtype float", "DG015"),
    ("RuntimeError", "`fused` and `foreach` cannot be `True` together.", "DG016"),
    ("RuntimeError", "`fused` does not support `differentiable`", "DG016"),
    ("AssertionError", "If capturable=True, params and state_steps must be on supported devices: "
     "['cuda', 'xpu', 'hpu', 'privateuseone', 'xla'].", "DG016"),
    ("TypeError", "type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled.",
     "DG002"),
]


# recorded here with torch 2.13.0+cpu (not in hazards.md): (error type, message, traceback, source, rule)
RECORDED = [
    # nn.Conv2d(1, 1, 2) over an int64 / a bfloat16 input
    ("RuntimeError", "Input type (long int) and bias type (float) should be the same", "", "", "DG005"),
    ("RuntimeError", "Input type (c10::BFloat16) and bias type (float) should be the same", "",
     "with torch.autocast('cpu', dtype=torch.bfloat16):", "DG017"),
    # nn.Conv2d(1, 1, 2, bias=False) / nn.Linear(2, 1, bias=False) over an int64 input
    ("RuntimeError", "expected scalar type Long but found Float", "", "", "DG005"),
    ("RuntimeError", "expected m1 and m2 to have the same dtype, but got: long int != float", "", "", "DG005"),
    # F.cross_entropy(logits, 1) / F.nll_loss(logits, 1): a Python int target
    ("TypeError", "cross_entropy_loss(): argument 'target' (position 2) must be Tensor, not int",
     'File "torch/nn/functional.py", line 3, in cross_entropy', "", "DG006"),
    ("TypeError", "nll_loss_nd(): argument 'target' (position 2) must be Tensor, not int",
     'File "torch/nn/functional.py", line 3, in nll_loss', "", "DG006"),
]


@pytest.mark.parametrize(("error_type", "message", "traceback", "source", "code"), RECORDED)
def test_messages_recorded_with_torch_2_13(error_type: str, message: str, traceback: str, source: str, code: str) -> None:
    found = explain(error_type, message, traceback, source)
    assert found is not None and found.code == code


@pytest.mark.parametrize(("error_type", "message", "code"), CASES)
def test_messages_map_to_rules(error_type: str, message: str, code: str) -> None:
    found = explain(error_type, message, "", "")
    assert found is not None and found.code == code
    assert found.text().startswith(f"this is {code} ({RULE_NAMES[code]}): ")


def test_autocast_leak_is_dg017_only_when_the_script_uses_autocast() -> None:
    message = "mat1 and mat2 must have the same dtype, but got BFloat16 and Float"
    found = explain("RuntimeError", message, "", "with torch.autocast('cpu', dtype=torch.bfloat16):")
    assert found is not None and found.code == "DG017"
    found = explain("RuntimeError", message, "", "model = model.bfloat16()")
    assert found is not None and found.code == "DG004"


def test_bce_cast_error_needs_a_bce_traceback() -> None:
    message = "result type Float can't be cast to the desired output type Long"
    tb = 'File "torch/nn/functional.py", line 3, in binary_cross_entropy_with_logits'
    found = explain("RuntimeError", message, tb, "")
    assert found is not None and found.code == "DG007"
    assert explain("RuntimeError", message, "x.add_(0.5)", "") is None


def test_unrelated_errors_have_no_rule() -> None:
    assert explain("KeyError", "'lr'", "", "") is None
    assert explain("RuntimeError", "", "", "") is None
    found = explain("AssertionError", "Torch not compiled with CUDA enabled", "", "")
    assert found is not None and found.code is None and "torch.cuda.is_available()" in found.text()


def test_every_rule_row_has_a_name_and_a_hint() -> None:
    for row in PATTERNS:
        if row.code is not None:
            assert row.code in RULE_NAMES and row.code in HINTS
