"""pytorch_tabular self-supervised pre-training (re-typed: a pandas categorical encoder, MixedEmbedding1dLayer, SwapNoiseCorrupter, DenoisingAutoEncoderModel with MultiTaskHead) on a customer table with a yes/no column: the binary column's pandas category codes (int64) are kept as the reconstruction target of BCEWithLogitsLoss, which fails on the first pretrain step
source: https://github.com/pytorch-tabular/pytorch_tabular/issues/304
reported-error: "runtime error during pretrain of SSL model" (tabular_model.pretrain -> trainer.fit -> DenoisingAutoEncoderModel.calculate_loss; PR #315 "fixed bug for ssl with binary dtype": loss = self.losses["binary"](out.reconstructed, out.original.float()))
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 210
root-cause: line 198
expect: DG007
"""
from collections import OrderedDict, namedtuple

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(42)
rng = np.random.default_rng(42)

# ---- data: a pandas table as TabularModel.pretrain receives it ----
n = 512
df = pd.DataFrame({
    "is_member": rng.choice(["yes", "no"], size=n),
    "channel": rng.choice(["web", "store", "phone"], size=n),
    "region": rng.choice([f"r{i}" for i in range(12)], size=n),
    "age": rng.normal(40, 12, size=n),
    "spend": rng.gamma(2.0, 50.0, size=n),
})
categorical_cols, continuous_cols = ["is_member", "channel", "region"], ["age", "spend"]


class CategoricalEmbeddingEncoder:
    """OrdinalEncoder-like: category codes per column (int64), cardinality from the training data."""

    def fit_transform(self, data):
        self.mapping = {c: {v: i for i, v in enumerate(sorted(data[c].unique()))} for c in categorical_cols}
        out = data.copy()
        for c in categorical_cols:
            out[c] = data[c].map(self.mapping[c]).astype("int64")
        return out


class TabularDataset(Dataset):
    def __init__(self, data):
        self.categorical_X = data[categorical_cols].values  # int64 codes
        self.continuous_X = data[continuous_cols].values.astype(np.float32)

    def __len__(self):
        return len(self.categorical_X)

    def __getitem__(self, idx):
        return {"continuous": self.continuous_X[idx], "categorical": self.categorical_X[idx]}


encoded = CategoricalEmbeddingEncoder().fit_transform(df)
for c in continuous_cols:  # the datamodule's StandardScaler
    encoded[c] = (encoded[c] - encoded[c].mean()) / encoded[c].std()
embedding_dims = [(len(df[c].unique()), min(50, (len(df[c].unique()) + 1) // 2)) for c in categorical_cols]
loader = DataLoader(TabularDataset(encoded), batch_size=64, shuffle=True)


# ---- pytorch_tabular.ssl_models ----
class OneHot(nn.Module):
    def __init__(self, cardinality):
        super().__init__()
        self.cardinality = cardinality

    def forward(self, x):
        return F.one_hot(x, self.cardinality)


class MixedEmbedding1dLayer(nn.Module):
    """Enables different values in a categorical features to have different embeddings."""

    def __init__(self, continuous_dim, categorical_embedding_dims, max_onehot_cardinality=4):
        super().__init__()
        self.continuous_dim, self.categorical_embedding_dims = continuous_dim, categorical_embedding_dims
        self.categorical_dim = len(categorical_embedding_dims)
        self._binary_feat_idx, self._onehot_feat_idx, self._embedding_feat_idx = [], [], []
        embd_layers, one_hot_layers = {}, {}
        for i, (cardinality, embed_dim) in enumerate(categorical_embedding_dims):
            if cardinality == 2:
                self._binary_feat_idx.append(i)
            elif cardinality <= max_onehot_cardinality:
                self._onehot_feat_idx.append(i)
                one_hot_layers[str(i)] = OneHot(cardinality)
            else:
                self._embedding_feat_idx.append(i)
                embd_layers[str(i)] = nn.Embedding(cardinality, embed_dim)
        self.embedding_layer = nn.ModuleDict(embd_layers)
        self.one_hot_layers = nn.ModuleDict(one_hot_layers)

    @property
    def embedded_cat_dim(self):
        return sum(d for i, (_, d) in enumerate(self.categorical_embedding_dims) if i in self._embedding_feat_idx)

    def forward(self, x):
        continuous_data, categorical_data = x["continuous"], x["categorical"]
        x_cat, x_cat_orig, x_binary, x_embed = [], [], [], []
        for i in range(self.categorical_dim):
            if i in self._binary_feat_idx:
                x_binary.append(categorical_data[:, i: i + 1])
            elif i in self._onehot_feat_idx:
                x_cat.append(self.one_hot_layers[str(i)](categorical_data[:, i]))
                x_cat_orig.append(categorical_data[:, i: i + 1])
            else:
                x_embed.append(self.embedding_layer[str(i)](categorical_data[:, i]))
        return OrderedDict(
            binary=torch.cat(x_binary, 1) if x_binary else None,
            categorical=torch.cat(x_cat, 1) if x_cat else None,
            _categorical_orig=torch.cat(x_cat_orig, 1) if x_cat_orig else None,
            continuous=continuous_data,
            embedding=torch.cat(x_embed, 1) if x_embed else None,
        )


class SwapNoiseCorrupter(nn.Module):
    """Each data point has specified chance be replaced by a random value from the same column."""

    def __init__(self, probas):
        super().__init__()
        self.probas = torch.from_numpy(np.array(probas))

    def forward(self, x):
        should_swap = torch.bernoulli(self.probas.to(x.device) * torch.ones(x.shape).to(x.device))
        corrupted_x = torch.where(should_swap == 1, x[torch.randperm(x.shape[0])], x)
        mask = (corrupted_x != x).float()
        return corrupted_x, mask


class MultiTaskHead(nn.Module):
    def __init__(self, in_features, n_binary=0, n_categorical=0, n_numerical=0, cardinality=()):
        super().__init__()
        self.binary_linear = nn.Linear(in_features, n_binary) if n_binary else None
        self.categorical_linears = nn.ModuleList([nn.Linear(in_features, card) for card in cardinality])
        self.numerical_linear = nn.Linear(in_features, n_numerical) if n_numerical else None

    def forward(self, features):
        outputs = {}
        if self.binary_linear:
            outputs["binary"] = self.binary_linear(features)
        if self.categorical_linears:
            outputs["categorical"] = [linear(features) for linear in self.categorical_linears]
        if self.numerical_linear:
            outputs["continuous"] = self.numerical_linear(features)
        return outputs


def category_embedding_backbone(input_dim, layers="64-32"):
    dims, mods = [input_dim] + [int(d) for d in layers.split("-")], []
    for a, b in zip(dims[:-1], dims[1:]):
        mods += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*mods)


class DenoisingAutoEncoderModel(nn.Module):
    output_tuple = namedtuple("output_tuple", ["original", "reconstructed"])
    loss_weight_tuple = namedtuple("loss_weight_tuple", ["binary", "categorical", "continuous", "mask"])

    def __init__(self, embedding_dims, continuous_dim, default_noise_probability=0.8, mask_loss_weight=2.0):
        super().__init__()
        self.embedding_layer = MixedEmbedding1dLayer(continuous_dim, embedding_dims)
        probas = []
        for card, embed_dim in embedding_dims:
            probas += [default_noise_probability] * (1 if card == 2 else card if card <= 4 else embed_dim)
        probas += [default_noise_probability] * continuous_dim
        self.swap_noise = SwapNoiseCorrupter(probas)
        self.encoder = category_embedding_backbone(len(probas), "64-32")
        self.decoder = category_embedding_backbone(32, "64")
        emb = self.embedding_layer
        self.reconstruction = MultiTaskHead(
            64, n_binary=len(emb._binary_feat_idx), n_categorical=len(emb._onehot_feat_idx),
            n_numerical=emb.embedded_cat_dim + continuous_dim,
            cardinality=[embedding_dims[i][0] for i in emb._onehot_feat_idx])
        self.mask_reconstruction = nn.Linear(64, len(probas))
        self.losses = {"binary": nn.BCEWithLogitsLoss(), "categorical": nn.CrossEntropyLoss(),
                       "continuous": nn.MSELoss(), "mask": nn.BCEWithLogitsLoss()}
        n_features = continuous_dim + len(embedding_dims)
        self.loss_weights = self.loss_weight_tuple(len(emb._binary_feat_idx) / n_features,
                                                   len(emb._onehot_feat_idx) / n_features,
                                                   continuous_dim + len(emb._embedding_feat_idx) / n_features,
                                                   mask_loss_weight)

    def forward(self, x):
        x = self.embedding_layer(x)
        features = torch.cat([x[key] for key in ["binary", "categorical", "continuous", "embedding"] if x[key] is not None], 1)
        with torch.no_grad():
            features, mask = self.swap_noise(features)
        z_hat = self.decoder(self.encoder(features))
        reconstructed_in = self.reconstruction(z_hat)
        output_dict = {"mask": self.output_tuple(mask, self.mask_reconstruction(z_hat))}
        output_dict["continuous"] = self.output_tuple(
            torch.cat([i for i in [x.get("continuous", None), x.get("embedding", None)] if i is not None], 1),
            reconstructed_in["continuous"])
        if "categorical" in reconstructed_in:
            output_dict["categorical"] = self.output_tuple(x["_categorical_orig"], reconstructed_in["categorical"])
        if "binary" in reconstructed_in:
            output_dict["binary"] = self.output_tuple(x["binary"], reconstructed_in["binary"])  # root-cause
        return output_dict

    def calculate_loss(self, output):
        total_loss = 0
        for type_, out in output.items():
            if type_ == "categorical":
                loss = 0
                for i in range(out.original.size(-1)):
                    loss += self.losses[type_](out.reconstructed[i], out.original[:, i])
                loss *= getattr(self.loss_weights, type_)
            else:
                loss = self.losses[type_](out.reconstructed, out.original) * getattr(self.loss_weights, type_)  # root-cause-alt  # fails-here
            total_loss += loss
        return total_loss


model = DenoisingAutoEncoderModel(embedding_dims, continuous_dim=len(continuous_cols))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):  # tabular_model.pretrain(train=train, validation=val)
    epoch_loss = 0.0
    for batch in loader:
        loss = model.calculate_loss(model(batch))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
    print(f"epoch {epoch}: train_loss {epoch_loss / len(loader):.4f}")
