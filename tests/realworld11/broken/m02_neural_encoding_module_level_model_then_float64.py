"""Neural-encoding model (NEMS-style) whose Conv1d filter bank is built at import time as a module-level object; main() later switches torch.set_default_dtype(torch.float64) for "precise" stimulus synthesis, so the stimulus made with torch.linspace/torch.sin is float64 while the filter weights stay float32
source: https://github.com/LBHB/NEMS/pull/17
reported-error: Input type (double) and bias type (float) should be the same (layer precision set separately from the data precision)
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 20
root-cause: line 50
expect: DG001
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FIRFilterBank(nn.Module):
    def __init__(self, n_channels=4, taps=9):
        super().__init__()
        self.fir = nn.Conv1d(1, n_channels, taps, padding=taps // 2)
        self.gain = nn.Linear(n_channels, 1)

    def forward(self, stim):
        x = F.relu(self.fir(stim))  # fails-here
        return self.gain(x.transpose(1, 2)).squeeze(-1)


MODEL = FIRFilterBank()


def synthesize_stimulus(n_trials=8, length=200):
    t = torch.linspace(0, 1, length)
    freqs = torch.arange(1, n_trials + 1).unsqueeze(1) * 3.0
    return torch.sin(2 * torch.pi * freqs * t).unsqueeze(1)


def simulated_response(stim):
    kernel = torch.exp(-torch.arange(9.0) / 3.0).view(1, 1, -1)
    return F.conv1d(stim, kernel, padding=4).squeeze(1)


def fit(model, stim, resp, steps=5):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(steps):
        pred = model(stim)
        loss = F.mse_loss(pred, resp)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: mse {loss.item():.5f}")


def main():
    torch.set_default_dtype(torch.float64)  # root-cause
    stim = synthesize_stimulus()
    resp = simulated_response(stim)
    fit(MODEL, stim, resp)


if __name__ == "__main__":
    main()
