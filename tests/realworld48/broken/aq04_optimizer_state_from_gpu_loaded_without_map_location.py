"""Loading a GPU-trained model and its Adam optimizer state on a CPU-only machine (iifx.dev, "Loading PyTorch Models: How to Fix Optimizer State Dict GPU/CPU Errors": the model and optimizer were trained on a GPU and saved as separate state_dict files, optimizer_state.pth among them), the state the article starts from: torch.load('optimizer_state.pth') with no map_location, so the CUDA-tagged exp_avg / exp_avg_sq storages cannot be restored where torch.cuda.is_available() is False
source: https://iifx.dev/en/articles/355017664
reported-error: "If you then try to load this state_dict on a different device (e.g., loading a GPU-trained optimizer on a CPU), you'll encounter errors because the tensor locations don't match"; the article's fix is the map_location argument of torch.load (map_location=torch.device('cpu'))
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 59
root-cause: line 59
expect: DG010
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
    optimizer_state = torch.load(os.path.join(ckpt_dir, 'optimizer_state.pth'))  # root-cause  # fails-here
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
