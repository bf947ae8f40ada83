"""Small CNN trainer that prints a torchsummary table before moving the model (slideCNN-train.py in the report; torchsummary's summary(model, input_size, batch_size=-1, device="cuda") pasted below): summary builds its probe batch as torch.cuda.FloatTensor whenever CUDA is available, but the model is still on the CPU at that point
source: https://github.com/sksq96/pytorch-summary/issues/16
reported-error: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same (print(summary(model, (3, 30, 16))) in slideCNN-train.py; fixed by the reporter with summary(model.to(device), ...))
outcome: cuda-only: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same (the first Conv2d of the still-CPU model gets the CUDA probe batch; wording as in recent reports such as Lightning-AI/pytorch-lightning#20456; not run on a GPU for this set) at line 41; on CPU: ok
root-cause: line 61
expect: DG009
"""
from collections import OrderedDict

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


# ---- torchsummary/torchsummary.py
def summary(model, input_size, batch_size=-1, device="cuda"):
    def register_hook(module):
        def hook(module, input, output):
            class_name = str(module.__class__).split(".")[-1].split("'")[0]
            m_key = "%s-%i" % (class_name, len(summary) + 1)
            summary[m_key] = OrderedDict()
            summary[m_key]["output_shape"] = [batch_size] + list(output.size())[1:]
            summary[m_key]["nb_params"] = sum(int(np.prod(p.size())) for p in module.parameters(recurse=False))

        if not isinstance(module, nn.Sequential) and not isinstance(module, nn.ModuleList) and not (module == model):
            hooks.append(module.register_forward_hook(hook))

    device = device.lower()
    assert device in ["cuda", "cpu"], "Input device is not valid, please specify 'cuda' or 'cpu'"
    if device == "cuda" and torch.cuda.is_available():
        dtype = torch.cuda.FloatTensor
    else:
        dtype = torch.FloatTensor
    if isinstance(input_size, tuple):
        input_size = [input_size]
    x = [torch.rand(2, *in_size).type(dtype) for in_size in input_size]
    summary = OrderedDict()
    hooks = []
    model.apply(register_hook)
    model(*x)  # fails-here
    for h in hooks:
        h.remove()
    lines = ["{:>20}  {:>25} {:>15}".format("Layer (type)", "Output Shape", "Param #")]
    for layer, info in summary.items():
        lines.append("{:>20}  {:>25} {:>15}".format(layer, str(info["output_shape"]), "{0:,}".format(info["nb_params"])))
    lines.append("Total params: {0:,}".format(sum(info["nb_params"] for info in summary.values())))
    return "\n".join(lines)


# ---- slideCNN-train.py
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

model = nn.Sequential(
    nn.Conv2d(3, 16, kernel_size=3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(16, 32, kernel_size=3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
    nn.AdaptiveAvgPool2d((3, 2)), nn.Flatten(),
    nn.Linear(32 * 3 * 2, 2),
)
print(summary(model, (3, 30, 16)))  # root-cause

model = model.to(device)
rng = np.random.default_rng(0)
slides = torch.from_numpy(rng.random((64, 3, 30, 16), dtype=np.float32))
labels = torch.from_numpy(rng.integers(0, 2, 64))
loader = DataLoader(TensorDataset(slides, labels), batch_size=16, shuffle=True)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for epoch in range(2):
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
