"""Resume training from a checkpoint (theneuralbase's "How to resume training from checkpoint PyTorch" answer: SimpleModel, save a dict with epoch / model / optimizer / scheduler state, then load it back and continue), the state its note warns about: on resume the model and the optimizer are rebuilt on the CPU, optimizer.load_state_dict() runs before model.to(device), so Adam's exp_avg / exp_avg_sq are cast to the parameters' device at that moment (the CPU) and stay there when the parameters move to CUDA; the first optimizer.step() after resuming mixes cuda:0 parameters with CPU state. Runs on a CPU-only machine, fails only where the device is cuda
source: http://theneuralbase.com/pytorch/qna/resume-training-checkpoint-pytorch/
reported-error: the answer's team note: "The article's checkpoint loading code has a critical ordering issue: optimizer.load_state_dict() must be called AFTER model.to(device), not before, because optimizer state contains references to model parameters and their device placement" (on CUDA: RuntimeError at optimizer.step(), tensors on cuda:0 and cpu)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (the wording such resumed runs report; with the default foreach Adam the grouping check words it "Tensors of the same index must be on the same device"; not run on a GPU for this set) at line 39; on CPU: ok
root-cause: line 72
expect: DG009
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR


class SimpleModel(nn.Module):
    def __init__(self):
        super(SimpleModel, self).__init__()
        self.linear = nn.Linear(10, 1)

    def forward(self, x):
        return self.linear(x)


device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
torch.manual_seed(0)
X = torch.randn(64, 10)
Y = X.sum(dim=1, keepdim=True) + 0.1 * torch.randn(64, 1)
criterion = nn.MSELoss()


def train_epoch(model, optimizer, scheduler):
    model.train()
    inputs, targets = X.to(device), Y.to(device)
    optimizer.zero_grad()
    loss = criterion(model(inputs), targets)
    loss.backward()
    optimizer.step()  # fails-here
    scheduler.step()
    return loss.item()


# ---- initial training, then save checkpoint
model = SimpleModel().to(device)
optimizer = optim.Adam(model.parameters(), lr=0.01)
scheduler = StepLR(optimizer, step_size=5, gamma=0.1)
for epoch in range(5):
    loss = train_epoch(model, optimizer, scheduler)

ckpt_dir = tempfile.mkdtemp()
checkpoint_path = os.path.join(ckpt_dir, 'checkpoint.pth')
torch.save({
    'epoch': epoch,
    'model_state_dict': model.state_dict(),
    'optimizer_state_dict': optimizer.state_dict(),
    'scheduler_state_dict': scheduler.state_dict(),
    'loss': loss,
}, checkpoint_path)
print(f'Saved checkpoint at epoch {epoch}, loss {loss:.4f}')

# ---- resume training (a new process would start here)
model = SimpleModel()
optimizer = optim.Adam(model.parameters(), lr=0.01)
scheduler = StepLR(optimizer, step_size=5, gamma=0.1)

checkpoint = torch.load(checkpoint_path, map_location=device)
model.load_state_dict(checkpoint['model_state_dict'])
optimizer.load_state_dict(checkpoint['optimizer_state_dict'])  # root-cause-alt
scheduler.load_state_dict(checkpoint['scheduler_state_dict'])
start_epoch = checkpoint['epoch'] + 1
model.to(device)  # root-cause

for epoch in range(start_epoch, start_epoch + 5):
    loss = train_epoch(model, optimizer, scheduler)
    print(f'Resumed epoch {epoch}, loss {loss:.4f}')
