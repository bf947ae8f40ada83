"""Skeleton model (Lightning module reduced to plain torch) that builds a one-hot joint tensor in __init__ and stores it as a plain attribute, so model.to(device) leaves it on the CPU
source: https://github.com/Lightning-AI/pytorch-lightning/issues/3674
reported-error: self.tem is not moved to GPU as expected (print(self.tem.device) shows cpu; using it with CUDA activations raises a device-mismatch RuntimeError)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (self.tem stays on the CPU, the activations are on cuda:0) at line 35; on CPU: ok
root-cause: line 17
expect: DG009
"""
import torch
import torch.nn.functional as F


class LitModel(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.seg = 20
        self.num_joints = 25
        self.tem = self.one_hot(self.seg, self.num_joints)  # root-cause
        self.tem = self.tem.permute(2, 0, 1)
        self.tem_embed = torch.nn.Linear(self.seg, 8)
        self.layer_1 = torch.nn.Linear(28 * 28, 128)
        self.layer_2 = torch.nn.Linear(128 + 8, 10)

    def one_hot(self, spa, tem) -> torch.Tensor:
        y = torch.arange(spa).unsqueeze(-1)
        y_onehot = torch.FloatTensor(spa, spa)
        y_onehot.zero_()
        y_onehot.scatter_(1, y, 1)
        y_onehot = y_onehot.unsqueeze(0)
        y_onehot = y_onehot.repeat(tem, 1, 1)
        return y_onehot

    def forward(self, x):
        x = x.view(x.size(0), -1)
        x = F.relu(self.layer_1(x))
        t = self.tem_embed(self.tem.mean(dim=(1, 2)).unsqueeze(0).expand(x.size(0), -1))  # fails-here
        return self.layer_2(torch.cat([x, t], dim=1))

    def training_step(self, batch):
        x, y = batch
        return F.cross_entropy(self(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


def fit(model, batches, device):
    model.to(device)
    optimizer = model.configure_optimizers()
    for step, (x, y) in enumerate(batches):
        loss = model.training_step((x.to(device), y.to(device)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    batches = [(torch.rand(16, 1, 28, 28), torch.randint(0, 10, (16,))) for _ in range(3)]
    fit(LitModel(), batches, device)
