"""SAINT (self-attention and intersample attention transformer) on the user's own tabular regression CSV (somepago/saint as of June 2021: data.data_prep with pandas and LabelEncoder, data_mask_split, DataSetCatCon appending the target y to the categorical columns, augmentations.embed_data_mask, models.SAINT with its embedding table, per-feature simple_MLPs and column transformer, train.py's argparse options and loop), SAINT issue #3: for a regression dataset the continuous target is no longer cast with .astype(int), so DataSetCatCon.__getitem__'s np.concatenate((self.X1[idx], self.y[idx])) turns the int64 category codes plus the float64 target into a float64 row, the batches of x_categ are float64 and model.embeds(x_categ) gets float indices
source: https://github.com/somepago/saint/issues/3
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.DoubleTensor instead (while checking arguments for embedding) (training SAINT on a regression dataset; raised from x_categ_enc = model.embeds(x_categ) in embed_data_mask)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.DoubleTensor instead (while checking arguments for embedding) at line 259
root-cause: line 127
expect: DG005
"""
import argparse
import io

import numpy as np
import pandas as pd
from sklearn.preprocessing import LabelEncoder

import torch
import torch.nn.functional as F
import torch.optim as optim
from torch import einsum, nn
from torch.utils.data import DataLoader, Dataset


# ---- data.py (data_prep for the user's CSV, data_mask_split, DataSetCatCon)
def read_house_prices(seed=0, n=240):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "neighborhood": rng.choice(["north", "south", "east", "west", "centre"], n),
        "building_type": rng.choice(["flat", "detached", "terraced"], n),
        "heating": rng.choice(["gas", "electric", "heat_pump"], n),
        "area_m2": rng.normal(95, 30, n).round(1),
        "rooms": rng.integers(1, 7, n).astype(float),
        "year_built": rng.integers(1900, 2020, n).astype(float),
        "distance_km": rng.exponential(4, n).round(2),
    })
    df["price"] = (2.1 * df["area_m2"] + 8 * df["rooms"] + 0.05 * (df["year_built"] - 1900)
                   - 3 * df["distance_km"] + rng.normal(0, 10, n)).round(2)
    buf = io.StringIO()
    df.to_csv(buf, index=False)
    buf.seek(0)
    return pd.read_csv(buf)


def data_mask_split(X, y, mask, y_mask, indices, mask_det, stage):
    x_d = {"data": X.values[indices], "mask": mask.values[indices]}
    y_d = {"data": y.values[indices].reshape(-1, 1), "mask": y_mask[indices].reshape(-1, 1)}
    if mask_det is not None:
        if stage != "train" and mask_det["test_mask"] < 10e-3:
            x_d["mask"] = np.ones_like(x_d["mask"])
    return x_d, y_d


def data_prep(dataset, seed, mask_det=None, datasplit=[.65, .15, .2]):
    np.random.seed(seed)
    train = read_house_prices(seed)
    target = "price"
    temp = train.fillna("ThisisNan")
    if "Set" not in train.columns:
        train["Set"] = np.random.choice(["train", "valid", "test"], p=datasplit, size=(train.shape[0],))
    unused_feat = ["Set"]
    features = [col for col in train.columns if col not in unused_feat + [target]]
    train_indices = train[train.Set == "train"].index
    valid_indices = train[train.Set == "valid"].index
    test_indices = train[train.Set == "test"].index
    categorical_columns = []
    categorical_dims = {}
    for col in train.select_dtypes(include=["object", "string"]).columns:  # pandas >= 3 reads text as "str"
        if col == "Set":
            continue
        l_enc = LabelEncoder()
        train[col] = train[col].fillna("VV_likely")
        train[col] = l_enc.fit_transform(train[col].values)
        categorical_columns.append(col)
        categorical_dims[col] = len(l_enc.classes_)
    for col in train.columns[train.dtypes == "float64"]:
        train.fillna(train.loc[train_indices, col].mean(), inplace=True)

    cat_idxs = [i for i, f in enumerate(features) if f in categorical_columns]
    con_idxs = list(set(range(len(features))) - set(cat_idxs))
    cat_dims = [categorical_dims[f] for i, f in enumerate(features) if f in categorical_columns]
    # regression: the continuous target is kept as it is (the classification datasets do .astype(int) here)

    if mask_det is not None:
        temp = temp[features]
        nan_mask = temp.ne("ThisisNan").astype(int)
        gen_mask = np.random.choice(2, (train[features].shape), p=[mask_det["mask_prob"], 1 - mask_det["mask_prob"]])
        mask = np.multiply(nan_mask, gen_mask)
        y_mask = np.zeros_like(train[target])
    else:
        mask = np.ones_like(train[features])
        y_mask = np.zeros_like(train[target])
    X = train[features]
    Y = train[target]
    X_train, y_train = data_mask_split(X, Y, mask, y_mask, train_indices, mask_det, "train")
    X_valid, y_valid = data_mask_split(X, Y, mask, y_mask, valid_indices, mask_det, "valid")
    X_test, y_test = data_mask_split(X, Y, mask, y_mask, test_indices, mask_det, "test")
    train_mean = np.array(X_train["data"][:, con_idxs], dtype=np.float32).mean(0)
    train_std = np.array(X_train["data"][:, con_idxs], dtype=np.float32).std(0)
    return cat_dims, cat_idxs, con_idxs, X_train, y_train, X_valid, y_valid, X_test, y_test, train_mean, train_std


class DataSetCatCon(Dataset):
    def __init__(self, X, Y, cat_cols, continuous_mean_std=None, is_pretraining=False, tag=None):
        cat_cols = list(cat_cols)
        X_mask = X["mask"].copy()
        X = X["data"].copy()
        con_cols = list(set(np.arange(X.shape[1])) - set(cat_cols))
        self.is_pretraining = is_pretraining
        self.tag = tag
        self.X1 = X[:, cat_cols].copy().astype(np.int64)  # categorical columns
        self.X2 = X[:, con_cols].copy().astype(np.float32)  # numerical columns
        if continuous_mean_std is not None:
            mean, std = continuous_mean_std
            self.X2 = (self.X2 - mean) / std
            self.y = Y["data"]
            self.y_mask = Y["mask"]
        else:
            self.y = np.expand_dims(np.array(Y["data"]), axis=-1)
            self.y_mask = np.expand_dims(np.array(Y["mask"]), axis=-1)
        self.X1_mask = X_mask[:, cat_cols].copy().astype(np.int64)  # categorical columns
        self.X2_mask = X_mask[:, con_cols].copy().astype(np.int64)  # numerical columns

    def __len__(self):
        return len(self.y)

    def __getitem__(self, idx):
        # X1 has categorical data, X2 has continuous
        if self.is_pretraining:
            return np.concatenate((self.X1[idx], self.y[idx])), self.X2[idx], np.concatenate((self.X1_mask[idx], self.y_mask[idx])), self.X2_mask[idx]  # root-cause
        else:
            return self.X1[idx], self.X2[idx], self.y[idx]


# ---- models/model.py (SAINT with the 'col' transformer; einops' rearrange written out with reshape)
class Residual(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x, **kwargs):
        return self.fn(x, **kwargs) + x


class PreNorm(nn.Module):
    def __init__(self, dim, fn):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fn = fn

    def forward(self, x, **kwargs):
        return self.fn(self.norm(x), **kwargs)


class GEGLU(nn.Module):
    def forward(self, x):
        x, gates = x.chunk(2, dim=-1)
        return x * F.gelu(gates)


class FeedForward(nn.Module):
    def __init__(self, dim, mult=4, dropout=0.):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, dim * mult * 2), GEGLU(), nn.Dropout(dropout),
                                 nn.Linear(dim * mult, dim))

    def forward(self, x, **kwargs):
        return self.net(x)


class Attention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=16, dropout=0.):
        super().__init__()
        inner_dim = dim_head * heads
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.to_qkv = nn.Linear(dim, inner_dim * 3, bias=False)
        self.to_out = nn.Linear(inner_dim, dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        b, n, _ = x.shape
        h = self.heads
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = map(lambda t: t.reshape(b, n, h, -1).transpose(1, 2), (q, k, v))
        sim = einsum("b h i d, b h j d -> b h i j", q, k) * self.scale
        attn = sim.softmax(dim=-1)
        out = einsum("b h i j, b h j d -> b h i d", attn, v)
        out = out.transpose(1, 2).reshape(b, n, -1)
        return self.to_out(out)


class Transformer(nn.Module):
    def __init__(self, num_tokens, dim, depth, heads, dim_head, attn_dropout, ff_dropout):
        super().__init__()
        self.layers = nn.ModuleList([])
        for _ in range(depth):
            self.layers.append(nn.ModuleList([
                PreNorm(dim, Residual(Attention(dim, heads=heads, dim_head=dim_head, dropout=attn_dropout))),
                PreNorm(dim, Residual(FeedForward(dim, dropout=ff_dropout))),
            ]))

    def forward(self, x, x_cont=None):
        if x_cont is not None:
            x = torch.cat((x, x_cont), dim=1)
        for attn, ff in self.layers:
            x = attn(x)
            x = ff(x)
        return x


class simple_MLP(nn.Module):
    def __init__(self, dims):
        super(simple_MLP, self).__init__()
        self.layers = nn.Sequential(nn.Linear(dims[0], dims[1]), nn.ReLU(), nn.Linear(dims[1], dims[2]))

    def forward(self, x):
        if len(x.shape) == 1:
            x = x.view(x.size(0), -1)
        return self.layers(x)


class SAINT(nn.Module):
    def __init__(self, *, categories, num_continuous, dim, depth, heads, dim_head=16, dim_out=1,
                 mlp_hidden_mults=(4, 2), num_special_tokens=0, continuous_mean_std=None, attn_dropout=0.,
                 ff_dropout=0., cont_embeddings="MLP", attentiontype="col", final_mlp_style="common", y_dim=2):
        super().__init__()
        assert all(map(lambda n: n > 0, categories)), "number of each category must be positive"
        self.num_categories = len(categories)
        self.num_unique_categories = sum(categories)
        self.num_special_tokens = num_special_tokens
        self.total_tokens = self.num_unique_categories + num_special_tokens
        categories_offset = F.pad(torch.tensor(list(categories)), (1, 0), value=num_special_tokens)
        categories_offset = categories_offset.cumsum(dim=-1)[:-1]
        self.register_buffer("categories_offset", categories_offset)
        self.norm = nn.LayerNorm(num_continuous)
        self.num_continuous = num_continuous
        self.dim = dim
        self.cont_embeddings = cont_embeddings
        self.attentiontype = attentiontype
        self.simple_MLP = nn.ModuleList([simple_MLP([1, 100, self.dim]) for _ in range(self.num_continuous)])
        nfeats = self.num_categories + num_continuous
        self.transformer = Transformer(num_tokens=self.total_tokens, dim=dim, depth=depth, heads=heads,
                                       dim_head=dim_head, attn_dropout=attn_dropout, ff_dropout=ff_dropout)
        self.embeds = nn.Embedding(self.total_tokens, self.dim)
        cat_mask_offset = F.pad(torch.Tensor(self.num_categories).fill_(2).type(torch.int8), (1, 0), value=0)
        self.register_buffer("cat_mask_offset", cat_mask_offset.cumsum(dim=-1)[:-1])
        con_mask_offset = F.pad(torch.Tensor(self.num_continuous).fill_(2).type(torch.int8), (1, 0), value=0)
        self.register_buffer("con_mask_offset", con_mask_offset.cumsum(dim=-1)[:-1])
        self.mask_embeds_cat = nn.Embedding(self.num_categories * 2, self.dim)
        self.mask_embeds_cont = nn.Embedding(self.num_continuous * 2, self.dim)
        self.mlpfory = simple_MLP([dim, 1000, y_dim])

    def forward(self, x_categ, x_cont):
        return self.transformer(x_categ, x_cont)


# ---- augmentations.py
def embed_data_mask(x_categ, x_cont, cat_mask, con_mask, model, vision_dset=False):
    device = x_cont.device
    x_categ = x_categ + model.categories_offset.type_as(x_categ)
    x_categ_enc = model.embeds(x_categ)  # fails-here
    n1, n2 = x_cont.shape
    _, n3 = x_categ.shape
    x_cont_enc = torch.empty(n1, n2, model.dim)
    for i in range(model.num_continuous):
        x_cont_enc[:, i, :] = model.simple_MLP[i](x_cont[:, i])
    x_cont_enc = x_cont_enc.to(device)
    cat_mask_temp = cat_mask + model.cat_mask_offset.type_as(cat_mask)
    con_mask_temp = con_mask + model.con_mask_offset.type_as(con_mask)
    cat_mask_temp = model.mask_embeds_cat(cat_mask_temp)
    con_mask_temp = model.mask_embeds_cont(con_mask_temp)
    x_categ_enc[cat_mask == 0] = cat_mask_temp[cat_mask == 0]
    x_cont_enc[con_mask == 0] = con_mask_temp[con_mask == 0]
    return x_categ, x_categ_enc, x_cont_enc


# ---- train.py (regression variant: y_dim = 1 and MSELoss)
def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--dataset", default="house_prices", type=str)
    parser.add_argument("--cont_embeddings", default="MLP", type=str, choices=["MLP", "Noemb", "pos_singleMLP"])
    parser.add_argument("--embedding_size", default=32, type=int)
    parser.add_argument("--transformer_depth", default=6, type=int)
    parser.add_argument("--attention_heads", default=8, type=int)
    parser.add_argument("--attention_dropout", default=0.1, type=float)
    parser.add_argument("--ff_dropout", default=0.1, type=float)
    parser.add_argument("--attentiontype", default="col", type=str)
    parser.add_argument("--lr", default=0.0001, type=float)
    parser.add_argument("--epochs", default=100, type=int)
    parser.add_argument("--batchsize", default=256, type=int)
    parser.add_argument("--set_seed", default=1, type=int)
    parser.add_argument("--train_mask_prob", default=0, type=float)
    opt = parser.parse_args(argv)
    torch.manual_seed(opt.set_seed)
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    print(f"Device is {device}.")

    mask_params = {"mask_prob": opt.train_mask_prob, "avail_train_y": 0, "test_mask": opt.train_mask_prob}
    cat_dims, cat_idxs, con_idxs, X_train, y_train, X_valid, y_valid, X_test, y_test, train_mean, train_std = \
        data_prep(opt.dataset, opt.set_seed, mask_params)
    continuous_mean_std = np.array([train_mean, train_std]).astype(np.float32)
    y_dim = 1

    train_ds = DataSetCatCon(X_train, y_train, cat_idxs, continuous_mean_std, is_pretraining=True)
    trainloader = DataLoader(train_ds, batch_size=opt.batchsize, shuffle=True, num_workers=0)
    valid_ds = DataSetCatCon(X_valid, y_valid, cat_idxs, continuous_mean_std, is_pretraining=True)
    validloader = DataLoader(valid_ds, batch_size=opt.batchsize, shuffle=False, num_workers=0)

    cat_dims = np.append(np.array(cat_dims), np.array([1])).astype(int)  # y appended as the last "categorical" column
    model = SAINT(categories=tuple(cat_dims), num_continuous=len(con_idxs), dim=opt.embedding_size, dim_out=1,
                  depth=opt.transformer_depth, heads=opt.attention_heads, attn_dropout=opt.attention_dropout,
                  ff_dropout=opt.ff_dropout, mlp_hidden_mults=(4, 2), continuous_mean_std=continuous_mean_std,
                  cont_embeddings=opt.cont_embeddings, attentiontype=opt.attentiontype, y_dim=y_dim)
    criterion = nn.MSELoss().to(device)
    model.to(device)
    optimizer = optim.AdamW(model.parameters(), lr=opt.lr)

    print("Training begins now.")
    for epoch in range(opt.epochs):
        model.train()
        running_loss = 0.0
        for i, data in enumerate(trainloader, 0):
            optimizer.zero_grad()
            x_categ, x_cont, cat_mask, con_mask = data[0].to(device), data[1].to(device), data[2].to(device), \
                data[3].to(device)
            _, x_categ_enc, x_cont_enc = embed_data_mask(x_categ, x_cont, cat_mask, con_mask, model, False)
            reps = model.transformer(x_categ_enc, x_cont_enc)
            y_reps = reps[:, len(cat_dims) - 1, :]
            y_outs = model.mlpfory(y_reps)
            loss = criterion(y_outs, x_categ[:, len(cat_dims) - 1:].float())
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        print("[EPOCH %d] running loss %.4f" % (epoch + 1, running_loss))


if __name__ == "__main__":
    main(["--epochs", "2", "--batchsize", "64", "--transformer_depth", "1", "--attention_heads", "4",
          "--embedding_size", "16"])
