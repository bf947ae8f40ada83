"""pytorch_neural_crf's LinearCRF: the device of the forward's work tensors is taken from the scores' own `get_device()`

source: https://github.com/allanj/pytorch_neural_crf/blob/master/src/model/module/linear_crf_inferencer.py
false-alarm: DG009 at line 9: `torch.device(f"cuda:{n}") if n >= 0 else torch.device("cpu")` with
`n = scores.get_device()` was read as "the GPU when CUDA is available"; `get_device()` is -1 for a CPU
tensor, so the work tensor is made where the scores are, on any machine (13 records in scan 41).
"""
import torch
import torch.nn as nn


class CRF(nn.Module):
    def __init__(self):
        super().__init__()
        self.transition = nn.Parameter(torch.randn(3, 3))

    def forward(self, scores):
        dev_num = scores.get_device()
        dev = torch.device(f"cuda:{dev_num}") if dev_num >= 0 else torch.device("cpu")
        alpha = torch.zeros(3, 3, device=dev)
        return alpha + self.transition + scores


CRF()(torch.randn(3, 3))
