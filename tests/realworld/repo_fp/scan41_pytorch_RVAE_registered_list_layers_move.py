"""pytorch_RVAE's Highway and TDNN: layers and Parameters kept in plain Python lists, each parameter registered with `register_parameter`

source: https://github.com/kefirski/pytorch_RVAE/blob/master/selfModules/highway.py
false-alarm: DG009: `.cuda()` moves every registered Parameter in place (`param.data`), so the listed
layers and kernels move with the module; they were taken to stay on the CPU (4 records in scan 41).
Like the original, this needs a GPU for its `.cuda()` calls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Highway(nn.Module):
    def __init__(self, size, num_layers):
        super().__init__()
        self.num_layers = num_layers
        self.linear = [nn.Linear(size, size) for _ in range(num_layers)]
        for i, module in enumerate(self.linear):
            self._add_to_parameters(module.parameters(), "linear_module_{}".format(i))
        self.kernels = [nn.Parameter(torch.Tensor(size, size).uniform_(-1, 1)) for _ in range(num_layers)]
        self._add_to_parameters(self.kernels, "kernel")

    def forward(self, x):
        for layer in range(self.num_layers):
            x = F.relu(self.linear[layer](x)) @ self.kernels[layer]
        return x

    def _add_to_parameters(self, parameters, name):
        for i, parameter in enumerate(parameters):
            self.register_parameter(name="{}-{}".format(name, i), param=parameter)


model = Highway(4, 2).cuda()
model(torch.randn(2, 4).cuda())
