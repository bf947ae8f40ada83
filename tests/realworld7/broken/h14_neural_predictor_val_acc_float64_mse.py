"""NAS neural predictor (GCN over cell adjacency matrices): the dataset's val_acc comes out of the default collate as float64 and is the MSELoss target of the float32 predictor
source: https://github.com/ultmaster/neuralpredictor.pytorch/issues/5
reported-error: RuntimeError: Found dtype Double but expected Float (target = batch["val_acc"] is float64, predict is float32)
outcome: ok (silent: criterion(predict, target) at line 74 returns a float64 loss, printed as "loss dtype torch.float64"; the loss graph runs in double)
root-cause: line 31
expect: DG008
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Nb101Dataset(Dataset):
    def __init__(self, n=40, max_nodes=7, seed=0):
        rng = np.random.default_rng(seed)
        self.adj = np.triu(rng.integers(0, 2, (n, max_nodes, max_nodes)), 1).astype(np.float32)
        self.ops = np.eye(5, dtype=np.float32)[rng.integers(0, 5, (n, max_nodes))]
        self.num_vertices = np.full(n, max_nodes)
        self.val_acc = rng.uniform(0.80, 0.95, n)
        self.mean, self.std = self.val_acc.mean(), self.val_acc.std()

    def __len__(self):
        return len(self.adj)

    def normalize(self, acc):
        return (acc - self.mean) / self.std

    def __getitem__(self, index):
        return {"num_vertices": self.num_vertices[index], "adjacency": self.adj[index], "operations": self.ops[index],
                "val_acc": self.normalize(self.val_acc[index])}  # root-cause


class DirectedGraphConvolution(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight1 = nn.Parameter(torch.empty(in_features, out_features))
        self.weight2 = nn.Parameter(torch.empty(in_features, out_features))
        nn.init.xavier_uniform_(self.weight1)
        nn.init.xavier_uniform_(self.weight2)

    def forward(self, inputs, adj):
        output1 = torch.relu(torch.matmul(adj, torch.matmul(inputs, self.weight1)))
        output2 = torch.relu(torch.matmul(adj.transpose(1, 2), torch.matmul(inputs, self.weight2)))
        return (output1 + output2) / 2


class NeuralPredictor(nn.Module):
    def __init__(self, initial_hidden=5, gcn_hidden=16, gcn_layers=2, linear_hidden=32):
        super().__init__()
        dims = [initial_hidden] + [gcn_hidden] * gcn_layers
        self.gcn = nn.ModuleList(DirectedGraphConvolution(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.fc1 = nn.Linear(gcn_hidden, linear_hidden, bias=False)
        self.fc2 = nn.Linear(linear_hidden, 1, bias=False)

    def forward(self, inputs):
        numv, adj, out = inputs["num_vertices"], inputs["adjacency"], inputs["operations"]
        adj = adj + torch.eye(adj.size(1))
        for layer in self.gcn:
            out = layer(out, adj)
        out = out.sum(1) / numv.unsqueeze(1).float()
        return self.fc2(torch.relu(self.fc1(out))).view(-1)


net = NeuralPredictor()
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
loader = DataLoader(Nb101Dataset(), batch_size=10, shuffle=True, drop_last=True)
for epoch in range(2):
    for step, batch in enumerate(loader):
        target = batch["val_acc"]
        predict = net(batch)
        optimizer.zero_grad()
        loss = criterion(predict, target)  # fails-here
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f} loss dtype {loss.dtype}")
