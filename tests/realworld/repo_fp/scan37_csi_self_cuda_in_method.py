"""CSI's temperature scaling moves itself with self.cuda() before dividing CUDA logits by its parameter

source: https://github.com/alinlab/CSI/blob/master/utils/temperature_scaling.py#L17
(`self.cuda()` in `set_temperature`, then `self.temperature_scale(logits)`: `logits / temperature`)
false-alarm: DG009 at temperature_scaling.py:17 (scan 37): the module class is never built in its file, and the
finding said its CPU parameter meets the CUDA logits. `self.cuda()` moves the registered parameter with the module.
This reduction runs on the CPU (exit 0: the method is not called here).
"""
import torch
import torch.nn as nn


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.t = nn.Parameter(torch.ones(1) * 0.5)

    def scale(self, logits):
        return logits / self.t

    def calibrate(self, xs):
        self.cuda()
        logits = torch.cat(xs).cuda()
        return self.scale(logits)
