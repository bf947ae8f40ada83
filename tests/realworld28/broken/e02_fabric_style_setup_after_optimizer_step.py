"""Fabric-style launcher (a hand-rolled stand-in for lightning.Fabric) that takes a model and an AdamW whose state already exists from a warm-up step on the CPU; setup() moves the module to the accelerator but leaves the optimizer state where it was, so the next step mixes cuda:0 parameters with CPU exp_avg
source: https://github.com/Lightning-AI/pytorch-lightning/issues/19225
reported-error: state device before setup: cpu / fabric device: cuda:0 / state device after setup: cpu (the optimizer state is not moved to the device by Fabric.setup; the next optimizer.step() mixes devices)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (AdamW's exp_avg stays on the CPU after setup() moved the parameters; wording varies with the torch version; not run on a GPU for this set) at line 42; on CPU: ok
root-cause: line 35
expect: DG015
"""
import torch
from torch import nn
from torch.optim import AdamW


# ---- minimal stand-in for lightning.Fabric
class Fabric:
    def __init__(self, accelerator="auto"):
        self.device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

    def launch(self):
        return self

    def setup(self, module, optimizer):
        module = module.to(self.device)
        return module, optimizer


def main():
    m = nn.Linear(10, 1)
    optimizer = AdamW(m.parameters())
    x = torch.randn(1, 10)
    m(x).backward()
    optimizer.step()
    print("state device before setup:", next(iter(optimizer.state.values()))["exp_avg"].device)
    fabric = Fabric()
    fabric.launch()
    m, optimizer = fabric.setup(m, optimizer)  # root-cause
    print("fabric device:", fabric.device)
    print("state device after setup:", next(iter(optimizer.state.values()))["exp_avg"].device)
    for step in range(3):
        optimizer.zero_grad()
        loss = m(torch.randn(4, 10, device=fabric.device)).pow(2).mean()
        loss.backward()
        optimizer.step()  # fails-here
        print("step", step, "loss", round(loss.item(), 4))


if __name__ == "__main__":
    main()
