"""An atomsurf-style MaSIF-site run (re-typed: SurfaceObject/ResidueGraph saved whole with torch.save by the preprocessing step, SurfaceLoader/GraphLoader.load reading them back with a plain torch.load inside try/except, MasifSiteDataset returning None for a failed system, AtomBatch dropping Nones, update_model_input_dim): under the weights-only default every cached .pt is refused, the loaders swallow the UnpicklingError and return None, and the data module finds no usable example
source: https://github.com/Vincentx15/atomsurf/pull/5
reported-error: "fix: Add weights_only=False to torch.load for data loaders" (PyTorch >= 2.6 changed the torch.load default; the surfaces and graphs are whole pickled objects, so every SurfaceLoader/GraphLoader.load silently returned None and training found no data)
outcome: RuntimeError: Train dataloader, returned no data, model input dims could not be inferred ... (every SurfaceLoader/GraphLoader.load swallowed the UnpicklingError for GLOBAL __main__.SurfaceObject and returned None; update_model_input_dim re-raises it as Exception('Could not update model input dims because of error: ', RuntimeError(...))) at line 149
root-cause: line 81
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)


class Data:
    """The torch_geometric.data.Data subset used here: attributes plus .keys."""

    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)

    @property
    def keys(self):
        return [k for k in self.__dict__ if not k.startswith("_")]

    def __getitem__(self, key):
        return getattr(self, key)

    def __setitem__(self, key, value):
        setattr(self, key, value)


class SurfaceObject(Data):
    def from_numpy(self):
        for key in ("verts", "geom_feats", "iface_labels"):
            value = getattr(self, key)
            if isinstance(value, np.ndarray):
                setattr(self, key, torch.from_numpy(value).float())
        return self

    def set_vnormals(self):
        centred = self.verts - self.verts.mean(0)
        self.vnormals = centred / centred.norm(dim=1, keepdim=True)

    def expand_features(self, remove_feats=True):
        self.x = torch.cat([self.geom_feats, self.vnormals], dim=-1)

    def save_torch(self, torch_path):
        self.from_numpy()
        torch.save(self, open(torch_path, "wb"))  # root-cause-alt


class ResidueGraph(Data):
    def expand_features(self, remove_feats=True):
        self.x = torch.cat([self.node_feats, self.node_pos / 10.0], dim=-1)


def preprocess(data_dir, name):
    """pdb_to_surf / pdb_to_graphs: build the objects once and cache them whole."""
    n_verts, n_res = 60, 20
    verts = rng.normal(0.0, 10.0, (n_verts, 3))
    geom = np.concatenate([np.tanh(verts / 10.0), rng.normal(0, 1, (n_verts, 5))], axis=1)
    labels = (verts[:, 0] > 0).astype(np.float64)
    surface = SurfaceObject(verts=verts, geom_feats=geom, iface_labels=labels)
    surface.save_torch(os.path.join(data_dir, "surfaces_0.1_False", f"{name}.pt"))
    rgraph = ResidueGraph(node_pos=torch.from_numpy(rng.normal(0, 10.0, (n_res, 3))).float(),
                          node_feats=torch.nn.functional.one_hot(torch.randint(0, 20, (n_res,)), 20).float())
    torch.save(rgraph, open(os.path.join(data_dir, "rgraph", f"{name}.pt"), "wb"))


class SurfaceLoader:
    def __init__(self, data_dir):
        self.data_dir = data_dir

    def load(self, surface_name):
        try:
            surface = torch.load(os.path.join(self.data_dir, f"{surface_name}.pt"))  # root-cause
            surface.set_vnormals()
            with torch.no_grad():
                surface.expand_features(remove_feats=True)
            if torch.isnan(surface.x).any() or torch.isnan(surface.verts).any():
                return None
            return surface
        except Exception:
            return None


class GraphLoader:
    def __init__(self, data_dir):
        self.data_dir = data_dir

    def load(self, graph_name):
        try:
            graph = torch.load(os.path.join(self.data_dir, f"{graph_name}.pt"))
            if "node_len" not in graph.keys:
                graph.node_len = len(graph.node_pos)
            with torch.no_grad():
                graph.expand_features(remove_feats=True)
            if torch.isnan(graph.x).any():
                return None
        except Exception:
            return None
        return graph


class MasifSiteDataset(Dataset):
    def __init__(self, systems, surface_builder, graph_builder):
        self.systems, self.surface_builder, self.graph_builder = systems, surface_builder, graph_builder

    def __len__(self):
        return len(self.systems)

    def __getitem__(self, idx):
        pocket = self.systems[idx]
        surface = self.surface_builder.load(pocket)
        graph = self.graph_builder.load(pocket)
        if surface is None or graph is None:
            return None
        return Data(surface=surface, graph=graph, label=surface.iface_labels)


def collate(data_list):
    """AtomBatch.from_data_list: drop the Nones, keep per-system surfaces and graphs as lists."""
    data_list = [x for x in data_list if x is not None]
    if len(data_list) == 0:
        return Data(num_graphs=0)
    return Data(surface=[d.surface for d in data_list], graph=[d.graph for d in data_list],
                label=torch.cat([d.label for d in data_list]), num_graphs=len(data_list))


def update_model_input_dim(cfg, dataset_temp, gkey="graph", skey="surface"):
    try:
        found = False
        for i, example in enumerate(dataset_temp):
            if example is not None:
                cfg["g_dim_in"] = example[gkey].x.shape[1]
                cfg["s_dim_in"] = example[skey].x.shape[1]
                found = True
                break
            if i > 50:
                break
        if not found:
            raise RuntimeError("Train dataloader, returned no data, model input dims could not be inferred")
    except Exception as e:
        raise Exception("Could not update model input dims because of error: ", e)  # fails-here


class MasifSiteNet(nn.Module):
    def __init__(self, s_dim_in, g_dim_in, hidden=32):
        super().__init__()
        self.s_pre = nn.Sequential(nn.Linear(s_dim_in, hidden), nn.ReLU())
        self.g_pre = nn.Sequential(nn.Linear(g_dim_in, hidden), nn.ReLU())
        self.head = nn.Linear(2 * hidden, 1)

    def forward(self, surface, graph):
        s = self.s_pre(surface.x)
        g = self.g_pre(graph.x).mean(0, keepdim=True).expand(s.shape[0], -1)
        return self.head(torch.cat([s, g], dim=-1)).squeeze(-1)


with tempfile.TemporaryDirectory() as data_dir:
    os.makedirs(os.path.join(data_dir, "surfaces_0.1_False"))
    os.makedirs(os.path.join(data_dir, "rgraph"))
    names = [f"{i:04d}_A" for i in range(12)]
    for name in names:
        preprocess(data_dir, name)
    with open(os.path.join(data_dir, "train_list.txt"), "w") as f:
        f.write("\n".join(names) + "\n")

    # MasifSiteDataModule.__init__
    surface_loader = SurfaceLoader(os.path.join(data_dir, "surfaces_0.1_False"))
    graph_loader = GraphLoader(os.path.join(data_dir, "rgraph"))
    trainval_sys = [line.strip() for line in open(os.path.join(data_dir, "train_list.txt"))]
    np.random.default_rng(42).shuffle(trainval_sys)
    cut = int(0.9 * len(trainval_sys))
    train_sys, val_sys = trainval_sys[:cut], trainval_sys[cut:]
    cfg = {}
    update_model_input_dim(cfg, MasifSiteDataset(train_sys, surface_loader, graph_loader))

    model = MasifSiteNet(cfg["s_dim_in"], cfg["g_dim_in"])
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    loader = DataLoader(MasifSiteDataset(train_sys, surface_loader, graph_loader), batch_size=4,
                        shuffle=True, collate_fn=collate)
    for epoch in range(3):
        for batch in loader:
            if batch.num_graphs == 0:
                continue
            logits = torch.cat([model(s, g) for s, g in zip(batch.surface, batch.graph)])
            loss = nn.functional.binary_cross_entropy_with_logits(logits, batch.label)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
