"""TabSurvey-style TabNet run on Adult-like census data (re-typed: load_data with df[features].to_numpy(), LabelEncoder per categorical column and StandardScaler written back into the same array, StratifiedKFold cross-validation, the TabNet wrapper, and a pytorch_tabnet 4.0-style TabNetClassifier): the mixed int/str DataFrame gives an object array; training and validation work because create_dataloaders casts with astype(np.float32), but fit() then computes feature importances through explain() on the raw object X_train, and the DataLoader over PredictDataset cannot collate object rows
source: https://github.com/kathrinse/TabSurvey/issues/5
reported-error: TypeError: default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found object (python train.py --config config/adult.yml --model_name TabNet; fixed by commit 034c46f "Added support for new TabNet version": X = X.astype(np.float32) in TabNet.fit)
outcome: TypeError: default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found object at line 169
root-cause: line 187
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import LabelEncoder, StandardScaler
from sklearn.utils import check_array
from torch.utils.data import DataLoader, Dataset

np.random.seed(221)
torch.manual_seed(221)


class Args:
    dataset, objective = "Adult", "binary"
    num_features, num_classes = 14, 1
    cat_idx = [1, 3, 5, 6, 7, 8, 9, 13]
    target_encode, scale = True, True
    num_splits, shuffle, seed = 3, True, 221
    batch_size, epochs = 128, 2


def adult_like_frame(n=900):
    rng = np.random.default_rng(0)
    pick = lambda values: rng.choice(values, n)
    return pd.DataFrame({
        "age": rng.integers(17, 90, n), "workclass": pick([" Private", " Self-emp", " Local-gov", " ?"]),
        "fnlwgt": rng.integers(12000, 1_400_000, n), "education": pick([" Bachelors", " HS-grad", " Masters"]),
        "education_num": rng.integers(1, 17, n), "marital-status": pick([" Married", " Never-married", " Divorced"]),
        "occupation": pick([" Sales", " Exec-managerial", " Craft-repair", " ?"]),
        "relationship": pick([" Husband", " Not-in-family", " Own-child"]), "race": pick([" White", " Black", " Other"]),
        "sex": pick([" Male", " Female"]), "capital-gain": rng.integers(0, 5000, n) * (rng.random(n) < 0.1),
        "capital-loss": rng.integers(0, 2000, n) * (rng.random(n) < 0.05), "hours-per-week": rng.integers(1, 99, n),
        "native-country": pick([" United-States", " Mexico", " India"]), "income": pick([" <=50K", " >50K"]),
    })


# ---- utils/load_data.py (re-typed; the CSV download replaced by a synthetic frame) ----
def load_data(args):
    features = ['age', 'workclass', 'fnlwgt', 'education', 'education_num', 'marital-status', 'occupation',
                'relationship', 'race', 'sex', 'capital-gain', 'capital-loss', 'hours-per-week', 'native-country']
    df = adult_like_frame()
    df.fillna(0, inplace=True)
    X = df[features].to_numpy()  # root-cause-alt
    y = df["income"].to_numpy()
    if args.target_encode:
        y = LabelEncoder().fit_transform(y)
    num_idx, args.cat_dims = [], []
    for i in range(args.num_features):
        if args.cat_idx and i in args.cat_idx:
            le = LabelEncoder()
            X[:, i] = le.fit_transform(X[:, i])
            args.cat_dims.append(len(le.classes_))
        else:
            num_idx.append(i)
    if args.scale:
        X[:, num_idx] = StandardScaler().fit_transform(X[:, num_idx])
    return X, y


# ---- pytorch_tabnet 4.0 (re-typed: utils.TorchDataset/PredictDataset/create_dataloaders, a small TabNet) ----
class TorchDataset(Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.x)

    def __getitem__(self, index):
        return self.x[index], self.y[index]


class PredictDataset(Dataset):
    def __init__(self, x):
        self.x = x

    def __len__(self):
        return len(self.x)

    def __getitem__(self, index):
        return self.x[index]


def create_dataloaders(X_train, y_train, eval_set, batch_size):
    train_dataloader = DataLoader(TorchDataset(X_train.astype(np.float32), y_train), batch_size=batch_size,
                                  shuffle=True)
    valid_dataloaders = [DataLoader(TorchDataset(X.astype(np.float32), y), batch_size=batch_size, shuffle=False)
                         for X, y in eval_set]
    return train_dataloader, valid_dataloaders


class SmallTabNet(nn.Module):
    """Embeddings for the categorical columns, softmax feature masks per step (stand-in for sparsemax)."""

    def __init__(self, input_dim, cat_idxs, cat_dims, n_d=8, n_steps=3, cat_emb_dim=2):
        super().__init__()
        self.cat_idxs = cat_idxs
        self.num_idxs = [i for i in range(input_dim) if i not in cat_idxs]
        self.embeddings = nn.ModuleList([nn.Embedding(d, cat_emb_dim) for d in cat_dims])
        self.post_embed_dim = len(self.num_idxs) + cat_emb_dim * len(cat_idxs)
        self.bn = nn.BatchNorm1d(self.post_embed_dim)
        self.attentive = nn.ModuleList([nn.Linear(n_d, self.post_embed_dim) for _ in range(n_steps)])
        self.transformers = nn.ModuleList([nn.Linear(self.post_embed_dim, 2 * n_d) for _ in range(n_steps)])
        self.final = nn.Linear(n_d, 2)
        self.n_d, self.n_steps = n_d, n_steps

    def embed(self, x):
        cats = [emb(x[:, i].long()) for emb, i in zip(self.embeddings, self.cat_idxs)]
        return self.bn(torch.cat([x[:, self.num_idxs]] + cats, dim=1))

    def forward_masks(self, x):
        x = self.embed(x)
        att = torch.zeros(x.shape[0], self.n_d)
        prior = torch.ones_like(x)
        out, m_explain = 0, torch.zeros_like(x)
        for step in range(self.n_steps):
            mask = torch.softmax(self.attentive[step](att) * prior, dim=1)
            prior = prior * (1.3 - mask)
            h = nn.functional.glu(self.transformers[step](x * mask))
            att = h
            out = out + torch.relu(h)
            m_explain = m_explain + mask * torch.relu(h).sum(dim=1, keepdim=True)
        return self.final(out), m_explain

    def forward(self, x):
        return self.forward_masks(x)[0]


class TabNetClassifier:
    def __init__(self, cat_idxs, cat_dims, n_d=8, n_steps=3, batch_size=128):
        self.cat_idxs, self.cat_dims, self.n_d, self.n_steps = cat_idxs, cat_dims, n_d, n_steps
        self.batch_size = batch_size

    def fit(self, X_train, y_train, eval_set, max_epochs=2, batch_size=128):
        self.batch_size = batch_size
        check_array(X_train)
        train_dataloader, valid_dataloaders = create_dataloaders(X_train, y_train, eval_set, batch_size)
        self.network = SmallTabNet(X_train.shape[1], self.cat_idxs, self.cat_dims, self.n_d, self.n_steps)
        optimizer = torch.optim.Adam(self.network.parameters(), lr=2e-2)
        loss_fn = nn.CrossEntropyLoss()
        self.history = {"loss": [], "eval_logloss": []}
        for epoch in range(max_epochs):
            self.network.train()
            for X, y in train_dataloader:
                loss = loss_fn(self.network(X.float()), y.long())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            self.history["loss"].append(loss.item())
            self.network.eval()
            with torch.no_grad():
                losses = [loss_fn(self.network(X.float()), y.long()).item() for X, y in valid_dataloaders[0]]
            self.history["eval_logloss"].append(float(np.mean(losses)))
            print(f"epoch {epoch}: loss {self.history['loss'][-1]:.4f} eval_logloss {self.history['eval_logloss'][-1]:.4f}")
        self.network.eval()
        self.feature_importances_ = self._compute_feature_importances(X_train)

    def explain(self, X):
        self.network.eval()
        dataloader = DataLoader(PredictDataset(X), batch_size=self.batch_size, shuffle=False)
        res_explain = []
        for batch_nb, data in enumerate(dataloader):  # fails-here
            with torch.no_grad():
                _, m_explain = self.network.forward_masks(data.float())
            res_explain.append(m_explain.numpy())
        return np.vstack(res_explain)

    def _compute_feature_importances(self, X):
        sum_explain = self.explain(X).sum(axis=0)
        return sum_explain / np.sum(sum_explain)


# ---- models/tabnet.py before commit 034c46f (re-typed) ----
class TabNet:
    def __init__(self, args):
        self.args = args
        self.model = TabNetClassifier(cat_idxs=args.cat_idx, cat_dims=args.cat_dims)

    def fit(self, X, y, X_val=None, y_val=None):
        self.model.fit(X, y, eval_set=[(X_val, y_val)], max_epochs=self.args.epochs, batch_size=self.args.batch_size)  # root-cause
        return self.model.history["loss"], self.model.history["eval_logloss"]


# ---- train.py cross_validation (re-typed) ----
args = Args()
X, y = load_data(args)
print("X", X.dtype, X.shape, "cat_dims", args.cat_dims)
kf = StratifiedKFold(n_splits=args.num_splits, shuffle=args.shuffle, random_state=args.seed)
for i, (train_index, test_index) in enumerate(kf.split(X, y)):
    model = TabNet(args)
    loss_history, val_loss_history = model.fit(X[train_index], y[train_index], X[test_index], y[test_index])
    print(f"fold {i}: feature importances {np.round(model.model.feature_importances_, 3)}")
