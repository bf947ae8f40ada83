"""E2E-ASR's RNN-T model moves the utterance lengths itself, under `if ys.is_cuda:`, before its loss reads them

source: https://github.com/HawkAaron/E2E-ASR/blob/master/model.py#L79
(`if ys.is_cuda: xlen = xlen.cuda(); ylen = ylen.cuda()`; train_rnnt.py passes `torch.IntTensor(xlen)` made on the CPU)
false-alarm: DG009 at the four `torch.IntTensor(...)` lengths of train_rnnt.py (scan 34): the finding said the CUDA
model's forward fails with CPU lengths. The forward's first use of them is that guarded move, so they reach the loss
on the data's device; the repository's own train_rnnt.py runs two epochs on an emulated GPU. This reduction runs on
the CPU (exit 0).
"""
import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Transducer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, xs, ys, xlen):
        if ys.is_cuda:
            xlen = xlen.cuda()
        return (self.fc(xs)[:, 0] * xlen).sum() + ys.sum()


model = Transducer().to(device)
xs, ys = torch.randn(2, 4).to(device), torch.ones(2).to(device)
xlen = torch.IntTensor([3, 4])
loss = model(xs, ys, xlen)
