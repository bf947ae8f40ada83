"""Loading a GPU-trained model and its Adam optimizer state on a CPU-only machine (the iifx.dev article as in aq04) with the article's fix: both state_dict files, written with CUDA storage tags, are read with torch.load(..., map_location=torch.device('cpu')), so the restored exp_avg / exp_avg_sq land on the CPU next to the parameters and fine-tuning continues there
source: https://iifx.dev/en/articles/355017664
reported-error: (none filed; the fixed situation of aq04)
outcome: ok
root-cause: -
expect: none
"""
import contextlib
import os
import tempfile

import torch
import torch.nn as nn
import torch.optim as optim


class Classifier(nn.Module):
    def __init__(self, n_in=20, n_hidden=32, n_classes=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, n_hidden), nn.ReLU(), nn.Linear(n_hidden, n_classes))

    def forward(self, x):
        return self.net(x)


# ---- the training run happened on a GPU machine: its files carry storages tagged cuda:0, as torch.save records
# them for CUDA tensors (reproduced here by tagging the storages while saving)
@contextlib.contextmanager
def storages_tagged_cuda():
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: 'cuda:0'
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def train_on_gpu_box(out_dir):
    torch.manual_seed(0)
    model = Classifier()
    optimizer = optim.Adam(model.parameters(), lr=1e-3)
    x, y = torch.randn(128, 20), torch.randint(0, 3, (128,))
    for _ in range(10):
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
    with storages_tagged_cuda():
        torch.save(model.state_dict(), os.path.join(out_dir, 'model_state.pth'))
        torch.save(optimizer.state_dict(), os.path.join(out_dir, 'optimizer_state.pth'))
    print(f'trained on the GPU box, last loss {loss.item():.4f}')


# ---- the CPU machine: rebuild model and optimizer, load both state_dicts, continue fine-tuning
def resume_on_cpu(ckpt_dir):
    model = Classifier()
    optimizer = optim.Adam(model.parameters(), lr=1e-3)
    model.load_state_dict(torch.load(os.path.join(ckpt_dir, 'model_state.pth'), map_location=torch.device('cpu')))
    optimizer_state = torch.load(os.path.join(ckpt_dir, 'optimizer_state.pth'), map_location=torch.device('cpu'))
    optimizer.load_state_dict(optimizer_state)
    x, y = torch.randn(32, 20), torch.randint(0, 3, (32,))
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    print(f'fine-tuned one step on the CPU, loss {loss.item():.4f}')


if __name__ == '__main__':
    ckpt_dir = tempfile.mkdtemp()
    train_on_gpu_box(ckpt_dir)
    resume_on_cpu(ckpt_dir)
