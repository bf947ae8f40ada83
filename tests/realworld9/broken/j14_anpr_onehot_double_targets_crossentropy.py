"""Licence-plate recognition (deep-anpr ported to PyTorch): the plate generator returns one-hot code vectors as float64 numpy arrays, the batch helper wraps them with torch.from_numpy, and nn.CrossEntropyLoss now treats them as class probabilities: no error, the loss is float64
source: https://github.com/pytorch/pytorch/issues/1258
reported-error: TypeError: FloatClassNLLCriterion_updateOutput received an invalid combination of arguments - got (..., torch.DoubleTensor, ...), but expected (..., torch.LongTensor target, ...) (the targets were a 4x253 DoubleTensor of one-hot codes)
outcome: ok (silent: criterion(output, targets) at line 50 returns a float64 loss from the float64 one-hot targets (read as class probabilities), printed as "loss dtype torch.float64"; backward runs through double)
root-cause: line 31
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn

CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
N_POS = 7


def code_to_vec(p, code):
    def char_to_vec(c):
        y = np.zeros((len(CHARS),))
        y[CHARS.index(c)] = 1.0
        return y

    c = np.vstack([char_to_vec(c) for c in code])
    return np.concatenate([[1.0 if p else 0], c.flatten()])


def read_batch(batch_size=4, seed=0):
    rng = np.random.default_rng(seed)
    ims = rng.random((batch_size, 1, 64, 128), dtype=np.float32)
    codes = ["".join(rng.choice(list(CHARS), N_POS)) for _ in range(batch_size)]
    ys = np.stack([code_to_vec(True, c)[1:] for c in codes]).reshape(batch_size * N_POS, len(CHARS))
    return torch.from_numpy(ims), torch.from_numpy(ys)  # root-cause


class ANPRNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 5, stride=2, padding=2), nn.ReLU(), nn.AdaptiveAvgPool2d((4, 8)))
        self.fc = nn.Linear(8 * 4 * 8, N_POS * len(CHARS))

    def forward(self, x):
        return self.fc(self.features(x).flatten(1)).view(-1, len(CHARS))


model = ANPRNet()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(3):
    inputs, targets = read_batch(seed=step)
    output = model(inputs)
    loss = criterion(output, targets)  # fails-here
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}, loss dtype {loss.dtype}")
