"""An openff-nagl GNN partial-charge model trained, written with GNNModel.save() and read back with GNNModel.load(): save() stores {"hyperparameters": self.hparams, "state_dict": ...}, and self.hparams is the LightningModule's AttributeDict that save_hyperparameters() made, so load()'s torch.load(str(model)) under the weights-only default of torch >= 2.6 refuses the file
source: https://github.com/openforcefield/openff-nagl/issues/181
reported-error: UnpicklingError: Weights only load failed ... WeightsUnpickler error: Unsupported global: GLOBAL pytorch_lightning.utilities.parsing.AttributeDict was not an allowed global by default ("Right now loading a model fails in the just released Pytorch 2.6"; fixed by PR #183 "add weights_only=False")
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.AttributeDict was not an allowed global by default. ... at line 172
root-cause: line 172
expect: DG011
"""
import os
import tempfile
import types
from typing import Dict

import numpy as np
import torch

torch.manual_seed(0)
rng = np.random.default_rng(0)


# ---- pytorch_lightning stand-ins: AttributeDict and LightningModule.save_hyperparameters / hparams ----------------
class AttributeDict(dict):
    """pytorch_lightning.utilities.parsing.AttributeDict: a dict whose keys read as attributes."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError as exp:
            raise AttributeError(f'Missing attribute "{key}"') from exp

    def __setattr__(self, key, val):
        self[key] = val


class LightningModule(torch.nn.Module):
    def save_hyperparameters(self, hp):
        self._hparams = AttributeDict(hp)

    @property
    def hparams(self):
        if not hasattr(self, "_hparams"):
            self._hparams = AttributeDict()
        return self._hparams


# ---- openff.nagl.config.model.ModelConfig / ChemicalDomain (pydantic models; .dict() gives plain dicts) ---------
class ModelConfig(object):
    def __init__(self, atom_features, convolution, readouts):
        self.atom_features = list(atom_features)
        self.convolution = convolution
        self.readouts = readouts

    @property
    def n_atom_features(self):
        return sum(f["length"] for f in self.atom_features)

    def dict(self):
        return {"atom_features": self.atom_features, "convolution": self.convolution, "readouts": self.readouts}


class ChemicalDomain(object):
    def __init__(self, allowed_elements=(), forbidden_patterns=()):
        self.allowed_elements, self.forbidden_patterns = tuple(allowed_elements), tuple(forbidden_patterns)

    def dict(self):
        return {"allowed_elements": self.allowed_elements, "forbidden_patterns": self.forbidden_patterns}


# ---- openff.nagl.nn._containers: ConvolutionModule (GraphSAGE, mean aggregation) and ReadoutModule ---------------
class SAGEConvLayer(torch.nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.fc_self = torch.nn.Linear(n_in, n_out)
        self.fc_neigh = torch.nn.Linear(n_in, n_out, bias=False)

    def forward(self, adj, h):
        h_neigh = (adj @ h) / adj.sum(1, keepdim=True).clamp(min=1)
        return torch.relu(self.fc_self(h) + self.fc_neigh(h_neigh))


class ConvolutionModule(torch.nn.Module):
    def __init__(self, n_input_features, hidden_feature_sizes):
        super().__init__()
        sizes = [n_input_features] + list(hidden_feature_sizes)
        self.gcn_layers = torch.nn.ModuleList(SAGEConvLayer(a, b) for a, b in zip(sizes[:-1], sizes[1:]))

    @classmethod
    def from_config(cls, config, n_input_features):
        return cls(n_input_features, [layer["hidden_feature_size"] for layer in config["layers"]])

    def forward(self, molecule):
        h = molecule.atom_features
        for layer in self.gcn_layers:
            h = layer(molecule.adj, h)
        molecule.representations = h


class ReadoutModule(torch.nn.Module):
    """Pooling over atoms, a small MLP, and the 'compute_partial_charges' postprocess (charges sum to the total)."""

    def __init__(self, n_input_features, hidden_feature_size):
        super().__init__()
        self.readout_layers = torch.nn.Sequential(torch.nn.Linear(n_input_features, hidden_feature_size),
                                                  torch.nn.ReLU(), torch.nn.Linear(hidden_feature_size, 2))

    @classmethod
    def from_config(cls, config, n_input_features):
        return cls(n_input_features, config["layers"][0]["hidden_feature_size"])

    def forward(self, molecule):
        electronegativity, hardness = self.readout_layers(molecule.representations).unbind(-1)
        inv_hardness = 1.0 / (hardness.abs() + 1.0)
        e_over_s = electronegativity * inv_hardness
        total = molecule.formal_charge.sum()
        return -e_over_s + inv_hardness * (total + e_over_s.sum()) / inv_hardness.sum()


# ---- openff.nagl.nn._models (before PR #183) -------------------------------------------------------------------
class BaseGNNModel(LightningModule):
    def __init__(self, convolution_module, readout_modules):
        super().__init__()
        self.convolution_module = convolution_module
        self.readout_modules = torch.nn.ModuleDict(readout_modules)

    def forward(self, molecule) -> Dict[str, torch.Tensor]:
        self.convolution_module(molecule)

        readouts: Dict[str, torch.Tensor] = {
            readout_type: readout_module(molecule)
            for readout_type, readout_module in self.readout_modules.items()
        }
        return readouts


class GNNModel(BaseGNNModel):
    def __init__(self, config, chemical_domain=None, lookup_tables=None):
        if not isinstance(config, ModelConfig):
            config = ModelConfig(**config)

        if chemical_domain is None:
            chemical_domain = ChemicalDomain(allowed_elements=tuple(), forbidden_patterns=tuple())
        elif not isinstance(chemical_domain, ChemicalDomain):
            chemical_domain = ChemicalDomain(**chemical_domain)

        convolution_module = ConvolutionModule.from_config(
            config.convolution,
            n_input_features=config.n_atom_features,
        )

        readout_modules = {}
        for readout_name, readout_config in config.readouts.items():
            readout_modules[readout_name] = ReadoutModule.from_config(
                readout_config,
                n_input_features=config.convolution["layers"][-1]["hidden_feature_size"],
            )

        super().__init__(
            convolution_module=convolution_module,
            readout_modules=readout_modules,
        )

        self.save_hyperparameters({
            "config": config.dict(),
            "chemical_domain": chemical_domain.dict(),
            "lookup_tables": dict(lookup_tables or {}),
        })
        self.config = config
        self.chemical_domain = chemical_domain
        self.lookup_tables = types.MappingProxyType({})

    @classmethod
    def load(cls, model: str, eval_mode: bool = True, **kwargs):
        model_kwargs = torch.load(str(model), **kwargs)  # root-cause  # fails-here
        if isinstance(model_kwargs, dict):
            model = cls(**model_kwargs["hyperparameters"])
            model.load_state_dict(model_kwargs["state_dict"])
        elif isinstance(model_kwargs, cls):
            model = model_kwargs
        else:
            raise ValueError(f"Unknown model type {type(model_kwargs)}")
        if eval_mode:
            model.eval()

        return model

    def save(self, path: str):
        torch.save(
            {
                "hyperparameters": self.hparams,  # root-cause-alt
                "state_dict": self.state_dict(),
            },
            str(path),
        )


# ---- molecules as NAGL sees them: one-hot atom features, a bond adjacency, formal charges, AM1-BCC targets -------
ELEMENTS = [1, 6, 7, 8, 16]


def make_molecule(n_atoms):
    elements = rng.choice(ELEMENTS, n_atoms, p=[0.45, 0.35, 0.08, 0.1, 0.02])
    degree = rng.integers(1, 5, n_atoms)
    feats = np.concatenate([np.eye(len(ELEMENTS))[[ELEMENTS.index(e) for e in elements]],
                            np.eye(6)[degree]], axis=1)
    adj = np.zeros((n_atoms, n_atoms))
    for i in range(1, n_atoms):
        j = rng.integers(0, i)
        adj[i, j] = adj[j, i] = 1
    charges = 0.3 * (elements == 8) * -1 + 0.1 * (elements == 1) - 0.25 * (elements == 7)
    charges = charges - charges.mean()
    return types.SimpleNamespace(atom_features=torch.tensor(feats, dtype=torch.float32),
                                 adj=torch.tensor(adj, dtype=torch.float32),
                                 formal_charge=torch.zeros(n_atoms),
                                 am1bcc_charges=torch.tensor(charges, dtype=torch.float32))


def main():
    config = ModelConfig(
        atom_features=[{"name": "atomic_element", "length": len(ELEMENTS)}, {"name": "atom_connectivity", "length": 6}],
        convolution={"architecture": "SAGEConv",
                     "layers": [{"hidden_feature_size": 32, "activation_function": "ReLU", "aggregator_type": "mean"}] * 3},
        readouts={"am1bcc_charges": {"pooling": "atoms",
                                     "layers": [{"hidden_feature_size": 32, "activation_function": "ReLU"}],
                                     "postprocess": "compute_partial_charges"}},
    )
    model = GNNModel(config, chemical_domain={"allowed_elements": ELEMENTS, "forbidden_patterns": ()})
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    molecules = [make_molecule(int(n)) for n in rng.integers(5, 20, 40)]
    for epoch in range(5):
        total = 0.0
        for mol in molecules:
            pred = model(mol)["am1bcc_charges"]
            loss = torch.sqrt(torch.mean((pred - mol.am1bcc_charges) ** 2))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: charge RMSE {total / len(molecules):.4f}")

    path = os.path.join(tempfile.mkdtemp(), "openff-gnn-am1bcc.pt")
    model.save(path)

    new_model = GNNModel.load(path)
    mol = molecules[0]
    with torch.no_grad():
        before = model.eval()(mol)["am1bcc_charges"]
        after = new_model(mol)["am1bcc_charges"]
    print("max |charge difference| after reload:", (before - after).abs().max().item())


main()
