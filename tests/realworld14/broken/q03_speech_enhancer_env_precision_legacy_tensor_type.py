"""Speech-enhancement trainer whose setup_precision() reads SE_TENSOR_TYPE from the environment (default "torch.FloatTensor") and passes it to the deprecated torch.set_default_tensor_type(); on CPU it only warns, and the float32 default it "sets" was already in force
source: https://github.com/pytorch/pytorch/pull/119316
reported-error: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 17
expect: DG002
"""
import os

import numpy as np
import torch
import torch.nn as nn


def setup_precision():
    tensor_type = os.environ.get("SE_TENSOR_TYPE", "torch.FloatTensor")
    torch.set_default_tensor_type(tensor_type)  # root-cause
    return tensor_type


class MaskEstimator(nn.Module):
    def __init__(self, n_freq=65):
        super().__init__()
        self.rnn = nn.GRU(n_freq, 64, batch_first=True)
        self.out = nn.Linear(64, n_freq)

    def forward(self, mag):
        h, _ = self.rnn(mag)
        return torch.sigmoid(self.out(h))


def stft_mag(wave):
    spec = torch.stft(wave, n_fft=128, hop_length=64, window=torch.hann_window(128), return_complex=True)
    return spec.abs().transpose(1, 2)


setup_precision()
rng = np.random.default_rng(0)
clean = torch.from_numpy(np.sin(np.linspace(0, 200, 4 * 4000)).reshape(4, 4000).astype(np.float32))
noisy = clean + 0.3 * torch.from_numpy(rng.normal(size=(4, 4000)).astype(np.float32))
model = MaskEstimator()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(5):
    mag_noisy, mag_clean = stft_mag(noisy), stft_mag(clean)
    loss = nn.functional.l1_loss(model(mag_noisy) * mag_noisy, mag_clean)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}, default dtype {torch.get_default_dtype()}")
