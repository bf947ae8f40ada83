"""Skeleton model whose constant one-hot joint tensor is registered as a buffer, so model.to(device) moves it with the parameters (the answer in the thread)
source: https://github.com/Lightning-AI/pytorch-lightning/issues/1978
reported-error: how to put a tensor created in __init__() on the same device as the model (answer: register it as a buffer)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn.functional as F


class LitModel(torch.nn.Module):
    def __init__(self, seg=20, num_joints=25):
        super().__init__()
        y_onehot = torch.eye(seg).unsqueeze(0).repeat(num_joints, 1, 1)
        self.register_buffer("tem", y_onehot.permute(2, 0, 1))
        self.tem_embed = torch.nn.Linear(seg, 8)
        self.layer_1 = torch.nn.Linear(28 * 28, 128)
        self.layer_2 = torch.nn.Linear(128 + 8, 10)

    def forward(self, x):
        x = F.relu(self.layer_1(x.view(x.size(0), -1)))
        t = self.tem_embed(self.tem.mean(dim=(1, 2)).unsqueeze(0).expand(x.size(0), -1))
        return self.layer_2(torch.cat([x, t], dim=1))


def fit(model, batches, device):
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step, (x, y) in enumerate(batches):
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item(), model.tem.device)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    fit(LitModel(), [(torch.rand(16, 1, 28, 28), torch.randint(0, 10, (16,))) for _ in range(3)], device)
