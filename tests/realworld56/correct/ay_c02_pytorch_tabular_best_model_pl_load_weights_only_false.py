"""The pytorch_tabular-style TabularModel of ay02 (pytorch-tabular/pytorch_tabular #548) with the fix of PRs #543/#554: pl_load reads the Lightning-style checkpoint with weights_only=False (the file is the run's own best checkpoint), so the DictConfig kept in hyper_parameters unpickles and load_best_model restores the best epoch; the map_location lambda, the DictConfig hyper-parameters and the long category codes are kept
source: https://github.com/pytorch-tabular/pytorch_tabular/issues/548
reported-error: (none filed; the fixed situation of ay02)
outcome: ok
root-cause: -
expect: none
"""
import copy
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(0)
WORK = tempfile.mkdtemp()


class DictConfig:
    """Minimal stand-in for omegaconf.DictConfig: attribute access over a nested content dict."""

    def __init__(self, content, parent=None):
        self.__dict__["_content"] = {k: DictConfig(v, self) if isinstance(v, dict) else v for k, v in content.items()}
        self.__dict__["_parent"] = parent
        self.__dict__["_metadata"] = {"object_type": dict, "optional": True}

    def __getattr__(self, key):
        if key.startswith("__"):
            raise AttributeError(key)
        try:
            return self.__dict__["_content"][key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key, value):
        self._content[key] = value

    def __getitem__(self, key):
        return self._content[key]

    def __contains__(self, key):
        return key in self._content


def merge(*configs):
    out = {}
    for c in configs:
        out.update(c)
    return DictConfig(out)


def pl_load(path_or_url, map_location=None):
    with open(path_or_url, "rb") as f:
        # the checkpoint written by this run's ModelCheckpoint: trusted, and it holds the DictConfig hyper-parameters
        return torch.load(f, map_location=map_location, weights_only=False)


class CategoryEmbeddingModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.hparams = config  # LightningModule.save_hyperparameters(config)
        emb = [nn.Embedding(card, min(50, (card + 1) // 2)) for card in config.embedding_cardinality]
        self.embeddings = nn.ModuleList(emb)
        in_dim = sum(e.embedding_dim for e in emb) + config.continuous_dim
        layers, d = [], in_dim
        for width in config.layers.split("-"):
            layers += [nn.Linear(d, int(width)), nn.ReLU(), nn.Dropout(config.dropout)]
            d = int(width)
        self.backbone = nn.Sequential(*layers)
        self.head = nn.Linear(d, config.output_dim)

    def forward(self, x_cat, x_cont):
        emb = torch.cat([e(x_cat[:, i]) for i, e in enumerate(self.embeddings)], dim=1)
        return self.head(self.backbone(torch.cat([emb, x_cont], dim=1)))


class ModelCheckpoint:
    def __init__(self, dirpath, monitor="valid_loss"):
        self.dirpath, self.monitor = dirpath, monitor
        self.best_model_score, self.best_model_path = float("inf"), ""

    def on_validation_end(self, model, epoch, score):
        if score < self.best_model_score:
            self.best_model_score = score
            self.best_model_path = os.path.join(self.dirpath, f"epoch={epoch}-valid_loss={score:.4f}.ckpt")
            torch.save({"epoch": epoch, "state_dict": model.state_dict(), "hyper_parameters": model.hparams,
                        "callbacks": {"ModelCheckpoint": {"best_model_score": torch.tensor(score)}}},
                       self.best_model_path)


class TabularModel:
    def __init__(self, data_config, model_config, trainer_config, optimizer_config):
        self.config = merge(data_config, model_config, trainer_config, optimizer_config)
        self.checkpoint_callback = ModelCheckpoint(WORK)

    def _prepare(self, df):
        cat = torch.tensor(np.stack([df[c].cat.codes.to_numpy() for c in self.config.categorical_cols], 1),
                           dtype=torch.long)
        cont = torch.tensor(df[self.config.continuous_cols].to_numpy(np.float32))
        y = torch.tensor(df[self.config.target[0]].to_numpy(), dtype=torch.long)
        return cat, cont, y

    def fit(self, train, validation):
        self.config.embedding_cardinality = [len(train[c].cat.categories) for c in self.config.categorical_cols]
        self.config.continuous_dim = len(self.config.continuous_cols)
        self.model = CategoryEmbeddingModel(self.config)
        opt = torch.optim.Adam(self.model.parameters(), lr=self.config.learning_rate)
        xc, xn, y = self._prepare(train)
        vc, vn, vy = self._prepare(validation)
        loss_fn = nn.CrossEntropyLoss()
        for epoch in range(self.config.max_epochs):
            self.model.train()
            for idx in torch.randperm(len(y)).split(self.config.batch_size):
                loss = loss_fn(self.model(xc[idx], xn[idx]), y[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
            self.model.eval()
            with torch.no_grad():
                valid_loss = loss_fn(self.model(vc, vn), vy).item()
            print(f"epoch {epoch} valid_loss {valid_loss:.4f}")
            self.checkpoint_callback.on_validation_end(self.model, epoch, valid_loss)
        self.load_best_model()

    def load_best_model(self):
        print("Loading the best model")
        ckpt_path = self.checkpoint_callback.best_model_path
        if ckpt_path != "":
            ckpt = pl_load(ckpt_path, map_location=lambda storage, loc: storage)
            self.model.load_state_dict(ckpt["state_dict"])


rng = np.random.default_rng(0)
n = 1200
df = pd.DataFrame({
    "purpose": pd.Categorical(rng.choice(["car", "education", "business", "furniture"], n)),
    "housing": pd.Categorical(rng.choice(["own", "rent", "free"], n)),
    "age": rng.normal(35, 10, n).astype(np.float32),
    "amount": rng.lognormal(8, 0.6, n).astype(np.float32),
})
df["amount"] = (df["amount"] - df["amount"].mean()) / df["amount"].std()
df["age"] = (df["age"] - df["age"].mean()) / df["age"].std()
logit = 0.8 * df["amount"] - 0.5 * df["age"] + (df["housing"] == "rent") * 0.7
df["default"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
train, valid = df.iloc[:1000], df.iloc[1000:]

data_config = {"target": ["default"], "continuous_cols": ["age", "amount"], "categorical_cols": ["purpose", "housing"]}
model_config = {"task": "classification", "layers": "64-32", "dropout": 0.1, "output_dim": 2, "learning_rate": 1e-3}
trainer_config = {"batch_size": 128, "max_epochs": 6}
optimizer_config = {"optimizer": "Adam"}

tabular_model = TabularModel(copy.deepcopy(data_config), model_config, trainer_config, optimizer_config)
tabular_model.fit(train=train, validation=valid)
with torch.no_grad():
    vc, vn, vy = tabular_model._prepare(valid)
    acc = (tabular_model.model(vc, vn).argmax(1) == vy).float().mean().item()
print(f"best model restored, validation accuracy {acc:.3f}")
