"""Molecular solubility regression with a GCN over SMILES-derived graphs (from_smiles-style featurizer): the atom features are categorical indices (atomic number, degree, formal charge, aromatic flag...) stored as an int64 tensor, and the model feeds them straight into the first graph convolution's Linear instead of embedding them
source: https://github.com/pyg-team/pytorch_geometric/pull/9341
reported-error: RuntimeError: Found dtype Long but expected Float (GCNConv(9, 128) applied to data.x from torch_geometric.utils.from_smiles, whose node features are int64 categorical indices)
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: long int != float at line 50
root-cause: line 21
expect: DG005
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

ATOMS = {"C": 6, "N": 7, "O": 8, "F": 9, "S": 16, "Cl": 17}


# ---- featurize.py
def from_smiles_like(atom_symbols, bonds):
    rows = []
    for i, sym in enumerate(atom_symbols):
        degree = sum(1 for a, b in bonds if i in (a, b))
        rows.append([ATOMS[sym], 0, degree, 0, 0, 0, int(sym in "NO"), 0, 1])
    x = torch.tensor(rows, dtype=torch.long)  # root-cause
    edge_index = torch.tensor([[a for a, b in bonds] + [b for a, b in bonds],
                               [b for a, b in bonds] + [a for a, b in bonds]], dtype=torch.long)
    return {"x": x, "edge_index": edge_index}


def toy_dataset():
    mols = [
        (["C", "C", "O"], [(0, 1), (1, 2)], -0.3),
        (["C", "N", "C", "C"], [(0, 1), (1, 2), (2, 3)], -0.8),
        (["C", "C", "C", "Cl"], [(0, 1), (1, 2), (2, 3)], -1.9),
        (["O", "C", "C", "O", "F"], [(0, 1), (1, 2), (2, 3), (3, 4)], 0.4),
    ]
    return [(from_smiles_like(a, b), torch.tensor([y])) for a, b, y in mols]


# ---- model.py
class GCNConv(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout, bias=False)
        self.bias = nn.Parameter(torch.zeros(cout))

    def forward(self, x, edge_index):
        n = x.shape[0]
        adj = torch.eye(n)
        adj[edge_index[0], edge_index[1]] = 1.0
        deg = adj.sum(1)
        norm = adj / torch.sqrt(deg[:, None] * deg[None, :])
        return norm @ self.lin(x) + self.bias  # fails-here


class SolubilityGCN(nn.Module):
    def __init__(self, cin=9, hidden=64):
        super().__init__()
        self.conv1 = GCNConv(cin, hidden)
        self.conv2 = GCNConv(hidden, hidden)
        self.head = nn.Linear(hidden, 1)

    def forward(self, data):
        x, edge_index = data["x"], data["edge_index"]
        x = F.relu(self.conv1(x, edge_index))
        x = F.relu(self.conv2(x, edge_index))
        return self.head(x.mean(0))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SolubilityGCN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(5):
        total = 0.0
        for data, y in toy_dataset():
            loss = F.mse_loss(model(data), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} mse {total / 4:.4f}")
