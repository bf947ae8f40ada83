"""Resume training from a checkpoint (theneuralbase's resume-training answer as in aq03) in the order its note asks for: on resume the rebuilt model is moved with model.to(device) right after load_state_dict and before optimizer.load_state_dict(), so Adam's restored exp_avg / exp_avg_sq are cast to the device the parameters already live on; the checkpoint is still read with map_location=device and training continues for five epochs
source: http://theneuralbase.com/pytorch/qna/resume-training-checkpoint-pytorch/
reported-error: (none filed; the fixed situation of aq03)
outcome: ok
root-cause: -
expect: none
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
    optimizer.step()
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
model.to(device)
optimizer.load_state_dict(checkpoint['optimizer_state_dict'])
scheduler.load_state_dict(checkpoint['scheduler_state_dict'])
start_epoch = checkpoint['epoch'] + 1

for epoch in range(start_epoch, start_epoch + 5):
    loss = train_epoch(model, optimizer, scheduler)
    print(f'Resumed epoch {epoch}, loss {loss:.4f}')
