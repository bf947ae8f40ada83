"""Pose-regression notebook turned into a script: the training cell checkpoints with torch.save(net, checkpoint_file), pickling the whole __main__ network object, and the evaluation cell restores it with torch.load(net_path), whose weights_only=True default refuses the __main__ class
source: https://github.com/pytorch/pytorch/issues/4698
reported-error: Failed to load model (net = torch.load(net_path).cuda(...) after torch.save(net, checkpoint_file); works in the jupyter notebook but fails once the notebook is converted into a python file)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.PoseNet was not an allowed global by default. ... at line 42
root-cause: line 35
expect: DG011
"""
import os
import tempfile

import torch
import torch.nn as nn


class PoseNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.pose = nn.Linear(8, 7)

    def forward(self, x):
        return self.pose(self.features(x))


# In[3]: training
def train_cell(net, out_dir, epochs=3):
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    for epoch in range(1, epochs + 1):
        images, poses = torch.rand(8, 3, 32, 32), torch.rand(8, 7)
        loss = nn.functional.mse_loss(net(images), poses)
        opt.zero_grad()
        loss.backward()
        opt.step()
        checkpoint_file = os.path.join(out_dir, "checkpoint{}.t7".format(epoch))
        torch.save(net, checkpoint_file)  # root-cause
    return checkpoint_file


# In[28]: evaluation
def eval_cell(net_path):
    print(net_path)
    net = torch.load(net_path)  # fails-here
    with torch.no_grad():
        return net(torch.rand(2, 3, 32, 32))


if __name__ == "__main__":
    torch.manual_seed(0)
    path = train_cell(PoseNet(), tempfile.mkdtemp())
    print("poses", tuple(eval_cell(path).shape))
