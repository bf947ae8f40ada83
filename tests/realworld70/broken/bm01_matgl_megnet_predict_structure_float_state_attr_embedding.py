"""A matgl-style multi-fidelity MEGNet band-gap model (state embedding over 4 functionals) is trained on toy crystals, then MEGNet.predict_structure(structure) is called without state_attr: the converter's default state_attr, np.array([0.0, 0.0]).astype(float32), becomes torch.tensor(state_attr_default), a float tensor, and the state nn.Embedding rejects float indices
source: https://github.com/materialyzeai/matgl/issues/641
reported-error: "RuntimeError in model.predict_structure due to FloatTensor passed to Embedding": model = matgl.load_model("MEGNet-MP-2019.4.1-BandGap-mfi"); model.predict_structure(structure) -> ... RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (fixed by PR #797: cast state_attr to long before the nn.Embedding lookup)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding) at line 78
root-cause: line 120
expect: DG005
"""
import math

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)
float_np, float_th, int_th = np.float32, torch.float32, torch.int64
ELEMENTS = ("C", "N", "O", "Si", "Ga", "As")


class Structure:
    """Minimal stand-in for pymatgen's Structure: a cubic lattice, species and fractional coordinates."""

    def __init__(self, a, species, frac_coords):
        self.lattice = np.eye(3) * a
        self.species = list(species)
        self.frac_coords = np.asarray(frac_coords, dtype=float)


class Structure2Graph:
    """Re-typed from matgl.ext._pymatgen_dgl.Structure2Graph + GraphConverter.get_graph_from_processed_structure."""

    def __init__(self, element_types, cutoff=4.0):
        self.element_types, self.cutoff = tuple(element_types), cutoff

    def get_graph(self, structure):
        cart = structure.frac_coords @ structure.lattice
        images = np.array([[i, j, k] for i in (-1, 0, 1) for j in (-1, 0, 1) for k in (-1, 0, 1)], dtype=float)
        src, dst, dist = [], [], []
        for i in range(len(cart)):
            for j in range(len(cart)):
                for img in images:
                    d = np.linalg.norm(cart[j] + img @ structure.lattice - cart[i])
                    if 1e-8 < d <= self.cutoff:
                        src.append(i), dst.append(j), dist.append(d)
        g = {
            "src": torch.tensor(src, dtype=int_th),
            "dst": torch.tensor(dst, dtype=int_th),
            "bond_dist": torch.tensor(np.array(dist), dtype=float_th),
            "node_type": torch.tensor([self.element_types.index(s) for s in structure.species], dtype=int_th),
        }
        lattice = torch.tensor(structure.lattice, dtype=float_th)
        state_attr = np.array([0.0, 0.0]).astype(float_np)
        return g, lattice, state_attr


class BondExpansion(nn.Module):
    def __init__(self, final=5.0, num_centers=20, width=0.5):
        super().__init__()
        self.register_buffer("centers", torch.linspace(0.0, final, num_centers))
        self.width = width

    def forward(self, r):
        return torch.exp(-((r[:, None] - self.centers) ** 2) / self.width**2)


class EmbeddingBlock(nn.Module):
    def __init__(self, degree_rbf, dim_node_embedding, ntypes_node, ntypes_state, dim_state_embedding):
        super().__init__()
        self.ntypes_state, self.dim_state_embedding = ntypes_state, dim_state_embedding
        self.layer_node_embedding = nn.Embedding(ntypes_node, dim_node_embedding)
        self.layer_edge_embedding = nn.Sequential(nn.Linear(degree_rbf, dim_node_embedding), nn.Softplus())
        if ntypes_state and dim_state_embedding is not None:
            self.layer_state_embedding = nn.Embedding(ntypes_state, dim_state_embedding)

    def forward(self, node_attr, edge_attr, state_attr):
        node_feat = self.layer_node_embedding(node_attr)
        edge_feat = self.layer_edge_embedding(edge_attr.to(float_th))
        state_feat = self.layer_state_embedding(state_attr)  # fails-here  # root-cause-alt
        return node_feat, edge_feat, state_feat


class MEGNetBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.edge_mlp = nn.Sequential(nn.Linear(4 * dim, dim), nn.Softplus())
        self.node_mlp = nn.Sequential(nn.Linear(3 * dim, dim), nn.Softplus())
        self.state_mlp = nn.Sequential(nn.Linear(3 * dim, dim), nn.Softplus())

    def forward(self, g, edge_feat, node_feat, state_feat):
        u = state_feat.expand(edge_feat.shape[0], -1)
        e = edge_feat + self.edge_mlp(torch.cat([node_feat[g["src"]], node_feat[g["dst"]], edge_feat, u], 1))
        agg = torch.zeros_like(node_feat).index_add_(0, g["src"], e) / max(1, e.shape[0] // node_feat.shape[0])
        v = node_feat + self.node_mlp(torch.cat([node_feat, agg, state_feat.expand(node_feat.shape[0], -1)], 1))
        s = state_feat + self.state_mlp(torch.cat([state_feat, e.mean(0, keepdim=True), v.mean(0, keepdim=True)], 1))
        return e, v, s


class MEGNet(nn.Module):
    def __init__(self, dim=16, dim_edge_embedding=20, ntypes_state=None, nblocks=2, element_types=ELEMENTS, cutoff=4.0):
        super().__init__()
        self.element_types, self.cutoff = element_types, cutoff
        self.bond_expansion = BondExpansion(final=cutoff + 1.0, num_centers=dim_edge_embedding)
        self.embedding = EmbeddingBlock(dim_edge_embedding, dim, len(element_types), ntypes_state, dim)
        self.blocks = nn.ModuleList([MEGNetBlock(dim) for _ in range(nblocks)])
        self.output_proj = nn.Sequential(nn.Linear(3 * dim, 16), nn.Softplus(), nn.Linear(16, 1))

    def forward(self, g, state_attr=None):
        edge_attr = self.bond_expansion(g["bond_dist"])
        node_feat, edge_feat, state_feat = self.embedding(g["node_type"], edge_attr, state_attr)
        for block in self.blocks:
            edge_feat, node_feat, state_feat = block(g, edge_feat, node_feat, state_feat)
        vec = torch.cat([node_feat.mean(0), edge_feat.mean(0), state_feat.squeeze(0)])
        return self.output_proj(vec).squeeze()

    def predict_structure(self, structure, state_attr=None, graph_converter=None):
        if graph_converter is None:
            graph_converter = Structure2Graph(element_types=self.element_types, cutoff=self.cutoff)
        g, lat, state_attr_default = graph_converter.get_graph(structure)
        if state_attr is None:
            state_attr = torch.tensor(state_attr_default)  # root-cause
        return self(g=g, state_attr=state_attr).detach()


def toy_crystal():
    a = rng.uniform(3.6, 5.6)
    pair = [("C", "C"), ("Si", "Si"), ("Ga", "As"), ("Ga", "N"), ("Si", "C")][rng.integers(5)]
    frac = [[0, 0, 0], [0.25, 0.25, 0.25]] + rng.normal(0, 0.01, (2, 3))
    gap = 0.4 * (ELEMENTS.index(pair[0]) + ELEMENTS.index(pair[1])) / a + 0.2
    return Structure(a, pair, frac), gap


FIDELITY_SHIFT = {0: 0.0, 1: 0.6, 2: 1.1, 3: 0.8}  # PBE, GLLB-SC, HSE, SCAN
converter = Structure2Graph(ELEMENTS, cutoff=4.0)
dataset = []
for _ in range(40):
    s, gap = toy_crystal()
    fid = int(rng.integers(4))
    g, _, _ = converter.get_graph(s)
    dataset.append((g, torch.tensor([fid]), torch.tensor(gap + FIDELITY_SHIFT[fid], dtype=float_th)))

model = MEGNet(ntypes_state=4)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(15):
    total = 0.0
    for g, fid, y in dataset:
        loss = (model(g, state_attr=fid) - y) ** 2
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    if epoch % 5 == 0:
        print(f"epoch {epoch}: mse {total / len(dataset):.4f}")

model.eval()
gaas = Structure(5.65, ["Ga", "As"], [[0, 0, 0], [0.25, 0.25, 0.25]])
bandgap = model.predict_structure(gaas)
print(f"GaAs band gap: {float(bandgap):.3f} eV")
