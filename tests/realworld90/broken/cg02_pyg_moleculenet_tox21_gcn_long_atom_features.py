"""The PyG introduction's two-layer GCN run on MoleculeNet Tox21 instead of Planetoid Cora (pytorch_geometric #1537): MoleculeNet stores each molecule's atom features as nine categorical indices (torch.long), the user's forward passes data.x straight to GCNConv, and GCNConv's gcn_norm builds the edge weights with dtype=x.dtype, so the degree vector is int64 and deg.pow_(-0.5) cannot write its float result back
source: https://github.com/pyg-team/pytorch_geometric/issues/1537
reported-error: RuntimeError: result type Floatcan't be cast to the desired output type Long (thrown at gcn_conv.py line 63, deg_inv_sqrt = deg.pow_(-0.5); "The code above runs fine with Planetoid dataset though")
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 175
root-cause: line 229
expect: DG005
"""
import torch
import torch.nn.functional as F
from torch.nn import Parameter

torch.manual_seed(0)

# ---- torch_geometric.datasets.MoleculeNet (1.6.x), with RDKit's parse replaced by pre-parsed atom/bond tables ---
x_map = {
    'atomic_num': list(range(0, 119)),
    'chirality': ['CHI_UNSPECIFIED', 'CHI_TETRAHEDRAL_CW', 'CHI_TETRAHEDRAL_CCW', 'CHI_OTHER'],
    'degree': list(range(0, 11)),
    'formal_charge': list(range(-5, 7)),
    'num_hs': list(range(0, 9)),
    'num_radical_electrons': list(range(0, 5)),
    'hybridization': ['UNSPECIFIED', 'S', 'SP', 'SP2', 'SP3', 'SP3D', 'SP3D2', 'OTHER'],
    'is_aromatic': [False, True],
    'is_in_ring': [False, True],
}
e_map = {
    'bond_type': ['misc', 'SINGLE', 'DOUBLE', 'TRIPLE', 'AROMATIC'],
    'stereo': ['STEREONONE', 'STEREOZ', 'STEREOE', 'STEREOCIS', 'STEREOTRANS', 'STEREOANY'],
    'is_conjugated': [False, True],
}

# tox21.csv rows: 12 assay labels (empty = not measured), the SMILES, and what RDKit's parse of it gives
# (atoms: atomic number, chiral tag, degree, formal charge, total Hs, radicals, hybridization, aromatic, in ring)
TOX21 = [
    ("CCOc1ccc2nc(S(N)(=O)=O)sc2c1", "0,0,1,,,0,0,1,0,0,0,0",
     [(6, 0, 1, 0, 3, 0, 'SP3', 0, 0), (6, 0, 2, 0, 2, 0, 'SP3', 0, 0), (8, 0, 2, 0, 0, 0, 'SP2', 0, 0),
      (6, 0, 3, 0, 0, 0, 'SP2', 1, 1), (6, 0, 2, 0, 1, 0, 'SP2', 1, 1), (6, 0, 2, 0, 1, 0, 'SP2', 1, 1),
      (6, 0, 3, 0, 0, 0, 'SP2', 1, 1), (7, 0, 2, 0, 0, 0, 'SP2', 1, 1), (6, 0, 3, 0, 0, 0, 'SP2', 1, 1),
      (16, 0, 4, 0, 0, 0, 'SP3', 0, 0), (7, 0, 1, 0, 2, 0, 'SP3', 0, 0), (8, 0, 1, 0, 0, 0, 'SP2', 0, 0),
      (8, 0, 1, 0, 0, 0, 'SP2', 0, 0), (16, 0, 2, 0, 0, 0, 'SP2', 1, 1), (6, 0, 3, 0, 0, 0, 'SP2', 1, 1),
      (6, 0, 2, 0, 1, 0, 'SP2', 1, 1)],
     [(0, 1, 'SINGLE'), (1, 2, 'SINGLE'), (2, 3, 'SINGLE'), (3, 4, 'AROMATIC'), (4, 5, 'AROMATIC'),
      (5, 6, 'AROMATIC'), (6, 7, 'AROMATIC'), (7, 8, 'AROMATIC'), (8, 9, 'SINGLE'), (9, 10, 'SINGLE'),
      (9, 11, 'DOUBLE'), (9, 12, 'DOUBLE'), (8, 13, 'AROMATIC'), (13, 14, 'AROMATIC'), (14, 15, 'AROMATIC'),
      (15, 3, 'AROMATIC'), (14, 6, 'AROMATIC')]),
    ("CCN1C(=O)NC(c2ccccc2)C1=O", "0,0,0,0,0,0,0,,0,,0,0",
     [(6, 0, 1, 0, 3, 0, 'SP3', 0, 0), (6, 0, 2, 0, 2, 0, 'SP3', 0, 0), (7, 0, 3, 0, 0, 0, 'SP2', 0, 1),
      (6, 0, 3, 0, 0, 0, 'SP2', 0, 1), (8, 0, 1, 0, 0, 0, 'SP2', 0, 0), (7, 0, 2, 0, 1, 0, 'SP2', 0, 1),
      (6, 0, 3, 0, 1, 0, 'SP3', 0, 1), (6, 0, 3, 0, 0, 0, 'SP2', 1, 1), (6, 0, 2, 0, 1, 0, 'SP2', 1, 1),
      (6, 0, 2, 0, 1, 0, 'SP2', 1, 1), (6, 0, 2, 0, 1, 0, 'SP2', 1, 1), (6, 0, 2, 0, 1, 0, 'SP2', 1, 1),
      (6, 0, 2, 0, 1, 0, 'SP2', 1, 1), (6, 0, 3, 0, 0, 0, 'SP2', 0, 1), (8, 0, 1, 0, 0, 0, 'SP2', 0, 0)],
     [(0, 1, 'SINGLE'), (1, 2, 'SINGLE'), (2, 3, 'SINGLE'), (3, 4, 'DOUBLE'), (3, 5, 'SINGLE'),
      (5, 6, 'SINGLE'), (6, 7, 'SINGLE'), (7, 8, 'AROMATIC'), (8, 9, 'AROMATIC'), (9, 10, 'AROMATIC'),
      (10, 11, 'AROMATIC'), (11, 12, 'AROMATIC'), (12, 7, 'AROMATIC'), (6, 13, 'SINGLE'), (13, 14, 'DOUBLE'),
      (13, 2, 'SINGLE')]),
]


class Data(object):
    def __init__(self, x=None, edge_index=None, edge_attr=None, y=None, **kwargs):
        self.x, self.edge_index, self.edge_attr, self.y = x, edge_index, edge_attr, y
        for key, item in kwargs.items():
            setattr(self, key, item)

    @property
    def num_node_features(self):
        return self.x.size(1)

    def __repr__(self):
        return 'Data(x={}, edge_index={}, edge_attr={}, y={})'.format(
            list(self.x.size()), list(self.edge_index.size()), list(self.edge_attr.size()), list(self.y.size()))


class MoleculeNet(object):
    def __init__(self, root, name):
        self.root, self.name = root, name
        self.data_list = self.process()

    def process(self):
        data_list = []
        for smiles, ys, atoms, bonds in TOX21:
            ys = ys.split(',')
            ys = [float(y) if len(y) > 0 else float('NaN') for y in ys]
            y = torch.tensor(ys, dtype=torch.float).view(1, -1)

            xs = []
            for num, chi, deg, chg, hs, rad, hyb, aro, ring in atoms:
                x = []
                x.append(x_map['atomic_num'].index(num))
                x.append(chi)
                x.append(x_map['degree'].index(deg))
                x.append(x_map['formal_charge'].index(chg))
                x.append(x_map['num_hs'].index(hs))
                x.append(x_map['num_radical_electrons'].index(rad))
                x.append(x_map['hybridization'].index(hyb))
                x.append(x_map['is_aromatic'].index(bool(aro)))
                x.append(x_map['is_in_ring'].index(bool(ring)))
                xs.append(x)

            x = torch.tensor(xs, dtype=torch.long).view(-1, 9)  # root-cause-alt

            edge_indices, edge_attrs = [], []
            for i, j, kind in bonds:
                e = [e_map['bond_type'].index(kind), 0, e_map['is_conjugated'].index(kind != 'SINGLE')]
                edge_indices += [[i, j], [j, i]]
                edge_attrs += [e, e]

            edge_index = torch.tensor(edge_indices)
            edge_index = edge_index.t().to(torch.long).view(2, -1)
            edge_attr = torch.tensor(edge_attrs, dtype=torch.long).view(-1, 3)

            # Sort indices.
            if edge_index.numel() > 0:
                perm = (edge_index[0] * x.size(0) + edge_index[1]).argsort()
                edge_index, edge_attr = edge_index[:, perm], edge_attr[perm]

            data_list.append(Data(x=x, edge_index=edge_index, edge_attr=edge_attr, y=y, smiles=smiles))
        return data_list

    @property
    def num_node_features(self):
        return self.data_list[0].num_node_features

    @property
    def num_classes(self):
        y = self.data_list[0].y
        return int(y.max().item()) + 1 if y.dim() == 1 else y.size(1)

    def __getitem__(self, idx):
        return self.data_list[idx]

    def __len__(self):
        return len(self.data_list)


# ---- torch_geometric.nn.conv.gcn_conv (1.6.x): gcn_norm and GCNConv (propagate written out as a scatter-add) ---
def add_remaining_self_loops(edge_index, edge_weight=None, fill_value=1, num_nodes=None):
    N = num_nodes
    row, col = edge_index[0], edge_index[1]
    mask = row != col

    loop_index = torch.arange(0, N, dtype=row.dtype, device=row.device)
    loop_index = loop_index.unsqueeze(0).repeat(2, 1)
    edge_index = torch.cat([edge_index[:, mask], loop_index], dim=1)

    if edge_weight is not None:
        inv_mask = ~mask
        loop_weight = torch.full((N, ), fill_value, dtype=edge_weight.dtype, device=edge_index.device)
        remaining_edge_weight = edge_weight[inv_mask]
        if remaining_edge_weight.numel() > 0:
            loop_weight[row[inv_mask]] = remaining_edge_weight
        edge_weight = torch.cat([edge_weight[mask], loop_weight], dim=0)

    return edge_index, edge_weight


def scatter_add(src, index, dim=0, dim_size=None):
    out = src.new_zeros((dim_size, ) + src.shape[1:])
    return out.index_add_(dim, index, src)


def gcn_norm(edge_index, edge_weight=None, num_nodes=None, improved=False, add_self_loops=True, dtype=None):
    fill_value = 2. if improved else 1.

    if edge_weight is None:
        edge_weight = torch.ones((edge_index.size(1), ), dtype=dtype, device=edge_index.device)

    if add_self_loops:
        edge_index, tmp_edge_weight = add_remaining_self_loops(edge_index, edge_weight, fill_value, num_nodes)
        assert tmp_edge_weight is not None
        edge_weight = tmp_edge_weight

    row, col = edge_index[0], edge_index[1]
    deg = scatter_add(edge_weight, col, dim=0, dim_size=num_nodes)
    deg_inv_sqrt = deg.pow_(-0.5)  # fails-here
    deg_inv_sqrt.masked_fill_(deg_inv_sqrt == float('inf'), 0)
    return edge_index, deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]


class GCNConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels, improved=False, cached=False, add_self_loops=True,
                 normalize=True, bias=True):
        super(GCNConv, self).__init__()
        self.in_channels, self.out_channels = in_channels, out_channels
        self.improved, self.cached = improved, cached
        self.add_self_loops, self.normalize = add_self_loops, normalize
        self._cached_edge_index = None
        self.weight = Parameter(torch.Tensor(in_channels, out_channels))
        self.bias = Parameter(torch.Tensor(out_channels)) if bias else None
        torch.nn.init.xavier_uniform_(self.weight)
        if self.bias is not None:
            torch.nn.init.zeros_(self.bias)

    def forward(self, x, edge_index, edge_weight=None):
        if self.normalize:
            cache = self._cached_edge_index
            if cache is None:
                edge_index, edge_weight = gcn_norm(  # yapf: disable
                    edge_index, edge_weight, x.size(0), self.improved, self.add_self_loops, dtype=x.dtype)
                if self.cached:
                    self._cached_edge_index = (edge_index, edge_weight)
            else:
                edge_index, edge_weight = cache[0], cache[1]

        x = torch.matmul(x, self.weight)

        # propagate_type: (x: Tensor, edge_weight: OptTensor); message: edge_weight.view(-1, 1) * x_j, aggr='add'
        row, col = edge_index[0], edge_index[1]
        out = scatter_add(edge_weight.view(-1, 1) * x[row], col, dim=0, dim_size=x.size(0))

        if self.bias is not None:
            out += self.bias

        return out


# ---- the user's script ------------------------------------------------------------------------------------------
# dataset = Planetoid(root='Planetoid', name='Cora')
dataset = MoleculeNet('MoleculeNet', "Tox21")


class Net(torch.nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = GCNConv(dataset.num_node_features, 16)
        self.conv2 = GCNConv(16, dataset.num_classes)

    def forward(self, data):
        x, edge_index = data.x, data.edge_index  # root-cause

        x = self.conv1(x, edge_index)
        x = F.relu(x)
        x = F.dropout(x, training=self.training)
        x = self.conv2(x, edge_index)

        return F.log_softmax(x, dim=1)


test = dataset[0]
print(test)
net = Net()
out = net(test)
print(out.shape, out.exp().sum(dim=1)[:4])
