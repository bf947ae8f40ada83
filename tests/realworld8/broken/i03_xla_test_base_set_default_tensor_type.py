"""Device-test base class in the style of torch_xla's test utilities: setUp pins the default tensor type with torch.set_default_tensor_type before each numeric comparison, which PyTorch 2.1+ deprecates
source: https://github.com/pytorch/xla/pull/5211
reported-error: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 23
expect: DG002
"""
import unittest

import torch
import torch.nn as nn


class XlaTestCase(unittest.TestCase):
    precision = "float"

    def setUp(self):
        super().setUp()
        torch.manual_seed(42)
        if self.precision == "double":
            torch.set_default_dtype(torch.float64)
        else:
            torch.set_default_tensor_type(torch.FloatTensor)  # root-cause

    def assertAllClose(self, a, b, rtol=1e-5, atol=1e-6):
        self.assertTrue(torch.allclose(a, b, rtol=rtol, atol=atol), f"max diff {(a - b).abs().max()}")


class TestLinearBackward(XlaTestCase):
    def test_linear_grad_matches_manual(self):
        layer = nn.Linear(4, 3)
        x = torch.randn(5, 4, requires_grad=True)
        layer(x).sum().backward()
        manual = layer.weight.sum(0).expand(5, 4)
        self.assertAllClose(x.grad, manual)

    def test_default_dtype(self):
        self.assertEqual(torch.randn(2).dtype, torch.float32)


if __name__ == "__main__":
    result = unittest.main(argv=["xla-tests"], exit=False, verbosity=1).result
    print("tests run:", result.testsRun, "failures:", len(result.failures) + len(result.errors))
