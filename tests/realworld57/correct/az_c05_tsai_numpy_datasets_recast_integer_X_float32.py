"""The tsai integer-count classification run of az05 (timeseriesAI/tsai PR #947) with the PR's patch: after the in-place cast, an untransformed (tfms=None) X list that is not floating point is re-cast to float32, so the InceptionTime-style Conv1d stem gets FloatTensor batches; the int64 NumPy panel, torch.as_tensor in NumpyTensor and the int64 TSClassification ids into CrossEntropyLoss are kept
source: https://github.com/timeseriesAI/tsai/pull/947
reported-error: (none filed; the fixed situation of az05)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)


class NumpyTensor(torch.Tensor):
    """tsai.data.core.NumpyTensor: a tensor subclass made from the array as it is (dtype kept unless given)"""

    def __new__(cls, o, dtype=None, device=None):
        return torch.as_tensor(o, dtype=dtype, device=device).as_subclass(cls)


class TSTensor(NumpyTensor):
    @property
    def vars(self):
        return self.shape[-2]

    @property
    def len(self):
        return self.shape[-1]


class TSClassification:
    """Vectorized transform of category strings to vocab ids (int64), loss CrossEntropyLossFlat"""
    vectorized = True

    def setups(self, y):
        self.vocab = sorted(set(np.asarray(y).tolist()))
        self.c = len(self.vocab)
        self.vocab_keys = np.array(self.vocab)[:, None]

    def __call__(self, o):
        return torch.as_tensor((self.vocab_keys == np.asarray(o)).argmax(axis=0), dtype=torch.long)


class NoTfmLists:
    """tsai.data.core.NoTfmLists: items returned untransformed"""

    def __init__(self, items, tfms=None):
        self.items, self.tfms = items, tfms

    def __getitem__(self, it):
        return self.items[it]

    def __len__(self):
        return len(self.items)


class TSTfmdLists(NoTfmLists):
    """vectorized TfmdLists: the transform is applied to the indexed items"""

    def __init__(self, items, tfms):
        super().__init__(items, tfms)
        tfms.setups(items)

    def __getitem__(self, it):
        return self.tfms(self.items[it])


class TSDatasets:
    """tsai.data.core.NumpyDatasets/TSDatasets: with inplace=True the whole item lists are built once as tensors"""
    typs = TSTensor, torch.tensor

    def __init__(self, X=None, y=None, tfms=None, splits=None, inplace=True):
        self.tfms, self.inplace = tfms, inplace
        if not hasattr(X, "__array__"):
            X = np.asarray(X)
        items = (X,) if y is None else (X, np.asarray(y))
        lts = [NoTfmLists if t is None else TSTfmdLists for t in tfms]
        self.tls = [lt(item, t) for lt, item, t in zip(lts, items, tfms)]
        self.typs = [type(tl[0]) if isinstance(tl[0], torch.Tensor) else self.typs[i] for i, tl in enumerate(self.tls)]
        self.ptls = [typ(tl[:]) for tl, typ in zip(self.tls, self.typs)] if inplace else self.tls
        if inplace:  # PR #947: untransformed numeric items are model inputs, make them float32
            self.ptls = [typ(ptl, dtype=torch.float32) if t is None and not torch.is_floating_point(ptl) else ptl
                         for ptl, typ, t in zip(self.ptls, self.typs, tfms)]
        self.splits = splits

    def __getitem__(self, it):
        return tuple([ptl[it] for ptl in self.ptls])

    def subset(self, i):
        return [self[j] for j in self.splits[i]]

    @property
    def c(self):
        return self.tls[1].tfms.c


class TSDataLoader:
    def __init__(self, dsets, idxs, bs=16, shuffle=False):
        self.dsets, self.idxs, self.bs, self.shuffle = dsets, np.asarray(idxs), bs, shuffle

    def __iter__(self):
        idxs = rng.permutation(self.idxs) if self.shuffle else self.idxs
        for start in range(0, len(idxs), self.bs):
            yield self.dsets[idxs[start:start + self.bs]]

    def __len__(self):
        return (len(self.idxs) + self.bs - 1) // self.bs


def get_ts_dls(X, y, splits, tfms, bs=16, inplace=True):
    dsets = TSDatasets(X, y, tfms=tfms, splits=splits, inplace=inplace)
    return dsets, TSDataLoader(dsets, splits[0], bs, shuffle=True), TSDataLoader(dsets, splits[1], bs * 2)


class InceptionModule(nn.Module):
    def __init__(self, ni, nf, ks=(9, 19, 39)):
        super().__init__()
        self.bottleneck = nn.Conv1d(ni, nf, 1, bias=False) if ni > 1 else nn.Identity()
        self.convs = nn.ModuleList([nn.Conv1d(nf if ni > 1 else ni, nf, k, padding=k // 2, bias=False) for k in ks])
        self.maxconvpool = nn.Sequential(nn.MaxPool1d(3, stride=1, padding=1), nn.Conv1d(ni, nf, 1, bias=False))
        self.bn = nn.BatchNorm1d(nf * 4)

    def forward(self, x):
        input_tensor = x
        x = self.bottleneck(input_tensor)
        x = torch.cat([conv(x) for conv in self.convs] + [self.maxconvpool(input_tensor)], dim=1)
        return torch.relu(self.bn(x))


class InceptionTimeLite(nn.Module):
    """tsai.models.InceptionTime with depth 2 and a small nf"""

    def __init__(self, c_in, c_out, nf=8):
        super().__init__()
        self.blocks = nn.Sequential(InceptionModule(c_in, nf), InceptionModule(nf * 4, nf))
        self.fc = nn.Linear(nf * 4, c_out)

    def forward(self, x):
        return self.fc(self.blocks(x).mean(-1))


# sktime-style panel: hourly rental counts (3 variables x 24 h) per station-day, int64, label = station type
n = 120
station = rng.choice(["business", "leisure", "residential"], size=n)
base = {"business": [30, 5, 20], "leisure": [8, 25, 10], "residential": [15, 12, 30]}
X = np.stack([rng.poisson(np.array(base[s])[:, None] * (1 + np.sin(np.arange(24) / 24 * 2 * np.pi))[None, :])
              for s in station])
splits = (list(range(0, 96)), list(range(96, n)))

dsets, train_dl, valid_dl = get_ts_dls(X, station, splits=splits, tfms=[None, TSClassification()], bs=16)
model = InceptionTimeLite(c_in=X.shape[1], c_out=dsets.c)
loss_func = nn.CrossEntropyLoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(3):
    model.train()
    for xb, yb in train_dl:
        opt.zero_grad()
        loss = loss_func(model(xb), yb)
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc = np.mean([(model(xb).argmax(-1) == yb).float().mean().item() for xb, yb in valid_dl])
    print(f"epoch {epoch}: train loss {loss.item():.4f} valid accuracy {acc:.3f}")
