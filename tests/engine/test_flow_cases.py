"""Small scripts for the ways real code reaches a hazard: each reports exactly its `# expect:`
markers (none for the ones that must stay quiet). They pin the engine changes made for the
real-world sets (tests/realworld*/) with the shortest code that shows each pattern.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dtypeguard.analysis import check_source
from tests.engine.expectations import expected

CASES: dict[str, str] = {
    # --- argparse: option defaults are the configuration a plain run uses ------------------------
    "argparse default fp16 and eps": """
        import argparse
        import torch
        from torch import nn
        parser = argparse.ArgumentParser()
        parser.add_argument("--mixed_precision", default="fp16")
        parser.add_argument("--adam_epsilon", type=float, default=1e-08)
        args = parser.parse_args()
        weight_dtype = torch.float16 if args.mixed_precision == "fp16" else torch.float32
        model = nn.Linear(4, 1).to(dtype=weight_dtype)
        opt = torch.optim.AdamW(model.parameters(), eps=args.adam_epsilon)  # expect: DG012
        """,
    "argparse default fp32: quiet": """
        import argparse
        import torch
        from torch import nn
        parser = argparse.ArgumentParser()
        parser.add_argument("--mixed_precision", default="no")
        args = parser.parse_args()
        weight_dtype = torch.float16 if args.mixed_precision == "fp16" else torch.float32
        model = nn.Linear(4, 1).to(dtype=weight_dtype)
        opt = torch.optim.AdamW(model.parameters())
        """,
    "argparse explicit argv list": """
        import argparse
        import torch
        from torch import nn
        parser = argparse.ArgumentParser()
        group = parser.add_argument_group("precision")
        group.add_argument("--use-fp16", "-fp16", action="store_true")
        args = parser.parse_args(["--use-fp16"])
        model = nn.Linear(4, 1)
        if args.use_fp16:
            model.half()
        opt = torch.optim.Adam(model.parameters())  # expect: DG012
        """,
    "argparse unknown argv: quiet": """
        import argparse, sys
        import torch
        from torch import nn
        parser = argparse.ArgumentParser()
        parser.add_argument("--fp16", action="store_true", default=True)
        args = parser.parse_args(sys.argv[1:] + ["--bad"])
        model = nn.Linear(4, 1)
        if args.fp16:
            model.half()
        opt = torch.optim.Adam(model.parameters())
        """,
    "argparse: the branch a default skips still reports": """
        import argparse
        import torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--resume", default="")
        args = parser.parse_args()
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        if args.resume:
            state = torch.load(args.resume)  # expect: DG010
        """,
    # --- which parameters an optimizer holds ----------------------------------------------------
    "comprehension over parameters": """
        import torch
        from torch import nn
        model = nn.Linear(4, 1).half()
        opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad])  # expect: DG012
        """,
    "named_parameters comprehension and filter": """
        import torch
        from torch import nn
        model = nn.Linear(4, 1).half()
        a = torch.optim.Adam([p for n, p in model.named_parameters() if "bias" not in n])  # expect: DG012
        b = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()))  # expect: DG012
        """,
    "parameter groups": """
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Linear(4, 4)
                self.head = nn.Linear(4, 1)
        net = Net().half()
        opt = torch.optim.Adam([{"params": net.body.parameters()}, {"params": net.head.parameters(), "lr": 1e-4}])  # expect: DG012
        """,
    "GradScaler over a submodule of a half model: reported at .half()": """
        import torch
        from torch import nn
        class Model(nn.Module):
            def __init__(self, folds):
                super().__init__()
                self.nets = nn.ModuleList([nn.Linear(8, 2) for _ in range(folds)])
                self.cur_net = self.nets[0]
        model = Model(2)
        model.half()  # expect: DG014
        model.to("cpu")
        optimizer = torch.optim.SGD(model.cur_net.parameters(), lr=0.1)
        scaler = torch.amp.GradScaler("cpu")
        scaler.step(optimizer)
        """,
    # --- configuration objects: class attributes and dataclass fields ---------------------------
    "class attribute config, cast after the optimizer": """
        import torch
        from torch import nn
        class Args:
            bf16 = True
        class Trainer:
            def __init__(self, model, args):
                self.model, self.args = model, args
                self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
            def step(self, x):
                dtype = torch.bfloat16 if self.args.bf16 else torch.float32
                if self.model.weight.dtype != dtype:
                    self.model.to(dtype=dtype)  # expect: DG013
                self.model(x.to(dtype)).float().sum().backward()
                self.optimizer.step()
        Trainer(nn.Linear(4, 1), Args()).step(torch.randn(2, 4))
        """,
    "dataclass config field decides the cast": """
        from dataclasses import dataclass
        import torch
        from torch import nn
        @dataclass
        class Config:
            lr: float = 1e-3
            use_fp16: bool = True
        def build(config):
            model = nn.Linear(4, 1)
            if config.use_fp16:
                model = model.half()  # expect: DG014
            return model
        model = build(Config(lr=1e-4))
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        scaler = torch.amp.GradScaler("cpu")
        scaler.step(opt)
        """,
    "dataclass config overridden at construction: quiet": """
        from dataclasses import dataclass
        import torch
        from torch import nn
        @dataclass
        class Config:
            lr: float = 1e-3
            use_fp16: bool = True
        config = Config(1e-4, False)
        model = nn.Linear(4, 1)
        if config.use_fp16:
            model = model.half()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        scaler = torch.amp.GradScaler("cpu")
        scaler.step(opt)
        """,
    # --- lists that grow, and NumPy reading GPU tensors -------------------------------------------
    "a list filled by append keeps its tensors' device": """
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2).to(device)
        feats = []
        for _ in range(3):
            feats.append(model(torch.rand(1, 4).to(device)))
        feats = torch.cat(feats, dim=0)
        scores = feats.numpy()  # expect: DG009
        """,
    "np.array of a GPU tensor, alone or in a list": """
        import numpy as np
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2).to(device)
        with torch.no_grad():
            pred = model(torch.rand(3, 4).to(device))
        a = np.array(pred)  # expect: DG009
        acc = (pred.argmax(-1) == 0).float().mean()
        b = np.array([0.5, acc * 100])  # expect: DG009
        """,
    "np.array after .cpu(): quiet": """
        import numpy as np
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2).to(device)
        with torch.no_grad():
            pred = model(torch.rand(3, 4).to(device))
        a = np.array(pred.cpu())
        b = np.asarray([pred.argmax(-1).float().mean().item()])
        """,
    # --- Python values that become tensors -------------------------------------------------------
    "a float() label in __getitem__ batches to a float 1-D target": """
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, Dataset
        class Weather(Dataset):
            def __init__(self):
                self.lines = ["img_%d.jpg %d" % (i, i % 3) for i in range(8)]
            def __len__(self):
                return len(self.lines)
            def __getitem__(self, idx):
                name, label = self.lines[idx].split()
                return torch.rand(4), torch.tensor(float(label))  # expect: DG006
        net = nn.Linear(4, 3)
        for x, y in DataLoader(Weather(), batch_size=4):
            loss = nn.CrossEntropyLoss()(net(x), y)
        """,
    "random ints through a sliced list of tuples": """
        import random
        import torch
        from torch import nn
        data = [([random.randrange(2, 50) for _ in range(5)], random.randint(0, 1)) for _ in range(16)]
        chunk = data[0:8]
        text = torch.tensor([t for t, _ in chunk], dtype=torch.float32)
        target = torch.tensor([s for _, s in chunk])  # expect: DG007
        loss = nn.BCEWithLogitsLoss()(nn.Linear(5, 1)(text).squeeze(1), target)
        """,
    "class weights from value_counts and len()": """
        import numpy as np
        import pandas as pd
        import torch
        from torch import nn
        df = pd.DataFrame({"y": np.random.randint(0, 3, 30)})
        counts = df["y"].value_counts().sort_index().values
        weight = torch.tensor(1.0 / counts * len(df) / 3)  # expect: DG006
        loss = nn.CrossEntropyLoss(weight=weight)(nn.Linear(2, 3)(torch.randn(4, 2)), torch.tensor(df["y"].values[:4]))
        """,
    "value_counts(normalize=True) is not counted as int64: quiet": """
        import numpy as np
        import pandas as pd
        import torch
        from torch import nn
        df = pd.DataFrame({"y": np.random.randint(0, 3, 30)})
        freq = df["y"].value_counts(normalize=True).values
        weight = torch.tensor(freq).float()
        loss = nn.CrossEntropyLoss(weight=weight)(nn.Linear(2, 3)(torch.randn(4, 2)), torch.tensor(df["y"].values[:4]))
        """,
    # --- functional layers: input and weight share a dtype ----------------------------------------
    "int16 samples into F.conv1d with a float kernel": """
        import math
        import numpy as np
        import torch
        import torch.nn.functional as F
        def kernel(orig, new, width=6, dtype=torch.float32):
            g = math.gcd(orig, new)
            base = min(orig // g, new // g) * 0.99
            t = torch.arange(-width, width + orig // g, dtype=dtype)[None, None] / (orig // g)
            t *= base
            t = t.clamp_(-width, width)
            return torch.where(t == 0, torch.tensor(1.0).to(t), t.sin() / t)
        pcm = (np.random.standard_normal((1, 480)) * 3000).astype(np.int16)
        wave = torch.from_numpy(pcm)  # expect: DG004
        out = F.conv1d(wave[:, None], kernel(48000, 16000), stride=3)
        """,
    "F.linear with a float32 input: quiet": """
        import torch
        import torch.nn.functional as F
        w = torch.randn(2, 3)
        out = F.linear(torch.rand(4, 3), w)
        out2 = F.conv2d(torch.rand(1, 1, 4, 4), torch.rand(2, 1, 3, 3))
        """,
    # --- checkpoints built up over several statements --------------------------------------------
    "a dict comprehension plus an item set later": """
        import numpy as np
        import torch
        from torch import nn
        modules = {"net": nn.Linear(2, 2)}
        state = {k: v.state_dict() for k, v in modules.items()}
        state["global_step"] = np.zeros((), dtype=np.int64)  # expect: DG011
        torch.save(state, "ckpt.pt")
        ckpt = torch.load("ckpt.pt", map_location="cpu")
        """,
    "plain values set into the dict: quiet": """
        import torch
        from torch import nn
        state = {"model": nn.Linear(2, 2).state_dict()}
        state["epoch"] = 3
        state["best"] = 0.25
        torch.save(state, "ckpt.pt")
        ckpt = torch.load("ckpt.pt", map_location="cpu")
        """,
    "a forward that rebinds its input before the first layer: quiet": """
        import numpy as np
        import torch
        from torch import nn
        class Tabular(nn.Module):
            def __init__(self):
                super().__init__()
                self.embeddings = nn.ModuleList([nn.Embedding(4, 8) for _ in range(3)])
                self.head = nn.Linear(24, 1)
            def forward(self, x):
                x = torch.cat([emb(x[:, i]) for i, emb in enumerate(self.embeddings)], dim=1)
                return self.head(x)
        out = Tabular()(torch.tensor(np.random.randint(0, 4, (8, 3))))
        """,
    # --- modules called by keyword, layers appended in a loop -------------------------------------
    "hidden state made on the CPU inside a cell called by keyword": """
        import torch
        from torch import nn
        class Cell(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.conv = nn.Conv2d(dim + 8, 32, 3, padding=1)
            def forward(self, input_tensor, cur_state):
                h_cur, c_cur = cur_state
                return self.conv(torch.cat([input_tensor, h_cur], dim=1))
            def init_hidden(self, b, size):
                return (torch.zeros(b, 8, *size), torch.zeros(b, 8, *size))  # expect: DG009
        class Stack(nn.Module):
            def __init__(self, layers):
                super().__init__()
                cells = []
                for i in range(layers):
                    cells.append(Cell(3 if i == 0 else 32))
                self.cells = nn.ModuleList(cells)
            def forward(self, x):
                state = [self.cells[i].init_hidden(x.size(0), (8, 8)) for i in range(2)]
                h, c = state[0]
                return self.cells[0](input_tensor=x, cur_state=[h, c])
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = Stack(2).to(device)
        out = model(torch.rand(2, 3, 8, 8).to(device))
        """,
    "a CPU tensor made in forward, indexed with None and repeated, added to the GPU input": """
        import torch
        from torch import nn
        class Encoding(nn.Module):
            def forward(self, tensor):
                b, x, c = tensor.shape
                emb = torch.zeros((x, c), dtype=tensor.dtype)  # expect: DG009
                return emb[None, :, :c].repeat(b, 1, 1)
        class Summer(nn.Module):
            def __init__(self):
                super().__init__()
                self.penc = Encoding()
            def forward(self, t):
                return t + self.penc(t)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        y = Summer().to(device)(torch.randn(2, 3, 4).to(device))
        """,
    "the same with device=tensor.device: quiet": """
        import torch
        from torch import nn
        class Encoding(nn.Module):
            def forward(self, tensor):
                b, x, c = tensor.shape
                emb = torch.zeros((x, c), dtype=tensor.dtype, device=tensor.device)
                return emb[None, ...].repeat(b, 1, 1)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        t = torch.randn(2, 3, 4).to(device)
        y = t + Encoding().to(device)(t)
        """,
    "one layer made float16 inside a block, then a GradScaler": """
        import torch
        from torch import nn
        class Block(nn.Module):
            def __init__(self, c):
                super().__init__()
                self.res = nn.Sequential(nn.Conv2d(c, c, 3, padding=1), nn.PReLU(c).half(), nn.BatchNorm2d(c))  # expect: DG014
            def forward(self, x):
                return self.res(x) + x
        model = nn.Sequential(nn.Conv2d(3, 8, 3), Block(8))
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        scaler = torch.amp.GradScaler("cpu")
        scaler.step(opt)
        """,
    "set_default_dtype(getattr(torch, name)) after a model, read back by get_default_dtype": """
        import numpy as np
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.embed = nn.Linear(3, 16)
            def energy(self, positions):
                pos = torch.tensor(positions, dtype=torch.get_default_dtype())  # expect: DG004
                return self.embed(pos).sum()
        class Calculator:
            def __init__(self, default_dtype="float64"):
                torch.set_default_dtype(getattr(torch, default_dtype))  # expect: DG001
        net = Net()
        calc = Calculator()
        net.energy(np.random.rand(8, 3))
        """,
    "a loadtxt column as float class labels": """
        import numpy as np
        import torch
        from torch.utils.data import DataLoader, Dataset
        class Rows(Dataset):
            def __init__(self, path):
                xy = np.loadtxt(path, delimiter=",", dtype=np.float32)
                self.x = torch.from_numpy(xy[:, 0:-1])
                self.y = torch.from_numpy(xy[:, -1])  # expect: DG006
            def __getitem__(self, i):
                return self.x[i], self.y[i]
            def __len__(self):
                return len(self.x)
        model = torch.nn.Linear(8, 3)
        for x, y in DataLoader(Rows("train.csv"), batch_size=4):
            loss = torch.nn.CrossEntropyLoss()(model(x), y)
        """,
    "a loadtxt table used whole as probabilities: quiet": """
        import numpy as np
        import torch
        probs = torch.from_numpy(np.loadtxt("p.csv", delimiter=",", dtype=np.float32))
        logits = torch.nn.Linear(8, 3)(torch.rand(4, 8))
        loss = torch.nn.CrossEntropyLoss()(logits, probs)
        """,
    "np.save then np.load of the same path keeps the dtype": """
        import os
        import tempfile
        import numpy as np
        import torch
        from torch import nn
        tmp = tempfile.mkdtemp()
        counts = np.random.poisson(1.0, size=(16, 20))
        np.save(os.path.join(tmp, "counts.npy"), counts)
        counts = np.load(os.path.join(tmp, "counts.npy"))
        x = torch.from_numpy(np.log1p(counts))  # expect: DG004
        out = nn.Linear(20, 4)(x)
        """,
    "np.load of a file this script never saved: quiet": """
        import numpy as np
        import torch
        from torch import nn
        x = torch.from_numpy(np.load("features.npy"))
        out = nn.Linear(20, 4)(x)
        """,
    # --- class hierarchies -------------------------------------------------------------------------
    "super().__init__ sets the device; a subclass of a torch loss is that loss": """
        import numpy as np
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, Dataset
        class Masks(Dataset):
            def __init__(self):
                self.images = np.random.rand(8, 3, 8, 8).astype("float32")
                self.masks = np.random.randint(0, 3, size=(8, 8, 8))
            def __getitem__(self, i):
                return self.images[i], self.masks[i].astype("float")  # expect: DG006
            def __len__(self):
                return 8
        class Loss(nn.CrossEntropyLoss):
            __name__ = "cross_entropy_loss"
        class Epoch:
            def __init__(self, model, loss, device="cpu"):
                self.model, self.loss, self.device = model, loss, device
            def run(self, loader):
                for x, y in loader:
                    x, y = x.to(self.device), y.to(self.device)
                    self.batch_update(x, y)
        class TrainEpoch(Epoch):
            def __init__(self, model, loss, device="cpu"):
                super().__init__(model=model, loss=loss, device=device)
            def batch_update(self, x, y):
                return self.loss(self.model(x), y)
        model = nn.Conv2d(3, 3, 1)
        TrainEpoch(model, Loss(), device="cpu").run(DataLoader(Masks(), batch_size=4))
        """,
    "a layer called inside the statement that rebinds the input still decides": """
        import torch
        import torch.nn.functional as F
        from torch import nn
        torch.set_default_dtype(torch.float64)
        class SmallCNN(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv1 = nn.Conv2d(3, 8, kernel_size=3, padding=1)
            def forward(self, x):
                x = F.max_pool2d(F.relu(self.conv1(x)), 2)
                return x
        out = SmallCNN()(torch.rand(2, 3, 8, 8).float())  # expect: DG004
        """,
    "dicts of splits through comprehensions and .items()": """
        import numpy as np
        import torch
        from torch import nn
        class Scaler:
            def fit(self, X):
                self.mean_ = np.asarray(X, dtype=np.float64).mean(0)
                return self
            def transform(self, X):
                return np.asarray(X, dtype=np.float64) - self.mean_
        X_all = np.random.rand(30, 4).astype(np.float32)
        X = {k: X_all[v] for k, v in {"train": slice(0, 20), "val": slice(20, 30)}.items()}
        scaler = Scaler().fit(X["train"])
        X = {k: scaler.transform(v) for k, v in X.items()}
        X = {k: torch.tensor(v) for k, v in X.items()}  # expect: DG004
        head = nn.Linear(4, 1)
        out = head(torch.ones(1, 4) * X["train"])
        """,
    "a Dataset of dicts, moved key by key, splatted into forward": """
        import numpy as np
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, Dataset
        class Cells(Dataset):
            def __init__(self):
                self.data = np.log1p(np.random.poisson(2.0, size=(40, 8)))
                self.cond = np.random.randint(0, 3, 40)
            def __len__(self):
                return 40
            def __getitem__(self, i):
                return {"x": torch.from_numpy(self.data[i]), "batch": torch.tensor(self.cond[i])}  # expect: DG004
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.embedding = nn.Embedding(3, 4)
                self.encoder = nn.Linear(12, 2)
            def forward(self, x, batch):
                return self.encoder(torch.cat([x, self.embedding(batch)], dim=-1))
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = Net().to(device)
        for batch in DataLoader(Cells(), batch_size=4):
            batch = {k: v.to(device) for k, v in batch.items()}
            out = model(**batch)
        """,
    "a tensor kept as a plain module attribute is not moved by model.to": """
        import numpy as np
        import torch
        class PositionalEncoding(torch.nn.Module):
            def __init__(self, dim, length):
                super().__init__()
                self.encoding = torch.from_numpy(np.zeros((length, dim))).float()  # expect: DG009
            def forward(self, x):
                return x + self.encoding[: x.size(1), :]
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        pe = PositionalEncoding(16, 32).to(device)
        out = pe(torch.rand(2, 8, 16).to(device))
        """,
    "the same kept with register_buffer: quiet": """
        import numpy as np
        import torch
        class PositionalEncoding(torch.nn.Module):
            def __init__(self, dim, length):
                super().__init__()
                self.register_buffer("encoding", torch.from_numpy(np.zeros((length, dim))).float())
            def forward(self, x):
                return x + self.encoding[: x.size(1), :]
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        pe = PositionalEncoding(16, 32).to(device)
        out = pe(torch.rand(2, 8, 16).to(device))
        """,
    "batches yielded by a generator of objects, not moved to the model's device": """
        import torch
        from torch import nn
        class Batch:
            def __init__(self, src):
                self.src = src
        def iterator(n):
            for _ in range(n):
                yield Batch(torch.rand(4, 8))  # expect: DG009
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(8, 2).to(device)
        for i, batch in enumerate(iterator(3)):
            out = model(batch.src)
        """,
    "a classmethod constructor and a nested dataclass config": """
        from dataclasses import dataclass, field
        import torch
        from torch import nn
        @dataclass
        class OptimizerConfig:
            lr: float = 1e-4
        @dataclass
        class EngineConfig:
            dtype: str = "bfloat16"
            optimizer: OptimizerConfig = field(default_factory=OptimizerConfig)
        class LM(nn.Module):
            def __init__(self, hidden):
                super().__init__()
                self.proj = nn.Linear(hidden, hidden)
            @classmethod
            def from_pretrained(cls, hidden, torch_dtype=torch.float32):
                return cls(hidden).to(dtype=torch_dtype)  # expect: DG013
        config = EngineConfig()
        model = LM.from_pretrained(8, torch_dtype=getattr(torch, config.dtype))
        opt = torch.optim.AdamW(model.parameters(), lr=config.optimizer.lr)
        """,
    "a plain class with __getitem__ is a dataset; int32 targets": """
        import numpy as np
        import torch
        from torch.nn.functional import cross_entropy
        from torch.utils.data import DataLoader
        class DateData:
            def __init__(self, n):
                self.x = np.random.rand(n, 4).astype(np.float32)
                self.y = np.array(np.random.randint(0, 3, n), dtype=np.int32)  # expect: DG006
            def __len__(self):
                return len(self.x)
            def __getitem__(self, i):
                return self.x[i], self.y[i]
        model = torch.nn.Linear(4, 3)
        for bx, by in DataLoader(DateData(16), batch_size=4, shuffle=True):
            loss = cross_entropy(model(bx), by)
        """,
    "a custom collate_fn decides the batch": """
        import numpy as np
        import torch
        from torch import nn
        from torch.utils.data import DataLoader
        class Example:
            def __init__(self, features, label):
                self.features, self.label = features, label
        def collate(batch):
            x = torch.tensor(np.stack([ex.features for ex in batch]), dtype=torch.float32)
            y = torch.tensor([ex.label for ex in batch])  # expect: DG008
            return x, y
        examples = [Example(np.random.rand(4), s) for s in np.random.rand(16)]
        model = nn.Linear(4, 1)
        for x, y in DataLoader(examples, batch_size=4, collate_fn=collate):
            loss = nn.MSELoss()(model(x).squeeze(1), y)
        """,
    "images appended to an attribute list, stacked, fed as float64": """
        import numpy as np
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, Dataset
        class Images(Dataset):
            def __init__(self, paths):
                self.data = []
                for p in paths:
                    try:
                        self.data.append(np.moveaxis(np.zeros((8, 8, 3), dtype=np.uint8) / 255., -1, 0))
                    except OSError:
                        print(p)
                self.data = np.stack(self.data)
            def __getitem__(self, i):
                return torch.from_numpy(self.data[i])  # expect: DG004
            def __len__(self):
                return len(self.data)
        net = nn.Conv2d(3, 4, 3)
        for x in DataLoader(Images(["a", "b"]), batch_size=2):
            out = net(x)
        """,
    "torch.FloatTensor of integer labels; a frame's row sums as a float64 target": """
        import numpy as np
        import pandas as pd
        import torch
        from torch import nn
        labels = np.random.randint(0, 10, size=16)
        targets = torch.FloatTensor(labels)  # expect: DG006
        loss = nn.CrossEntropyLoss()(nn.Linear(4, 10)(torch.rand(16, 4)), targets)
        df = pd.DataFrame(np.random.normal(size=(16, 4)), columns=[f"s{i}" for i in range(4)])
        df["target"] = df.sum(axis=1) * 0.5
        y = torch.tensor(df["target"].to_numpy())  # expect: DG008
        mse = nn.MSELoss()(nn.Linear(4, 1)(torch.rand(16, 4)).squeeze(1), y)
        """,
    "only the load of the file that holds NumPy state is reported": """
        import os
        import tempfile
        import numpy as np
        import torch
        from torch import nn
        model = nn.Linear(2, 2)
        d = tempfile.mkdtemp()
        torch.save(model.state_dict(), os.path.join(d, "pytorch_model.bin"))
        torch.save({"numpy": np.random.get_state()}, os.path.join(d, "rng_state.pth"))  # expect: DG011
        model.load_state_dict(torch.load(os.path.join(d, "pytorch_model.bin")))
        rng_file = os.path.join(d, "rng_state.pth")
        state = torch.load(rng_file)
        """,
    "np.sum over a list of GPU losses; .numpy() of a GPU model's state_dict entries": """
        import numpy as np
        import torch
        from torch import nn
        class Charbonnier(nn.Module):
            def __init__(self, eps=1e-3):
                super().__init__()
                self.eps = eps
            def forward(self, x, y):
                return torch.mean(torch.sqrt((x - y) ** 2 + self.eps * self.eps))
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 4).to(device)
        outs = [model(torch.rand(2, 4).to(device)) for _ in range(3)]
        target = torch.rand(2, 4, device=device)
        loss = np.sum([Charbonnier()(o, target) for o in outs])  # expect: DG009
        sd = model.state_dict()
        for key in sd:
            arr = sd[key].numpy()  # expect: DG009
        """,
    "an embedding's weight replaced by a float64 NumPy matrix": """
        import numpy as np
        import torch
        from torch import nn
        class LM(nn.Module):
            def __init__(self):
                super().__init__()
                self.embeddings = nn.Embedding(10, 8)
                self.head = nn.Linear(8, 10)
            def forward(self, ids):
                return self.head(self.embeddings(ids))
        model = LM()
        matrix = np.zeros((10, 8))  # expect: DG004
        model.embeddings.weight.data = torch.from_numpy(matrix)
        logits = model(torch.randint(0, 10, (2, 5)))
        """,
    "a known tuple splatted into a library call binds; an unknown one does not": """
        import numpy as np
        import torch
        from torch import nn
        def pair(x):
            return nn.Linear(4, 1)(x), nn.Linear(4, 1)(x)
        reward = torch.as_tensor(np.zeros((8, 1)))  # expect: DG008
        q = torch.min(*pair(torch.rand(8, 4)))
        loss = nn.MSELoss()(nn.Linear(4, 1)(torch.rand(8, 4)), reward + q)
        def unknown(*args):
            return torch.cat(args)
        """,
    "a window of a frame (.iloc rows), standardised, flattened: float64 into the policy": """
        import numpy as np
        import pandas as pd
        import torch
        from torch import nn
        rng = np.random.default_rng(1)
        df = pd.DataFrame({"close": 100 + rng.standard_normal(300).cumsum(), "volume": rng.integers(1000, 5000, 300)})
        df["ret"] = df["close"].pct_change().fillna(0)
        w = df[["ret", "volume"]].iloc[0:16]
        w = (w - w.mean()) / (w.std() + 1e-8)
        state = torch.from_numpy(w.values.flatten()).unsqueeze(0)  # expect: DG004
        probs = nn.Linear(32, 3)(state)
        """,
    "a buffer filled through __dict__ in a loop that surely runs; isinstance decides the branch": """
        import numpy as np
        import torch
        from torch import nn
        class Buffer:
            def __init__(self, size):
                self.size = size
                self.obs = None
            def _add(self, name, inst):
                if self.__dict__.get(name, None) is None:
                    self.__dict__[name] = np.zeros([self.size, *np.asarray(inst).shape])  # expect: DG004
                self.__dict__[name][0] = inst
            def add(self, obs):
                self._add("obs", obs)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)
            def forward(self, s):
                if not isinstance(s, torch.Tensor):
                    s = torch.tensor(s)
                return self.fc(s)
        buf = Buffer(8)
        for _ in range(3):
            buf.add(np.random.randn(4).astype(np.float32))
        q = Net()(buf.obs)
        """,
    "a tensor passed in is not converted again: quiet": """
        import torch
        from torch import nn
        def to_tensor(s):
            if not isinstance(s, torch.Tensor):
                s = torch.tensor(s, dtype=torch.float64)
            return s
        out = nn.Linear(4, 2)(to_tensor(torch.rand(2, 4)))
        """,
    "an option's default chooses the CPU for the hidden state while the model moves to the GPU": """
        import argparse
        import torch
        from torch import nn
        class Tagger(nn.Module):
            def __init__(self, args):
                super().__init__()
                gpu_ids = args.gpu_ids.split(",")
                self.device = torch.device("cpu" if gpu_ids[0] == "-1" else "cuda:" + gpu_ids[0])
                self.lstm = nn.LSTM(8, 16, batch_first=True)
            def forward(self, x):
                h0 = torch.zeros(1, x.size(0), 16).to(self.device)  # expect: DG009
                c0 = torch.zeros(1, x.size(0), 16).to(self.device)  # expect: DG009
                return self.lstm(x, (h0, c0))
        parser = argparse.ArgumentParser()
        parser.add_argument("--gpu_ids", type=str, default="-1")
        args = parser.parse_args()
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = Tagger(args).to(device)
        out = model(torch.rand(2, 5, 8).to(device))
        """,
    # --- accelerate's save is torch.save ----------------------------------------------------------
    "accelerator.save pickles what torch.save would": """
        import numpy as np
        import torch
        from torch import nn
        from accelerate import Accelerator
        accelerator = Accelerator()
        accelerator.save({"model": nn.Linear(2, 2).state_dict(), "best": np.float64(0.5)}, "ckpt.pt")  # expect: DG011
        ckpt = torch.load("ckpt.pt", map_location="cpu")
        """,
    "a dict comprehension over a dict's keys keeps each split's dtype": """
        import numpy as np
        import torch
        from torch import nn
        X = {"train": np.random.rand(8, 4), "val": np.random.rand(4, 4)}
        y = {"train": np.random.rand(8), "val": np.random.rand(4)}
        data = {part: (torch.as_tensor(X[part]), torch.as_tensor(y[part], dtype=torch.float32)) for part in X}  # expect: DG004
        x_train, y_train = data["train"]
        nn.Linear(4, 1)(x_train)
        """,
    "a dict comprehension over a literal list of float32 splits is clean": """
        import numpy as np
        import torch
        from torch import nn
        X = {"train": np.random.rand(8, 4), "val": np.random.rand(4, 4)}
        data = {part: torch.as_tensor(X[part], dtype=torch.float32) for part in ["train", "val"]}
        nn.Linear(4, 1)(data["train"])
        """,
    "a Sequential of a list grown with += and append knows its first layer": """
        import torch
        import torch.nn as nn
        layers = [nn.Linear(8, 4), nn.ReLU()]
        for _ in range(3):
            layers += [nn.Linear(4, 4), nn.ReLU()]
        layers.append(nn.Linear(4, 1))
        net = nn.Sequential(*layers)
        x = torch.zeros(3, 8, dtype=torch.float64)  # expect: DG004
        net(x)
        """,
    "a float64 buffer from np.zeros filled later is fixed where it is allocated": """
        import numpy as np
        import torch
        from torch import nn
        def one_hot(texts, n=5):
            batch = np.zeros((len(texts), n))  # expect: DG004
            for i, t in enumerate(texts):
                batch[i, len(t) % n] = 1
            return torch.from_numpy(batch)
        nn.Linear(5, 2)(one_hot(["a", "bb"]))
        """,
    "einsum of a float64 tensor with a float32 parameter; the dtype borrowed by .to(other.dtype)": """
        import numpy as np
        import torch
        from torch import nn
        def basis(x, grid):
            return (x.unsqueeze(2) >= grid.unsqueeze(0)).to(grid.dtype)
        grid = torch.from_numpy(np.linspace(-1, 1, 6)[None].repeat(2, 0))  # expect: DG004
        coef = nn.Parameter(torch.randn(2, 1, 6))
        y = torch.einsum("ijk,jlk->ijl", basis(torch.rand(4, 2), grid), coef)
        """,
    "einsum of operands of one dtype is clean": """
        import torch
        a, b = torch.rand(2, 3), torch.rand(3, 4)
        c = torch.einsum("ij,jk->ik", a, b)
        """,
    "a default set to float64 inside a setup helper after the data exists is the root": """
        import torch
        from torch import nn
        def setup():
            torch.set_default_dtype(torch.float64)  # expect: DG004
        xt = torch.rand(8, 3, dtype=torch.float32)
        setup()
        net = nn.Linear(3, 1)
        net(xt)
        """,
    "float labels as the index of a hand-written one-hot scatter_": """
        import torch
        labels = torch.randint(0, 4, (8, 16)).float()  # expect: DG006
        pred = torch.rand(8, 4, 16).softmax(1)
        one_hot = pred.detach() * 0
        one_hot.scatter_(1, labels.unsqueeze(1), 1)
        """,
    "int64 labels as the index of scatter_ and gather are clean": """
        import torch
        labels = torch.randint(0, 4, (8, 16))
        pred = torch.rand(8, 4, 16).softmax(1)
        one_hot = torch.zeros_like(pred).scatter_(1, labels.unsqueeze(1), 1)
        picked = pred.gather(1, labels.unsqueeze(1))
        """,
    "an in-place clamp of int64 indices with a float bound": """
        import torch
        gain = torch.ones(7)
        gij = (torch.rand(5, 2) * 8).long()
        gi, gj = gij.T
        ind = (gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1))  # expect: DG004
        """,
    "in-place updates that keep an integer dtype are clean; so are float tensors": """
        import torch
        counts = torch.zeros(4, dtype=torch.long)
        counts += torch.ones(4, dtype=torch.long)
        counts.mul_(2)
        counts.clamp_(0, 10)
        acc = torch.zeros(4)
        acc += 0.5
        acc.div_(3)
        """,
    "torch.pi times a float64 buffer promotes the forward's input": """
        import torch
        from torch import nn
        class Basis(nn.Module):
            def __init__(self):
                super().__init__()
                w = torch.pi / 5.0 * torch.linspace(1.0, 8, 8, dtype=torch.float64)  # expect: DG004
                self.register_buffer("w", w)
                self.mlp = nn.Linear(8, 1)
            def forward(self, r):
                return self.mlp(torch.sin(self.w * r))
        Basis()(torch.rand(5, 1))
        """,
    "data made on the CPU and passed to a GPU model is fixed where it is bound": """
        import numpy as np
        import torch
        from torch import nn
        device = torch.device(f"cuda:{0}" if torch.cuda.is_available() else "cpu")
        net = nn.Linear(4, 2).to(device)
        patch = np.random.rand(3, 4).astype("float32")
        data = torch.from_numpy(patch)  # expect: DG009
        out = net(data)
        """,
    "a batch bound by a for header and used on a GPU model is fixed at the use": """
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, TensorDataset
        device = "cuda" if torch.cuda.is_available() else "cpu"
        net = nn.Linear(4, 2).to(device)
        for x, y in DataLoader(TensorDataset(torch.rand(8, 4), torch.rand(8, 2)), batch_size=4):
            out = net(x)  # expect: DG009
        """,
    "a gradient from torch.autograd.grad is on its input's device": """
        import torch
        device = "cuda" if torch.cuda.is_available() else "cpu"
        x = torch.rand(3, device=device).requires_grad_(True)
        grad, = torch.autograd.grad((x * 2).sum(), x)
        step = (x + 0.1 * grad.sign()).detach()
        step.numpy()  # expect: DG009
        """,
    "an f-string device with an unknown index is still CUDA; .cpu() first is clean": """
        import torch
        from torch import nn
        def run(rank):
            device = torch.device(f"cuda:{rank}")
            net = nn.Linear(4, 2).to(device)
            out = net(torch.rand(3, 4).to(device))
            return out.detach().cpu().numpy()
        """,
    "a bf16 dtype chosen by the caller of a from_pretrained helper is the root": """
        import torch
        from torch import nn
        class Tiny(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)
            @classmethod
            def from_pretrained(cls, path, torch_dtype=torch.float32):
                return cls().to(torch_dtype)
        model = Tiny.from_pretrained("x", torch_dtype=torch.bfloat16)  # expect: DG013
        opt = torch.optim.AdamW(model.parameters(), lr=1e-5)
        model(torch.rand(2, 4, dtype=torch.bfloat16)).sum().backward()
        opt.step()
        """,
    "a plain CPU attribute rebound from itself keeps its first store as the root": """
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.tem = torch.eye(4)[None].repeat(3, 1, 1)  # expect: DG009
                self.tem = self.tem.permute(2, 0, 1)
                self.fc = nn.Linear(3, 2)
            def forward(self, x):
                return self.fc(self.tem.mean(dim=(1, 2)).unsqueeze(0).expand(x.size(0), -1))
        device = "cuda" if torch.cuda.is_available() else "cpu"
        net = Net().to(device)
        net(torch.rand(3, 4, device=device))
        """,
    "integer mask labels made float by astype('float') in a Dataset reach CrossEntropyLoss": """
        import numpy as np
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, Dataset
        class Masks(Dataset):
            def __init__(self):
                self.masks = np.random.randint(0, 4, size=(8, 16, 16)).astype(np.uint8)
            def __getitem__(self, i):
                mask = np.select([self.masks[i] == v for v in (1, 2)], list(range(2)), 0)
                mask = mask.astype("float")  # expect: DG006
                return torch.rand(3, 16, 16), torch.from_numpy(mask)
            def __len__(self):
                return 8
        net = nn.Conv2d(3, 4, 1)
        for x, y in DataLoader(Masks(), batch_size=4):
            loss = nn.CrossEntropyLoss()(net(x), y)
        """,
    "a float64 rotation from np.linalg.qr/inv meets float32 rays in torch.bmm": """
        import numpy as np
        import torch
        q, _ = np.linalg.qr(np.random.normal(size=(3, 3)))
        R = torch.as_tensor(np.stack([np.linalg.inv(q), q]))  # expect: DG004
        intri = torch.rand(2, 4)
        fx, fy, cx, cy = intri.unbind(-1)
        rays = torch.stack([fx, fy, cx], dim=1)[:, :, None]
        out = torch.bmm(R, rays)
        """,
    "torch.bmm of float32 operands from unbind and a float32 cast is clean": """
        import numpy as np
        import torch
        q, _ = np.linalg.qr(np.random.normal(size=(3, 3)))
        R = torch.as_tensor(np.stack([q, q])).float()
        fx, fy, cx, cy = torch.rand(2, 4).unbind(-1)
        out = torch.bmm(R, torch.stack([fx, fy, cx], dim=1)[:, :, None])
        """,
    "float64 least-squares control points unpacked with a star become an MSE target": """
        import argparse
        import numpy as np
        import torch
        from torch import nn
        parser = argparse.ArgumentParser()
        parser.add_argument("--degree", type=int, default=3)
        args = parser.parse_args()
        ys = np.linspace(0, 1, 20)
        A = np.stack([ys ** k for k in range(args.degree + 1)], axis=1)
        ctrl, *_ = np.linalg.lstsq(A, np.stack([ys, ys], 1), rcond=None)
        target = torch.from_numpy(ctrl.reshape(-1))  # expect: DG008
        pred = nn.Linear(4, (args.degree + 1) * 2)(torch.rand(4))
        loss = nn.MSELoss()(pred, target)
        """,
    "a Sequential of Embeddings feeds float vectors to the second one": """
        import torch
        from torch import nn
        class Income(nn.Module):
            def __init__(self):
                super().__init__()
                self.embedded = nn.Sequential(  # expect: DG005
                    nn.Embedding(4, 8),
                    nn.Embedding(4, 8),
                )
                self.head = nn.Linear(16, 1)
            def forward(self, x):
                return self.head(self.embedded(x).flatten(1))
        Income()(torch.randint(0, 4, (2, 2)))
        """,
    "an Embedding first, then float layers, is a clean Sequential": """
        import torch
        from torch import nn
        seq = nn.Sequential(nn.Embedding(4, 8), nn.Flatten(), nn.Linear(16, 1))
        seq(torch.randint(0, 4, (2, 2)))
        """,
    "a module's buffers move with .to(device) even when its sub-model was moved before": """
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        class Translator(nn.Module):
            def __init__(self, model):
                super().__init__()
                self.model = model
                self.register_buffer("blank", torch.full((2, 5), 0, dtype=torch.long))
                self.blank[:, 0] = 1
            def run(self):
                return self.model(self.blank.clone()[:, :2])
        t = Translator(nn.Embedding(10, 4).to(device)).to(device)
        t.run()
        """,
    # --- set 6 (after its held-out score) -----------------------------------------------------
    "legacy .type(torch.FloatTensor) of uint8 masks into CrossEntropyLoss by n_classes > 1": """
        import numpy as np
        import torch
        from torch import nn
        masks = np.random.randint(0, 3, (4, 8, 8)).astype(np.uint8)
        net = nn.Conv2d(3, 3, 1)
        n_classes = 3
        criterion = nn.CrossEntropyLoss() if n_classes > 1 else nn.BCEWithLogitsLoss()
        y = torch.from_numpy(masks).type(torch.FloatTensor)  # expect: DG006
        loss = criterion(net(torch.randn(4, 3, 8, 8)), y)
        """,
    "n_classes == 1 picks BCE: float masks are right": """
        import numpy as np
        import torch
        from torch import nn
        masks = np.random.randint(0, 2, (4, 1, 8, 8)).astype(np.uint8)
        net = nn.Conv2d(3, 1, 1)
        n_classes = 1
        criterion = nn.CrossEntropyLoss() if n_classes > 1 else nn.BCEWithLogitsLoss()
        y = torch.from_numpy(masks).type(torch.FloatTensor)
        loss = criterion(net(torch.randn(4, 3, 8, 8)), y)
        """,
    "int32 buffer of class indices behind a list of loss ops indexed by an unknown i": """
        import numpy as np
        import torch
        from torch import nn
        def grid(n):
            out = np.zeros((n,), dtype=np.int32)  # expect: DG006
            return out
        def calc(loss_dict, results):
            loss = 0
            for i in range(len(loss_dict["op"])):
                datas = [results[src] for src in loss_dict["src"][i]]
                loss += loss_dict["op"][i](*datas)
            return loss
        net = nn.Linear(4, 3)
        labels = torch.from_numpy(grid(8))
        d = {"op": [nn.CrossEntropyLoss()], "src": [("out", "label")]}
        calc(d, {"out": net(torch.randn(8, 4)), "label": labels})
        """,
    "int32 class codes written at np.array: reported where int32 is chosen (most reporters' fix)": """
        import numpy as np
        import torch
        from torch import nn
        codes = np.array([1, 0, 2, 1, 0, 2, 1, 0], dtype=np.int32)  # expect: DG006
        net = nn.Linear(4, 3)
        y = torch.from_numpy(codes)
        nn.CrossEntropyLoss()(net(torch.randn(8, 4)), y)
        """,
    "int64 multi-hot buffer into BCE: reported where int64 is chosen": """
        import numpy as np
        import torch
        from torch import nn
        rows = np.zeros((8, 3), dtype=np.int64)  # expect: DG007
        rows[:, 1] = 1
        net = nn.Linear(4, 3)
        y = torch.from_numpy(rows)
        nn.BCEWithLogitsLoss()(net(torch.randn(8, 4)), y)
        """,
    "length mask built on the CPU fills scores on the model's device (masked_fill_)": """
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        lin = nn.Linear(4, 6).to(device)
        scores = lin(torch.randn(3, 4, device=device))
        lengths = [6, 4, 5]
        mask = torch.arange(max(lengths))[None, :] < torch.tensor(lengths)[:, None]  # expect: DG009
        scores.masked_fill_(~mask, float("-inf"))
        """,
    "a 0-dim CPU mask, or a mask made on the scores' device, is fine": """
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        lin = nn.Linear(4, 6).to(device)
        scores = lin(torch.randn(3, 4, device=device))
        lengths = [6, 4, 5]
        mask = torch.arange(max(lengths), device=device)[None, :] < torch.tensor(lengths, device=device)[:, None]
        scores.masked_fill_(~mask, float("-inf"))
        flag = torch.tensor(True)
        scores.masked_fill(flag, 0.0)
        """,
    "a table allocated without a device, sized from the scores, meets them (Viterbi)": """
        import torch
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        crf = torch.randn(4, 5, 6, 6).to(device)
        B, L, T, _ = crf.size()
        viterbi = torch.zeros(B, L, T)  # expect: DG009
        for step in range(L):
            if step == 0:
                viterbi[:, step, :] = crf[:, step, 0, :]
            else:
                best, _ = torch.max(viterbi[:, step - 1, :].unsqueeze(2) + crf[:, step, :, :], dim=1)
                viterbi[:, step, :] = best
        """,
    "a thin wrapper of torch.tensor: reported at the wrapper's call": """
        import numpy as np
        import torch
        from torch import nn
        def _tensor(data, dtype=None):
            return torch.tensor(data, dtype=dtype)
        feat = _tensor(np.random.rand(8, 3))  # expect: DG004
        label = _tensor(np.arange(8), dtype=torch.long)
        nn.Linear(3, 2)(feat)
        """,
    "a helper that builds the data itself keeps its own line": """
        import numpy as np
        import torch
        from torch import nn
        def load():
            arr = np.random.rand(8, 3)
            return torch.from_numpy(arr)  # expect: DG004
        nn.Linear(3, 2)(load())
        """,
    "a --device option makes the script run on both: torch.load needs map_location": """
        import argparse
        import torch
        from torch import nn
        parser = argparse.ArgumentParser()
        parser.add_argument("-d", "--device", default="cpu")
        args = parser.parse_args()
        model = nn.Linear(4, 2).to(torch.device(args.device))
        state = torch.load("best.pth")  # expect: DG010
        model.load_state_dict(state)
        """,
    "a CPU-only script loading a checkpoint: no evidence it meets GPU files": """
        import torch
        from torch import nn
        model = nn.Linear(4, 2)
        state = torch.load("best.pth")
        model.load_state_dict(state)
        """,
    "a float64 model's Parameter meets float32 state in tensordot: rooted at the model's cast": """
        import torch
        from torch import nn
        class Pot(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Parameter(torch.randn(3, 8))
            def forward(self, pos):
                return torch.tensordot(pos, self.proj, dims=1)
        pos = torch.randn(12, 3)
        model = Pot().to(dtype=torch.float64)  # expect: DG004
        model(pos)
        """,
    "tensordot, inner and dot of one dtype are fine": """
        import torch
        a = torch.randn(3, 3, dtype=torch.float64)
        b = torch.randn(3, 3).double()
        torch.tensordot(a, b, dims=1)
        torch.inner(a, b)
        torch.dot(a[0], b[0])
        """,
    "a store class's __getitem__ gets the key it is given (f['gt'][str(i)] / 255.0)": """
        import numpy as np
        import torch
        from torch import nn
        class Store:
            def __init__(self):
                rng = np.random.default_rng(0)
                self.data = {"gt": {str(i): rng.integers(0, 256, (4, 4), dtype=np.uint8) for i in range(3)}}
            def __getitem__(self, key):
                return self.data[key]
        f = Store()
        gt = f["gt"][str(1)] / 255.0
        x = torch.from_numpy(gt)  # expect: DG004
        nn.Linear(4, 2)(x)
        """,
    "NumPy float64 data written below a helper that converts it: the fix is the conversion": """
        import numpy as np
        import torch
        from torch import nn
        def iou(a, b):
            inter = np.clip(np.minimum(a, b), 0, None).prod(1)
            return inter / (a.prod(1) + b.prod(1) - inter + 1e-9)
        def loss_of(p, boxes):
            t = torch.from_numpy(iou(p.detach().numpy(), boxes))  # expect: DG007
            return nn.BCELoss()(torch.sigmoid(p[:, 0]), t)
        boxes = np.random.rand(8, 4)
        loss_of(torch.randn(8, 4, requires_grad=True), boxes)
        """,
    "a whole model cast to bfloat16, its trainable parameters filtered: still all bfloat16": """
        import torch
        from torch import nn
        model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 2))
        for p in model[1].parameters():
            p.requires_grad_(False)
        model = model.to(torch.bfloat16)  # expect: DG013
        opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-4)
        opt.step()
        """,
    "float32 adapters added after the bfloat16 cast, only they trained: quiet": """
        import torch
        from torch import nn
        model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 2)).to(torch.bfloat16)
        for p in model.parameters():
            p.requires_grad_(False)
        model.adapter = nn.Linear(8, 8)
        opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-4)
        opt.step()
        """,
    "device= of an unknown tensor's device (a tuple assignment) is unknown: quiet (DALLE-pytorch)": """
        import torch
        from torch import nn
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(10, 4)
            def forward(self, text):
                batch, device = text.shape[0], text.device
                text_range = torch.arange(5, device = device) + 3
                text = torch.where(text == 0, text_range, text)
                return self.emb(text)
        m = M().cuda()
        """,
    "device=None is the default device": """
        import torch
        from torch import nn
        model = nn.Linear(4, 2).cuda()
        x = torch.randn(8, 4, device=None)  # expect: DG009
        y = model(x)
        """,
    "NumPy data cast with .astype(np.float64) in the main block, converted in a method above: the conversion is the root": """
        import numpy as np
        import torch
        from torch import nn
        class AE(nn.Module):
            def __init__(self):
                super().__init__()
                self.enc = nn.Linear(20, 4)
            def forward(self, x):
                return self.enc(x)
            def pretrain(self, X):
                X = torch.tensor(X)  # expect: DG004
                opt = torch.optim.Adam(self.parameters())
                loss = self.forward(X).pow(2).mean()
                loss.backward()
                opt.step()
        counts = np.random.default_rng(0).poisson(2.0, size=(30, 20)).astype(np.float64) + 1.0
        AE().pretrain(counts)
        """,
    "a Sequential of layers appended in a loop, an Embedding first: its output is unknown, quiet": """
        import torch
        from torch import nn
        layers = []
        layers.append(nn.Embedding(100, 16))
        layers.append(nn.Flatten())
        for _ in range(2):
            layers.append(nn.Linear(16 * 8, 16 * 8))
        body = nn.Sequential(*layers)
        head = nn.Linear(16 * 8, 2)
        tokens = torch.randint(0, 100, (4, 8))
        out = head(body(tokens))
        """,
    "a layer inserted at the head of a list: the old head is not the first layer, quiet": """
        import torch
        from torch import nn
        layers = [nn.Linear(4, 8), nn.ReLU()]
        layers.insert(0, nn.Embedding(10, 4))
        seq = nn.Sequential(*layers)
        out = seq(torch.randint(0, 10, (3,)))
        """,
    "len(x.shape) of a tensor of known rank decides the branch": """
        import torch
        from torch import nn
        conv = nn.Conv2d(3, 8, 3)
        codes = torch.zeros(4, 16, dtype=torch.long)
        if len(codes.shape) == 4:
            out = conv(codes)
        """,
    "a lambda wrapper around torch.tensor (stable-diffusion's scripts): the call is the root, no crash": """
        import numpy as np
        import torch
        from torch import nn
        to_tensor = lambda a: torch.tensor(a)
        model = nn.Linear(3, 1)
        x = to_tensor(np.zeros((2, 3)))  # expect: DG004
        y = model(x)
        """,
    "a converter that takes no dtype, called once, decides it: the fix goes inside it (h02, m06)": """
        import numpy as np
        import torch
        from torch import nn
        def np2pt(array):
            return torch.from_numpy(array)  # expect: DG004
        def features(n):
            return np.log(np.random.rand(n, 3) + 1.0)
        model = nn.Linear(3, 1)
        y = model(np2pt(features(4)))
        """,
    "Lightning: Trainer.fit runs training_step on a batch of the training DataLoader": """
        import numpy as np
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, TensorDataset
        import lightning as L
        class Regressor(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.net = nn.Linear(4, 1)
            def training_step(self, batch, batch_idx):
                x, y = batch
                return nn.functional.mse_loss(self.net(x), y)
            def configure_optimizers(self):
                return torch.optim.Adam(self.parameters(), lr=1e-3)
        X = np.random.default_rng(0).normal(size=(64, 4))
        ds = TensorDataset(torch.from_numpy(X), torch.zeros(64, 1))  # expect: DG004
        L.Trainer(max_epochs=1).fit(Regressor(), DataLoader(ds, batch_size=16))
        """,
    "Lightning: a datamodule's setup and train_dataloader feed training_step": """
        import numpy as np
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, TensorDataset
        import lightning.pytorch as pl
        class Data(pl.LightningDataModule):
            def setup(self, stage):
                X = np.random.default_rng(0).normal(size=(64, 4))
                self.train = TensorDataset(torch.from_numpy(X), torch.zeros(64, 1))  # expect: DG004
            def train_dataloader(self):
                return DataLoader(self.train, batch_size=16)
        class Regressor(pl.LightningModule):
            def __init__(self):
                super().__init__()
                self.net = nn.Linear(4, 1)
            def training_step(self, batch, batch_idx):
                x, y = batch
                return nn.functional.mse_loss(self.net(x), y)
            def configure_optimizers(self):
                return torch.optim.Adam(self.parameters())
        trainer = pl.Trainer(max_epochs=1)
        trainer.fit(Regressor(), datamodule=Data())
        """,
    "Lightning: precision='64-true' converts the model and the batches: quiet": """
        import numpy as np
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, TensorDataset
        import lightning as L
        class Regressor(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.net = nn.Linear(4, 1)
            def training_step(self, batch, batch_idx):
                x, y = batch
                return nn.functional.mse_loss(self.net(x), y)
            def configure_optimizers(self):
                return torch.optim.Adam(self.parameters())
        X = np.random.default_rng(0).normal(size=(64, 4))
        ds = TensorDataset(torch.from_numpy(X), torch.zeros(64, 1, dtype=torch.float64))
        L.Trainer(max_epochs=1, precision="64-true").fit(Regressor(), DataLoader(ds, batch_size=16))
        """,
    "Lightning: the Trainer moves the module and the batches to its accelerator; a tensor made without a device stays on the CPU": """
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, TensorDataset
        import lightning as L
        class Regressor(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.net = nn.Linear(4, 1)
            def training_step(self, batch, batch_idx):
                x, y = batch
                err = (self.net(x).squeeze(-1) - y) ** 2
                weights = torch.ones(x.size(0))  # expect: DG009
                return (weights * err).mean()
            def configure_optimizers(self):
                return torch.optim.Adam(self.parameters())
        loader = DataLoader(TensorDataset(torch.randn(64, 4), torch.randn(64)), batch_size=16)
        L.Trainer(max_epochs=1).fit(Regressor(), loader)
        """,
    "Lightning: on accelerator='cpu', or with the tensor made on the batch's device: quiet": """
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, TensorDataset
        import lightning as L
        class Regressor(L.LightningModule):
            def __init__(self, cpu_only):
                super().__init__()
                self.net = nn.Linear(4, 1)
                self.cpu_only = cpu_only
            def training_step(self, batch, batch_idx):
                x, y = batch
                err = (self.net(x).squeeze(-1) - y) ** 2
                weights = torch.ones(x.size(0)) if self.cpu_only else torch.ones(x.size(0), device=x.device)
                return (weights * err).mean()
            def configure_optimizers(self):
                return torch.optim.Adam(self.parameters())
        loader = DataLoader(TensorDataset(torch.randn(64, 4), torch.randn(64)), batch_size=16)
        L.Trainer(max_epochs=1, accelerator="cpu").fit(Regressor(True), loader)
        L.Trainer(max_epochs=1, accelerator="auto").fit(Regressor(False), loader)
        """,
    "a model made by a factory function and never moved: reported where the caller holds it": """
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self, width):
                super().__init__()
                self.fc = nn.Linear(4, width)
            def forward(self, x):
                return self.fc(x)
        def build(**kwargs):
            return Net(width=kwargs["width"])
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = build(width=8)  # expect: DG009
        x = torch.randn(2, 4).to(device)
        y = model(x)
        """,
    "Lightning 64-true: a float32 NumPy table in training_step meets float64 weights; new torch tensors are float64": """
        import numpy as np
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, TensorDataset
        import lightning as L
        class Regressor(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.table = np.zeros((4, 3), dtype=np.float32)
                self.net = nn.Linear(3, 1)
                self.other = nn.Linear(3, 1)
            def training_step(self, batch, batch_idx):
                x, group, y = batch
                noise = torch.randn(x.shape[0], 3)
                cond = torch.from_numpy(self.table[group.numpy()])  # expect: DG004
                return nn.functional.mse_loss(self.net(cond) + self.other(noise) + self.other(x), y)
            def configure_optimizers(self):
                return torch.optim.Adam(self.parameters())
        ds = TensorDataset(torch.randn(64, 3), torch.randint(0, 4, (64,)), torch.zeros(64, 1))
        L.Trainer(max_epochs=1, accelerator="cpu", precision="64-true").fit(Regressor(), DataLoader(ds, batch_size=16))
        """,
    "a loss's pos_weight is a buffer: criterion.to(device) moves it: quiet": """
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(8, 4).to(device)
        criterion = nn.BCEWithLogitsLoss(pos_weight=torch.ones(4)).to(device)
        x, y = torch.randn(2, 8, device=device), torch.rand(2, 4, device=device)
        loss = criterion(model(x), y)
        """,
    "a loss's pos_weight left on the CPU meets GPU predictions": """
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(8, 4).to(device)
        criterion = nn.BCEWithLogitsLoss(pos_weight=torch.ones(4))  # expect: DG009
        x, y = torch.randn(2, 8, device=device), torch.rand(2, 4, device=device)
        loss = criterion(model(x), y)
        """,
    "model.half() then a part back to float32: the optimizer's parameters are mixed, not float16: quiet": """
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.frozen = nn.Linear(8, 8)
                self.extra = nn.Linear(8, 8)
            def forward(self, x):
                return self.frozen(self.extra(x.float()).half())
        model = Net().half()
        model.extra.float()
        trainable = [p for p in model.parameters() if p.requires_grad]
        opt = torch.optim.Adam(trainable, lr=1e-4)
        """,
    "a save under a patched location_tag writes CUDA tags: reloading it in the same run still needs map_location": """
        from unittest import mock
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(2, 2)
        with mock.patch.object(torch.serialization, "location_tag", lambda storage: "cuda:0"):
            torch.save(model.state_dict(), "ckpt.pt")
        state = torch.load("ckpt.pt")  # expect: DG010
        """,
    "reloaded in the run that saved it: quiet": """
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(2, 2).to(device)
        torch.save(model.state_dict(), "ckpt.pt")
        state = torch.load("ckpt.pt")
        """,
    "np.fromfile with a type code, through a Dataset whose labels-is-None branch is pruned": """
        import numpy as np
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, Dataset
        class D(Dataset):
            def __init__(self, data, labels=None):
                self.data, self.labels = data, labels
            def __len__(self):
                return len(self.data)
            def __getitem__(self, idx):
                x = torch.from_numpy(self.data[idx])
                if self.labels is None:
                    return x, x
                return x, self.labels[idx]
        data = np.fromfile("x.bin", dtype=np.float32).reshape(-1, 4)
        labels = np.fromfile("y.bin", dtype="<i4")  # expect: DG006
        model = nn.Linear(4, 3)
        for x, y in DataLoader(D(data, labels), batch_size=8):
            loss = nn.functional.cross_entropy(model(x), y)
        """,
    "a cache this script writes with torch.save is what torch.load reads back": """
        import os
        import numpy as np
        import torch
        from torch import nn
        def build():
            labels = np.zeros(16, dtype=np.int32)  # expect: DG006
            return {"x": torch.randn(16, 4), "y": torch.from_numpy(labels)}
        if not os.path.exists("cache.pt"):
            torch.save(build(), "cache.pt")
        data = torch.load("cache.pt")
        model = nn.Linear(4, 3)
        loss = nn.functional.cross_entropy(model(data["x"]), data["y"])
        """,
    "@torch.autocast on a submodule's forward: its bfloat16 output reaches a float32 layer": """
        import torch
        from torch import nn
        class Inner(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 8)
            @torch.autocast(device_type="cpu", dtype=torch.bfloat16)
            def forward(self, x):
                return self.fc(x)  # expect: DG017 (made here: `.float()` goes here, as the next case does)
        class Outer(nn.Module):
            def __init__(self):
                super().__init__()
                self.inner = Inner()
                self.proj = nn.Linear(8, 8)
            def forward(self, x):
                return self.proj(self.inner(x))
        y = Outer()(torch.randn(2, 8))
        """,
    "@torch.autocast on a forward that returns .float(): quiet": """
        import torch
        from torch import nn
        class Inner(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 8)
            @torch.autocast(device_type="cpu", dtype=torch.bfloat16)
            def forward(self, x):
                return self.fc(x).float()
        class Outer(nn.Module):
            def __init__(self):
                super().__init__()
                self.inner = Inner()
                self.proj = nn.Linear(8, 8)
            def forward(self, x):
                return self.proj(self.inner(x))
        y = Outer()(torch.randn(2, 8))
        """,
    "a class of the script's own whose __iter__ yields the batches": """
        import numpy as np
        import torch
        from torch import nn
        class Batches:
            def __init__(self, steps):
                self.steps = steps
            def __iter__(self):
                for _ in range(self.steps):
                    x = np.random.rand(4, 3)
                    yield torch.from_numpy(x), torch.zeros(4, 1)  # expect: DG004
        model = nn.Linear(3, 1)
        for x, y in Batches(2):
            loss = nn.functional.mse_loss(model(x), y)
        """,
    "a table of features and labels: the label column taken out is where the conversion goes": """
        import numpy as np
        import torch
        from torch import nn
        table = torch.from_numpy(np.random.rand(50, 5))
        data = table[:, :-1]
        target = table[:, -1]  # expect: DG006
        onehot = torch.zeros(target.shape[0], 10)
        onehot.scatter_(1, target.unsqueeze(1), 1.0)
        """,
    "a ColumnTransformer of a frame: scaled and one-hot columns are float64": """
        import numpy as np
        import pandas as pd
        import torch
        from torch import nn
        from sklearn.compose import ColumnTransformer
        from sklearn.preprocessing import OneHotEncoder, StandardScaler
        df = pd.DataFrame({"area": np.random.rand(20), "rooms": np.random.randint(1, 5, 20), "city": np.random.choice(["a", "b"], 20)})
        pre = ColumnTransformer([("num", StandardScaler(), ["area", "rooms"]), ("cat", OneHotEncoder(sparse_output=False), ["city"])])
        X = torch.from_numpy(pre.fit_transform(df))  # expect: DG004
        model = nn.Linear(4, 1)
        out = model(X)
        """,
    "a ColumnTransformer of float32 columns, and a sparse encoder: quiet": """
        import numpy as np
        import pandas as pd
        import torch
        from torch import nn
        from sklearn.compose import ColumnTransformer
        from sklearn.preprocessing import OneHotEncoder, StandardScaler
        df = pd.DataFrame({"a": np.random.rand(20).astype(np.float32), "city": np.random.choice(["a", "b"], 20)})
        X = torch.from_numpy(ColumnTransformer([("num", StandardScaler(), ["a"])]).fit_transform(df))
        out = nn.Linear(1, 1)(X)
        Z = torch.from_numpy(OneHotEncoder().fit_transform(df[["city"]]).toarray().astype(np.float32))
        out = nn.Linear(2, 1)(Z)
        """,
    "zip(*rows) transposes: the images are float64, the labels int64": """
        import numpy as np
        import torch
        from torch import nn
        samples = list(zip(np.random.rand(8, 3), np.arange(8)))
        imgs, labels = zip(*samples)
        x = torch.from_numpy(np.stack(imgs))  # expect: DG004
        y = torch.from_numpy(np.array(labels))
        loss = nn.functional.cross_entropy(nn.Linear(3, 2)(x), y)
        """,
    "zip(*rows) of float32 images and int32 labels converted in the collate: quiet": """
        import numpy as np
        import torch
        from torch import nn
        samples = list(zip(np.random.rand(8, 3).astype("float32"), np.arange(8, dtype=np.int32)))
        imgs, labels = zip(*samples)
        x = torch.from_numpy(np.stack(imgs))
        y = torch.as_tensor(np.array(labels), dtype=torch.long)
        loss = nn.functional.cross_entropy(nn.Linear(3, 2)(x), y)
        """,
    "read_csv with a dtype per column, and astype per column": """
        import io
        import pandas as pd
        import torch
        from torch import nn
        train = pd.read_csv(io.StringIO("id,label\\n1,2\\n2,3"), dtype={"label": "int32"})
        y = torch.from_numpy(train["label"].values)  # expect: DG006
        other = torch.from_numpy(train.values)
        df = pd.DataFrame({"a": [1, 2], "b": [0.5, 1.5]}).astype({"b": "float32"})
        out = nn.Linear(1, 1)(torch.from_numpy(df[["b"]].values))
        loss = nn.functional.cross_entropy(torch.randn(2, 4), y)
        """,
    "a float64 buffer from np.linspace broadcast against a float32 activation in forward": """
        import numpy as np
        import torch
        import torch.nn as nn
        class Hedger(nn.Module):
            def __init__(self, strikes):
                super().__init__()
                self.register_buffer("strikes", torch.as_tensor(np.asarray(strikes)))  # expect: DG004
                self.mlp = nn.Linear(6, 1)
            def forward(self, s):
                payoff = torch.relu(s.exp().unsqueeze(-1) - self.strikes)
                return self.mlp(torch.cat([payoff, s.unsqueeze(-1)], dim=-1))
        out = Hedger(np.linspace(0.8, 1.2, 5))(torch.randn(4))
        """,
    "a float64 scalar tensor does not promote a float32 activation: quiet": """
        import numpy as np
        import torch
        import torch.nn as nn
        scale = torch.as_tensor(np.float64(2.0))
        out = nn.Linear(3, 1)(torch.randn(4, 3) * scale)
        """,
    "a list of per-column tensors picked by an index the loop gives": """
        import numpy as np
        import pandas as pd
        import torch
        from torch import nn
        df = pd.DataFrame({"rooms": np.random.randint(1, 8, 16), "year": np.random.randint(1950, 2020, 16)})
        nums = [torch.tensor(df[c].to_numpy()) for c in ["rooms", "year"]]  # expect: DG005
        cols = [torch.stack([n[i] for i in range(4)]) for n in nums]
        for j in range(len(cols)):
            picked = cols[j]
            out = nn.Linear(2, 1)(torch.stack([picked, picked], dim=1))
        """,
    "a list of tensors of two dtypes picked by an unknown index: quiet": """
        import torch
        from torch import nn
        parts = [torch.zeros(4, dtype=torch.long), torch.zeros(4)]
        for j in range(2):
            out = nn.Linear(4, 1)(parts[j])
        """,
    "trainable parameters of a part cast to float16 while another part is frozen": """
        import torch
        from torch import nn
        class Pipeline:
            def __init__(self):
                self.vae = nn.Linear(4, 4)
                self.unet = nn.Linear(4, 4)
        pipe = Pipeline()
        pipe.vae.requires_grad_(False)
        pipe.unet.to("cpu", dtype=torch.float16)  # expect: DG014
        params = [p for p in pipe.unet.parameters() if p.requires_grad]
        optimizer = torch.optim.SGD(params, lr=0.1)
        scaler = torch.amp.GradScaler("cpu")
        loss = pipe.unet(torch.randn(2, 4, dtype=torch.float16)).float().mean()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        """,
    "float32 adapters put into a float16 Sequential by item assignment: quiet": """
        import torch
        from torch import nn
        class Adapter(nn.Module):
            def __init__(self, base):
                super().__init__()
                self.base = base
                self.lora = nn.Linear(8, 8)
            def forward(self, x):
                return self.base(x) + self.lora(x)
        model = nn.Sequential(nn.Linear(8, 8), nn.GELU(), nn.Linear(8, 8))
        model.requires_grad_(False)
        model.to(dtype=torch.float16)
        model[0] = Adapter(model[0])
        params = [p for n, p in model.named_parameters() if "lora" in n]
        optimizer = torch.optim.SGD(params, lr=0.1)
        scaler = torch.amp.GradScaler("cpu")
        """,
    "a one-hot buffer made without a device, scattered with labels on the model's device": """
        import torch
        def to_one_hot(labels, n):
            one_hot = torch.zeros(labels.shape[0], n)  # expect: DG009
            return one_hot.scatter_(1, labels.unsqueeze(1), 1.0)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        seg = torch.randint(0, 4, (8,), device=device)
        target = to_one_hot(seg, 4)
        """,
    "a one-hot buffer made on the labels' device: quiet": """
        import torch
        def to_one_hot(labels, n):
            one_hot = torch.zeros(labels.shape[0], n, device=labels.device)
            return one_hot.scatter_(1, labels.unsqueeze(1), 1.0)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        seg = torch.randint(0, 4, (8,), device=device)
        target = to_one_hot(seg, 4)
        """,
    "a ConcatDataset of memmap shards yields their float64 rows": """
        import numpy as np
        import torch
        from torch import nn
        from torch.utils.data import ConcatDataset, DataLoader, Dataset
        class Shard(Dataset):
            def __init__(self, path):
                self.rows = np.memmap(path, dtype="float64", mode="r", shape=(8, 4))
            def __len__(self):
                return 8
            def __getitem__(self, i):
                return torch.from_numpy(np.array(self.rows[i]))  # expect: DG004
        loader = DataLoader(ConcatDataset([Shard(f"s{i}.dat") for i in range(2)]), batch_size=4)
        model = nn.Linear(4, 1)
        for x in loader:
            out = model(x)
        """,
    "a ConcatDataset of float32 memmap shards: quiet": """
        import numpy as np
        import torch
        from torch import nn
        from torch.utils.data import ConcatDataset, DataLoader, Dataset
        class Shard(Dataset):
            def __init__(self, path):
                self.rows = np.memmap(path, dtype=np.float32, mode="r", shape=(8, 4))
            def __len__(self):
                return 8
            def __getitem__(self, i):
                return torch.from_numpy(np.array(self.rows[i]))
        loader = DataLoader(ConcatDataset([Shard("a.dat"), Shard("b.dat")]), batch_size=4)
        for x in loader:
            out = nn.Linear(4, 1)(x)
        """,
    "a ModuleDict's layer picked by key gets integer labels": """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.blocks = nn.ModuleDict({"ids": nn.Embedding(10, 8), "label": nn.Linear(4, 8)})
            def forward(self, ids, labels):
                return self.blocks["ids"](ids).mean(1) + self.blocks["label"](labels)
        labels = torch.randint(0, 5, (2, 4))  # expect: DG005
        out = Net()(torch.randint(0, 10, (2, 3)), labels)
        """,
    "float labels taken from a loadtxt table, into NLLLoss over log_softmax": """
        import numpy as np
        import torch
        import torch.nn as nn
        data = np.loadtxt("table.txt")
        x = torch.tensor(data[:, :4], dtype=torch.float32)
        y = torch.tensor(data[:, 4])  # expect: DG006
        model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
        loss = nn.NLLLoss()(torch.log_softmax(model(x), dim=1), y)
        """,
    "labels taken from a loadtxt table and made long: quiet": """
        import numpy as np
        import torch
        import torch.nn as nn
        data = np.loadtxt("table.txt")
        x = torch.tensor(data[:, :4], dtype=torch.float32)
        y = torch.tensor(data[:, 4]).long()
        model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
        loss = nn.NLLLoss()(torch.log_softmax(model(x), dim=1), y)
        """,
    "an environment variable's default picks bfloat16 for the whole model": """
        import os
        import torch
        from torch import nn
        dtype = torch.bfloat16 if os.environ.get("USE_BF16", "1") == "1" else torch.float32
        model = nn.Linear(8, 2).to(dtype)  # expect: DG013
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
        """,
    "an environment variable's default keeps float32: quiet": """
        import os
        import torch
        from torch import nn
        dtype = torch.bfloat16 if os.getenv("USE_BF16", "0") == "1" else torch.float32
        model = nn.Linear(8, 2).to(dtype)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
        """,
    "a UserDict subclass holds tensors under keys": """
        from collections import UserDict
        import numpy as np
        import torch
        from torch import nn
        class Windows(UserDict):
            def __init__(self, values):
                super().__init__()
                self["X"] = torch.from_numpy(values[:, :, None])  # expect: DG004
                self["target"] = torch.from_numpy(values[:, -1:]).float()
        train = Windows(np.random.rand(8, 12))
        out, _ = nn.LSTM(1, 4, batch_first=True)(train["X"])
        loss = nn.functional.mse_loss(out[:, -1, :1], train["target"])
        """,
    "a Sequential of layers appended in a loop, Linear and ReLU in turn: the Linear stands for it": """
        import numpy as np
        import torch
        import torch.nn as nn
        def build(sizes):
            net = []
            for i in range(1, len(sizes)):
                net.append(nn.Linear(sizes[i - 1], sizes[i]))
                net.append(nn.ReLU())
            return nn.Sequential(*net)
        # (DALLE-pytorch's VAE appends Sequentials and then a Conv2d: not alike, still unknown,
        # so its raw-image branch, which the analysis cannot rule out, stays quiet)
        x = torch.tensor(np.random.rand(8, 4))  # expect: DG004
        out = build([4, 8, 2])(x)
        """,
    "a Sequential whose loop may start with an Embedding: quiet": """
        import torch
        import torch.nn as nn
        def build(sizes, embed):
            net = []
            if embed:
                net.append(nn.Embedding(10, sizes[0]))
            for i in range(1, len(sizes)):
                net.append(nn.Linear(sizes[i - 1], sizes[i]))
            return nn.Sequential(*net)
        out = build([4, 8, 2], use_embedding)(torch.randint(0, 10, (8,)))
        """,
    "one-hot int64 label windows cut by a slice object, into cross-entropy over Conv1d logits": """
        import numpy as np
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        from torch.utils.data import DataLoader, Dataset
        class Windows(Dataset):
            def __init__(self):
                self.x = torch.randn(100, 8)
                self.y = torch.from_numpy(np.eye(4, dtype=np.int64)[np.random.randint(0, 4, 100)])  # expect: DG006
            def __len__(self):
                return 5
            def __getitem__(self, i):
                s = slice(i * 20, (i + 1) * 20)
                return self.x[s].T, self.y[s].T
        conv = nn.Conv1d(8, 4, 1)
        for x, y in DataLoader(Windows(), batch_size=2):
            loss = F.cross_entropy(conv(x), y)
        """,
    "a Dataset returning a dict whose label is a Python int, into BCE": """
        import torch
        import torch.nn.functional as F
        from torch.utils.data import DataLoader, Dataset
        class Mails(Dataset):
            def __init__(self):
                self.ids = torch.randint(0, 300, (32, 8))
                self.spam = [True, False] * 16
            def __len__(self):
                return 32
            def __getitem__(self, i):
                return {"input_ids": self.ids[i], "labels": int(self.spam[i])}  # expect: DG007
        head = torch.nn.Linear(8, 1)
        for batch in DataLoader(Mails(), batch_size=4):
            logits = head(batch["input_ids"].float()).squeeze(-1)
            loss = F.binary_cross_entropy_with_logits(logits, batch["labels"])
        """,
    "a list of dict batches made by a comprehension keeps each batch's entries": """
        import numpy as np
        import torch
        import torch.nn.functional as F
        data = {"y": torch.from_numpy(np.zeros(24, dtype=np.int32))}  # expect: DG006
        batches = [{k: v[i : i + 6] for k, v in data.items()} for i in range(0, 24, 6)]
        for batch in batches:
            loss = F.cross_entropy(torch.randn(6, 3), batch["y"])
        """,
    "a model's parts cast one by one in a loop over named_children: quiet": """
        import torch
        from torch import nn
        def network_to_half(model):
            for name, child in model.named_children():
                if isinstance(child, nn.BatchNorm1d):
                    continue
                child.half()
            return model
        model = network_to_half(nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 1)))
        out = model(torch.randn(8, 10).half())
        """,
    "a list of counts `[0] * len(vocab)` filled in a loop: torch.tensor of such rows is int64": """
        import torch
        from torch import nn
        def counts(text, vocab):
            v = [0] * len(vocab)
            for w in text.split():
                v[vocab[w]] += 1
            return v
        vocab = {"a": 0, "b": 1}
        x = torch.tensor([counts(t, vocab) for t in ["a b", "b"]])  # expect: DG005
        y = nn.Linear(2, 2)(x)
        """,
    "`[0.0] * n` rows are floats: quiet": """
        import torch
        from torch import nn
        n = len({"a": 0})
        x = torch.tensor([[0.0] * n for _ in range(3)])
        y = nn.Linear(1, 2)(x)
        """,
    "np.fromiter(..., dtype=np.int32) labels reach cross_entropy": """
        import numpy as np
        import torch
        import torch.nn.functional as F
        codes = np.fromiter((i % 2 for i in range(8)), dtype=np.int32, count=8)  # expect: DG006
        target = torch.from_numpy(codes)
        loss = F.cross_entropy(torch.randn(8, 2), target)
        """,
    "a loop over a list of unlike transforms runs each in turn: the mask ends int64": """
        import numpy as np
        import torch
        import torch.nn.functional as F
        class ToTensor:
            def __call__(self, img, mask):
                return torch.from_numpy(img.astype(np.float32)), mask
        class MaskToLong:
            def __call__(self, img, mask):
                return img, torch.from_numpy(mask).long()  # expect: DG007
        class Compose:
            def __init__(self, ops):
                self.ops = ops
            def __call__(self, img, mask):
                for op in self.ops:
                    img, mask = op(img, mask)
                return img, mask
        img, mask = Compose([ToTensor(), MaskToLong()])(np.zeros((4, 4)), np.zeros((4, 4), dtype=np.uint8))
        loss = F.binary_cross_entropy_with_logits(img, mask)
        """,
    "a loop over unlike items that may break early is not run item by item: quiet": """
        import numpy as np
        import torch
        import torch.nn.functional as F
        class ToTensor:
            def __call__(self, img, mask):
                return torch.from_numpy(img.astype(np.float32)), mask
        class MaskToLong:
            def __call__(self, img, mask):
                return img, torch.from_numpy(mask).long()
        img, mask = np.zeros((4, 4)), np.zeros((4, 4), dtype=np.float32)
        for op in [ToTensor(), MaskToLong()]:
            if img.sum() > 3:
                break
            img, mask = op(img, mask)
        loss = F.binary_cross_entropy_with_logits(img, mask)
        """,
    "nn.Flatten gives 2-D, a row max of the probabilities is 1-D: a CPU mask times GPU losses": """
        import numpy as np
        import torch
        from torch import nn
        import torch.nn.functional as F
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Sequential(nn.Flatten(), nn.Linear(64, 7)).to(device)
        x = torch.randn(8, 1, 8, 8, device=device)
        probs = torch.softmax(model(x), dim=1).detach().cpu().numpy()
        mask = torch.from_numpy((probs.max(axis=1) >= 0.5).astype(np.float32))
        per_sample = F.cross_entropy(model(x), torch.randint(0, 7, (8,), device=device), reduction="none")
        loss = (per_sample * mask).mean()  # expect: DG009
        """,
    "a 0-dim CPU tensor times a GPU tensor is allowed (a full reduction keeps no dimension): quiet": """
        import numpy as np
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Sequential(nn.Flatten(), nn.Linear(64, 7)).to(device)
        out = model(torch.randn(8, 1, 8, 8, device=device))
        scale = torch.from_numpy(np.asarray(out.detach().cpu().numpy().max()))
        loss = (out * scale).mean()
        """,
    "a NumPy dtype in a checkpoint's hyper-parameters: weights_only load refuses numpy.dtype": """
        import numpy as np
        import torch
        hp = {"dim": 8, "dtype": np.dtype("float32")}  # expect: DG011
        torch.save({"hp": hp, "w": torch.zeros(2)}, "ckpt.pt")
        ckpt = torch.load("ckpt.pt")
        """,
    "a torch dtype in a checkpoint loads with weights_only: quiet": """
        import torch
        hp = {"dim": 8, "dtype": torch.float16}
        torch.save({"hp": hp, "w": torch.zeros(2)}, "ckpt.pt")
        ckpt = torch.load("ckpt.pt")
        """,
    "a nanoGPT-style config made with dict(...): dtype='float16' casts the model, AdamW eps underflows": """
        import torch
        from torch import nn
        config = dict(lr=6e-4, dtype="float16")
        ptdtype = {"float32": torch.float32, "float16": torch.float16}[config["dtype"]]
        model = nn.Linear(4, 4).to(ptdtype)
        opt = torch.optim.AdamW(model.parameters(), lr=config["lr"])  # expect: DG012
        """,
    "dict(**overrides, lr=...) reads the overrides' keys (float32 here: quiet)": """
        import torch
        from torch import nn
        def build(overrides):
            config = dict(**overrides, lr=6e-4)
            ptdtype = {"float32": torch.float32, "float16": torch.float16}[config["dtype"]]
            model = nn.Linear(4, 4).to(ptdtype)
            return torch.optim.AdamW(model.parameters(), lr=config["lr"])
        build({"dtype": "float32"})
        """,
    "the model is halved after the optimizer loaded its saved state": """
        import torch
        from torch import nn
        model = nn.Linear(4, 4)
        opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-4)
        opt.load_state_dict(torch.load("opt.pt"))
        model = model.half()  # expect: DG015
        model(torch.randn(2, 4, dtype=torch.float16)).sum().backward()
        opt.step()
        """,
    "the model is halved before the optimizer is made and loads its state: quiet": """
        import torch
        from torch import nn
        model = nn.Linear(4, 4).half()
        opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-4)
        opt.load_state_dict(torch.load("opt.pt"))
        """,
    "a matrix composed with @ inside bf16 autocast meets float32 points in bmm outside it": """
        import torch
        a = torch.rand(4, 3, 3)
        points = torch.rand(4, 5, 3)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            m = a @ a  # expect: DG004
        out = torch.bmm(points, m)
        """,
    "torch.inner of 1-D operands under autocast takes the dot path (float32 on CPU): quiet": """
        import torch
        v = torch.rand(3)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            s = torch.inner(v, v).unsqueeze(0).unsqueeze(0)
        out = torch.mm(torch.rand(1, 3), torch.rand(3, 1)) @ s
        """,
    "features appended inside autocast by a backbone call: reported at that call": """
        import torch
        from torch import nn
        class Backbone(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 8)
            def forward(self, x):
                return torch.relu(self.fc(x))
        backbone, probe = Backbone(), nn.Linear(8, 2)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            feats = backbone(torch.randn(4, 8))  # expect: DG017
        logits = probe(feats)
        """,
    "a registry decorator builds the model when the function is defined, before set_default_dtype": """
        import torch
        from torch import nn
        REGISTRY = {}
        def register(name):
            def wrap(fn):
                REGISTRY[name] = fn()
                return fn
            return wrap
        @register("enc")
        def build():
            return nn.Linear(3, 3)
        def main():
            torch.set_default_dtype(torch.float64)  # expect: DG001
            y = REGISTRY["enc"](torch.rand(2, 3))  # expect: DG004
        main()
        """,
    "a decorator that returns something unknown leaves the function as written: quiet": """
        import functools
        import torch
        from torch import nn
        def logged(fn):
            @functools.wraps(fn)
            def inner(*args):
                return fn(*args)
            return inner
        @logged
        def build():
            return nn.Linear(3, 3)
        y = build()(torch.rand(2, 3))
        """,
    "a module-level dict filled inside a function holds what it was given": """
        import torch
        from torch import nn
        MODELS = {}
        def add(name):
            MODELS[name] = nn.Linear(3, 3)
        add("a")
        x = torch.rand(2, 3).double()  # expect: DG004
        y = MODELS["a"](x)
        """,
    "a local dict of the same name as a global does not touch the global: quiet": """
        import torch
        from torch import nn
        MODELS = {"a": nn.Linear(3, 3)}
        def local():
            MODELS = {}
            MODELS["a"] = nn.Linear(3, 3).double()
            return MODELS
        local()
        y = MODELS["a"](torch.rand(2, 3))
        """,
    "a generator unpacked into names gives each its own tensor": """
        import numpy as np
        import torch
        from torch import nn
        batch = (np.zeros((4, 3), dtype=np.int64), np.zeros(4, dtype=np.float32))
        s, r = (torch.as_tensor(v) for v in batch)  # expect: DG005
        q = nn.Linear(3, 1)(s)
        """,
    "sliding windows of a float64 series stay float64": """
        import numpy as np
        import torch
        from torch import nn
        z = np.cumsum(np.random.default_rng(0).normal(0, 1, 50))
        w = np.lib.stride_tricks.sliding_window_view(z, 5)
        x = torch.from_numpy(np.ascontiguousarray(w))  # expect: DG004
        y = nn.Linear(5, 1)(x)
        """,
    "a training function called inside an f-string runs (after an unknown part)": """
        import torch
        from torch import nn
        def train(model, x, y):
            return nn.BCELoss()(torch.sigmoid(model(x)), y).item()
        y = torch.zeros(4, 2, dtype=torch.long)  # expect: DG007
        for epoch in range(2):
            print(f"epoch {epoch}: bce {train(nn.Linear(3, 2), torch.randn(4, 3), y):.4f}")
        """,
    "a label column of a float32 table from np.loadtxt: reported where it is taken, not at the table's dtype=": """
        import numpy as np
        import torch
        from torch import nn
        xy = np.loadtxt("data.csv", delimiter=",", dtype=np.float32)
        x = torch.from_numpy(xy[:, :-1])
        y = torch.from_numpy(xy[:, -1])  # expect: DG006
        loss = nn.CrossEntropyLoss()(nn.Linear(4, 3)(x), y)
        """,
    "one float index used by several index ops: one finding, at its first use": """
        import torch
        idx = torch.tensor([0.0, 1.0])  # expect: DG006
        w = torch.ones(2)
        deg = torch.zeros(3).scatter_add_(0, idx, w)
        picked = torch.randn(3, 4).index_select(0, idx)
        """,
    "a segmentation mask remapped with torch.where(mask == 255, -100.0, mask) becomes float32 class indices": """
        import numpy as np
        import torch
        from torch import nn
        def remap(mask):
            return torch.where(mask == 255, -100.0, mask)  # expect: DG006
        masks = torch.from_numpy(np.random.default_rng(0).integers(0, 3, size=(4, 8, 8)))
        logits = nn.Conv2d(1, 3, 1)(torch.randn(4, 1, 8, 8))
        loss = nn.CrossEntropyLoss(ignore_index=-100)(logits, remap(masks))
        """,
    "float targets shaped like 4-D logits are class probabilities: quiet": """
        import torch
        from torch import nn
        logits = nn.Conv2d(1, 3, 1)(torch.randn(4, 1, 8, 8))
        probs = torch.softmax(torch.randn(4, 3, 8, 8), dim=1)
        loss = nn.CrossEntropyLoss()(logits, probs)
        """,
    "a checkpoint saved with a config object, then re-saved after a resume: the load reads the first save": """
        import torch
        from torch import nn
        from dataclasses import dataclass
        @dataclass
        class Cfg:
            lr: float = 1e-3
        def save(path, model, cfg):
            torch.save({"model": model.state_dict(), "args": cfg}, path)  # expect: DG011
        def run(path, resume):
            model, cfg = nn.Linear(2, 2), Cfg()
            if resume:
                state = torch.load(path)
                cfg = state["args"]
            save(path, model, cfg)
        run("ckpt.pt", False)
        run("ckpt.pt", True)
        """,
    "an IterableDataset's __iter__ yields float64 filtered audio: the batches are float64": """
        import numpy as np
        import torch
        from torch import nn
        from scipy import signal
        from torch.utils.data import DataLoader, IterableDataset
        SOS = signal.butter(4, 0.3, output="sos")
        class Stream(IterableDataset):
            def __iter__(self):
                rec = np.zeros(400, dtype=np.float32)
                for start in range(0, 400, 100):
                    piece = signal.sosfiltfilt(SOS, rec[start:start + 100])
                    yield torch.from_numpy(piece.copy()).unsqueeze(0), 1  # expect: DG004
        model = nn.Conv1d(1, 4, 3)
        for wav, label in DataLoader(Stream(), batch_size=2):
            out = model(wav)
        """,
    "an IterableDataset that converts its pieces to float32: quiet": """
        import numpy as np
        import torch
        from torch import nn
        from scipy import signal
        from torch.utils.data import DataLoader, IterableDataset
        SOS = signal.butter(4, 0.3, output="sos")
        class Stream(IterableDataset):
            def __iter__(self):
                rec = np.zeros(400, dtype=np.float32)
                for start in range(0, 400, 100):
                    piece = signal.sosfiltfilt(SOS, rec[start:start + 100]).astype(np.float32)
                    yield torch.from_numpy(piece.copy()).unsqueeze(0), 1
        model = nn.Conv1d(1, 4, 3)
        for wav, label in DataLoader(Stream(), batch_size=2):
            out = model(wav)
        """,
    "a function under a timing decorator of the script's own is still analysed where it is called": """
        import functools
        import time
        import torch
        from torch import nn
        def timed(fn):
            @functools.wraps(fn)
            def inner(*args, **kwargs):
                start = time.time()
                out = fn(*args, **kwargs)
                print(time.time() - start)
                return out
            return inner
        @timed
        def train(model, x):
            return model(x)
        train(nn.Linear(3, 3), torch.rand(2, 3).double())  # expect: DG004
        """,
    "a pathlib Path saved in a checkpoint: weights_only load refuses pathlib.PosixPath": """
        from pathlib import Path
        import torch
        run_dir = Path("runs") / "exp1"
        torch.save({"step": 3, "run_dir": run_dir}, run_dir / "ckpt.pt")  # expect: DG011
        state = torch.load(run_dir / "ckpt.pt")
        """,
    "a pathlib Path only as the file name of a state_dict checkpoint: quiet": """
        from pathlib import Path
        import torch
        from torch import nn
        model = nn.Linear(2, 2)
        out = Path("runs") / "model.pt"
        torch.save(model.state_dict(), out)
        model.load_state_dict(torch.load(out))
        """,
    "capturable Adam over a listed parameter and a sub-module's parameters, on a CPU fallback": """
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        class Field(nn.Module):
            def __init__(self):
                super().__init__()
                self.table = nn.Parameter(torch.randn(4, 2))
                self.mlp = nn.Linear(2, 4)
        model = Field().to(device)
        groups = [{"params": [model.table], "lr": 1e-2}, {"params": model.mlp.parameters(), "lr": 1e-3}]
        opt = torch.optim.Adam(groups, capturable=True)  # expect: DG016
        opt.step()
        """,
    "a listed parameter of another dtype than the sub-module's: not one module's parameters, quiet": """
        import torch
        from torch import nn
        class Field(nn.Module):
            def __init__(self):
                super().__init__()
                self.table = nn.Parameter(torch.randn(4, 2, dtype=torch.float16))
                self.mlp = nn.Linear(2, 4)
        model = Field()
        opt = torch.optim.Adam([{"params": [model.table]}, {"params": model.mlp.parameters()}], lr=1e-3)
        opt.step()
        """,
    "a student's (features, logits) made under fp16 autocast: reported at the call that returns them": """
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.neck = nn.Linear(8, 16)
                self.head = nn.Linear(16, 4)
            def forward(self, x):
                feat = self.neck(x)
                return feat, self.head(feat)
        student, align = Net(), nn.Linear(16, 32)
        with torch.autocast("cpu", dtype=torch.float16):
            feat, logits = student(torch.randn(2, 8))  # expect: DG017
        out = align(feat)
        """,
    "a column normalised with its own float64 mean and std stays float64 in the windows made from it": """
        import numpy as np
        import pandas as pd
        import torch
        from torch import nn
        df = pd.DataFrame({"load": np.zeros(50, dtype=np.float32), "temp": np.ones(50)})
        df["temp"] = (df["temp"] - df["temp"].mean()) / df["temp"].std()
        x = torch.from_numpy(np.stack([df["temp"].to_numpy()[i:i + 8] for i in range(4)]))  # expect: DG004
        y = nn.Linear(8, 1)(x)
        """,
    "a float32 column normalised with its own mean and std stays float32: quiet": """
        import numpy as np
        import pandas as pd
        import torch
        from torch import nn
        df = pd.DataFrame({"temp": np.ones(50, dtype=np.float32)})
        df["temp"] = (df["temp"] - df["temp"].mean()) / df["temp"].std()
        x = torch.from_numpy(np.stack([df["temp"].to_numpy()[i:i + 8] for i in range(4)]))
        y = nn.Linear(8, 1)(x)
        """,
    "pairs from np.nonzero stacked with their float64 weights: the index columns come out float64": """
        import numpy as np
        import torch
        from torch import nn
        pij = np.random.default_rng(0).normal(size=(5, 5))
        i, j = np.nonzero(pij > 0)
        batch = torch.tensor(np.stack([i, j, pij[i, j]], axis=1))
        emb = nn.Embedding(5, 3)
        out = emb(batch[:, 0])  # expect: DG005
        """,
    "pairs from np.nonzero used as indices on their own: quiet": """
        import numpy as np
        import torch
        from torch import nn
        pij = np.random.default_rng(0).normal(size=(5, 5))
        i, j = np.nonzero(pij > 0)
        emb = nn.Embedding(5, 3)
        out = emb(torch.from_numpy(i))
        """,
    "a @property that returns the float64 target: reading the attribute runs the getter": """
        import numpy as np
        import torch
        from torch import nn
        class Series:
            def __init__(self):
                self.values = np.random.default_rng(0).normal(size=(16, 1))
            @property
            def target(self):
                return torch.tensor(self.values)  # expect: DG008
        data, model = Series(), nn.Linear(3, 1)
        loss = nn.functional.mse_loss(model(torch.randn(16, 3)), data.target)
        """,
    "a @property that converts its target to float32: quiet": """
        import numpy as np
        import torch
        from torch import nn
        class Series:
            def __init__(self):
                self.values = np.random.default_rng(0).normal(size=(16, 1))
            @property
            def target(self):
                return torch.tensor(self.values, dtype=torch.float32)
        data, model = Series(), nn.Linear(3, 1)
        loss = nn.functional.mse_loss(model(torch.randn(16, 3)), data.target)
        """,
    "a device from an environment variable whose default is CUDA-if-available: a plain tensor attribute stays on the CPU": """
        import os
        import torch
        from torch import nn
        device = torch.device(os.environ.get("DEVICE", "cuda" if torch.cuda.is_available() else "cpu"))
        class Projector(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = torch.randn(8, 4)  # expect: DG009
                self.fc = nn.Linear(4, 2)
            def forward(self, x):
                return self.fc(torch.mm(x, self.proj))
        model = Projector().to(device)
        out = model(torch.randn(3, 8, device=device))
        """,
    # --- set 15: a conversion after the last step, loss weights made elsewhere, param.data loops --
    "model halved after the last step, never stepped again: quiet": """
        import torch
        import torch.nn as nn
        model = nn.Linear(3, 1)
        optimizer = torch.optim.Adam(model.parameters())
        for _ in range(3):
            loss = model(torch.rand(4, 3)).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval().half()
        print(model(torch.rand(2, 3, dtype=torch.float16)))
        """,
    "model halved between epochs, stepped again": """
        import torch
        import torch.nn as nn
        model = nn.Linear(3, 1)
        optimizer = torch.optim.Adam(model.parameters())
        def train():
            loss = model(torch.rand(4, 3).to(next(model.parameters()).dtype)).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        train()
        model.half()  # expect: DG015
        train()
        """,
    "functional pos_weight made in __init__ on the CPU: found where it is made": """
        import numpy as np
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        class Trainer:
            def __init__(self, model, pos, device):
                self.device = device
                self.model = model.to(device)
                self.pos_weight = torch.from_numpy(((1 - pos) / pos).astype(np.float32))  # expect: DG009
            def step(self, x, y):
                logits = self.model(x.to(self.device))
                return F.binary_cross_entropy_with_logits(logits, y.to(self.device), pos_weight=self.pos_weight)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        t = Trainer(nn.Linear(4, 2), np.array([0.2, 0.5]), device)
        t.step(torch.randn(3, 4), torch.rand(3, 2))
        """,
    "trainable params cast through param.data in a loop: the model's dtype is unknown": """
        import torch
        import torch.nn as nn
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = nn.Linear(8, 8)
                self.b = nn.Linear(8, 8)
            def forward(self, h):
                return self.b(self.a(h.to(self.a.weight.dtype)))
        model = Head()
        model.b.requires_grad_(False)
        for p in model.parameters():
            if p.requires_grad:
                p.data = p.data.to(torch.float16)
        model.b.to(torch.float16)
        model(torch.randn(2, 8))
        """,
    "a config dict's get() with a default, and pop(): the values they hold": """
        import torch
        import torch.nn as nn
        cfg = {"precision": "double", "name": "SGD"}
        precision = cfg.get("precision", "float")
        missing = cfg.get("eps", 1e-8)
        name = cfg.pop("name")
        model = nn.Linear(4, 2)
        if precision == "double":
            model = model.double()  # expect: DG004
        model(torch.randn(3, 4))
        """,
    "optimizer options splatted from a known dict, capturable written in the config": """
        import torch
        import torch.nn as nn
        CONFIG = {"optimizer": {"name": "RMSprop", "lr": 7e-4, "capturable": True}}  # expect: DG016
        def build(params, spec):
            spec = dict(spec)
            name = spec.pop("name")
            return getattr(torch.optim, name)(params, **spec)
        net = nn.Linear(8, 4)
        opt = build(net.parameters(), CONFIG["optimizer"])
        net(torch.randn(2, 8)).sum().backward()
        opt.step()
        """,
    "optimizer options splatted without capturable: quiet": """
        import torch
        import torch.nn as nn
        spec = {"lr": 7e-4, "alpha": 0.99}
        net = nn.Linear(8, 4)
        opt = torch.optim.RMSprop(net.parameters(), **spec)
        net(torch.randn(2, 8)).sum().backward()
        opt.step()
        """,
    "a datetime in a checkpoint (from-import style): weights_only load refuses datetime.datetime": """
        from datetime import datetime
        import torch
        from torch import nn
        model = nn.Linear(2, 2)
        stamp = datetime.now()
        elapsed = (datetime.now() - stamp).total_seconds()
        torch.save({"model": model.state_dict(), "saved_at": stamp, "elapsed": elapsed}, "ckpt.pt")  # expect: DG011
        ckpt = torch.load("ckpt.pt")
        """,
    "a timestamp saved as text: quiet": """
        from datetime import datetime
        import torch
        from torch import nn
        model = nn.Linear(2, 2)
        torch.save({"model": model.state_dict(), "saved_at": datetime.now().isoformat()}, "ckpt.pt")
        ckpt = torch.load("ckpt.pt")
        """,
    # --- set 16: SimpleNamespace configs, capturable written in a config, CPU lengths ------------
    "a SimpleNamespace config carries capturable=True to the optimizer": """
        from types import SimpleNamespace
        import torch
        import torch.nn as nn
        def get_optimizer(cfg, model):
            return torch.optim.Adam(model.parameters(), lr=cfg.lr, capturable=cfg.capturable)
        cfg = SimpleNamespace(lr=1e-3, device="cuda" if torch.cuda.is_available() else "cpu",
                              capturable=True)  # expect: DG016
        model = nn.Linear(4, 1).to(cfg.device)
        opt = get_optimizer(cfg, model)
        model(torch.randn(2, 4, device=cfg.device)).sum().backward()
        opt.step()
        """,
    "lengths moved to the CPU for the script's own forward (pack_padded_sequence): quiet": """
        from types import SimpleNamespace
        import torch
        import torch.nn as nn
        from torch.nn.utils.rnn import pack_padded_sequence
        class RNN(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(100, 8)
                self.rnn = nn.LSTM(8, 16)
            def forward(self, text, lengths):
                _, (h, _) = self.rnn(pack_padded_sequence(self.emb(text), lengths, enforce_sorted=False))
                return h[-1]
        cfg = SimpleNamespace(device=torch.device("cuda" if torch.cuda.is_available() else "cpu"))
        model = RNN().to(cfg.device)
        text, lengths = torch.randint(1, 100, (7, 3)), torch.tensor([7, 5, 2])
        model(text.to(cfg.device), lengths.cpu())
        """,
    "an optimizer over the trainable part of a partly frozen model, then model.half() and more steps": """
        import torch
        import torch.nn as nn
        class Adapter(nn.Module):
            def __init__(self):
                super().__init__()
                self.base = nn.Linear(8, 8)
                self.lora = nn.Linear(8, 8, bias=False)
                self.base.requires_grad_(False)
            def forward(self, x):
                return self.base(x) + self.lora(x)
        model = Adapter()
        opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad])
        def steps(n):
            dtype = next(model.parameters()).dtype
            for _ in range(n):
                model(torch.randn(2, 8, dtype=dtype)).float().sum().backward()
                opt.step()
        steps(2)
        model.half()  # expect: DG015
        steps(2)
        """,
    "a frozen base halved, the trained part left alone: quiet": """
        import torch
        import torch.nn as nn
        class Adapter(nn.Module):
            def __init__(self):
                super().__init__()
                self.base = nn.Linear(8, 8)
                self.lora = nn.Linear(8, 8, bias=False)
                self.base.requires_grad_(False)
            def forward(self, x):
                return self.base(x.to(self.base.weight.dtype)).float() + self.lora(x)
        model = Adapter()
        opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad])
        model(torch.randn(2, 8)).sum().backward()
        opt.step()
        model.base.half()
        model(torch.randn(2, 8)).sum().backward()
        opt.step()
        """,
    "a replay buffer sampled field by field with getattr(self, k): its float64 rewards reach the TD target": """
        import numpy as np
        import torch
        import torch.nn as nn
        class Buffer:
            def __init__(self, n):
                self.obs = np.zeros((n, 4), dtype=np.float32)
                self.rewards = np.zeros(n)  # expect: DG008
                self.rng = np.random.default_rng(0)
            def sample(self, k):
                idx = self.rng.integers(0, 16, k)
                return {name: torch.from_numpy(getattr(self, name)[idx]) for name in ("obs", "rewards")}
        q = nn.Linear(4, 2)
        batch = Buffer(16).sample(8)
        pred = q(batch["obs"]).max(1).values
        loss = nn.functional.smooth_l1_loss(pred, batch["rewards"] + 0.99 * pred.detach())
        """,
    "a target network made with copy.deepcopy: casting the copy leaves the original float32": """
        import copy
        import torch
        import torch.nn as nn
        q = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
        target = copy.deepcopy(q)
        target.double()  # expect: DG004
        x = torch.randn(3, 4)
        y = q(x)
        chosen = y.gather(1, y.max(1).indices.unsqueeze(1))
        z = target(x)
        """,
    "a list replay buffer sampled with random.sample and zip(*batch); indices from rng.choice": """
        import random
        import numpy as np
        import torch
        import torch.nn as nn
        buffer = []
        for t in range(64):
            buffer.append((np.zeros(3, dtype=np.float32), np.array([float(t)])))  # expect: DG008
        batch = random.sample(buffer, 16)
        s, rewards = zip(*batch)
        rng = np.random.default_rng(0)
        idx = rng.choice(16, 8, replace=False)
        x = torch.from_numpy(np.stack(s)[idx])
        r = torch.from_numpy(np.stack(rewards)[idx])
        net = nn.Linear(3, 1)
        loss = nn.functional.mse_loss(net(x), r)
        """,
    "a NumPy magnitude spectrogram (hanning window, np.abs of np.fft.rfft) is float64 at the conv": """
        import numpy as np
        import torch
        import torch.nn as nn
        def spectrogram(wave):
            frames = np.lib.stride_tricks.sliding_window_view(wave, 64)[::32] * np.hanning(64)
            return np.log10(np.abs(np.fft.rfft(frames, axis=-1)) ** 2 + 1e-6).T
        wave = np.random.default_rng(0).standard_normal(2048).astype(np.float32)
        spec = torch.from_numpy(spectrogram(wave)).unsqueeze(0).unsqueeze(0)  # expect: DG004
        conv = nn.Conv2d(1, 4, 3)
        out = conv(spec)
        """,
    "a float32 spectrogram stays float32 (no window), and a float32 filterbank keeps it: quiet": """
        import numpy as np
        import torch
        import torch.nn as nn
        wave = np.random.default_rng(0).standard_normal(2048).astype(np.float32)
        frames = np.lib.stride_tricks.sliding_window_view(wave, 64)[::32]
        power = np.abs(np.fft.rfft(frames, axis=-1)) ** 2
        fb = np.ones((8, power.shape[-1]), dtype=np.float32)
        mel = torch.from_numpy(power @ fb.T)
        out = nn.Linear(8, 2)(mel)
        """,
    "token ids padded into an np.zeros matrix (float64) reach NLLLoss: reported at the buffer": """
        import numpy as np
        import torch
        import torch.nn as nn
        def collate(targets):
            trg = np.zeros((len(targets), 4))  # expect: DG006
            for i, t in enumerate(targets):
                trg[i, :len(t)] = t
            return torch.from_numpy(trg)
        trg = collate([[1, 2], [3, 1, 2]])
        logp = torch.log_softmax(torch.randn(2, 4, 5), -1)
        loss = nn.NLLLoss()(logp.reshape(-1, 5), trg.reshape(-1))
        """,
    "image data cast with .astype(float) (float64) is the root, not the conversion": """
        import numpy as np
        import torch
        import torch.nn as nn
        def to_tensor(image):
            image = image.astype(float)  # expect: DG004
            image = (image - 127.5) / 128.0
            return torch.from_numpy(image.transpose(2, 0, 1)).unsqueeze(0)
        img = np.random.default_rng(0).integers(0, 255, (12, 12, 3), dtype=np.uint8)
        out = nn.Conv2d(3, 4, 3)(to_tensor(img))
        """,
    "a label column stored as int32 in the frame is the root of the int32 targets": """
        import numpy as np
        import pandas as pd
        import torch
        import torch.nn as nn
        rng = np.random.default_rng(0)
        df = pd.DataFrame({"x": rng.random(20).astype(np.float32), "label": rng.integers(0, 3, 20)})
        df["code"] = df["label"].to_numpy().astype(np.int32)  # expect: DG006
        y = torch.from_numpy(df["code"].to_numpy())
        x = torch.from_numpy(df[["x"]].to_numpy())
        loss = nn.CrossEntropyLoss()(nn.Linear(1, 3)(x), y)
        """,
    "a label array written out from Python ints (np.array([1 if same else 0])) is the root of the int64 BCE targets": """
        import numpy as np
        import torch
        import torch.nn as nn
        def pair(same):
            return np.zeros(4, dtype=np.float32), np.array([1 if same else 0])  # expect: DG007
        batch = [pair(i % 2 == 0) for i in range(4)]
        x = torch.from_numpy(np.stack([a for a, _ in batch]))
        y = torch.from_numpy(np.stack([b for _, b in batch]))
        loss = nn.BCEWithLogitsLoss()(nn.Linear(4, 1)(x), y)
        """,
    "a branch gated on a counter the loop increments runs (not pruned as on the first round)": """
        import numpy as np
        import torch
        import torch.nn as nn
        class Memory:
            def __init__(self):
                self.count = 0
                self.states = np.zeros((100, 4), dtype=np.int64)
            def store(self, s):
                self.states[self.count % 100] = s
                self.count += 1
        net = nn.Linear(4, 2)
        mem = Memory()
        for t in range(200):
            mem.store(np.ones(4, dtype=np.int64))
            if mem.count >= 64:
                batch = torch.from_numpy(mem.states[:32])  # expect: DG005
                out = net(batch)
        """,
    "a buffer made lazily on the first round stays made in later rounds": """
        import numpy as np
        import torch
        import torch.nn as nn
        class Buffer:
            def __init__(self):
                self.obs = None
                self.n = 0
            def add(self, o):
                if self.obs is None:
                    self.obs = np.zeros((50, 3))  # expect: DG004
                self.obs[self.n] = o
                self.n += 1
        buf = Buffer()
        for t in range(20):
            buf.add(np.ones(3))
        out = nn.Linear(3, 1)(torch.from_numpy(buf.obs[:8]))
        """,
    "collate_fn=default_collate passed explicitly is the default collation": """
        import numpy as np
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, Dataset, default_collate
        class Embeddings(Dataset):
            def __init__(self):
                self.x = np.frombuffer(np.ones((8, 4)).tobytes(), dtype=np.float64).reshape(-1, 4)  # expect: DG004
            def __len__(self):
                return 8
            def __getitem__(self, i):
                return {"emb": self.x[i]}
        head = nn.Linear(4, 1)
        for batch in DataLoader(Embeddings(), batch_size=4, collate_fn=default_collate):
            out = head(batch["emb"])
        """,
    "lengths left on the CPU for the script's own forward, which packs with them: quiet": """
        import torch
        import torch.nn as nn
        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.embedding = nn.Embedding(10, 4)
                self.rnn = nn.GRU(4, 8)
            def forward(self, src, src_len):
                packed = nn.utils.rnn.pack_padded_sequence(self.embedding(src), src_len)
                out, hidden = self.rnn(packed)
                return hidden
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        encoder = Encoder().to(device)
        batch = {"src": torch.randint(0, 10, (5, 3)), "src_len": torch.tensor([5, 4, 2])}
        batch = {k: (v if k == "src_len" else v.to(device)) for k, v in batch.items()}
        hidden = encoder(batch["src"], batch["src_len"])
        """,
    "an MLP grown with +=, its last activation sliced off": """
        import numpy as np
        import torch
        import torch.nn as nn
        class FNN(nn.Module):
            def __init__(self, layers=(2, 32, 32, 1)):
                super().__init__()
                mods = []
                for a, b in zip(layers[:-1], layers[1:]):
                    mods += [nn.Linear(a, b), nn.Tanh()]
                self.net = nn.Sequential(*mods[:-1])
            def forward(self, x):
                return self.net(x)
        net = FNN()
        points = torch.as_tensor(np.linspace(0.0, 1.0, 8).reshape(4, 2))  # expect: DG004
        net(points)
        """,
    "a grown MLP given float32 data, and a grown embedding stack given indices: quiet": """
        import numpy as np
        import torch
        import torch.nn as nn
        def mlp(sizes):
            layers = []
            for i in range(len(sizes) - 1):
                layers.append(nn.Linear(sizes[i], sizes[i + 1]))
                layers.append(nn.ReLU())
            return nn.Sequential(*layers)
        def embedder(vocab, sizes):
            layers = []
            for i in range(len(sizes) - 1):
                layers.append(nn.Embedding(vocab, sizes[i]))
                layers.append(nn.Dropout(0.1))
            return nn.ModuleList(layers)
        model = mlp(SIZES)
        model(torch.from_numpy(np.random.rand(4, 2).astype(np.float32)))
        tokens = torch.from_numpy(np.random.randint(0, 10, (4, 2)))
        outs = [layer(tokens) for layer in embedder(10, SIZES)[::2]]
        """,
    "torch.Tensor of a list of id rows grown in a loop is float32 whatever the ids": """
        import torch
        import torch.nn as nn
        def encode(texts, vocab):
            rows = []
            for t in texts:
                ids = [vocab.get(w, 1) for w in t.split()][:4]
                rows.append(ids + [0] * (4 - len(ids)))
            return torch.Tensor(rows)  # expect: DG005
        emb = nn.Embedding(10, 8)
        out = emb(encode(TEXTS, VOCAB))
        """,
    "device.type of a cuda-when-available device is not known: the branch that sets the default runs": """
        import torch
        from torch.utils.data import DataLoader, TensorDataset
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        if device.type == "cuda":
            torch.set_default_device(device)  # expect: DG003
        loader = DataLoader(TensorDataset(torch.zeros(8, 2)), batch_size=4, shuffle=True)
        for (xb,) in loader:
            pass
        """,
    "float32 images widened by a float64 mean: the normalising line is the root": """
        import numpy as np
        import torch
        import torch.nn as nn
        MEAN = np.array([0.485, 0.456, 0.406])
        STD = np.array([0.229, 0.224, 0.225])
        img = np.random.randint(0, 256, (4, 8, 8, 3)).astype(np.float32) / 255.0
        img = (img - MEAN) / STD  # expect: DG004
        x = torch.from_numpy(img.transpose(0, 3, 1, 2))
        nn.Conv2d(3, 4, 3)(x)
        """,
    "ids written into a np.zeros buffer: the buffer's dtype is the root": """
        import numpy as np
        import torch
        import torch.nn as nn
        def to_ids(labels, vocab, max_len=6):
            ids = np.zeros((1, max_len))  # expect: DG005
            for k, lab in enumerate(labels[:max_len]):
                ids[0, k] = vocab.get(lab, 0)
            return ids
        emb = nn.Embedding(10, 4)
        out = emb(torch.from_numpy(to_ids(["a", "b"], {"a": 1, "b": 2})))
        """,
    "pack_padded_sequence lengths moved to the GPU with the rest of the batch": """
        import torch
        import torch.nn as nn
        from torch.nn.utils.rnn import pack_padded_sequence
        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.embedding = nn.Embedding(10, 4)
                self.rnn = nn.GRU(4, 8)
            def forward(self, src, src_len):
                return self.rnn(pack_padded_sequence(self.embedding(src), src_len))
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        encoder = Encoder().to(device)
        src, src_len = torch.randint(0, 10, (5, 3)), torch.tensor([5, 4, 2])
        src, src_len = src.to(device), src_len.to(device)  # expect: DG009
        encoder(src, src_len)
        """,
    "pack_padded_sequence lengths kept on the CPU, or given with .cpu(): quiet": """
        import torch
        import torch.nn as nn
        from torch.nn.utils.rnn import pack_padded_sequence
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        emb = nn.Embedding(10, 4).to(device)
        src, src_len = torch.randint(0, 10, (5, 3)), torch.tensor([5, 4, 2])
        packed = pack_padded_sequence(emb(src.to(device)), src_len)
        moved = src_len.to(device)
        packed = pack_padded_sequence(emb(src.to(device)), moved.cpu())
        """,
    "np.load of files this run saved under the same formatted name": """
        import os
        import tempfile
        import numpy as np
        import torch
        import torch.nn as nn
        root = tempfile.mkdtemp()
        for k in range(4):
            np.save(os.path.join(root, f"{k:03d}_complete.npy"), np.random.rand(3, 16))
            np.save(os.path.join(root, f"{k:03d}_labels.npy"), np.arange(16))
        ids = sorted({f.split("_")[0] for f in os.listdir(root)})
        cloud = np.load(os.path.join(root, f"{ids[0]}_complete.npy"))
        x = torch.from_numpy(cloud).unsqueeze(0)  # expect: DG004
        nn.Conv1d(3, 8, 1)(x)
        """,
    "np.load of a formatted name this run did not save, or only as .npy: quiet": """
        import os
        import numpy as np
        import torch
        import torch.nn as nn
        for k in range(4):
            np.save(f"/tmp/{k}.npy", np.random.rand(3, 16))
        a = np.load(f"/tmp/{K}.npy")
        b = np.load(os.path.join(ROOT, f"{K}_other.npy"))
        nn.Conv1d(3, 8, 1)(torch.from_numpy(a).unsqueeze(0))
        nn.Conv1d(3, 8, 1)(torch.from_numpy(b).unsqueeze(0))
        """,
    "a staticmethod called through self gets no self (its index is the edge list, not the features): quiet": """
        import numpy as np
        import torch
        import torch.nn as nn
        class SAGE(nn.Module):
            def __init__(self):
                super().__init__()
                self.l1 = nn.Linear(6, 8)
            @staticmethod
            def aggregate(h, edge_index):
                src, dst = edge_index
                return torch.cat([h, torch.zeros_like(h).index_add_(0, dst, h[src])], 1)
            def forward(self, x, edge_index):
                return self.l1(self.aggregate(x, edge_index))
        x = torch.randn(5, 3)
        edges = torch.tensor(np.stack([np.arange(5), (np.arange(5) + 1) % 5]))
        SAGE()(x, edges)
        """,
    "a gain from np.power of Python numbers is a float64 NumPy scalar: it widens float32 audio (NumPy 2)": """
        import numpy as np
        import torch
        import torch.nn as nn
        def norm_loudness(wav, target_db=-27.0):
            rms = float(np.sqrt(np.mean(wav ** 2)) + 1e-9)
            gain_db = target_db - 20 * np.log10(rms)
            gain = np.power(10.0, gain_db / 20.0)
            return wav * gain  # expect: DG004
        wav = np.random.rand(4, 16).astype(np.float32)
        nn.Linear(16, 4)(torch.from_numpy(norm_loudness(wav)))
        """,
    "a Python-float gain keeps float32 audio float32: quiet": """
        import math
        import numpy as np
        import torch
        import torch.nn as nn
        def norm_loudness(wav, target_db=-27.0):
            rms = float(np.sqrt(np.mean(wav ** 2)) + 1e-9)
            gain = 10.0 ** ((target_db - 20 * math.log10(rms)) / 20.0)
            return wav * gain
        wav = np.random.rand(4, 16).astype(np.float32)
        nn.Linear(16, 4)(torch.from_numpy(norm_loudness(wav)))
        nn.Linear(16, 4)(torch.from_numpy(wav * float(np.power(10.0, 0.5))))
        """,
    "every parameter's .data replaced by float64 NumPy chunks makes the model float64": """
        import numpy as np
        import torch
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
        flat = np.concatenate([p.detach().numpy().ravel() for p in model.parameters()])
        par = flat + np.random.normal(0.0, 0.1, size=flat.shape)
        start = 0
        for p in model.parameters():
            n = p.numel()
            p.data = torch.from_numpy(par[start:start + n].reshape(p.shape))  # expect: DG004
            start += n
        model(torch.rand(2, 4))
        """,
    "parameters' .data replaced by float32 chunks, or only some of them: quiet": """
        import numpy as np
        import torch
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
        flat = np.concatenate([p.detach().numpy().ravel() for p in model.parameters()])
        start = 0
        for p in model.parameters():
            n = p.numel()
            p.data = torch.from_numpy(flat[start:start + n].reshape(p.shape))
            start += n
        model(torch.rand(2, 4))
        other = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
        for p in other.parameters():
            if p.dim() > 1:
                p.data = torch.from_numpy(np.random.rand(*p.shape))
        other(torch.rand(2, 4))
        """,
    "a float tensor used as an index fails; long, int32 and mask indices do not": """
        import numpy as np
        import torch
        import torch.nn as nn
        class TKG(nn.Module):
            def __init__(self):
                super().__init__()
                self.ent = nn.Parameter(torch.randn(20, 4))
            def forward(self, triplets):
                s, o = triplets[:, 0], triplets[:, 1]  # expect: DG005
                return self.ent[s] + self.ent[o.long()] + self.ent[self.ent[:, 0] > 0].sum()
        rows = []
        for k in range(10):
            rows.append([k % 5, k % 7, 24.0 * k])
        data = np.array(rows)
        batch = torch.from_numpy(data[:4])
        TKG()(batch)
        ids = torch.Tensor([1, 2])  # expect: DG005
        table = torch.randn(5, 3)
        picked = table[ids]
        fine = table[torch.tensor([1, 2], dtype=torch.int32)] + table[ids.long()]
        """,
    "a torch spectrogram (Hann window, rfft magnitude) is float32: a half model refuses it": """
        import torch
        import torch.nn as nn
        def fbank(wav, win=400, hop=160):
            frames = wav.unfold(-1, win, hop) * torch.hann_window(win)
            spec = torch.fft.rfft(frames).abs() ** 2
            return torch.log(spec @ torch.rand(spec.shape[-1], 40) + 1e-6)
        feats = fbank(torch.randn(16000))
        nn.Linear(40, 8)(feats)
        half = nn.Linear(40, 8).to(dtype=torch.float16)  # expect: DG004
        half(feats)
        """,
    "isinstance(source, dict) of a config dict takes its branch; the Path it adds is the refused entry": """
        import os
        import tempfile
        from pathlib import Path
        import torch
        class Runner:
            def __init__(self, source, work_dir=None):
                if isinstance(source, dict):
                    self.cfg = dict(source, work_dir=Path(work_dir or tempfile.mkdtemp()))  # expect: DG011
                else:
                    self.cfg = torch.load(source)["config"]
            def save(self):
                path = os.path.join(self.cfg["work_dir"], "last.ckpt")
                torch.save({"config": self.cfg}, path)
                return path
        restored = Runner(Runner({"lr": 1e-3}).save())
        """,
    "isinstance of a string path is not a dict: quiet": """
        import torch
        def load(source):
            if isinstance(source, dict):
                return source
            return torch.load(source, map_location="cpu")
        cfg = load("weights.pt")
        same = isinstance("x", (str, dict))
        """,
    "float16 similarities from an autocast encoder, masked with float32's max outside it: DG018 once, where they became float16": """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        def mine(embeddings, labels):
            emb = F.normalize(embeddings, dim=1)
            mat = emb @ emb.t()
            same = labels[:, None] == labels[None, :]
            fine = mat.masked_fill(same, torch.finfo(mat.dtype).max)
            mat_pos = mat.masked_fill(~same, torch.finfo(torch.float32).max)
            mat_neg = mat.masked_fill(same, -torch.finfo(torch.float32).max)
            return mat_pos, mat_neg
        model = nn.Linear(8, 4)
        with torch.autocast("cpu", dtype=torch.float16):
            embeddings = model(torch.rand(6, 8))  # expect: DG018
        mine(embeddings, torch.randint(0, 3, (6,)))
        mine(embeddings.float(), torch.randint(0, 3, (6,)))
        """,
    "an astype to another array's dtype keeps that array's origin (the int16 labels' own cast)": """
        import numpy as np
        import torch
        import torch.nn.functional as F
        rng = np.random.default_rng(0)
        labels = rng.integers(1, 4, size=3).astype(np.int16)  # expect: DG006
        assign = np.arange(8) % 4
        prior = np.where(assign < 3, labels[np.minimum(assign, 2)], 0).astype(labels.dtype)
        F.cross_entropy(torch.randn(8, 4), torch.from_numpy(prior))
        """,
    "fused and foreach conflicting through **kwargs: reported where the second flag is written": """
        import torch
        import torch.nn as nn
        def optimizer_kwargs(cfg):
            kwargs = {"lr": cfg["lr"], "fused": cfg["fused"]}
            kwargs["foreach"] = True  # expect: DG016
            return kwargs
        model = nn.Linear(4, 2)
        opt = torch.optim.Adam(model.parameters(), **optimizer_kwargs({"lr": 1e-3, "fused": True}))
        ok = torch.optim.Adam(model.parameters(), **optimizer_kwargs({"lr": 1e-3, "fused": False}))
        """,
    "np.load of the same file name joined to another folder variable reads back what np.save wrote": """
        import os
        import tempfile
        import numpy as np
        import torch
        import torch.nn.functional as F
        workdir = tempfile.mkdtemp()
        np.save(os.path.join(workdir, "pool_y.npy"), np.arange(8).astype(np.int32))
        np.save(os.path.join(workdir, "pool_z.npy"), np.arange(8))
        def load_pool(directory):
            return np.load(os.path.join(directory, "pool_y.npy")), np.load(os.path.join(directory, "pool_z.npy"))
        y, z = load_pool(workdir)
        F.cross_entropy(torch.randn(8, 8), torch.from_numpy(y))  # expect: DG006
        F.cross_entropy(torch.randn(8, 8), torch.from_numpy(z))
        """,
    "a best score kept as a NumPy result after starting as 0.0 is NumPy data in the checkpoint": """
        import os
        import tempfile
        import numpy as np
        import torch
        LAST = os.path.join(tempfile.mkdtemp(), "last.pt")
        def fitness(x):
            return (x[:, :4] * [0.0, 0.0, 0.1, 0.9]).sum(1)
        def train(epochs, resume=False):
            best = 0.0
            if resume:
                best = torch.load(LAST)["best"]
            for epoch in range(epochs):
                fi = fitness(np.random.rand(1, 7))
                if fi > best:
                    best = fi
                ckpt = {"epoch": epoch, "best": best}  # expect: DG011
                torch.save(ckpt, LAST)
        train(2)
        train(4, resume=True)
        """,
    "a tensor stored in an object's dict attribute (g.ndata['feat'] = ...) is read back from it": """
        import numpy as np
        import pandas as pd
        import torch
        import torch.nn as nn
        class Graph:
            def __init__(self):
                self.ndata = {}
        frame = pd.DataFrame({"a": np.random.rand(8), "b": np.random.rand(8)})
        g = Graph()
        g.ndata["feat"] = torch.tensor(frame[["a", "b"]].values)  # expect: DG004
        g.ndata["ok"] = torch.tensor(frame[["a", "b"]].values, dtype=torch.float32)
        layer = nn.Linear(2, 4)
        layer(g.ndata["ok"])
        layer(g.ndata["feat"])
        """,
    "self.__dict__.update(a known dict) sets those attributes; of an unknown one, forgets them": """
        import numpy as np
        import torch
        import torch.nn as nn
        class Data:
            def __init__(self, fields):
                self.x = torch.zeros(2, 4)
                self.__dict__.update(fields)
        class Opaque:
            def __init__(self, fields):
                self.x = torch.zeros(2, 4, dtype=torch.float64)
                self.__dict__.update(fields)
        data = Data({"a_hat": torch.from_numpy(np.random.rand(2, 4))})  # expect: DG004
        layer = nn.Linear(4, 2)
        layer(data.x)
        layer(data.a_hat)
        layer(Opaque(dict(np.load("fields.npz"))).x)
        """,
    "a function's **kwargs holds the keywords it was given (unless some came from an unreadable **)": """
        import json
        import torch
        import torch.nn as nn
        class Data:
            def __init__(self, **kw):
                self.__dict__.update(kw)
        def build(params, lr=1e-3, **kwargs):
            return torch.optim.Adam(params, lr=lr, **kwargs)
        model = nn.Linear(4, 2)
        data = Data(x=torch.zeros(3, 4, dtype=torch.float64), y=torch.zeros(3))  # expect: DG004
        model(data.x)
        build(model.parameters(), lr=0.1, fused=True, foreach=True)  # expect: DG016
        build(model.parameters(), **json.loads(open("opt.json").read()))
        other = Data(**json.loads(open("data.json").read()))
        model(other.x)
        """,
    "a negated number keeps its sign (a branch on -1 < 0 is taken)": """
        import torch
        import torch.nn as nn
        margin = -1
        x = torch.zeros(2, 4)
        if margin < 0:
            x = torch.zeros(2, 4, dtype=torch.float64)  # expect: DG004
        nn.Linear(4, 2)(x)
        """,
    "true division of an integer tensor gives the default dtype: a float gather index": """
        import torch
        class Beam:
            def __init__(self, vocab):
                self.vocab = vocab
            def step(self, logprob, state, words):
                _, idx = logprob.view(2, -1).topk(3, -1)
                beam = idx / self.vocab  # expect: DG006
                kept = idx // self.vocab
                fine = torch.gather(state, 1, kept)
                scaled = torch.arange(6) * 0.5  # a float tensor, never an index here
                return torch.gather(state, 1, beam)
        Beam(50).step(torch.randn(2, 3, 50), torch.randn(2, 3), None)
        def reorder(scores, k, n):
            best = scores.view(4, -1).topk(k, 1)[1]
            prev = best / n  # expect: DG006
            return scores.gather(1, prev)
        reorder(torch.randn(4, 20), 2, 10)
        """,
    "x.new_zeros(...) takes x's dtype there: a half mask filled with -1e8 is rooted at new_zeros": """
        import torch
        import torch.nn as nn
        class Enc(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(10, 8)
            def forward(self, ids):
                x = self.emb(ids)
                mask = x.new_zeros(4, 4)  # expect: DG018
                ok = x.new_zeros(4, 4, dtype=torch.float32)
                ok.masked_fill_(ok > 0, -1e8)
                return mask.masked_fill(mask > 0, -1e8)
        Enc().half()(torch.randint(0, 10, (2, 4)))
        """,
    "a parameter no known argument took is unknown, not its default, when a ** we cannot read was given": """
        import json
        import torch
        import torch.nn as nn
        def make(n, device="cpu", **kw):
            return torch.zeros(n, 4, device=device)
        model = nn.Linear(4, 2).cuda()
        model(make(2))  # expect: DG009
        model(make(2, **json.load(open("c.json"))))
        """,
    "a slice of a list of floats with an unknown bound is floats; of mixed ints and floats, unknown": """
        import sys
        import numpy as np
        import torch
        import torch.nn as nn
        scales = [0.5, 1.0, 2.0]
        n = len(sys.argv)
        w = torch.from_numpy(np.array(scales[:n]))  # expect: DG004
        ids = torch.tensor([1, 2, 3][:n])
        mixed = torch.tensor([1, 2.0][:n])
        nn.Linear(3, 1)(w)
        nn.Linear(3, 1)(ids.float())
        nn.Linear(3, 1)(mixed)
        """,
    "torch.arange of Python ints known or not is int64; torch.full of float(i) follows the default dtype": """
        import torch
        def collate(graphs):
            batch = []
            for i, g in enumerate(graphs):
                batch.append(torch.full((g.size(0),), float(i)))  # expect: DG006
            return torch.cat(batch)
        def pool(x, batch):
            out = torch.zeros(3, x.size(1))
            return out.scatter_add_(0, batch.unsqueeze(-1).expand_as(x), x)
        graphs = [torch.randn(4, 2), torch.randn(5, 2)]
        pool(torch.cat(graphs), collate(graphs))
        x = torch.randn(6, 2)
        idx = torch.arange(x.size(0))
        x.index_select(0, idx)
        pool(x, torch.arange(x.size(0)) % 3)
        """,
    "a dtype chosen by a condition is a setting: the helper's cast that applies it is the root": """
        import torch
        import torch.nn as nn
        def build(dtype):
            policy = nn.Linear(4, 2)
            return policy.to(dtype)  # expect: DG013
        def main(precision="bf16"):
            dtype = torch.bfloat16 if precision == "bf16" else torch.float32
            policy = build(dtype)
            opt = torch.optim.AdamW(policy.parameters(), lr=1e-5)
            opt.step()
        main()
        """,
    "a layer made with dtype=torch.float16 in a float32 model is a float16 part a GradScaler refuses": """
        import torch
        import torch.nn as nn
        class Separator(nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = nn.Conv1d(2, 8, 5, padding=2)
                self.mask_head = nn.Conv1d(8, 4, 1, dtype=torch.float16)  # expect: DG014
            def forward(self, mix):
                return torch.sigmoid(self.mask_head(self.encoder(mix).half()))
        model = Separator()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        scaler = torch.amp.GradScaler("cpu")
        loss = model(torch.randn(2, 2, 16)).float().mean()
        scaler.scale(loss).backward()
        scaler.step(opt)
        plain = nn.Sequential(nn.Conv1d(2, 8, 5), nn.Conv1d(8, 4, 1, dtype=torch.float32))
        opt2 = torch.optim.SGD(plain.parameters(), lr=0.1)
        scaler.scale(plain(torch.randn(2, 2, 16)).mean()).backward()
        scaler.step(opt2)
        """,
    "a None scale takes the default after it; a CPU causal mask inverted by logical_not meets GPU scores": """
        import math
        import torch
        import torch.nn as nn
        def causal_mask(L, S):
            return torch.ones(L, S, dtype=torch.bool).tril(diagonal=S - L)  # expect: DG009
        def attend(q, k, scale=None):
            scale = scale or 1.0 / math.sqrt(q.size(-1))
            scores = q @ k.transpose(-2, -1) * scale
            return scores.masked_fill(causal_mask(q.size(-2), k.size(-2)).logical_not(), float("-inf"))
        device = "cuda" if torch.cuda.is_available() else "cpu"
        proj = nn.Linear(8, 8).to(device)
        x = proj(torch.randn(2, 5, 8, device=device))
        attend(x, x)
        """,
    "setattr of a mixed-dtype part under an unread name forgets the model's dtype; alike parts keep it": """
        import torch
        import torch.nn as nn
        class LoRA(nn.Module):
            def __init__(self, base, dtype):
                super().__init__()
                self.base = base
                self.lora_A = nn.Parameter(torch.zeros(4, 4, dtype=dtype))
            def forward(self, x):
                return self.base(x) + x.to(self.lora_A.dtype) @ self.lora_A
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.q_proj = nn.Linear(4, 4)
            def forward(self, x):
                return self.q_proj(x)
        def linear_names(model):
            return [n for n, m in model.named_modules() if isinstance(m, nn.Linear)]
        mixed = Net().half()
        for name in linear_names(mixed):
            setattr(mixed, name, LoRA(getattr(mixed, name), torch.float32))
        mixed(torch.zeros(2, 4))
        alike = Net().half()  # expect: DG004
        for name in ("q_proj",):
            setattr(alike, name, LoRA(getattr(alike, name), getattr(alike, name).weight.dtype))
        alike(torch.zeros(2, 4))
        """,
    "CBOW: windows joined from list slices, Embedding averaged over them, an int64 one-hot target": """
        import numpy as np
        import torch
        from torch import nn
        ids = [3, 1, 4, 1, 5, 9, 2, 6]
        pairs = [(ids[i - 2:i] + ids[i + 1:i + 3], ids[i]) for i in range(2, len(ids) - 2)]
        emb, proj = nn.Embedding(10, 8), nn.Linear(8, 10)
        for context, word in pairs:
            x = torch.tensor(context, dtype=torch.long).unsqueeze(0)
            y = np.zeros(10)
            y[word] = 1.0
            target = torch.tensor(y, dtype=torch.long).unsqueeze(0)  # expect: DG006
            nn.CrossEntropyLoss()(proj(emb(x).mean(dim=-2)), target)
        """,
    "CBOW with class-index targets: the same windows, no finding": """
        import torch
        from torch import nn
        ids = [3, 1, 4, 1, 5, 9, 2, 6]
        pairs = [(ids[i - 2:i] + ids[i + 1:i + 3], ids[i]) for i in range(2, len(ids) - 2)]
        emb, proj = nn.Embedding(10, 8), nn.Linear(8, 10)
        for context, word in pairs:
            x = torch.tensor(context, dtype=torch.long).unsqueeze(0)
            target = torch.tensor([word])
            nn.CrossEntropyLoss()(proj(emb(x).mean(dim=-2)), target)
            nn.CrossEntropyLoss()(proj(emb(x).mean(dim=-2, keepdim=True)).squeeze(1), target)
        """,
    "class weights from np.unique counts are float64: CrossEntropyLoss refuses them": """
        import numpy as np
        import torch
        from torch import nn
        def compute_class_weight(y):
            classes, counts = np.unique(y, return_counts=True)
            return len(y) / (len(classes) * counts)
        labels = np.random.randint(0, 3, 32)
        criterion = nn.CrossEntropyLoss(weight=torch.from_numpy(compute_class_weight(labels)))  # expect: DG006
        criterion(nn.Linear(4, 3)(torch.randn(32, 4)), torch.from_numpy(labels))
        """,
    "a wrapper's `*args` passed on to its encoder (torch_geometric's GAE.encode)": """
        import numpy as np
        import torch
        from torch import nn
        class Conv(nn.Module):
            def __init__(self, i, o):
                super().__init__()
                self.weight = nn.Parameter(torch.empty(i, o))
            def forward(self, x, edge_index):
                return torch.matmul(x, self.weight)
        class GAE(nn.Module):
            def __init__(self, encoder):
                super().__init__()
                self.encoder = encoder
            def encode(self, *args):
                return self.encoder(*args)
        nodes = torch.tensor(np.random.rand(5, 3))  # expect: DG004
        GAE(Conv(3, 2)).encode(nodes, None)
        """,
    "`*args` of a caller's unreadable `*` stay unknown": """
        import numpy as np
        import torch
        from torch import nn
        def first(*args):
            return args[0]
        def run(*rows):
            return nn.Linear(3, 2)(first(*rows))
        run(*[torch.randn(2, 3) for _ in range(2)])
        """,
    "yolov5's de_parallel(model) is the model: its half deep copy in a checkpoint": """
        import os
        import tempfile
        from copy import deepcopy
        import torch
        from torch import nn
        def de_parallel(model):
            return model.module if isinstance(model, (nn.DataParallel, nn.parallel.DistributedDataParallel)) else model
        model = nn.Linear(4, 2)
        path = os.path.join(tempfile.mkdtemp(), "last.pt")
        torch.save({"epoch": 1, "model": deepcopy(de_parallel(model)).half()}, path)  # expect: DG011
        ckpt = torch.load(path, map_location="cpu")
        """,
    "resume: the optimizer's state loaded on the CPU, then the model moved to the GPU": """
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2)
        optimizer = torch.optim.Adam(model.parameters())
        checkpoint = torch.load("last.pt", map_location="cpu")
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        model = model.to(device)  # expect: DG015
        model(torch.randn(3, 4, device=device)).sum().backward()
        optimizer.step()
        """,
    "resume done right: the model on its device before the optimizer's state loads": """
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2).to(device)
        optimizer = torch.optim.Adam(model.parameters())
        checkpoint = torch.load("last.pt", map_location="cpu")
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        model(torch.randn(3, 4, device=device)).sum().backward()
        optimizer.step()
        """,
    "one stage of a built model made half afterwards, stepped through a GradScaler": """
        import torch
        from torch import nn
        model = nn.ModuleList([nn.Linear(10, 20), nn.Linear(20, 10)])
        model[0].half()  # expect: DG014
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        scaler = torch.amp.GradScaler("cpu")
        with torch.autocast(device_type="cpu", dtype=torch.float16):
            loss = model[1](model[0](torch.randn(4, 10))).float().pow(2).mean()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        """,
    "one stage made half and frozen: the GradScaler only sees float32 gradients": """
        import torch
        from torch import nn
        model = nn.ModuleList([nn.Linear(10, 20), nn.Linear(20, 10)])
        model[0].half()
        model[0].requires_grad_(False)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        scaler = torch.amp.GradScaler("cpu")
        with torch.autocast(device_type="cpu", dtype=torch.float16):
            loss = model[1](model[0](torch.randn(4, 10))).float().pow(2).mean()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        """,
    "a replay memory's action buffer made float32: its dtype= is where the index goes wrong": """
        import numpy as np
        import torch
        class Memory:
            def __init__(self, n):
                self.actions = np.zeros(n, dtype=np.float32)  # expect: DG005
                self.counter = 0
            def add(self, a):
                self.actions[self.counter % len(self.actions)] = a
                self.counter += 1
            def sample(self, k):
                return self.actions[np.random.choice(len(self.actions), k)]
        memory = Memory(16)
        memory.add(1)
        q = torch.randn(4, 3)
        action = torch.tensor(memory.sample(4))
        q[np.arange(4), action]
        """,
    "each label of zip(images, labels) is a 0-d tensor: unsqueezed, it is a batch of one class index": """
        import torch
        from torch import nn
        images = torch.rand(8, 784)
        labels = torch.randint(0, 10, (8,))
        model = nn.Linear(784, 10)
        criterion = nn.CrossEntropyLoss()
        pairs = []
        for datum, label in zip(images, labels):
            pairs.append([datum, label])
        for x, label in pairs:
            loss = criterion(model(x).unsqueeze(0), label.unsqueeze(0))
        for row in labels.unsqueeze(1):
            loss = criterion(model(images[:1]), row)
        """,
    "a line's ids in a list comprehension of unknown values: torch.Tensor of it is float32": """
        import torch
        from torch import nn
        word2idx = {}
        idss = []
        for line in open("corpus.txt"):
            ids = [word2idx[w] for w in line.split()]
            idss.append(torch.Tensor(ids))  # expect: DG005
        data = torch.cat(idss)
        nn.Embedding(100, 8)(data[:4])
        """,
    "a loop over a one-item tuple runs once: the dict it fills keeps its entry": """
        import numpy as np
        import torch
        from torch import nn
        def prepare(features, lineages=("all",)):
            data = {}
            for li in lineages:
                data[li] = {"x": torch.from_numpy(features)}  # expect: DG004
            return data
        for name, d in prepare(np.random.rand(8, 4)).items():
            nn.Linear(4, 2)(d["x"])
        """,
    "a transform held by a dataset is an object, so `if self.transform:` runs it": """
        import numpy as np
        import torch
        from torch import nn
        class ToTensor:
            def __call__(self, image):
                return torch.from_numpy(image)
        class Images:
            def __init__(self, transform=None):
                self.transform = transform
            def get(self):
                image = np.random.rand(4).astype(np.float32)
                if self.transform:
                    image = self.transform(image)
                return image
        x = Images(ToTensor()).get()
        nn.Linear(4, 2)(x.double())  # expect: DG004
        y = Images().get()
        nn.Linear(4, 2)(torch.from_numpy(y))
        """,
    "an .npy file saved under one name and loaded under another is read back with its dtype": """
        import os
        import tempfile
        import numpy as np
        import torch
        from torch import nn
        def write(path):
            np.save(path, np.random.rand(8, 4))
        class Reader:
            def __init__(self, features_path):
                self.features = np.load(features_path)
        features_path = os.path.join(tempfile.mkdtemp(), "train_features.npy")
        write(features_path)
        x = torch.tensor(Reader(features_path).features)  # expect: DG004
        nn.Linear(4, 2)(x)
        """,
    "LBFGS runs the closure its step is given: the float64 grid inside the model meets the input": """
        import numpy as np
        import torch
        from torch import nn
        def curve(x, grid):
            return torch.einsum("ij,jk->ik", x, grid)
        class Layer(nn.Module):
            def __init__(self):
                super().__init__()
                self.grid = torch.from_numpy(np.linspace(0, 1, 4).reshape(2, 2))  # expect: DG004
            def forward(self, x):
                return curve(x, self.grid)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = Layer()
                self.scale = nn.Parameter(torch.ones(1))
            def forward(self, x):
                return self.layer(x) * self.scale
        model = Net()
        opt = torch.optim.LBFGS(model.parameters())
        if __name__ == "__main__":
            x = torch.rand(4, 2)
            def closure():
                opt.zero_grad()
                loss = model(x).pow(2).mean()
                loss.backward()
                return loss
            opt.step(closure)
        """,
    "capturable AdamW over nanoGPT-style parameter groups of CPU parameters": """
        import torch
        from torch import nn
        model = nn.Linear(4, 2)
        param_dict = {pn: p for pn, p in model.named_parameters() if p.requires_grad}
        decay = [p for n, p in param_dict.items() if p.dim() >= 2]
        nodecay = [p for n, p in param_dict.items() if p.dim() < 2]
        groups = [{"params": decay, "weight_decay": 0.1}, {"params": nodecay, "weight_decay": 0.0}]
        opt = torch.optim.AdamW(groups, lr=1e-3, capturable=True)  # expect: DG016
        plain = torch.optim.AdamW(groups, lr=1e-3)
        model(torch.rand(3, 4)).sum().backward()
        opt.step()
        plain.step()
        """,
    "samples appended to list() are a list: np.array of them keeps their float64": """
        import numpy as np
        import torch
        from torch import nn
        series = np.random.rand(50)
        X, y = list(), list()
        for i in range(40):
            X.append(series[i:i + 4])
            y.append(series[i + 4:i + 5])
        X = torch.from_numpy(np.array(X)).float()
        y = torch.from_numpy(np.array(y))  # expect: DG008
        nn.functional.mse_loss(nn.Linear(4, 1)(X), y)
        """,
    "minGPT's configure_optimizers: groups of parameters picked by name from dict(named_parameters())": """
        import torch
        from torch import nn
        class GPT(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)
                self.ln = nn.LayerNorm(4)
            def configure_optimizers(self):
                decay, no_decay = set(), set()
                for mn, m in self.named_modules():
                    for pn, _ in m.named_parameters(recurse=False):
                        fpn = f"{mn}.{pn}" if mn else pn
                        if pn.endswith("weight") and isinstance(m, nn.Linear):
                            decay.add(fpn)
                        else:
                            no_decay.add(fpn)
                param_dict = dict(self.named_parameters())
                groups = [
                    {"params": [param_dict[pn] for pn in sorted(decay)], "weight_decay": 0.1},
                    {"params": [param_dict[pn] for pn in sorted(no_decay)], "weight_decay": 0.0},
                ]
                return torch.optim.AdamW(groups, lr=5e-4)  # expect: DG013
        model = GPT().to(torch.bfloat16)
        opt = model.configure_optimizers()
        fine = GPT().configure_optimizers()
        """,
    "a model class whose parts are all cast to float16 has float16 parameters (guided-diffusion convert_to_fp16)": """
        import torch
        from torch import nn
        class UNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.inp = nn.Sequential(nn.Conv2d(3, 8, 3), nn.SiLU())
                self.out = nn.Sequential(nn.GroupNorm(4, 8), nn.Conv2d(8, 3, 3))
            def convert_to_fp16(self):
                self.inp.half()
                self.out.half()
        class Partly(nn.Module):
            def __init__(self):
                super().__init__()
                self.inp = nn.Linear(4, 4)
                self.out = nn.Linear(4, 4)
        model = UNet()
        model.convert_to_fp16()
        opt = torch.optim.AdamW(list(model.parameters()), lr=1e-4)  # expect: DG012
        other = Partly()
        other.inp.half()
        mixed = torch.optim.AdamW(other.parameters(), lr=1e-4)  # expect: DG012
        """,
    "a NumPy accuracy kept as the best with max() and saved through a save_on_master(*args, **kwargs) wrapper": """
        import os
        import tempfile
        import numpy as np
        import torch
        def save_on_master(*args, **kwargs):
            torch.save(*args, **kwargs)
        def evaluate(pred, target):
            accs = []
            for _ in range(2):
                accs.append((pred == target).float().mean().item() * 100)
            return {"acc1": np.mean(accs)}
        def main(out, resume):
            best = 0.0
            if resume:
                best = torch.load(os.path.join(out, "ckpt.pth"))["best"]
            stats = evaluate(unknown_model(), torch.zeros(4))
            best = max(best, stats["acc1"])
            save_on_master({"best": best}, os.path.join(out, "ckpt.pth"))  # expect: DG011
        main(tempfile.mkdtemp(), False)
        main(tempfile.mkdtemp(), True)
        """,
    "parse_args with a value the analysis cannot read still reads the other options": """
        import argparse
        import tempfile
        import torch
        from torch import nn
        parser = argparse.ArgumentParser()
        parser.add_argument("--output_dir", default="")
        parser.add_argument("--fp16", action="store_true")
        args = parser.parse_args(["--output_dir", tempfile.mkdtemp(), "--fp16"])
        model = nn.Linear(4, 2)
        if args.fp16:
            model.half()
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)  # expect: DG012
        """,
    "nn.Sequential(OrderedDict([...])) is its layers, in order and by name": """
        from collections import OrderedDict
        import numpy as np
        import torch
        from torch import nn
        model = nn.Sequential(OrderedDict([("fc", nn.Linear(4, 8)), ("act", nn.Tanh()), ("out", nn.Linear(8, 1))]))
        x = torch.from_numpy(np.random.rand(3, 4))  # expect: DG004
        model(x)
        model.out(torch.rand(3, 8))
        unknown = nn.Sequential(OrderedDict(pairs_from_elsewhere))
        unknown(x)
        """,
    "PINN's DNN: (name, layer) pairs appended in a loop, then Sequential(OrderedDict(...)); cast to float64 after Adam stepped": """
        from collections import OrderedDict
        import torch
        class DNN(torch.nn.Module):
            def __init__(self, layers):
                super().__init__()
                layer_list = []
                for i in range(len(layers) - 2):
                    layer_list.append((f"layer_{i}", torch.nn.Linear(layers[i], layers[i + 1])))
                    layer_list.append((f"activation_{i}", torch.nn.Tanh()))
                layer_list.append((f"layer_{len(layers) - 2}", torch.nn.Linear(layers[-2], layers[-1])))
                self.layers = torch.nn.Sequential(OrderedDict(layer_list))
            def forward(self, x):
                return self.layers(x)
        dnn = DNN([2, 20, 20, 1])
        opt = torch.optim.Adam(dnn.parameters(), lr=1e-3)
        for stage in range(2):
            dnn(torch.rand(8, 2, dtype=dnn.layers.layer_0.weight.dtype)).pow(2).mean().backward()
            opt.step()
            dnn.to(torch.float64)  # expect: DG015
        """,
    "torch.meshgrid gives one grid per input, of its dtype and device": """
        import numpy as np
        import torch
        from torch import nn
        ys = torch.from_numpy(np.linspace(-1, 1, 8))  # expect: DG004
        yy, xx = torch.meshgrid(ys, torch.linspace(-1, 1, 8, dtype=torch.float64), indexing="ij")
        grid = torch.stack([yy, xx], dim=-1)
        nn.Linear(2, 1)(grid)
        a, b = torch.meshgrid(torch.linspace(0, 1, 4), torch.linspace(0, 1, 4), indexing="xy")
        nn.Linear(2, 1)(torch.stack([a, b], dim=-1))
        """,
    "a dict subclass that reads its keys as attributes (AttrDict) carries a config's optimizer options": """
        import torch
        from torch import nn
        class AttrDict(dict):
            def __getattr__(self, name):
                return self[name]
        cfg = AttrDict(epochs=2, optimizer=AttrDict(type="Adam", kwargs=AttrDict(lr=1e-3, capturable=True)))  # expect: DG016
        model = nn.Linear(4, 2)
        opt = getattr(torch.optim, cfg.optimizer.type)(model.parameters(), **cfg.optimizer.kwargs)
        model(torch.rand(3, 4)).sum().backward()
        opt.step()
        class Counted(dict):
            def __getattr__(self, name):
                return self[name]
            def bump(self):
                self["capturable"] = True
        other = Counted(kwargs=dict(lr=1e-3))
        torch.optim.Adam(nn.Linear(4, 2).parameters(), **other.kwargs).step()
        """,
    "a best accuracy joined through the epoch loop with a value read back on resume is still the NumPy metric it keeps": """
        import json
        import os
        import sys
        import tempfile
        import numpy as np
        import torch
        def evaluate(pred):
            return {"acc1": np.mean([pred.float().mean().item() * 100])}
        def main(out, resume):
            best = 0.0
            if resume:
                best = json.load(open(os.path.join(out, "best.json")))["best"]
            for epoch in range(2):
                stats = evaluate(torch.ones(3))
                best = max(best, stats["acc1"])
                torch.save({"epoch": epoch, "best": best}, os.path.join(out, "ckpt.pth"))  # expect: DG011
            torch.load(os.path.join(out, "ckpt.pth"), map_location="cpu")
        main(tempfile.mkdtemp(), len(sys.argv) > 1)
        """,
    "an mmengine-style config builds a bfloat16 LLM through a classmethod given as type= and a build() nested in build()": """
        import torch
        from torch import nn
        class LLM(nn.Module):
            def __init__(self):
                super().__init__()
                self.embed = nn.Embedding(10, 8)
                self.proj = nn.Linear(8, 8)
            @classmethod
            def from_pretrained(cls, name, torch_dtype=None):
                model = cls()
                return model.to(torch_dtype) if torch_dtype is not None else model
            def forward(self, inputs_embeds):
                return self.proj(inputs_embeds)
        def build(cfg):
            cfg = dict(cfg)
            return cfg.pop("type")(**cfg)
        class Wrapper(nn.Module):
            def __init__(self, llm):
                super().__init__()
                self.llm = build(llm)
                self.projector = nn.Linear(4, 8)
            def forward(self, x):
                return self.llm(self.projector(x))
        model = build(dict(type=Wrapper, llm=dict(type=LLM.from_pretrained, name="tiny", torch_dtype=torch.bfloat16)))  # expect: DG004
        model(torch.randn(2, 4))
        """,
    "torchsummary's probe batch: a legacy type chosen by torch.cuda.is_available() and model(*x) of a list of them": """
        import torch
        import torch.nn as nn
        def summary(model, input_size, device="cuda"):
            if device == "cuda" and torch.cuda.is_available():
                dtype = torch.cuda.FloatTensor
            else:
                dtype = torch.FloatTensor
            if isinstance(input_size, tuple):
                input_size = [input_size]
            x = [torch.rand(2, *in_size).type(dtype) for in_size in input_size]
            model(*x)
            pairs = [(torch.zeros(2), 1.0), (torch.ones(2), 0.0)]
            inputs, targets = zip(*pairs)
            return inputs
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Sequential(nn.Linear(4, 2))  # expect: DG009
        summary(model, (3, 4))
        model = model.to(device)
        summary(model, (3, 4))
        """,
    "improved-diffusion's convert_to_fp16: Module.apply runs a helper that casts only the convolutions' .data": """
        import torch as th
        import torch.nn as nn
        def convert_module_to_f16(l):
            if isinstance(l, (nn.Conv1d, nn.Conv2d, nn.Conv3d)):
                l.weight.data = l.weight.data.half()
                l.bias.data = l.bias.data.half()
        class UNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.time_embed = nn.Linear(4, 4)
                self.input_blocks = nn.ModuleList([nn.Conv2d(3, 4, 3, padding=1), nn.Conv2d(4, 4, 3, padding=1)])
                self.out = nn.Conv2d(4, 3, 3, padding=1)
            def convert_to_fp16(self):
                self.input_blocks.apply(convert_module_to_f16)
            def forward(self, x):
                h = x.type(th.float16)
                for block in self.input_blocks:
                    h = block(h)
                return self.out(h.type(x.dtype))
        model = UNet()
        model.convert_to_fp16()
        y = model(th.randn(1, 3, 8, 8))
        probe = nn.Linear(4, 4)
        probe.apply(convert_module_to_f16)
        probe(th.randn(2, 4))
        """,
    "yunjey's language model: word ids written into torch.Tensor(tokens), tokens counted in a loop": """
        import torch
        import torch.nn as nn
        def get_data(lines):
            tokens = 0
            for line in lines:
                tokens += len(line.split())
            ids = torch.Tensor(tokens)  # expect: DG005
            token = 0
            for line in lines:
                for word in line.split():
                    ids[token] = len(word)
                    token += 1
            return ids.view(2, -1)
        ids = get_data(["a bb ccc dd", "e ff ggg hh"])
        embed = nn.Embedding(10, 4)
        embed(ids[:, 0:2])
        long_ids = torch.LongTensor(4)
        embed(long_ids)
        """,
    "parts of a module cast after it was built: its forward computes in their dtype": """
        import torch
        import torch.nn as nn
        def convert_module_to_f16(l):
            if isinstance(l, (nn.Conv2d, nn.Linear)):
                l.weight.data = l.weight.data.half()
                if l.bias is not None:
                    l.bias.data = l.bias.data.half()
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Sequential(nn.Linear(4, 2))
            def convert_to_fp16(self):
                self.fc.apply(convert_module_to_f16)
            def forward(self, x):
                return self.fc(x)
        model = Net()
        params = list(model.parameters())
        opt = torch.optim.AdamW(params, lr=1e-3)  # expect: DG012
        model.convert_to_fp16()
        loss = model(torch.randn(8, 4).half()).float().sum()
        loss.backward()
        opt.step()
        class One(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)
            def forward(self, x):
                return self.fc(x)  # the cast layer meets the float32 input here (torch raises here)
        one = One()
        one.fc.half()  # expect: DG004
        one(torch.randn(8, 4))
        two = One()
        two.fc.half()
        two(torch.randn(8, 4).half())
        """,
    "the device chosen with torch.accelerator, or a CUDA ordinal: moves keep the dtype": """
        import numpy as np
        import torch
        import torch.nn as nn
        use_accel = torch.accelerator.is_available()
        if use_accel:
            device = torch.accelerator.current_accelerator()
        else:
            device = torch.device("cpu")
        labels = torch.IntTensor(np.array([0, 1, 2]))  # expect: DG006
        labels = labels.to(device)
        out = torch.randn(3, 4).log_softmax(1).to(device)
        loss = nn.NLLLoss()(out, labels)
        gpu_id = 0 if torch.cuda.is_available() else "cpu"
        model = nn.Linear(4, 2).to(gpu_id)
        x = torch.from_numpy(np.random.rand(8, 4))  # expect: DG004
        model(x.to(gpu_id))
        """,
    "the best epoch's checkpoint saved in the loop and loaded after it, the model parked on the CPU to save": """
        import torch
        import torch.nn as nn
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = nn.Linear(4, 2).to(device)
        opt = torch.optim.Adam(model.parameters())
        best = None
        for epoch in range(3):
            loss = model(torch.randn(8, 4, device=device)).sum()
            loss.backward()
            opt.step()
            if not best or loss.item() < best:
                best = loss.item()
                model.cpu()
                torch.save(model.state_dict(), "best.pt")
                model.to(device)
        model.load_state_dict(torch.load("best.pt"))
        """,
    "a checkpoint saved on the device in the training loop, reloaded after it in the same run": """
        import torch
        import torch.nn as nn
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = nn.Linear(4, 2).to(device)
        best = float("inf")
        for epoch in range(3):
            loss = model(torch.randn(8, 4, device=device)).sum().item()
            if loss < best:
                best = loss
                with open("best.pt", "wb") as f:
                    torch.save(model, f)
        with open("best.pt", "rb") as f:
            model = torch.load(f, weights_only=False)
        """,
    "CLIP's convert_weights: the linears made float16 through .data, the norms left float32, then Adam": """
        import torch
        import torch.nn as nn
        def convert_weights(model):
            def _convert_weights_to_fp16(l):
                if isinstance(l, (nn.Conv1d, nn.Conv2d, nn.Linear)):
                    l.weight.data = l.weight.data.half()
                    if l.bias is not None:
                        l.bias.data = l.bias.data.half()
            model.apply(_convert_weights_to_fp16)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.ln = nn.LayerNorm(4)
                self.fc = nn.Linear(4, 2)
            def forward(self, x):
                return self.fc(self.ln(x).half())
        model = Net()
        convert_weights(model)
        optimizer = torch.optim.Adam(model.parameters(), lr=5e-5)  # expect: DG012
        loss = model(torch.randn(3, 4)).float().sum()
        loss.backward()
        optimizer.step()
        safe = Net()
        convert_weights(safe)
        fused = torch.optim.Adam(safe.parameters(), lr=5e-5, fused=True)
        """,
    "torch.normal with a tensor std is on that tensor's device (CleanRL's exploration noise)": """
        import torch
        import torch.nn as nn
        import tyro
        args = tyro.cli(Args)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        class Actor(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)
                self.register_buffer("action_scale", torch.ones(2))
            def forward(self, x):
                return self.fc(x) * self.action_scale
        actor = Actor().to(device)
        actions = actor(torch.randn(3, 4, device=device))
        actions += torch.normal(0, actor.action_scale * args.noise)
        states = torch.normal(0.0, 1.0, size=(3, 4))  # expect: DG009
        actor(states)
        """,
    "a vendored CLIP: convert_weights casts conv weights and the projection parameters (through getattr) to float16": """
        import torch
        import torch.nn as nn

        class VT(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv1 = nn.Conv2d(3, 8, kernel_size=4, stride=4, bias=False)
                self.proj = nn.Parameter(torch.randn(8, 4))
            def forward(self, x):
                x = self.conv1(x).flatten(2).permute(0, 2, 1)
                return x.mean(1) @ self.proj

        class CLIP(nn.Module):
            def __init__(self):
                super().__init__()
                self.visual = VT()
            @property
            def dtype(self):
                return self.visual.conv1.weight.dtype
            def forward(self, image):
                return self.visual(image.type(self.dtype))

        def convert_weights(model):
            def _to16(l):
                if isinstance(l, (nn.Conv1d, nn.Conv2d, nn.Linear)):
                    l.weight.data = l.weight.data.half()
                    if l.bias is not None:
                        l.bias.data = l.bias.data.half()
                for name in ["text_projection", "proj"]:
                    if hasattr(l, name):
                        attr = getattr(l, name)
                        if attr is not None:
                            attr.data = attr.data.half()
            model.apply(_to16)

        model = CLIP()
        convert_weights(model)
        optimizer = torch.optim.Adam(model.parameters(), lr=5e-5)  # expect: DG012
        y = model(torch.randn(2, 3, 8, 8))
        vt = VT()
        vt.conv1.half()
        vt.proj.data = vt.proj.data.half()
        vt(torch.randn(2, 3, 8, 8).half())
        """,
    "nanoGPT's configure_optimizers: fused where the signature has it, foreach added from a config": """
        import inspect
        import torch
        import torch.nn as nn
        def configure_optimizers(model, foreach=None):
            param_dict = {pn: p for pn, p in model.named_parameters()}
            decay = [p for n, p in param_dict.items() if p.dim() >= 2]
            nodecay = [p for n, p in param_dict.items() if p.dim() < 2]
            groups = [{"params": decay, "weight_decay": 0.1}, {"params": nodecay, "weight_decay": 0.0}]
            fused_available = 'fused' in inspect.signature(torch.optim.AdamW).parameters
            extra_args = dict(fused=True) if fused_available else dict()
            if foreach is not None:
                extra_args['foreach'] = foreach  # expect: DG016
            return torch.optim.AdamW(groups, lr=1e-3, **extra_args)
        configure_optimizers(nn.Linear(4, 2), foreach=True)
        """,
    "open_clip's get_autocast: a functools.partial of torch.amp.autocast, the head outside it": """
        from functools import partial
        import torch
        import torch.nn as nn
        def get_autocast(precision, device_type="cuda"):
            if precision == "amp_bf16":
                return partial(torch.amp.autocast, device_type=device_type, dtype=torch.bfloat16)
            return None
        backbone, head = nn.Linear(8, 8), nn.Linear(8, 2)
        autocast = get_autocast("amp_bf16", device_type="cpu")
        with autocast():
            features = backbone(torch.randn(4, 8))  # expect: DG017
        head(features)
        """,
    "minGPT's trainer: parameter groups from named_parameters, a device from an f-string, the raw model unwrapped, then cast after a step": """
        import os
        import torch
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 2))
        param_dict = {pn: p for pn, p in model.named_parameters()}
        groups = [{"params": [param_dict[pn] for pn in sorted(param_dict)], "weight_decay": 0.0}]
        optimizer = torch.optim.AdamW(groups, lr=1e-3)
        rank = int(os.environ.get("LOCAL_RANK", 0))
        acc = torch.accelerator.current_accelerator() if torch.accelerator.is_available() else torch.device("cpu")
        device = torch.device(f"{acc.type}:{rank}") if acc.type != "cpu" else acc
        model = model.to(device)
        model(torch.randn(3, 4, device=device)).float().sum().backward()
        optimizer.step()
        raw_model = model.module if hasattr(model, "module") else model
        raw_model.half()  # expect: DG015
        optimizer.step()
        """,
    "nanoGPT with a float16 model and the GradScaler its float16 setting turns on": """
        import torch
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 2))
        model.to("cpu", dtype=torch.float16)  # expect: DG014
        param_dict = {pn: p for pn, p in model.named_parameters()}
        groups = [{"params": [p for n, p in param_dict.items() if p.dim() >= 2]}, {"params": [p for n, p in param_dict.items() if p.dim() < 2]}]
        optimizer = torch.optim.AdamW(groups, lr=1e-3, fused=True)
        scaler = torch.amp.GradScaler("cpu")
        loss = model(torch.randn(3, 4).half()).float().sum()
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        scaler.step(optimizer)
        """,
    "autocast on the batch's device type, the batch on the GPU when there is one (FlagPerf's train_step)": """
        import torch
        import torch.nn as nn
        device = "cuda" if torch.cuda.is_available() else "cpu"
        backbone = nn.Sequential(nn.Conv2d(3, 4, 3), nn.Flatten()).to(device)
        fc = nn.Linear(4 * 6 * 6, 2).to(device)
        images = torch.randn(2, 3, 8, 8).to(device)
        with torch.autocast(device_type=images.device.type, enabled=True):
            features = backbone(images)  # expect: DG017
        out = fc(features)
        if images.device.type == "cuda":
            print("on the GPU")
        with torch.autocast(device_type=images.device.type, enabled=images.device.type == "cuda"):
            maybe = backbone(images)
        """,
    "a batch moved with map(lambda x: x.to(device), ...) keeps its dtype": """
        import numpy as np
        import torch
        import torch.nn as nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2).to(device)
        def patch(batch):
            return batch[0], batch[1]
        features = torch.from_numpy(np.random.rand(8, 4))  # expect: DG004
        labels = torch.zeros(8, dtype=torch.long)
        src, gold = map(lambda x: x.to(device), patch((features, labels)))
        model(src)
        """,
    "a timestep index drawn with torch.randint on the default device in the loop (ddim), not in the data source": """
        import torch
        import torch.nn as nn
        device = "cuda" if torch.cuda.is_available() else "cpu"
        betas = torch.linspace(1e-4, 0.02, 100).to(device)
        def batches():
            for _ in range(2):
                yield torch.randint(0, 10, (4, 8))
        model = nn.Embedding(10, 4).to(device)
        for ids in batches():
            out = model(ids)  # expect: DG009
        for step in range(2):
            t = torch.randint(low=0, high=100, size=(4,))  # expect: DG009
            t = torch.cat([t, 99 - t], dim=0)[:4]
            a = (1 - betas).cumprod(dim=0).index_select(0, t)
        """,
    "a batch moved item by item through a generator (tuple(t.to(device) for t in batch)) keeps each item": """
        import numpy as np
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = nn.Linear(4, 2).to(device)
        ds = TensorDataset(torch.from_numpy(np.random.rand(8, 4)), torch.zeros(8, dtype=torch.long))  # expect: DG004
        for batch in DataLoader(ds, batch_size=4):
            batch = tuple(t.to(device, non_blocking=True) for t in batch)
            x, y = batch
            model(x)
        """,
    "a config read through ddim's dict2namespace (setattr over a dict's items) keeps its values": """
        import argparse
        import torch
        import torch.nn as nn
        def dict2namespace(config):
            namespace = argparse.Namespace()
            for key, value in config.items():
                setattr(namespace, key, dict2namespace(value) if isinstance(value, dict) else value)
            return namespace
        CONFIG = {
            "model": {"ch": 16, "dropout": 0.1, "ema": True, "ema_rate": 0.999, "var_type": "fixedlarge",
                      "in_channels": 3, "out_ch": 3, "type": "simple", "attn": False, "precision": "fp16"},
            "optim": {"lr": 2e-4, "eps": 1e-8},
        }
        DTYPES = {"fp32": torch.float32, "fp16": torch.float16}
        config = dict2namespace(CONFIG)
        model = nn.Linear(4, 2).to(dtype=DTYPES[config.model.precision])
        opt = torch.optim.Adam(model.parameters(), lr=config.optim.lr, eps=config.optim.eps)  # expect: DG012
        """,
    "the resume workaround capturable=True in a script that also runs on the CPU (open_clip#140)": """
        import torch
        import torch.nn as nn
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = nn.Linear(4, 2).to(device)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        optimizer.load_state_dict(torch.load("ckpt.pt", map_location="cpu"))
        for g in optimizer.param_groups:
            g["capturable"] = True  # expect: DG016
        model(torch.randn(2, 4, device=device)).sum().backward()
        optimizer.step()
        other = torch.optim.AdamW(model.parameters(), lr=1e-3)
        if torch.cuda.is_available():
            for g in other.param_groups:
                g["capturable"] = True
        other.step()
        """,
    "a price column built from a rounded float64 draw is float64 (np.round, Series.round)": """
        import numpy as np
        import pandas as pd
        import torch
        import torch.nn as nn
        rng = np.random.default_rng(0)
        df = pd.DataFrame({"sqft": rng.normal(1500, 400, 64).round(), "baths": rng.integers(1, 4, 64)})
        df["price"] = 120 * df["sqft"] + 15_000 * df["baths"]
        x = torch.from_numpy(df[["sqft", "baths"]].to_numpy(np.float32))
        y = torch.from_numpy(df["price"].round(2).values).unsqueeze(-1)  # expect: DG008
        model = nn.Linear(2, 1)
        loss = nn.MSELoss()(model(x), y)
        """,
    "a next-step target from shift() of a rolling-window frame is float64": """
        import numpy as np
        import pandas as pd
        import torch
        import torch.nn as nn
        df = pd.DataFrame({"load": np.arange(100)})
        feats = pd.concat({"mean": df["load"].rolling(24).mean(), "last": df["load"]}, axis=1)
        feats["target"] = df["load"].shift(-1)
        feats = feats.dropna()
        x = torch.from_numpy(feats[["mean", "last"]].to_numpy(np.float32))
        y = torch.from_numpy(feats["target"].to_numpy())  # expect: DG008
        loss = nn.MSELoss()(nn.Linear(2, 1)(x).squeeze(1), y)
        """,
    "a column read as an attribute (train.SalePrice) is that column": """
        import numpy as np
        import pandas as pd
        import torch
        import torch.nn as nn
        train = pd.DataFrame({"Area": np.arange(8) * 1.0, "SalePrice": np.arange(8) * 2.5})
        x = torch.tensor(train[["Area"]].values, dtype=torch.float)
        y = torch.tensor(train.SalePrice.values).view(-1, 1)  # expect: DG008
        count = train.count()
        loss = nn.MSELoss()(nn.Linear(1, 1)(x), y)
        """,
    "pandas category codes are int8: never a class-index target as they are": """
        import numpy as np
        import pandas as pd
        import torch
        import torch.nn as nn
        frame = pd.DataFrame({"genre": ["jazz", "pop", "folk", "pop"], "tempo": [1.0, 2.0, 3.0, 4.0]})
        codes = torch.from_numpy(pd.Categorical(frame["genre"]).codes)  # expect: DG006
        col = torch.from_numpy(frame["genre"].astype("category").cat.codes.to_numpy())  # expect: DG006
        ok = torch.from_numpy(pd.Categorical(frame["genre"]).codes.astype(np.int64))
        x = torch.from_numpy(frame[["tempo"]].to_numpy(np.float32))
        model = nn.Linear(1, 3)
        nn.CrossEntropyLoss()(model(x), codes)
        nn.CrossEntropyLoss()(model(x), col)
        nn.CrossEntropyLoss()(model(x), ok)
        """,
    "labels split off the last column of a float32 table split into clients (np.array_split of an hstack)": """
        import numpy as np
        import torch
        import torch.nn as nn
        X = np.random.randn(60, 4)
        y = (X[:, 0] > 0).astype(int)
        table = np.hstack([X, y[:, None]]).astype(np.float32)  # expect: DG006
        parts = np.array_split(table, 3)
        for p in parts:
            xb, yb = torch.from_numpy(p[:, :-1]), torch.from_numpy(p[:, -1])
            nn.CrossEntropyLoss()(nn.Linear(4, 2)(xb), yb)
        """,
    "a torch.load reached only after an unconditional .cuda() needs no map_location (RAdam's resume)": """
        import sys
        import torch
        import torch.nn as nn
        use_cuda = torch.cuda.is_available()
        def main(resume):
            model = nn.DataParallel(nn.Linear(4, 2)).cuda()
            if resume:
                model.load_state_dict(torch.load(resume))
        def other(resume):
            model = nn.Linear(4, 2)
            if use_cuda:
                model = model.cuda()
            model.load_state_dict(torch.load(resume))  # expect: DG010
        other("ckpt.pt")
        if len(sys.argv) > 1:  # (called on every path, main's `.cuda()` would make the whole file GPU-only)
            main(sys.argv[1])
        """,
    "float64 activations whitened through torch.linalg.eigh stay float64": """
        import torch
        import torch.nn as nn
        raw = torch.randn(64, 8, dtype=torch.float64)  # expect: DG004
        cov = torch.cov(raw.T)
        evals, evecs = torch.linalg.eigh(cov)
        whiten = evecs @ torch.diag(evals.clamp_min(1e-8).rsqrt()) @ evecs.T
        acts = raw @ whiten
        nn.Linear(8, 2)(acts)
        """,
    "np.meshgrid of float32 axes gives float32 grids": """
        import numpy as np
        import torch
        import torch.nn as nn
        x0, x1 = np.meshgrid(np.linspace(-1, 1, 4, dtype=np.float32), np.linspace(-1, 1, 4, dtype=np.float32))
        coords = torch.from_numpy(np.stack([x0.ravel(), x1.ravel()], 1))
        nn.Linear(2, 2)(coords)
        g0, g1 = np.meshgrid(np.linspace(-1, 1, 4), np.linspace(-1, 1, 4))
        nn.Linear(2, 2)(torch.from_numpy(np.stack([g0.ravel(), g1.ravel()], 1)))  # expect: DG004
        """,
    "a Keras-like fit() on a subclass of nn.Sequential runs the model it is": """
        import numpy as np
        import torch
        import torch.nn as nn
        class Sequential(nn.Sequential):
            def fit(self, x, y):
                opt = torch.optim.Adam(self.parameters())
                loss = nn.CrossEntropyLoss()(self(x), y)
                loss.backward()
                opt.step()
        model = Sequential(nn.Flatten(), nn.Linear(16, 10))
        x = torch.tensor(np.random.rand(8, 4, 4))  # expect: DG004
        model.fit(x, torch.randint(0, 10, (8,)))
        """,
    "a field of one row (df.iloc[i].rating) is a NumPy number of its column's dtype": """
        import pandas as pd
        import torch
        import torch.nn as nn
        from torch.utils.data import Dataset, DataLoader
        class Reviews(Dataset):
            def __init__(self, df):
                self.df = df
            def __len__(self):
                return len(self.df)
            def __getitem__(self, index):
                row = self.df.iloc[index]
                return torch.ones(4), torch.tensor(row.rating)  # expect: DG007
        df = pd.DataFrame({"length": [3, 5, 2, 4], "rating": [0, 1, 1, 0]})
        model = nn.Sequential(nn.Linear(4, 1), nn.Sigmoid())
        for x, y in DataLoader(Reviews(df), batch_size=2):
            nn.BCELoss()(model(x).squeeze(1), y)
        """,
    "the best epoch's checkpoint under a folder not known (path + '/' + 'checkpoint.pth'), reloaded by the same run (Informer)": """
        import torch
        import torch.nn as nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        class EarlyStopping:
            def __call__(self, loss, model, path):
                torch.save(model.state_dict(), path + '/' + 'checkpoint.pth')
        def train(path):
            model = nn.Linear(2, 2).to(device)
            stop = EarlyStopping()
            for epoch in range(3):
                stop(0.1, model, path)
            best_model_path = path + '/' + 'checkpoint.pth'
            model.load_state_dict(torch.load(best_model_path))
        def infer(path):
            return torch.load(path + '/' + 'other.pth')  # expect: DG010
        train(input())
        infer(input())
        """,
    "models saved by an earlier phase of the same run under '{}{}.pth'.format(model_dir, name) (NCF's GMF -> NeuMF-pre)": """
        import tempfile
        import torch
        import torch.nn as nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model_dir = tempfile.mkdtemp() + '/models/'
        def main(name):
            model = nn.Linear(2, 2).to(device)
            if name == "NeuMF-pre":
                model.load_state_dict(torch.load(model_dir + 'GMF.pth'))
                model.load_state_dict(torch.load(model_dir + 'Pretrained.pth'))  # expect: DG010
            torch.save(model.state_dict(), '{}{}.pth'.format(model_dir, name))
        for name in ["GMF", "NeuMF-pre"]:
            main(name)
        """,
    "a checkpoint path built where the analysis cannot spell it, returned by the saving helper and loaded (faster-rcnn's trainer.load(best_path))": """
        import time
        import torch
        import torch.nn as nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        class Trainer:
            def __init__(self):
                self.model = nn.Linear(2, 2).to(device)
            def save(self, **kwargs):
                save_path = 'checkpoints/fasterrcnn_%s' % time.strftime('%m%d%H%M')
                for k, v in kwargs.items():
                    save_path += '_%s' % v
                torch.save(self.model.state_dict(), save_path)
                return save_path
            def load(self, path):
                self.model.load_state_dict(torch.load(path))
        def train():
            trainer = Trainer()
            best = 0.0
            for epoch in range(12):
                score = float(epoch)
                if score > best:
                    best = score
                    best_path = trainer.save(best_map=best)
                if epoch == 9:
                    trainer.load(best_path)
        train()
        """,
    "NumPy numbers turned into Python numbers where isinstance(v, np.generic) says so are not pickled NumPy scalars": """
        import numpy as np
        import torch
        scores = np.array([0.5, 0.7])
        best = np.mean(scores)
        info = {k: v.item() if isinstance(v, np.generic) else v for k, v in {"best_map": best}.items()}
        torch.save({"other_info": info}, "a.pt")
        torch.save({"other_info": {"best_map": best}}, "b.pt")  # expect: DG011
        torch.load("a.pt")
        torch.load("b.pt")
        """,
    "a local bound on one path only is that value wherever it is read (the other path raises UnboundLocalError)": """
        import torch
        import torch.nn as nn
        def run(flag):
            if flag:
                x = torch.zeros(4, 3, dtype=torch.float64)  # expect: DG004
            return nn.Linear(3, 2)(x)
        run(input())
        """,
    "an income label made by a comparison of isin() scores survives get_dummies(columns=[...]) and a branch on a given column name": """
        import numpy as np
        import pandas as pd
        import torch
        import torch.nn as nn
        from torch.utils.data import Dataset, DataLoader
        rng = np.random.RandomState(0)
        data = pd.DataFrame({"age": rng.randint(18, 80, 64), "education": rng.choice(["HS", "Masters"], 64), "sex": rng.choice(["M", "F"], 64)})
        score = 0.03 * (data.age - 40) + data.education.isin(["Masters"]) * 1.5
        data["income"] = (score + rng.randn(64) > 0.5).astype(int)
        data = pd.get_dummies(data, columns=["sex"], drop_first=True)
        class Tabular(Dataset):
            def __init__(self, data, output_col=None):
                if output_col:
                    self.y = data[output_col].values.reshape(-1, 1)  # expect: DG007
                else:
                    self.y = np.zeros((len(data), 1))
                self.x = data[["age"]].astype(np.float32).values
            def __len__(self):
                return len(self.y)
            def __getitem__(self, idx):
                return [self.y[idx], self.x[idx]]
        for y, x in DataLoader(Tabular(data, output_col="income"), batch_size=8):
            nn.BCEWithLogitsLoss()(nn.Linear(1, 1)(x), y)
        """,
    "a whole-args checkpoint written under a path the analysis cannot spell is still what a load of another spelling may read (timm's CheckpointSaver)": """
        import argparse
        import time
        import torch
        import torch.nn as nn
        args = argparse.Namespace(model="mlp")
        def save(model, run_dir):
            path = run_dir + time.strftime("%H%M")
            torch.save({"state_dict": model.state_dict(), "args": args}, path)  # expect: DG011
        model = nn.Linear(2, 2)
        save(model, input())
        torch.load(input() + "/last.pth.tar")
        """,
    "a 0-dim scale made by torch.ones([]) does not promote the bfloat16 features it multiplies (CLIP's logit_scale)": """
        import numpy as np
        import torch
        import torch.nn as nn
        logit_scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))
        image = torch.randn(4, 8, dtype=torch.bfloat16)
        text = torch.randn(4, 8, dtype=torch.bfloat16)
        logits = logit_scale.exp() * image @ text.T
        """,
    "a float32 scipy adjacency plus sp.eye(n) is float64, and so are the values of its torch sparse tensor (GCN)": """
        import numpy as np
        import scipy.sparse as sp
        import torch
        def to_torch(mx):
            mx = mx.tocoo()
            indices = torch.from_numpy(np.vstack((mx.row, mx.col)).astype(np.int64))
            values = torch.from_numpy(mx.data)  # expect: DG004
            return torch.sparse_coo_tensor(indices, values, mx.shape)
        adj = sp.coo_matrix((np.ones(4), (np.arange(4), np.arange(4))), shape=(4, 4), dtype=np.float32)
        adj = adj + adj.T.multiply(adj.T > adj) - adj.multiply(adj.T > adj)
        ok = to_torch(adj)
        wide = adj + sp.eye(4)
        deg = np.asarray(wide.sum(1)).flatten()
        norm = sp.diags(np.power(deg, -0.5)) @ wide
        x = torch.ones(4, 3)
        torch.spmm(ok, x)
        torch.sparse.mm(to_torch(norm), x)
        """,
    "a Parameter imported from torch.nn.parameter is torch.nn.Parameter (pygcn's GraphConvolution)": """
        import torch
        from torch.nn.parameter import Parameter
        from torch.nn.modules.module import Module
        class GraphConvolution(Module):
            def __init__(self, n, m):
                super(GraphConvolution, self).__init__()
                self.weight = Parameter(torch.FloatTensor(n, m))
            def forward(self, x):
                return torch.mm(x, self.weight)
        GraphConvolution(3, 2)(torch.ones(4, 3, dtype=torch.float64))  # expect: DG004
        """,
    "attention heads kept in a plain list and registered with add_module move with the model (pyGAT)": """
        import torch
        import torch.nn as nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.heads = [nn.Linear(4, 4) for _ in range(2)]
                for i, h in enumerate(self.heads):
                    self.add_module('head_{}'.format(i), h)
                self.loose = [nn.Linear(4, 4)]  # expect: DG009
            def forward(self, x):
                x = torch.cat([h(x) for h in self.heads], dim=1)
                return self.loose[0](x[:, :4])
        model = Net().to(device)
        model(torch.ones(2, 4).to(device))
        """,
    "an autograd.Function's apply runs its forward: a CPU tensor made without device= meets the GPU values (pyGAT's SpecialSpmm)": """
        import torch
        import torch.nn as nn
        class SpecialSpmmFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, indices, values, shape, b):
                a = torch.sparse_coo_tensor(indices, values, shape)
                ctx.save_for_backward(a, b)
                return torch.matmul(a, b)
            @staticmethod
            def backward(ctx, grad):
                return None, None, None, None
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        w = nn.Parameter(torch.ones(1, 4)).to(device)
        edges = torch.ones(4, 6, device=device)
        values = torch.exp(-w.mm(edges).squeeze())
        idx = torch.zeros(2, 6, dtype=torch.long, device=device)
        SpecialSpmmFunction.apply(idx, values, torch.Size([3, 3]), torch.ones(size=(3, 1)))  # expect: DG009
        """,
    "epoch checkpoints named '{}.pkl'.format(epoch), the best one reloaded by the same run (pyGAT's train.py)": """
        import torch
        import torch.nn as nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(2, 2).to(device)
        best_epoch = 0
        for epoch in range(5):
            torch.save(model.state_dict(), '{}.pkl'.format(epoch))
            best_epoch = epoch
        model.load_state_dict(torch.load('{}.pkl'.format(best_epoch)))
        model.load_state_dict(torch.load('{}.pth'.format(best_epoch)))  # expect: DG010
        """,
    "log-mel patches framed with np.lib.stride_tricks.as_strided from a float64 STFT stay float64 (torchvggish)": """
        import numpy as np
        import torch
        import torch.nn as nn
        def frame(data, window_length, hop_length):
            num_frames = 1 + (data.shape[0] - window_length) // hop_length
            shape = (num_frames, window_length) + data.shape[1:]
            strides = (data.strides[0] * hop_length,) + data.strides
            return np.lib.stride_tricks.as_strided(data, shape=shape, strides=strides)
        signal = np.sin(np.arange(4000) / 10.0)
        frames = frame(signal, 400, 160) * np.hanning(400)
        spec = np.abs(np.fft.rfft(frames, 512))
        log_mel = np.log(np.dot(spec, np.ones((257, 64))) + 0.01)
        patch = torch.from_numpy(log_mel[:96]).unsqueeze(0).unsqueeze(0)  # expect: DG004
        nn.Conv2d(1, 8, 3)(patch)
        """,
    "an in-place update keeps the array's dtype: a float32 image minus a tuple of float means stays float32": """
        import numpy as np
        import torch
        import torch.nn as nn
        img = np.zeros((8, 8, 3), dtype=np.uint8).astype(np.float32)
        img /= 255.0
        img -= (0.485, 0.456, 0.406)
        img /= (0.229, 0.224, 0.225)
        x = torch.from_numpy(img.transpose((2, 0, 1))).unsqueeze(0)
        nn.Conv2d(3, 4, 1)(x)
        wide = np.zeros((8, 8, 3), dtype=np.uint8) / 255.0
        wide -= (0.485, 0.456, 0.406)
        nn.Conv2d(3, 4, 1)(torch.from_numpy(wide.transpose((2, 0, 1))).unsqueeze(0))  # expect: DG004
        """,
    "fused=True added where the optimizer takes it and all parameters are floating, beside a configured foreach (konfai's get_optimizer)": """
        import inspect
        import torch
        CONFIG = {"Optimizer": {"name": "Adam", "lr": 1e-3, "foreach": True}}
        def get_optimizer(name, parameters, **kwargs):
            optimizer_class = getattr(torch.optim, name)
            signature = inspect.signature(optimizer_class)
            if "fused" in signature.parameters and all(p.is_floating_point() for p in parameters):
                kwargs["fused"] = True  # expect: DG016
            return optimizer_class(parameters, **kwargs)
        model = torch.nn.Linear(2, 2)
        opt_cfg = dict(CONFIG["Optimizer"])
        name = opt_cfg.pop("name")
        get_optimizer(name, list(model.parameters()), **opt_cfg)
        """,
    "an experiment's override merged into the base config with dict.update turns on fused beside foreach (detectron-style merge)": """
        import copy
        import torch
        BASE = {"SOLVER": {"LR": 1e-3, "FOREACH": True, "FUSED": False}}
        def merge(base, override):
            cfg = copy.deepcopy(base)
            for section, values in override.items():
                cfg[section].update(values)
            return cfg
        def build(cfg, model):
            solver = cfg["SOLVER"]
            kwargs = {"lr": solver["LR"], "foreach": solver["FOREACH"], "fused": solver["FUSED"]}  # expect: DG016
            return torch.optim.AdamW(model.parameters(), **kwargs)
        build(BASE, torch.nn.Linear(2, 2))
        build(merge(BASE, {"SOLVER": {"FUSED": True}}), torch.nn.Linear(2, 2))
        """,
    "a JSON configuration written in the script is read (json.loads of a literal)": """
        import json
        import torch
        CFG = json.loads('{"training": {"lr": 0.001, "fused": true, "foreach": true}}')
        t = CFG["training"]
        torch.optim.Adam(torch.nn.Linear(2, 2).parameters(), lr=t["lr"], fused=t["fused"], foreach=t["foreach"])  # expect: DG016
        """,
    "a bare torch.load in the branch where CUDA is available, map_location='cpu' in its else (StarGAN v2's wing.py)": """
        import torch
        def load_pretrained(model, fname):
            if torch.cuda.is_available():
                checkpoint = torch.load(fname)
            else:
                checkpoint = torch.load(fname, map_location=torch.device('cpu'))
            model.load_state_dict(checkpoint)
        def load_other(model, fname):
            if not torch.cuda.is_available():
                state = torch.load(fname, map_location='cpu')
            else:
                state = torch.load(fname)
            model.load_state_dict(state)
        def after_the_branch(model, fname):
            if torch.cuda.is_available():
                model = model.cuda()
            model.load_state_dict(torch.load(fname))  # expect: DG010
        net = torch.nn.Linear(2, 2)
        load_pretrained(net, "wing.ckpt")
        load_other(net, "lpips.ckpt")
        after_the_branch(net, "net.ckpt")
        """,
    "an identity moved to the GPU only when the input is there (PointNet's STN: if x.is_cuda: iden = iden.cuda())": """
        import numpy as np
        import torch
        import torch.nn as nn
        class STN3d(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 9)
            def forward(self, x):
                x = self.fc(x)
                iden = torch.from_numpy(np.eye(3).flatten().astype(np.float32)).view(1, 9).repeat(x.shape[0], 1)
                if x.is_cuda:
                    iden = iden.cuda()
                return x + iden
        class Careless(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 9)
            def forward(self, x):
                x = self.fc(x)
                iden = torch.eye(3).flatten().view(1, 9)  # expect: DG009
                return x + iden
        device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
        STN3d().to(device)(torch.randn(4, 3).to(device))
        STN3d()(torch.randn(4, 3))
        Careless().to(device)(torch.randn(4, 3).to(device))
        """,
    "torch.arange(..., out=torch.cuda.LongTensor(n)) returns the out tensor, on the GPU (tacotron2's get_mask_from_lengths)": """
        import torch
        def get_mask_from_lengths(max_len):
            return torch.arange(0, max_len, out=torch.cuda.LongTensor(max_len)) > 1
        def cpu_mask(max_len):
            return torch.arange(0, max_len, out=torch.zeros(max_len, dtype=torch.long)) > 1  # expect: DG009
        scores = torch.randn(2, 5).cuda()
        scores.masked_fill_(get_mask_from_lengths(5), 0.0)
        scores.masked_fill_(cpu_mask(5), 0.0)
        """,
    "a model whose forward moves its input to its own device first (Wattile's LSTM: self.lstm(x.to(self.device)))": """
        import torch
        import torch.nn as nn
        class Moves(nn.Module):
            def __init__(self, device):
                super().__init__()
                self.device = device
                self.lstm = nn.LSTM(3, 8, batch_first=True)
                self.to(device)
            def forward(self, x):
                h0 = torch.zeros(1, x.size(0), 8).to(self.device)
                out, _ = self.lstm(x.to(self.device), (h0, h0))
                return out
        class Trusts(nn.Module):
            def __init__(self):
                super().__init__()
                self.lstm = nn.LSTM(3, 8, batch_first=True)
            def forward(self, x):
                out, _ = self.lstm(x)
                return out
        device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
        Moves(device)(torch.randn(2, 5, 3))
        Trusts().to(device)(torch.randn(2, 5, 3))  # expect: DG009
        """,
    "integer counts pivoted into a store-by-month grid from a CSV are int64 or float64 (NaN for a missing month)": """
        import pandas as pd
        import torch
        import torch.nn as nn
        sales = pd.read_csv("sales.csv")
        table = sales.pivot(index="store", columns="month", values="units")
        x = torch.from_numpy(table.to_numpy())  # expect: DG004
        nn.Linear(12, 1)(x)
        prices = pd.DataFrame({"store": ["a", "b"], "month": [1, 1], "price": [1.5, 2.0]})
        grid = prices.pivot(index="store", columns="month", values="price").to_numpy()
        nn.Linear(1, 1)(torch.from_numpy(grid).float())
        """,
    "LabelEncoder labels iterated into records are NumPy integers, not Python ints (sentence-transformers' label type)": """
        import torch
        import torch.nn as nn
        from sklearn.preprocessing import LabelEncoder
        class Example:
            def __init__(self, texts=None, label=0):
                self.texts = texts
                self.label = label
        labels = LabelEncoder().fit_transform(["entail", "neutral", "contra", "entail"])
        examples = []
        for text, label in zip(["a", "b", "c", "d"], labels):
            examples.append(Example(texts=[text], label=label))
        label_type = torch.long if isinstance(examples[0].label, int) else torch.float
        target = torch.tensor(examples[1].label, dtype=label_type)  # expect: DG006
        nn.CrossEntropyLoss()(torch.randn(1, 3), target.view(-1))
        """,
    "train() saves the best epoch, then calls test(), which loads it: the same run wrote the file (Chinese-Text-Classification)": """
        import torch
        import torch.nn as nn
        def test(model, path):
            model.load_state_dict(torch.load(path))
        def train(model, path, device):
            best = float('inf')
            for epoch in range(3):
                loss = model(torch.randn(4, 2).to(device)).sum()
                if loss.item() < best:
                    best = loss.item()
                    torch.save(model.state_dict(), path)
            test(model, path)
        def evaluate(model, path):
            model.load_state_dict(torch.load(path))  # expect: DG010
        device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
        net = nn.Linear(2, 1).to(device)
        train(net, "best.ckpt", device)
        evaluate(net, "other.ckpt")
        """,
    "a literal command line with nargs options is followed: an option it does not give keeps its default (RAFT's --restore_ckpt)": """
        import argparse
        import torch
        import torch.nn as nn
        parser = argparse.ArgumentParser()
        parser.add_argument('--restore_ckpt', help="restore checkpoint")
        parser.add_argument('--image_size', type=int, nargs='+', default=[384, 512])
        parser.add_argument('--validation', type=str, nargs='+')
        args = parser.parse_args(['--image_size', '128', '128', '--validation', 'chairs'])
        device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
        model = nn.Linear(2, 2).to(device)
        if args.restore_ckpt is not None:
            model.load_state_dict(torch.load(args.restore_ckpt))
        if args.validation is not None:
            model.load_state_dict(torch.load("chairs.ckpt"))  # expect: DG010
        """,
    "the best checkpoint is a shutil.copyfile of the last one, which holds a NumPy accuracy (knowledge-distillation's save_checkpoint)": """
        import os
        import shutil
        import numpy as np
        import torch
        def save_checkpoint(state, is_best, checkpoint):
            filepath = os.path.join(checkpoint, 'last.pth.tar')
            torch.save(state, filepath)
            if is_best:
                shutil.copyfile(filepath, os.path.join(checkpoint, 'best.pth.tar'))
        def load_checkpoint(path, model):
            if torch.cuda.is_available():
                checkpoint = torch.load(path)
            else:
                checkpoint = torch.load(path, map_location='cpu')
            model.load_state_dict(checkpoint['state_dict'])
        model = torch.nn.Linear(2, 2)
        val_acc = np.mean([0.5, 0.7])
        save_checkpoint({'state_dict': model.state_dict(),
                         'val_acc': val_acc},  # expect: DG011
                        is_best=True, checkpoint='exp')
        load_checkpoint(os.path.join('exp', 'best.pth.tar'), model)
        """,
    "type(cfg.optim) is AdamConfig of the script's own dataclasses picks the optimizer (deepspeech.pytorch's train)": """
        from dataclasses import dataclass, field
        from typing import Any
        import torch
        @dataclass
        class SGDConfig:
            learning_rate: float = 3e-4
        @dataclass
        class AdamConfig:
            learning_rate: float = 3e-4
            eps: float = 1e-8
        @dataclass
        class Config:
            optim: Any = field(default_factory=SGDConfig)
        def train(cfg):
            model = torch.nn.Linear(4, 2).half()  # expect: DG014
            if type(cfg.optim) is SGDConfig:
                optimizer = torch.optim.SGD(model.parameters(), lr=cfg.optim.learning_rate)
            elif type(cfg.optim) is AdamConfig:
                optimizer = torch.optim.SGD(model.parameters(), lr=cfg.optim.learning_rate, momentum=0.9)
            else:
                raise ValueError("no optimizer")
            scaler = torch.amp.GradScaler("cpu")
            loss = model(torch.randn(3, 4).half()).float().sum()
            scaler.scale(loss).backward()
            scaler.step(optimizer)
        train(Config(optim=AdamConfig(learning_rate=1e-4)))
        """,
    "a class kept as a class attribute is called through cls (SuPar's cls.MODEL(**args)), and its Config object is pickled": """
        import torch
        import torch.nn as nn
        class Config(object):
            def __init__(self, **kwargs):
                for name, value in kwargs.items():
                    setattr(self, name, value)
        class Model(nn.Module):
            def __init__(self, n_words, n_embed=50):
                super().__init__()
                self.args = Config(n_words=n_words, n_embed=n_embed)
                self.embed = nn.Embedding(n_words, n_embed)
        class Parser(object):
            MODEL = Model
            def __init__(self, model):
                self.model = model
            @classmethod
            def build(cls, **kwargs):
                return cls(cls.MODEL(**kwargs))
            def save(self, path):
                torch.save({'args': self.model.args,  # expect: DG011
                            'state_dict': self.model.state_dict()}, path)
        parser = Parser.build(n_words=10, n_embed=4)
        parser.save("model.pt")
        state = torch.load("model.pt", map_location='cpu')
        """,
    "a Lightning Trainer with the default accelerator runs on a GPU where there is one: a bare torch.load of its checkpoint may meet CUDA storages on a CPU-only machine": """
        import torch
        import lightning as L
        def load_pretrained(path):
            return torch.load(path)  # expect: DG010
        def load_on_cpu(path):
            return torch.load(path, map_location="cpu")
        trainer = L.Trainer(max_epochs=1, accelerator="auto")
        load_pretrained("n2v.ckpt")
        load_on_cpu("n2v.ckpt")
        """,
    "a Lightning Trainer pinned to the CPU gives no sign of a GPU run": """
        import torch
        import lightning as L
        trainer = L.Trainer(max_epochs=1, accelerator="cpu")
        state = torch.load("n2v.ckpt")
        """,
    "an int32 path cast with .to(device=device, dtype=dtype) to a dtype not known is not int32 any more (glow-tts' maximum_path)": """
        import numpy as np
        import torch
        def maximum_path(value, mask):
            device, dtype = value.device, value.dtype
            path = np.zeros(value.shape, dtype=np.int32)
            return torch.from_numpy(path).to(device=device, dtype=dtype)
        def kept_int(value):
            path = np.zeros(value.shape, dtype=np.int32)
            return torch.from_numpy(path).to(device=value.device)  # expect: DG005
        import flows  # a module this analysis cannot read: its output's dtype is not known
        logp = flows.decode(torch.randn(1, 2, 3))
        attn = maximum_path(logp, torch.ones(1, 2, 3))
        torch.matmul(attn.squeeze(0).transpose(0, 1), torch.randn(2, 4))
        torch.matmul(kept_int(torch.randn(3, 2)), torch.randn(2, 4))
        """,
    "a GRUCell whose parameters' .data are another layer's tensors has that layer's device (Real-Time-Voice-Cloning's WaveRNN)": """
        import torch
        import torch.nn as nn
        class WaveRNN(nn.Module):
            def __init__(self):
                super().__init__()
                self.rnn1 = nn.GRU(4, 4, batch_first=True)
            def cell(self, gru):
                cell = nn.GRUCell(gru.input_size, gru.hidden_size)
                cell.weight_hh.data = gru.weight_hh_l0.data
                cell.weight_ih.data = gru.weight_ih_l0.data
                return cell
            def plain_cell(self, gru):
                return nn.GRUCell(gru.input_size, gru.hidden_size)  # expect: DG009
            def generate(self):
                h = torch.zeros(1, 4).cuda()
                x = torch.zeros(1, 4).cuda()
                self.cell(self.rnn1)(x, h)
                self.plain_cell(self.rnn1)(x, h)
        model = WaveRNN()
        if torch.cuda.is_available():
            model = model.cuda()
            model.generate()
        """,
    "a bare torch.load kept for a torch older than 2.6 does not run on this torch (pytorch_tabular's version gate)": """
        import torch
        import torch.nn as nn
        class Data:
            pass
        torch.save(Data(), "cache.pt")
        torch.save(Data(), "other.pt")  # expect: DG011
        torch_version = torch.__version__
        if torch_version < "2.6":
            data = torch.load("cache.pt")
        elif torch_version >= "2.6":
            data = torch.load("cache.pt", weights_only=False)
        if torch.__version__ >= "2.6.0+cu124":
            again = torch.load("other.pt")
        """,
    "a saved LR scheduler state holds no tensor: its load needs no map_location (simpletransformers' scheduler.pt)": """
        import os
        import torch
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = torch.nn.Linear(4, 2).to(device)
        optimizer = torch.optim.AdamW(model.parameters())
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: 0.9 ** s)
        def resume(src):
            scheduler.load_state_dict(torch.load(os.path.join(src, "scheduler.pt")))
            optimizer.load_state_dict(torch.load(os.path.join(src, "optimizer.pt")))  # expect: DG010
        def save(out):
            torch.save(scheduler.state_dict(), os.path.join(out, "scheduler.pt"))
            torch.save(optimizer.state_dict(), os.path.join(out, "optimizer.pt"))
        resume("ckpt")
        save("out")
        """,
    "a list literal is a list and a stored function is not None (ptan's DQNAgent with its default preprocessor)": """
        import numpy as np
        import torch
        import torch.nn as nn
        def default_preprocessor(states):
            if isinstance(states, list):
                np_states = np.expand_dims(states[0], 0)
            else:
                np_states = states
            return torch.as_tensor(np_states)
        def pair(items):
            return isinstance(items, (list, tuple))
        class Agent:
            def __init__(self, model, preprocessor=default_preprocessor):
                self.model, self.preprocessor = model, preprocessor
            def __call__(self, states):
                if self.preprocessor is not None:
                    states = self.preprocessor(states)  # expect: DG004
                return self.model(states)
        agent = Agent(nn.Linear(4, 2))
        agent([np.random.rand(4)])
        assert pair((1, 2)) and pair([1])
        """,
    "a transformers schedule factory makes a torch scheduler: its saved state needs no map_location (Hugging Face resume)": """
        import os
        import torch
        from transformers import get_linear_schedule_with_warmup
        from transformers.optimization import get_cosine_schedule_with_warmup
        import transformers.optimization_extras as extras  # not a schedule factory of the table: unknown
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = torch.nn.Linear(4, 2).to(device)
        optimizer = torch.optim.AdamW(model.parameters())
        scheduler = get_linear_schedule_with_warmup(optimizer, 0, 10)
        cosine = get_cosine_schedule_with_warmup(optimizer, 0, 10)
        other = extras.make_schedule(optimizer)
        def resume(src):
            scheduler.load_state_dict(torch.load(os.path.join(src, "scheduler.pt")))
            cosine.load_state_dict(torch.load(os.path.join(src, "cosine.pt")))
            other.load_state_dict(torch.load(os.path.join(src, "other.pt")))  # expect: DG010
        def save(out):
            torch.save(scheduler.state_dict(), os.path.join(out, "scheduler.pt"))
            torch.save(cosine.state_dict(), os.path.join(out, "cosine.pt"))
            torch.save(other.state_dict(), os.path.join(out, "other.pt"))
        resume("ckpt")
        save("out")
        """,
    "a parameter left None decides `if optimizer and scheduler:`: its body does not run (simpletransformers' save_model(model=...))": """
        import os
        import torch
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = torch.nn.Linear(2, 2).to(device)
        optimizer = torch.optim.AdamW(model.parameters())
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 2)
        def save_model(output_dir, optimizer=None, scheduler=None, model=None):
            if optimizer and scheduler and model.save_all:
                torch.save(scheduler.state_dict(), os.path.join(output_dir, "scheduler.pt"))
            if optimizer is None and model:
                torch.save(model.state_dict(), os.path.join(output_dir, "model.pt"))
        def resume(src):
            scheduler.load_state_dict(torch.load(os.path.join(src, "scheduler.pt")))
            model.load_state_dict(torch.load(os.path.join(src, "model.pt")))  # expect: DG010
        save_model("out", optimizer, scheduler)
        save_model("out", model=model)
        resume("out")
        """,
    "a cast of the model after its trainable parameters were filtered casts them in place: GradScaler meets float16 (diffusers' LoRA scripts)": """
        import torch
        import torch.nn as nn
        class LoRA(nn.Module):
            def __init__(self, base):
                super().__init__()
                self.base = base
                self.down = nn.Linear(4, 4, bias=False)
            def forward(self, x):
                return self.base(x) + self.down(x)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.q = nn.Linear(4, 4)
            def forward(self, x):
                return self.q(x)
        net = Net()
        net.requires_grad_(False)
        net.q = LoRA(net.q)
        trainable = [p for p in net.parameters() if p.requires_grad]
        net.to(dtype=torch.float16)  # expect: DG014
        opt = torch.optim.SGD(trainable, lr=0.1)
        scaler = torch.amp.GradScaler("cpu")
        loss = net(torch.randn(2, 4, dtype=torch.float16)).float().sum()
        scaler.scale(loss).backward()
        scaler.step(opt)
        """,
    'the same filter when the model was cast before float32 adapters were added: they stay float32, no finding': """
        import torch
        import torch.nn as nn
        class LoRA(nn.Module):
            def __init__(self, base):
                super().__init__()
                self.base = base
                self.down = nn.Linear(4, 4, bias=False)
            def forward(self, x):
                return self.base(x) + self.down(x.float())
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.q = nn.Linear(4, 4)
            def forward(self, x):
                return self.q(x)
        net = Net()
        net.to(dtype=torch.float16)
        net.requires_grad_(False)
        net.q = LoRA(net.q)
        trainable = [p for p in net.parameters() if p.requires_grad]
        opt = torch.optim.SGD(trainable, lr=0.1)
        scaler = torch.amp.GradScaler("cpu")
        loss = net(torch.randn(2, 4, dtype=torch.float16)).float().sum()
        scaler.scale(loss).backward()
        scaler.step(opt)
        print("ok")
        """,
    'a bare load under `if use_cuda:` (a name holding `torch.cuda.is_available()`, or `not args.no_cuda and` it) runs only with a GPU; under `if not use_cuda:` it runs on the CPU (Wav2Lip)': """
        import argparse
        import torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--no-cuda", action="store_true")
        args = parser.parse_args()
        use_cuda = torch.cuda.is_available()
        both = not args.no_cuda and torch.cuda.is_available()
        model = torch.nn.Linear(2, 2).to("cuda" if use_cuda else "cpu")
        def _load(path):
            if use_cuda:
                return torch.load(path)
            return torch.load(path, map_location=lambda storage, loc: storage)
        def _load_both(path):
            if both:
                return torch.load(path)
            return torch.load(path, map_location="cpu")
        def _load_cpu(path):
            if not use_cuda:
                return torch.load(path)  # expect: DG010
            return torch.load(path, map_location="cuda")
        model.load_state_dict(_load("a.pth"))
        model.load_state_dict(_load_both("b.pth"))
        model.load_state_dict(_load_cpu("c.pth"))
        """,
    'a bare load under `if device == "cuda":` with `device = "cuda" if torch.cuda.is_available() else "cpu"` runs only with a GPU; under `!=` on the CPU (Wav2Lip inference)': """
        import torch
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = torch.nn.Linear(2, 2).to(device)
        def _load(path):
            if device == "cuda":
                return torch.load(path)
            return torch.load(path, map_location=lambda storage, loc: storage)
        def _load_other(path):
            if device != "cuda":
                return torch.load(path)  # expect: DG010
            return torch.load(path, map_location="cuda")
        model.load_state_dict(_load("a.pth"))
        model.load_state_dict(_load_other("b.pth"))
        """,
    "a list of ints indexed by an unknown int (a sampled action's `.item()`) is a Python int: NumPy makes the reward float64 (pensieve)": """
        import numpy as np
        import torch
        import torch.nn.functional as F
        from torch.distributions import Categorical
        BIT_RATES = [300, 750, 1200]
        critic = torch.nn.Linear(3, 1)
        rewards = []
        action = 0
        for _ in range(4):
            reward = BIT_RATES[action] / 1000.0 - np.abs(BIT_RATES[action] - BIT_RATES[0]) / 1000.0
            rewards.append(reward)
            action = Categorical(torch.ones(3)).sample().item()
        r = torch.tensor(rewards)  # expect: DG008
        v = critic(torch.randn(4, 3)).squeeze(1)
        loss = F.mse_loss(v, r)
        """,
    'a list of floats indexed by an unknown int is a Python float: torch.tensor of them is float32': """
        import torch
        import torch.nn.functional as F
        from torch.distributions import Categorical
        TARGETS = [0.5, 1.5, 2.5]
        critic = torch.nn.Linear(3, 1)
        i = Categorical(torch.ones(3)).sample().item()
        values = [TARGETS[i]] * 4
        r = torch.tensor(values)
        v = critic(torch.randn(4, 3)).squeeze(1)
        loss = F.mse_loss(v, r)
        """,
    '`kwargs.setdefault("weights_only", False)` before `torch.load(..., **kwargs)` is a weights_only=False load; a setdefault of another key leaves the default (BentoML\'s load_model)': """
        import torch
        def load_model(path, **torch_load_args):
            torch_load_args.setdefault("weights_only", False)
            return torch.load(path, map_location="cpu", **torch_load_args)
        def load_strict(path, **kw):
            kw.setdefault("map_location", "cpu")
            return torch.load(path, **kw)
        torch.save(torch.nn.Linear(2, 2), "m.pt")
        m = load_model("m.pt")
        torch.save(torch.nn.Linear(2, 2), "n.pt")  # expect: DG011
        n = load_strict("n.pt")
        """,
    "`map` of a method over a tuple calls it on each item: a float64 buffer reaches the model (SB3's `tuple(map(self.to_torch, data))`)": """
        import numpy as np
        import torch
        class Buffer:
            def __init__(self):
                self.obs = np.zeros((8, 3))  # expect: DG004
                self.rewards = np.zeros(8, dtype=np.float32)
            def to_torch(self, array):
                return torch.as_tensor(array)
            def sample(self):
                return tuple(map(self.to_torch, (self.obs[:4], self.rewards[:4])))
        critic = torch.nn.Linear(3, 1)
        obs, rewards = Buffer().sample()
        q = critic(obs)
        loss = (q.squeeze(1) - rewards).pow(2).mean()
        """,
    "nn.DataParallel moves the tensors of a dict it is called with to the module's GPU: only the model called without it meets CPU inputs (aster.pytorch's demo)": """
        import torch
        from torch import nn
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 3)
            def forward(self, batch):
                logits = self.fc(batch["images"])
                return logits.gather(1, batch["targets"].long())
        use_cuda = torch.cuda.is_available()
        model = Head()
        plain = Head()
        if use_cuda:
            model = nn.DataParallel(model.to("cuda"))
            plain = plain.to("cuda")
        batch = {"images": torch.randn(2, 4), "targets": torch.zeros(2, 1, dtype=torch.int64)}
        out = model(batch)
        alone = {"images": torch.randn(2, 4), "targets": torch.zeros(2, 1, dtype=torch.int64)}  # expect: DG009
        other = plain(alone)
        """,
    'a model wrapped in nn.DataParallel only with several GPUs runs unwrapped on one: its CPU input meets the GPU there': """
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2).to(device)
        if torch.cuda.device_count() > 1:
            model = nn.DataParallel(model)
        x = torch.randn(3, 4)  # expect: DG009
        out = model(x)
        """,
    "a class with `__getitem__` and no `__iter__` is iterated by index; a memo dict still `{}` has no hit; a tensor is no list (AnomalyDetectionCVPR2018's FeaturesLoader)": """
        import numpy as np
        import torch
        from torch import nn
        def read(path, cache=None):
            if cache is not None and path in cache:
                return cache[path]
            x = torch.tensor(np.ones((2, 4)))  # expect: DG004
            if cache is not None:
                cache[path] = x
            return x
        class Loader:
            def __init__(self, paths):
                self.paths = paths
                self.cache = {}
            def __len__(self):
                return len(self.paths)
            def __getitem__(self, i):
                if i >= len(self.paths):
                    raise IndexError(i)
                return read(self.paths[i], self.cache)
        def to_device(data, device):
            if isinstance(data, (list, tuple)):
                return [d.to(device) for d in data]
            return data.to(device)
        model = nn.Linear(4, 1)
        for batch in Loader(["a", "b"]):
            out = model(to_device(batch, "cpu"))
        """,
    "torch.where with a 0-dim tensor: it widens only a lower category (float16 stays float16; int64 with a float64 0-dim gives float64) (COLD-Attack's BLEU loss)": """
        import torch
        from torch import nn
        model = nn.Linear(4, 4).half()
        x = torch.randn(2, 4, dtype=torch.float16)
        zero = torch.tensor(0.0)
        y = torch.where(x > 0, zero, x)
        out = model(y)
        ids = torch.arange(8).view(2, 4)
        half = torch.tensor(0.5, dtype=torch.float64)  # expect: DG004
        z = torch.where(ids > 3, ids, half)
        out2 = nn.Linear(4, 2)(z)
        """,
    "`hasattr` of an object of a plain class of the script's own is decided: the flow scheduler stops at its guard (sd-scripts' Huber snr schedule)": """
        import torch
        class FlowScheduler:
            def __init__(self, n=1000):
                self.timesteps = torch.linspace(1, n, n)
        class DDPMScheduler:
            def __init__(self, n=1000):
                self.alphas_cumprod = torch.linspace(0.99, 0.01, n)
        def snr_weight(scheduler, timesteps):
            if not hasattr(scheduler, "alphas_cumprod"):
                raise NotImplementedError("no snr schedule")
            return torch.index_select(scheduler.alphas_cumprod, 0, timesteps)
        t = (torch.rand(4) * 1000).to(torch.float32)
        try:
            snr_weight(FlowScheduler(), t)
        except NotImplementedError:
            pass
        w = snr_weight(DDPMScheduler(), (torch.rand(4) * 1000).float())  # expect: DG006
        """,
    # ai03 (disentangling-vae): a module of the script's own whose layers come from a class it
    # is given (`encoder(n)`) is still a module: `.to(float16)` makes every floating parameter float16
    "a cast of a module built from a class it is given casts its parameters": """
        import torch
        from torch import nn, optim
        class EncoderB(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.l = nn.Linear(n, 2)
        class VAE(nn.Module):
            def __init__(self, encoder, n):
                super().__init__()
                self.encoder = encoder(n)
        def init_specific_model(n, dtype=torch.float32):
            return VAE(EncoderB, n).to(dtype)
        model = init_specific_model(3, dtype=torch.float16)
        optimizer = optim.Adam(model.parameters(), lr=1e-3)  # expect: DG012
        """,
    # ao05 (the PyTorch quickstart): a sample taken from a Dataset is data, moved where it is
    # used; the `torch.rand` inside the (re-typed torchvision) dataset is not where the fix goes
    "a Dataset item left on the CPU is reported where it is taken, not where the dataset made it": """
        import torch
        from torch import nn
        from torch.utils.data import Dataset
        class FashionMNIST(Dataset):
            def __init__(self):
                self.data = torch.rand(10, 4)
                self.targets = torch.randint(0, 3, (10,))
            def __len__(self):
                return 10
            def __getitem__(self, idx):
                return self.data[idx], int(self.targets[idx])
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = nn.Linear(4, 3).to(device)
        test_data = FashionMNIST()
        x = test_data[0][0]  # expect: DG009
        pred = model(x)
        """,
    # ao01 (fastai course22 #99): pandas 2's get_dummies makes bool columns; beside a float
    # column a frame's `.values` is an object array, which torch refuses whatever dtype= says
    "bool indicator columns beside a float column make an object array torch refuses": """
        import numpy as np
        import pandas as pd
        import torch
        df = pd.read_csv("train.csv")
        df.fillna(0, inplace=True)
        df["LogFare"] = np.log(df["Fare"] + 1)
        df = pd.get_dummies(df, columns=["Sex", "Pclass"])
        cols = ["Age", "LogFare"] + ["Sex_male", "Sex_female", "Pclass_1"]
        t_indep = torch.tensor(df[cols].values, dtype=torch.float)  # expect: DG004
        t_ok = torch.tensor(df[cols].to_numpy(dtype=np.float32))
        t_flags = torch.tensor(df[["Sex_male", "Pclass_1"]].values)
        t_unknown = torch.tensor(df[["Age", "Sex_male"]].values, dtype=torch.float)
        t_cast = torch.tensor(df[cols].values.astype(np.float32))
        """,
    "indicator columns with a dtype, or named by another prefix, are not bool": """
        import numpy as np
        import pandas as pd
        import torch
        df = pd.read_csv("train.csv")
        df["LogFare"] = np.log(df["Fare"] + 1)
        a = pd.get_dummies(df, columns=["Sex"], dtype=float)
        t_a = torch.tensor(a[["LogFare", "Sex_male"]].values)
        b = pd.get_dummies(df, columns=["Sex"], prefix="s")
        t_b = torch.tensor(b[["Age", "LogFare"]].values)
        c = pd.get_dummies(df, columns=["Sex"])
        t_c = torch.tensor(c[["Age", "LogFare"]].values)
        """,
    # Bert-Chinese-Text-Classification-Pytorch (scan 14): a cache of a whole object of the
    # script's own class is not what loads that read a dict's items read back
    "a load that reads a mapping does not read a saved object of the script's own class": """
        import os
        import torch
        class Corpus:
            def __init__(self, words):
                self.words = words
        def from_pretrained(path):
            vocab_dict = torch.load(path)
            for key, value in vocab_dict.items():
                print(key, value)
            for key in torch.load(path + ".extra").keys():
                print(key)
        def get_corpus(datadir):
            fn = os.path.join(datadir, "cache.pt")
            corpus = Corpus(["a", "b"])
            torch.save(corpus, fn)
            return corpus
        get_corpus("data")
        from_pretrained(os.environ["VOCAB"])
        """,
    "a load that reads keys the saved dict does not write reads another file": """
        import os
        import numpy as np
        import torch
        best = np.mean([0.5, 0.75])
        torch.save({"epoch": 3, "best": best}, os.environ["OUT"])  # expect: DG011
        ids = torch.load(os.environ["IDS"])
        names = ids["names"]
        ckpt = torch.load(os.environ["RESUME"])
        start = ckpt["epoch"]
        """,
    # deeplab's coco.py: the ids file is read back only where an earlier run saved it (a list of ints)
    "a load of the path a later branch writes without spelling it reads that list": """
        import os
        import numpy as np
        import torch
        def ids_of(ids_file):
            if os.path.exists(ids_file):
                ids = torch.load(ids_file)
            else:
                ids = [1, 2, 3]
                torch.save(ids, ids_file)
            return ids
        ids_of(os.environ["IDS"])
        best = np.float64(0.5)
        torch.save({"best": best}, "best.pt")
        """,
    # nerf_pl (repos8, reached once star imports were followed): a positional encoding module
    # holds only a plain tensor of frequencies, iterated into 0-dim tensors that meet any device
    "a module holding no weights meets inputs on any device": """
        import torch
        from torch import nn
        class Embedding(nn.Module):
            def __init__(self, n_freqs):
                super().__init__()
                self.funcs = [torch.sin, torch.cos]
                self.freq_bands = 2 ** torch.linspace(0, n_freqs - 1, n_freqs)
            def forward(self, x):
                out = [x]
                for freq in self.freq_bands:
                    for func in self.funcs:
                        out += [func(freq * x)]
                return torch.cat(out, -1)
        embed = Embedding(4)
        fine = nn.Linear(27, 4).cuda()
        xyz = torch.rand(8, 3).cuda()
        y = fine(embed(xyz))
        """,
    # ap01 (minimalRL DDPG): the action is a Python float plus a NumPy float64 noise sample, a
    # NumPy float64; kept in a deque replay buffer, the batch `torch.tensor(a_lst)` is float64
    "a replay buffer deque keeps NumPy float64 actions that make a float64 batch": """
        import collections
        import random
        import numpy as np
        import torch
        from torch import nn
        class ReplayBuffer:
            def __init__(self):
                self.buffer = collections.deque(maxlen=1000)
            def put(self, transition):
                self.buffer.append(transition)
            def sample(self, n):
                a_lst = []
                for s, a in random.sample(self.buffer, n):
                    a_lst.append([a])
                return torch.tensor(a_lst)  # expect: DG004
        memory = ReplayBuffer()
        mu = nn.Linear(3, 1)
        critic = nn.Linear(1, 4)
        for t in range(10):
            s = np.zeros(3)
            a = mu(torch.from_numpy(s).float()).item() + np.random.normal(size=1)[0]
            memory.put((s, a))
        q = critic(memory.sample(4))
        """,
    "a float action plus a Python number stays a Python float": """
        import collections
        import random
        import numpy as np
        import torch
        from torch import nn
        memory = collections.deque(maxlen=1000)
        mu = nn.Linear(3, 1)
        critic = nn.Linear(1, 4)
        for t in range(10):
            a = mu(torch.from_numpy(np.zeros(3)).float()).item() + 0.1
            memory.append(a)
        q = critic(torch.tensor([[a] for a in random.sample(memory, 4)]))
        """,
    # ap02 (InceptionTime): a Sequential whose first stage is the script's own Reshape runs its
    # stages, so the float64 windows meet the first Conv1d inside the next stage
    "a Sequential starting with a module of the script's own runs its stages": """
        import numpy as np
        import torch
        from torch import nn
        from sklearn.preprocessing import StandardScaler
        class Reshape(nn.Module):
            def __init__(self, shape):
                super().__init__()
                self.shape = shape
            def forward(self, x):
                return x.view(-1, *self.shape)
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv1d(3, 8, 5)
            def forward(self, x):
                return self.conv(x)
        X = StandardScaler().fit_transform(np.random.rand(64, 3))
        net = nn.Sequential(Reshape((3, 16)), Block(), nn.AdaptiveAvgPool1d(1))
        out = net(torch.as_tensor(X.reshape(-1, 3, 16)))  # expect: DG004
        ok = net(torch.as_tensor(X.reshape(-1, 3, 16), dtype=torch.float32))
        """,
    # spotlight (scan 15): `cpu(tensor)` returns `tensor.cpu()` when it is on the GPU, and the
    # tensor itself (then on the CPU) otherwise: `.numpy()` of what it returns is fine
    "a tensor tested with is_cuda is on that side's device in each branch": """
        import torch
        def cpu(tensor):
            if tensor.is_cuda:
                return tensor.cpu()
            else:
                return tensor
        def leave(tensor):
            if not tensor.is_cuda:
                return tensor
            return tensor
        device = "cuda" if torch.cuda.is_available() else "cpu"
        net = torch.nn.Linear(3, 1).to(device)
        out = net(torch.rand(4, 3).to(device))
        arr = cpu(out).detach().numpy()
        bad = leave(out).detach().numpy()  # expect: DG009
        """,
    # Graph-WaveNet (scan 15): the best epoch's file, one of those this run saved in its loop,
    # named by the same pattern (`args.save + "_epoch_" + str(...) + ...`)
    "a load of a file named like the ones this run saved in its loop reads what it wrote": """
        import argparse
        import numpy as np
        import torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--save", default="./garage/metr")
        args = parser.parse_args()
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(3, 1).to(device)
        def main():
            his_loss = []
            for i in range(1, 4):
                loss = float(np.random.rand())
                his_loss.append(loss)
                torch.save(model.state_dict(), args.save + "_epoch_" + str(i) + "_" + str(round(loss, 2)) + ".pth")
            bestid = np.argmin(his_loss)
            model.load_state_dict(torch.load(args.save + "_epoch_" + str(bestid + 1) + "_" + str(round(his_loss[bestid], 2)) + ".pth"))
            other = torch.load(args.save + "_exp_" + str(bestid) + ".pth")  # expect: DG010
        main()
        """,
    # aq01 (array-api-compat #245): code written once against the array API picks torch for
    # torch inputs (`any(isinstance(a, torch.Tensor) for a in arrays)` over the arguments it is
    # given), solves in NumPy float64 and wraps the result with `xp.asarray`: a float64 tensor
    "an array-API namespace chosen from the arguments wraps a float64 solve as a float64 tensor": """
        import numpy as np
        import torch
        def get_namespace(*arrays):
            if any(isinstance(a, torch.Tensor) for a in arrays):
                return torch
            return np
        def fit(X, y):
            xp = get_namespace(X, y)
            coef = np.linalg.solve(np.asarray(X.T @ X, dtype=np.float64), np.asarray(X.T @ y, dtype=np.float64))
            return xp.asarray(coef)  # expect: DG004
        X = torch.randn(16, 3)
        coef = fit(X, X @ torch.ones(3))
        pred = X @ coef
        ok = X @ torch.asarray(np.linalg.solve(np.eye(3, dtype=np.float32), np.ones(3, dtype=np.float32)))
        """,
    # udacity deep-learning-v2-pytorch (scan 16): on the side of a GPU test that runs only where
    # there is no GPU, "cuda when available" is the CPU
    "a tensor moved back under a GPU test is on the CPU on both sides": """
        import numpy as np
        import torch
        from torch import nn
        train_on_gpu = torch.cuda.is_available()
        net = nn.Linear(4, 3)
        if train_on_gpu:
            net.cuda()
        x = torch.rand(2, 4)
        if train_on_gpu:
            x = x.cuda()
        p = net(x)
        if train_on_gpu:
            p = p.cpu()
        top = np.argmax(p.detach().numpy())
        preds = p.detach().numpy() if not train_on_gpu else p.detach().cpu().numpy()
        q = net(x)
        also = q.detach().numpy() if train_on_gpu else 0  # expect: DG009
        """,
    # ag02 (minimalRL DQN with a shaped CartPole reward): class attributes set by tuple assignment,
    # a state unpacked into NumPy float64 scalars, `abs()` of them: the reward is float64
    "a reward computed from an unpacked float64 state and class constants is float64": """
        import numpy as np
        import torch
        import torch.nn.functional as F
        class CartPole:
            gravity, x_threshold = 9.8, 2.4
            def reset(self):
                self.state = np.random.RandomState(0).uniform(low=-0.05, high=0.05, size=(4,))
                return np.array(self.state)
        def shaped_reward(env, s):
            x, x_dot, theta, theta_dot = s
            return (env.x_threshold - abs(x)) / env.x_threshold - 0.8
        env = CartPole()
        s = env.reset()
        r = torch.tensor([[shaped_reward(env, s)]])  # expect: DG008
        q = torch.nn.Linear(4, 1)(torch.from_numpy(s).float())
        loss = F.smooth_l1_loss(q, r)
        """,
    # pointMLP (scan 17): `assert torch.cuda.is_available()` first, so what follows runs with a GPU
    "after asserting a GPU, a load without map_location runs where the GPU is": """
        import torch
        device = "cuda" if torch.cuda.is_available() else "cpu"
        def main(path):
            assert torch.cuda.is_available(), "Please ensure codes are executed in cuda."
            checkpoint = torch.load(path)
            return checkpoint
        main("best.pth")
        """,
    "without the GPU assertion the load is reported": """
        import torch
        device = "cuda" if torch.cuda.is_available() else "cpu"
        def main(path):
            checkpoint = torch.load(path)  # expect: DG010
            return checkpoint
        main("best.pth")
        """,
    # Restormer (scan 17): `np.float32(load_img(f)) / 255.` is a float32 image array; adding
    # float64 noise in place keeps it float32
    "noise added in place to a float32 image keeps it float32": """
        import cv2
        import numpy as np
        import torch
        from torch import nn
        def load_img(path):
            return cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)
        model = nn.Conv2d(3, 3, 3)
        img = np.float32(load_img("x.png")) / 255.
        img += np.random.normal(0, 0.1, img.shape)
        out = model(torch.from_numpy(img).permute(2, 0, 1).unsqueeze(0))
        noisy = np.float32(load_img("x.png")) / 255. + np.random.normal(0, 0.1, (8, 8, 3))  # expect: DG004
        out2 = model(torch.from_numpy(noisy).permute(2, 0, 1).unsqueeze(0))
        """,
    # znxlwm generative-model-collections (scan 16): `--gpu_mode` (default True) guards both the
    # `.cuda()` calls and the CPU-side `.numpy()`; the `else` runs only where the option is off
    "the other branch of an option runs without what the option's default branch moved": """
        import argparse
        import torch
        from torch import nn
        parser = argparse.ArgumentParser()
        parser.add_argument("--gpu_mode", type=bool, default=True)
        args = parser.parse_args()
        class GAN:
            def __init__(self, args):
                self.gpu_mode = args.gpu_mode
                self.G = nn.Linear(62, 10)
                if self.gpu_mode:
                    self.G.cuda()
                self.z = torch.rand(8, 62)
                if self.gpu_mode:
                    self.z = self.z.cuda()
            def show(self):
                samples = self.G(self.z)
                if self.gpu_mode:
                    samples = samples.cpu().data.numpy()
                else:
                    samples = samples.data.numpy()
                return samples
            def show_wrong(self, cpu):
                samples = self.G(self.z)
                if cpu:
                    samples = samples.data.numpy()  # expect: DG009
                return samples
        gan = GAN(args)
        gan.show()
        gan.show_wrong(args.gpu_mode)
        """,
    # set 15 r24 (unsloth PR 4005): the PEFT init casts only the trained parameters to float16
    "a cast of the trained parameters only makes the optimizer's parameters float16": """
        import torch
        import torch.nn as nn
        class LoRALinear(nn.Module):
            def __init__(self, base):
                super().__init__()
                self.base = base.requires_grad_(False)
                self.lora_A = nn.Linear(base.in_features, 4, bias=False)
                self.lora_B = nn.Linear(4, base.out_features, bias=False)
            def forward(self, x):
                return self.base(x) + self.lora_B(self.lora_A(x))
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(32, 32)
            def forward(self, h):
                return self.proj(h.half()).float()
        model = Head()
        model.proj = LoRALinear(model.proj)
        for param in model.parameters():
            if param.requires_grad:
                param.data = param.data.to(torch.float16)  # expect: DG014
        model.proj.base.to(torch.float16)
        optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
        scaler = torch.amp.GradScaler("cpu")
        loss = model(torch.randn(8, 32)).sum()
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        """,
    # a model made float16, its trained head made float32 again, the float16 body frozen: the
    # scaler sees only float32 gradients (ran on torch 2.13: no error)
    "a float16 body that is frozen gives a scaler no float16 gradients": """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Linear(4, 4)
                self.head = nn.Linear(4, 2)
            def forward(self, x):
                return self.head(self.body(x.half()).float())
        model = Net()
        model.half()
        model.head.float()
        model.body.requires_grad_(False)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        scaler = torch.amp.GradScaler("cpu")
        loss = model(torch.randn(2, 4)).sum()
        scaler.scale(loss).backward()
        scaler.step(opt)
        """,
    # set 44 af10 (attention-is-all-you-need's train_epoch): a lambda defined in the function that
    # calls it reads that function's `device` parameter
    "a lambda reads the locals of the function it is defined in": """
        import torch
        def get_subsequent_mask(seq):
            len_s = seq.size(1)
            return (1 - torch.triu(torch.ones((1, len_s, len_s)), diagonal=1)).bool()  # expect: DG009
        def patch_trg(trg):
            return trg[:, :-1], trg[:, 1:]
        def train_epoch(batches, device):
            for trg in batches:
                trg_seq, gold = map(lambda x: x.to(device), patch_trg(trg))
                mask = (trg_seq != 1).unsqueeze(-2) & get_subsequent_mask(trg_seq)
        dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        train_epoch([torch.randint(4, 40, (8, 12))], dev)
        """,
    # the nested function's own parameter and its own local shadow the caller's
    "a nested function's own names shadow the caller's": """
        import torch
        def run(x, device):
            def to_cpu(device):
                return x.to(device)
            def moved():
                device = "cpu"
                return x.to(device)
            a = to_cpu("cpu") + torch.ones(3)
            b = moved() + torch.ones(3)
        run(torch.ones(3), torch.device("cuda" if torch.cuda.is_available() else "cpu"))
        """,
    # normalizing-flows examples/vae.py (scan 18): `model.__init__(flows)` re-creates the layers on
    # the CPU, then `model = model.to(device)` moves them all again before the forward
    "a move of a module to where it is moves the parts re-created since": """
        import torch
        from torch import nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        class Outer(nn.Module):
            def __init__(self, inner):
                super().__init__()
                self.f1 = nn.Linear(4, 4)
                self.inner = inner
            def forward(self, x):
                return self.inner(self.f1(x))
        inner = nn.Linear(4, 4)
        model = Outer(inner).to(device)
        for run in range(2):
            model.__init__(inner)
            model = model.to(device)
            out = model(torch.randn(8, 4).to(device))
        model.f1 = nn.Linear(4, 4)
        model.to(device)
        out = model(torch.randn(8, 4).to(device))
        """,
    # set 49 ar03 (torch-sim #27): the per-system accumulator takes the model's float32 while the
    # per-atom power is float64; scatter_add_ does not convert (a Python value, or one dtype, is fine)
    "an accumulator made float32 takes float64 values by scatter_add_": """
        import numpy as np
        import torch
        positions = torch.tensor(np.random.rand(6, 3))
        batch = torch.tensor([0, 0, 0, 1, 1, 1])
        power = (positions * positions).sum(dim=1)
        acc = torch.zeros(2, dtype=torch.float32)  # expect: DG004
        acc.scatter_add_(dim=0, index=batch, src=power)
        same = torch.zeros(2, dtype=power.dtype)
        same.scatter_add_(0, batch, power)
        hot = torch.zeros(6, 2).scatter_(1, batch.unsqueeze(1), 1.0)
        """,
    # set 49 ar02 (litgpt #53): lit-llama's EmptyInitOnDevice, a TorchFunctionMode that fills the
    # factories' dtype and device: the model is float16 and on `device`
    "a function mode that fills dtype and device makes the block's defaults": """
        import torch
        import torch.nn as nn
        class EmptyInitOnDevice(torch.overrides.TorchFunctionMode):
            def __init__(self, device=None, dtype=None):
                self.device = device
                self.dtype = dtype
            def __torch_function__(self, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                if self.device is not None and kwargs.get("device") is None:
                    kwargs["device"] = self.device
                if self.dtype is not None and kwargs.get("dtype") is None:
                    kwargs["dtype"] = self.dtype
                return func(*args, **kwargs)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        with EmptyInitOnDevice(device=device, dtype=torch.float32):
            kept = nn.Linear(8, 8)
        out = kept(torch.randn(2, 8).to(device))
        scaler = torch.amp.GradScaler(device.type)
        with EmptyInitOnDevice(device=device, dtype=torch.float16):  # expect: DG014
            model = nn.Linear(8, 8)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        with torch.autocast(device.type, dtype=torch.float16):
            loss = model(torch.randn(2, 8).to(device)).float().sum()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        """,
    # set 49 ar06 (captum #1325): a frame from a dict, indicator columns put beside it with
    # `pd.concat(axis=1)`, columns dropped by name: numbers and bools make an object array
    "indicator columns concatenated beside number columns make an object array": """
        import numpy as np
        import pandas as pd
        import torch
        rng = np.random.default_rng(0)
        df = pd.DataFrame({"survived": rng.integers(0, 2, 10), "sex": rng.choice(["female", "male"], 10), "fare": rng.uniform(5, 260, 10)})
        df = pd.concat([df, pd.get_dummies(df["sex"]), pd.get_dummies(df["sex"], prefix="s")], axis=1)
        df = df.drop(["sex"], axis=1)
        labels = torch.from_numpy(df["survived"].to_numpy())
        data = df.drop(["survived"], axis=1).to_numpy()
        features = torch.from_numpy(data).float()  # expect: DG004
        ok = torch.from_numpy(df.drop(["survived"], axis=1).to_numpy(dtype=np.float32))
        """,
    # Popular-RL-Algorithms (scan 19): the device named by concatenation, `"cuda:" + str(device_idx)`
    "a device named by a concatenated string is that device": """
        import torch
        import torch.nn as nn
        device_idx = 0
        device = torch.device("cuda:" + str(device_idx) if torch.cuda.is_available() else "cpu")
        class QNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)
            def forward(self, x):
                return self.fc(x)
        q = QNet().to(device)
        def save_model(path):
            torch.save(q.state_dict(), path + "_q")
        def load_model(path):
            q.load_state_dict(torch.load(path + "_q"))  # expect: DG010
        save_model("./model/sac")
        load_model("./model/sac")
        """,
    # simclr-pytorch (scan 19): a parser of the script's own class built on ArgumentParser gives
    # an argparse.Namespace, which a weights-only load refuses in the checkpoint
    "a subclass of ArgumentParser parses into a Namespace": """
        import argparse
        import torch
        import torch.nn as nn
        class ExParser(argparse.ArgumentParser):
            def add_common(self):
                self.add_argument("--lr", type=float, default=0.1)
        parser = ExParser()
        parser.add_common()
        parser.add_argument("--ckpt", default="")
        args = parser.parse_args()
        model = nn.Linear(3, 3)
        if args.ckpt != "":
            ckpt = torch.load(args.ckpt, map_location="cpu")
            model.load_state_dict(ckpt["state_dict"])
        ckpt = {"state_dict": model.state_dict(), "hparams": args}  # expect: DG011
        torch.save(ckpt, "checkpoint.pth.tar")
        """,
    # pytorch-retinanet visualize.py (scan 19): `--dataset` has no default, and the chain on it
    # ends in `raise`: the script goes on only with a value given, so what follows is analysed
    "an option whose default raises goes on with the values that do not": """
        import argparse
        import torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--dataset", help="coco or csv")
        parser.add_argument("--model")
        args = parser.parse_args()
        if args.dataset == "coco":
            n = 80
        elif args.dataset == "csv":
            n = 3
        else:
            raise ValueError("Dataset type not understood (must be csv or coco), exiting.")
        model = torch.nn.Linear(4, n)
        model.load_state_dict(torch.load(args.model))  # expect: DG010
        if torch.cuda.is_available():
            model = model.cuda()
        """,
    # set 49 ar04 (transformers #30703): built on the meta device, loaded with assign=True, the
    # rotary embedding's non-persistent buffer is still meta when the model is moved
    "a meta-built module moved with a buffer no checkpoint holds": """
        import torch
        import torch.nn as nn
        class Rotary(nn.Module):
            def __init__(self, dim):
                super().__init__()
                inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
                self.register_buffer("inv_freq", inv_freq, persistent=False)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 8)
                self.rot = Rotary(8)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        sd = Net().state_dict()
        with torch.device("meta"):  # expect: DG009
            model = Net()
        model.load_state_dict(sd, assign=True)
        model.to(device)
        """,
    # the same without a non-persistent buffer: every tensor comes from the checkpoint; and
    # `to_empty` makes real (empty) tensors
    "a meta-built module fully loaded with assign=True, or made real with to_empty, moves": """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 8)
                self.register_buffer("scale", torch.ones(8))
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        sd = Net().state_dict()
        with torch.device("meta"):
            model = Net()
            other = Net().to(torch.bfloat16)
        model.load_state_dict(sd, assign=True)
        model.to(device)
        other.to_empty(device=device)
        other.to(device)
        """,
    "a meta-built module moved before anything was loaded": """
        import torch
        import torch.nn as nn
        with torch.device("meta"):  # expect: DG009
            model = nn.Sequential(nn.Linear(8, 8), nn.ReLU())
        model.cpu()
        """,
    # set 50 as01 (ema-pytorch #36): the EMA copy stays float32 while the model is cast to bfloat16;
    # lerp does not convert (a 0-dim weight of another dtype is taken)
    "an EMA lerp of float32 weights toward bfloat16 ones": """
        import copy
        import torch
        import torch.nn as nn
        model = nn.Linear(4, 4)
        ema = copy.deepcopy(model)
        model = model.to(torch.bfloat16)  # expect: DG004
        with torch.no_grad():
            for e, p in zip(ema.parameters(), model.parameters()):
                e.lerp_(p, 0.01)
            w = torch.zeros(4)
            w.lerp_(torch.ones(4), torch.tensor(0.5, dtype=torch.float64))
        """,
    # set 50 as04 (tt-xla #3793): `torch.histc` of the expert ids made int32 on the CPU
    "a histogram of integer ids on the CPU": """
        import torch
        expert_ids = torch.randint(0, 8, (32,))
        histc_input = expert_ids.int()  # expect: DG005
        counts = torch.histc(histc_input, bins=8, min=0, max=7)
        ok = torch.histc(expert_ids.float(), bins=8, min=0, max=7)
        """,
    # NeuS's renderer (scan 20): after `set_default_tensor_type('torch.cuda.FloatTensor')` the legacy
    # `torch.Tensor([...])` constructor makes a CUDA tensor too, like `torch.linspace`
    "the legacy Tensor constructor follows a CUDA default tensor type": """
        import torch
        torch.set_default_tensor_type('torch.cuda.FloatTensor')  # expect: DG002
        z_vals = torch.linspace(0.0, 1.0, 8).expand(4, 8)
        dists = z_vals[..., 1:] - z_vals[..., :-1]
        dists = torch.cat([dists, torch.Tensor([1.0 / 8]).expand(dists[..., :1].shape)], -1)
        """,
    # 2d-gaussian-splatting (scan 20): the camera extent, a NumPy scalar, reaches the checkpoint
    # through a typing.NamedTuple field that one of two scene readers fills
    "a NumPy scalar kept in a NamedTuple field from either of two readers": """
        import os
        from typing import NamedTuple
        import numpy as np
        import torch
        class SceneInfo(NamedTuple):
            cameras: list
            nerf_normalization: dict
        def read_colmap(path):
            return SceneInfo(cameras=[], nerf_normalization={"radius": np.max(np.random.rand(5)) * 1.1})
        def read_blender(path):
            return SceneInfo(cameras=[1], nerf_normalization={"radius": np.max(np.random.rand(4)) * 1.1})
        def load_scene(source):
            if os.path.exists(os.path.join(source, "sparse")):
                info = read_colmap(source)
            else:
                info = read_blender(source)
            return info.nerf_normalization["radius"]
        extent = load_scene("data")
        torch.save({"spatial_lr_scale": extent}, "chkpnt.pth")  # expect: DG011
        ckpt = torch.load("chkpnt.pth")
        """,
    # ... and where the readers agree on nothing the field stays unknown: no finding
    "two NamedTuples whose fields differ in kind are not known": """
        import os
        from typing import NamedTuple
        import numpy as np
        import torch
        class SceneInfo(NamedTuple):
            nerf_normalization: dict
        def load_scene(source):
            if os.path.exists(source):
                info = SceneInfo(nerf_normalization={"radius": np.max(np.random.rand(5))})
            else:
                info = SceneInfo(nerf_normalization={"radius": source})
            return info.nerf_normalization["radius"]
        torch.save({"spatial_lr_scale": load_scene("data")}, "chkpnt.pth")
        ckpt = torch.load("chkpnt.pth")
        """,
    # sets 26..44 (o19, b09, g18, ac13): the overflowing mask value is a named constant or a
    # parameter's default; that is where it is changed (the half cast is related information)
    "a named fill constant beyond float16's range": """
        import torch
        from torch import nn
        MASK_VALUE = -1e10  # expect: DG018
        class Attention(nn.Module):
            def __init__(self, dim, mask_fill=-1e9):  # expect: DG018
                super().__init__()
                self.proj = nn.Linear(dim, dim)
                self.mask_fill = mask_fill
            def forward(self, x, mask):
                scores = self.proj(x)
                return scores.masked_fill(mask, self.mask_fill)
        def masked(scores, mask):
            return scores.masked_fill(mask, MASK_VALUE)
        mask = torch.ones(2, 4, dtype=torch.bool)
        masked(torch.randn(2, 4).half(), mask)
        model = Attention(4).half()
        model(torch.randn(2, 4).half(), mask)
        """,
    # ... a constant the function rebinds, or an inline number: the half cast stays the root
    "a fill constant bound twice is not a root": """
        import torch
        def masked(scores, mask, big):
            neg = -1e4
            if big:
                neg = -1e9
            return scores.masked_fill(mask, neg)
        scores = torch.randn(2, 4).half()  # expect: DG018
        masked(scores, torch.ones(2, 4, dtype=torch.bool), True)
        """,
    # tabsyn (scan 22): an uncalled helper that passes `*args, **kwargs` on to `torch.load` may
    # be given `map_location` by every caller
    "an uncalled torch.load wrapper taking **kwargs": """
        import torch
        def load_checkpoint(path, *args, **kwargs):
            return torch.load(path, *args, **kwargs)
        def get_device():
            return torch.device("cuda:0") if torch.cuda.is_available() else torch.device("cpu")
        """,
    # tabsyn's CoDi sampler (scan 22): `% torch.cuda.device_count()` is a ZeroDivisionError
    # without a GPU, so the load after it runs only where there is one
    "a division by the GPU count before a load": """
        import torch
        from torch import nn
        device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
        batch_size = 4096
        if batch_size % torch.cuda.device_count() != 0:
            raise ValueError("batch size must be divided by the number of devices")
        model = nn.Linear(4, 4).to(device)
        model.load_state_dict(torch.load("model.pt"))
        """,
    # PANNs (scan 21): a sampler whose state holds one `np.where(...)[0]` array per class, chosen
    # by an option of the `train` subcommand
    "a subcommand's sampler state of np.where index arrays in a checkpoint": """
        import argparse
        import numpy as np
        import torch
        class TrainSampler:
            def __init__(self, targets):
                self.indexes = np.arange(len(targets))
            def state_dict(self):
                return {"indexes": self.indexes}
        class BalancedTrainSampler(TrainSampler):
            def __init__(self, targets):
                super().__init__(targets)
                self.indexes_per_class = []
                for k in range(targets.shape[1]):
                    self.indexes_per_class.append(np.where(targets[:, k] == 1)[0])
            def state_dict(self):
                return {"indexes_per_class": self.indexes_per_class}  # expect: DG011
        def train(args, targets):
            if args.balanced == "none":
                Sampler = TrainSampler
            elif args.balanced == "balanced":
                Sampler = BalancedTrainSampler
            sampler = Sampler(targets)
            torch.save({"sampler": sampler.state_dict()}, "checkpoint.pth")
            return torch.load("checkpoint.pth")
        parser = argparse.ArgumentParser()
        subparsers = parser.add_subparsers(dest="mode")
        parser_train = subparsers.add_parser("train")
        parser_train.add_argument("--balanced", type=str, default="balanced", choices=["none", "balanced"])
        args = parser.parse_args()
        if args.mode == "train":
            train(args, load_targets())
        """,
    # ... two subcommands that give one option different defaults: which runs is not known
    "two subcommands with different defaults for one option": """
        import argparse
        import numpy as np
        import torch
        parser = argparse.ArgumentParser()
        subparsers = parser.add_subparsers(dest="mode")
        one = subparsers.add_parser("one")
        one.add_argument("--save_rng", type=int, default=0)
        two = subparsers.add_parser("two")
        two.add_argument("--save_rng", type=int, default=1)
        args = parser.parse_args()
        state = {"step": 0}
        if args.save_rng == 1:
            state = {"rng": np.random.get_state()}
        torch.save(state, "ckpt.pth")
        ckpt = torch.load("ckpt.pth")
        """,
    # set 51 (engine/library/refusals.py, generated from the real torch): operations that refuse
    # their operand's dtype outright, rooted where it got that dtype, or at the call that changes
    "the mean of integer accuracies": """
        import torch
        accs = torch.tensor([1, 0, 1])  # expect: DG005
        print(accs.mean())
        print(accs.float().mean(), torch.tensor([0.5, 1.0]).std())
        """,
    "noise like token ids": """
        import torch
        ids = torch.randint(0, 100, (2, 8))
        noisy = ids + torch.randn_like(ids)  # expect: DG005
        ok = ids + torch.randn_like(ids, dtype=torch.float)
        """,
    "argmax of a bool row": """
        import torch
        match = torch.rand(4, 4) > 0.9  # expect: DG004
        pid = match[0].argmax()
        ok = match[0].int().argmax()
        """,
    "one minus a bool mask": """
        import torch
        scores = torch.randn(2, 5)
        mask = scores > 0
        scores.masked_fill_(1 - mask, -float("inf"))  # expect: DG004
        scores.masked_fill_(~mask, -float("inf"))
        """,
    "masked_select with a long mask": """
        import torch
        token_ids = torch.randint(0, 5, (2, 7))
        attention_mask = token_ids.gt(0).long()  # expect: DG004
        scores = torch.randn(2, 7)
        picked = scores.masked_select(attention_mask)
        fine = scores.masked_select(token_ids.gt(0))
        """,
    "a long key padding mask": """
        import torch
        from torch import nn
        decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 1)
        memory, tgt = torch.randn(5, 2, 8), torch.randn(3, 2, 8)
        src_mask = torch.zeros(2, 5, dtype=torch.long)  # expect: DG004
        out = decoder(tgt, memory, memory_key_padding_mask=src_mask)
        ok = decoder(tgt, memory, memory_key_padding_mask=src_mask.bool(), tgt_key_padding_mask=torch.zeros(2, 3))
        """,
    "refused dtypes that are not refused": """
        import torch
        x = torch.randint(0, 5, (3, 4))
        rows = torch.where(x > 2)
        picked = torch.where(x > 2, x, 0)
        total = x.sum()
        biggest = x.argmax()
        probs = torch.softmax(x.float(), dim=-1)
        share = x.mean(dtype=torch.float32)
        share2 = torch.mean(torch.nn.functional.one_hot(x, 5), dim=0, dtype=torch.float32)
        """,
    # trlx (scan 24): `torch.device(<int option>)` is an accelerator's index, which raises where
    # there is none: the script has no CPU path for a load to fail on
    "a device made from an int option": """
        import argparse
        import torch
        from torch import nn
        parser = argparse.ArgumentParser()
        parser.add_argument("--device", type=int, default=0)
        args = parser.parse_args()
        device = torch.device(args.device)
        model = nn.Linear(4, 1)
        model.load_state_dict(torch.load("model.pt"))
        model = model.half().to(device)
        """,
    # timm's ModelEmaV3 (set 53 av_c04): the EMA copy is moved to the CPU where its device differs
    # from the model's; after that test its device is not known, so a CPU input is no alarm
    "a module moved only when its device differs": """
        import copy
        import torch
        from torch import nn
        class Ema(nn.Module):
            def __init__(self, model, device=None):
                super().__init__()
                self.module = copy.deepcopy(model)
                self.device = device
                if self.device is not None and device != next(model.parameters()).device:
                    self.module.to(device=device)
            def forward(self, x):
                return self.module(x)
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = nn.Linear(4, 2).to(device)
        ema = Ema(model, device="cpu")
        out = ema(torch.randn(3, 4))
        """,
    # dinov2 (set 53 av05): under `with torch.device("meta")` a linspace has no values to read
    "item of a meta tensor": """
        import numpy as np
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self, depth=4, drop=0.1):
                super().__init__()
                self.rates = [x.item() for x in torch.linspace(0, drop, depth)]  # expect: DG009
                self.ok = [float(x) for x in np.linspace(0, drop, depth)]
                self.fc = nn.Linear(4, 4)
        with torch.device("meta"):
            net = Net()
        """,
    # BERT-NER (scan 24): the cache file named by a variable the function assigns once is not the
    # scheduler file another function loads
    "a cache path assigned once is matched by the name it spells": """
        import os
        import torch
        class Feature:
            def __init__(self, ids):
                self.ids = ids
        def train(args, scheduler):
            if os.path.isfile(os.path.join(args.model_dir, "scheduler.pt")):
                scheduler.load_state_dict(torch.load(os.path.join(args.model_dir, "scheduler.pt")))
        def load_and_cache(args):
            cached = os.path.join(args.data_dir, "cached_{}".format(args.task))
            if os.path.exists(cached):
                features = torch.load(cached)
            else:
                features = [Feature([1, 2, 3])]
                torch.save(features, cached)  # expect: DG011
            return features
        """,
    # miles-credit (set 54 aw06): `np.savez(path, tsi=...)` read back with `np.load(path)["tsi"]`
    "an npz archive's array read back by key": """
        import os
        import tempfile
        import numpy as np
        import torch
        from torch import nn
        data_dir = tempfile.mkdtemp()
        np.savez(os.path.join(data_dir, "toa.npz"), tsi=np.random.rand(5, 4, 4) * 2.0, mask=np.ones(3, dtype=np.float32))
        toa = np.load(os.path.join(data_dir, "toa.npz"))
        x = torch.tensor(toa["tsi"][0] / 100.0).unsqueeze(0)  # expect: DG004
        m = torch.from_numpy(toa["mask"])
        nn.Conv2d(1, 2, 3)(x.unsqueeze(0))
        nn.Linear(3, 1)(m)
        """,
    # FARM (set 54 aw03): scikit-learn's class weights are float64, and so is a tensor of them
    "sklearn class weights in a loss": """
        import numpy as np
        import torch
        from torch import nn
        from sklearn.utils.class_weight import compute_class_weight
        labels = np.array([0, 1, 1, 2, 2, 2])
        class_weights = list(compute_class_weight("balanced", classes=np.unique(labels), y=labels))
        weight = torch.tensor(class_weights)  # expect: DG006
        loss_fct = nn.CrossEntropyLoss(weight=weight)
        loss_fct(nn.Linear(4, 3)(torch.randn(6, 4)), torch.from_numpy(labels))
        ok = nn.CrossEntropyLoss(weight=torch.tensor(class_weights, dtype=torch.float32))
        """,
    # yolact (scan 23): after `.eval()` a module's `self.training` is False: its forward returns
    # what evaluation returns (a list of dicts), not the training dict of float outputs
    "a forward that branches on self.training after eval()": """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 3)
            def forward(self, x):
                if self.training:
                    return {"classes": self.fc(x)}
                return [{"class": torch.arange(5) % 3}]
        net = Net().eval()
        classes = net(torch.rand(5, 8))[0]["class"]
        out = torch.gather(torch.rand(5, 3), dim=1, index=classes.unsqueeze(1))
        """,
    # ... and after `.train()` the training branch runs
    "a forward that branches on self.training after train()": """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 3)
            def forward(self, x):
                if self.training:
                    return self.fc(x.double())  # expect: DG004
                return self.fc(x)
        net = Net()
        net.train()
        out = net(torch.rand(5, 8))
        """,
    # yolact (scan 23): the model moved to CUDA just before a CUDA default tensor type is set keeps
    # nothing on the CPU: no DG001
    "a default tensor type set after the model was moved there": """
        import torch
        import torch.nn as nn
        net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Conv2d(8, 4, 1))
        net = net.cuda()
        torch.set_default_tensor_type('torch.cuda.FloatTensor')  # expect: DG002
        x = torch.zeros((1, 3, 32, 32))
        y = net(x)
        """,
    # cheetah (set 50 as06): no CPU kernels for half-precision linear algebra (refusals.py)
    "a float16 covariance factorised on the CPU": """
        import torch
        from torch.distributions import MultivariateNormal
        cov = torch.eye(6, dtype=torch.float16) * 0.1  # expect: DG004
        beam = MultivariateNormal(torch.zeros(6, dtype=torch.float16), covariance_matrix=cov)
        ok = MultivariateNormal(torch.zeros(6), covariance_matrix=cov.float())
        l32 = torch.linalg.cholesky(torch.eye(3) * 2.0)
        """,
    "the inverse of an integer matrix": """
        import torch
        counts = torch.randint(1, 5, (3, 3))  # expect: DG005
        inv = torch.linalg.inv(counts)
        ok = torch.linalg.inv(counts.double())
        spectrum = torch.fft.rfft(counts[0])
        """,
    # deepmd-gnn (set 56 ay_c06): a model factory sets float64 and puts the caller's default back
    # in `finally:` once its model exists; a float32 model made before runs after that: no DG001
    "a default dtype set and put back around a model's creation": """
        import torch
        from torch import nn
        def get_model(precision):
            previous = torch.get_default_dtype()
            try:
                if precision == "float64":
                    torch.set_default_dtype(torch.float64)
                return nn.Linear(4, 1)
            finally:
                torch.set_default_dtype(previous)
        baseline = nn.Linear(4, 1)
        model = get_model("float64")
        y = baseline(torch.randn(2, 4))
        """,
    # ... but a model made before, used while the new default is in force, is DG001's
    "a model used before the default is put back": """
        import torch
        from torch import nn
        baseline = nn.Linear(4, 1)
        torch.set_default_dtype(torch.float64)  # expect: DG001
        y = baseline(torch.randn(2, 4))  # expect: DG004
        torch.set_default_dtype(torch.float32)
        """,
    # cellpose (set 55 ax_c01): a `@dtype.setter` that casts the network runs when the attribute is
    # written, so the net is bfloat16 again after training, like the input cast to `net.dtype`
    "a dtype property whose setter casts the module": """
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self, dtype=torch.float32):
                super().__init__()
                self.conv = nn.Conv2d(3, 4, 3)
                self._dtype = torch.float32
                if dtype != torch.float32:
                    self.dtype = dtype
            @property
            def dtype(self):
                return self._dtype
            @dtype.setter
            def dtype(self, value):
                if self._dtype != value:
                    self.to(value)
                    self._dtype = value
        net = Net(dtype=torch.bfloat16)
        net.dtype = torch.float32
        net.dtype = torch.bfloat16
        y = net.conv(torch.rand(1, 3, 8, 8).to(net.dtype))
        """,
    # transferlearning's AdaRNN (scan 26): nn.CosineSimilarity has no parameters, so it is on no device
    "a parameterless similarity module on CUDA inputs": """
        import torch
        import torch.nn as nn
        def cosine(source, target):
            cos = nn.CosineSimilarity(dim=0)
            return cos(source.mean(0), target.mean(0))
        model = nn.Linear(4, 4).cuda()
        x = torch.randn(8, 4).cuda()
        out = model(x)
        loss = 1 - cosine(out[:4], out[4:])
        """,
    # pytorch-vqvae (scan 25): a module whose forward returns what a function gives (int64 codebook
    # indices from an autograd Function) does not output its parameters' dtype when that is unknown
    "a forward returning a function's indices of an unknown input": """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        def vq(inputs, codebook):
            return unknown_quantizer(inputs, codebook)
        class VQEmbedding(nn.Module):
            def __init__(self, K, D):
                super().__init__()
                self.embedding = nn.Embedding(K, D)
            def forward(self, z_e_x):
                latents = vq(z_e_x.permute(0, 2, 3, 1), self.embedding.weight)
                return latents
        codebook = VQEmbedding(5, 4)
        latents = codebook(load_batch())
        loss = F.cross_entropy(torch.randn(6, 5), latents.view(-1))
        """,
    # pytorch_toolbox's TrainLoop (set 57, az04): a loop over every index of a list writes each item
    "a loop over every index casts each item of a list": """
        import numpy as np
        import torch
        import torch.nn as nn
        target = [torch.from_numpy(np.ones((4, 5), dtype=np.float32))]
        for i in range(len(target)):
            target[i] = target[i].long()  # expect: DG007
        loss = nn.BCEWithLogitsLoss()(torch.randn(4, 5), target[0])
        """,
    # ... and a write at an index not known leaves the item not known (not the stale float32 one)
    "a write at an unknown index of a list": """
        import numpy as np
        import torch
        import torch.nn as nn
        target = [torch.from_numpy(np.ones((4, 5), dtype=np.uint8)), torch.zeros(4, 5)]
        target[pick()] = target[1].float()
        loss = nn.BCEWithLogitsLoss()(torch.randn(4, 5), target[0])
        """,
    # a write at a known index replaces that item only
    "a write at a known index of a list": """
        import torch
        import torch.nn as nn
        pair = [torch.zeros(4, 5), torch.zeros(4, 5)]
        pair[1] = pair[1].long()  # expect: DG007
        ok = nn.BCEWithLogitsLoss()(torch.randn(4, 5), pair[0])
        loss = nn.BCEWithLogitsLoss()(torch.randn(4, 5), pair[1])
        """,
    # transforms applied by `enumerate` over a known list, each to its item; none over an empty one
    "enumerate over a known list of transforms, and over an empty one": """
        import numpy as np
        import torch
        import torch.nn as nn
        class ToFloat:
            def __call__(self, a):
                return a.astype(np.float32)
        def load(transforms):
            target = [(np.random.rand(4, 5) < 0.5).astype(np.uint8)]
            for i, transform in enumerate(transforms):
                target[i] = transform(target[i])
            return torch.from_numpy(target[0])  # expect: DG007
        ok = nn.BCEWithLogitsLoss()(torch.randn(4, 5), load([ToFloat()]))
        loss = nn.BCEWithLogitsLoss()(torch.randn(4, 5), load([]))
        """,
    # a DataLoader batch of tuple items is a list: `if not isinstance(target, list)` is not taken
    "a collated batch of tuples is a list": """
        import numpy as np
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, Dataset
        class Pairs(Dataset):
            def __len__(self):
                return 8
            def __getitem__(self, i):
                return [np.zeros(3, dtype=np.float32)], [np.ones(5, dtype=np.float32)]
        def setup(data, target):
            if not isinstance(target, list):
                target = [target]
            for i in range(len(target)):
                target[i] = target[i].long()  # expect: DG007
            return data, target
        for data, target in DataLoader(Pairs(), batch_size=4):
            data, target = setup(data, target)
            loss = nn.BCEWithLogitsLoss()(torch.randn(4, 5), target[0])
        """,
    # setfit's collate (set 57, az_c06): rows of a 2-D array's `.tolist()` are lists, so the
    # label tensor is 2-D and the `len(labels.size()) == 1` branch is not known to be taken
    "rows of a 2-D tolist make a 2-D tensor": """
        import numpy as np
        import torch
        y = np.array([[1.0, 0.0], [0.0, 1.0]]).tolist()
        labels = []
        for i in range(2):
            labels.append(y[i])
        labels = torch.Tensor(labels)
        labels = labels.long() if len(labels.size()) == 1 else labels.float()
        loss = torch.nn.BCEWithLogitsLoss()(torch.randn(2, 2), labels)
        """,
    # counts written into `[0] * n` at indices not known stay Python ints (the list has n items)
    "counts written into a list of zeros": """
        import torch
        v = [0] * 5
        for w in words():
            v[index_of(w)] += 1
        v[2] += 1
        t = torch.tensor([v])  # expect: DG005
        t.mean()
        """,
    # curl's replay buffer (scan 27): a class nobody builds in this file; its methods see the
    # arrays its `__init__` gives `self`
    "a replay buffer class never built here saves its arrays": """
        import numpy as np
        import torch
        class ReplayBuffer:
            def __init__(self, capacity):
                self.obses = np.empty((capacity, 4), dtype=np.float32)
                self.idx = 0
            def save(self, path):
                torch.save([self.obses[: self.idx]], path)  # expect: DG011
            def load(self, path):
                self.obses[: self.idx] = torch.load(path)[0]
        """,
    # ... tensors, and what comes from the arguments, load fine or are not known
    "a class never built here saves tensors and its arguments": """
        import torch
        class Normalizer:
            def __init__(self, size, stats):
                self.mean = torch.zeros(size)
                self.stats = stats
            def save(self, path):
                torch.save([self.mean, self.stats], path)
            def load(self, path):
                self.mean, self.stats = torch.load(path)
        """,
    # setfit's multi-label collate (set 57, az06): multi-hot rows from a binarizer's array
    # `.tolist()`, collated into a 2-D long target: CrossEntropyLoss reads it as probabilities
    "multi-hot rows from tolist made long for cross entropy": """
        import numpy as np
        import torch
        def binarize(label_sets, classes):
            return np.array([[1.0 if c in s else 0.0 for c in classes] for s in label_sets])
        y = binarize([{"a"}, {"b"}], ["a", "b"]).tolist()
        labels = []
        for i in range(2):
            labels.append(y[i])
        labels = torch.Tensor(labels).long()  # expect: DG006
        loss = torch.nn.CrossEntropyLoss()(torch.randn(2, 2), labels)
        """,
    # learning3d's SVDHead (scan 28): a module whose forward reads none of its parameters meets
    # inputs on any device
    "a module whose forward reads none of its parameters": """
        import torch
        import torch.nn as nn
        device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.temperature = nn.Parameter(torch.ones(1))
                self.mode = "softmax"
            def forward(self, a, b):
                if self.training and self.mode == "softmax":
                    return torch.matmul(a, b.transpose(2, 1))
                return self.score(a, b)
            def score(self, a, b):
                return (a * b).sum()
        model = Head()
        a, b = torch.rand(2, 3, 4).to(device), torch.rand(2, 3, 4).to(device)
        model(a, b)
        """,
    # ... and one that reads them, through a method of its own, does not
    "a module whose forward reads its parameter through a method": """
        import torch
        import torch.nn as nn
        device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.temperature = nn.Parameter(torch.ones(1))
            def forward(self, a, b):
                return self.score(a, b)
            def score(self, a, b):
                return torch.matmul(a, b.transpose(2, 1)) * self.temperature
        model = Head()  # expect: DG009
        a, b = torch.rand(2, 3, 4).to(device), torch.rand(2, 3, 4).to(device)
        model(a, b)
        """,
    # `torch.tensor(10, 1024, 3)` raises TypeError (learning3d's PRNet demo, scan 28): nothing flows from it
    "torch.tensor given sizes instead of data": """
        import torch
        src = torch.tensor(10, 1024, 3)
        src.mean()
        """,
    # Class-balanced loss (set 59, bb04): weights made on the CPU times the GPU one-hot labels
    "class weights made on the CPU times GPU one-hot labels": """
        import numpy as np
        import torch
        import torch.nn.functional as F
        device = torch.device("cuda")
        labels = torch.randint(0, 5, (8,)).to(device)
        labels_one_hot = F.one_hot(labels, 5).float()
        weights = torch.tensor(np.ones(5)).float()  # expect: DG009
        weights = weights.unsqueeze(0)
        weights = weights.repeat(labels_one_hot.shape[0], 1) * labels_one_hot
        """,
    # ... a 0-dim CPU tensor is a scalar to a GPU kernel, in arithmetic and as a BCE pos_weight (scan 29)
    "a 0-dim CPU tensor with GPU tensors": """
        import torch
        import torch.nn as nn
        model = nn.Linear(4, 1).cuda()
        scale = torch.tensor(2.0)
        pos_weight = torch.tensor(1.5)
        criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
        x = torch.randn(8, 4).cuda()
        y = torch.ones(8, 1).cuda()
        loss = criterion(model(x) * scale, y)
        """,
    # torchaudio's TimeStretch before audio #457 (set 59, bb02): a plain tensor attribute is not
    # moved by `model.to(device)`, and `[..., None]` keeps its rank known (2)
    "a plain tensor attribute meets the moved model's output": """
        import math
        import torch
        import torch.nn as nn
        class Stretch(nn.Module):
            def __init__(self, n_freq=201):
                super().__init__()
                self.advance = torch.linspace(0, math.pi, n_freq)[..., None]  # expect: DG009
                self.fc = nn.Linear(2, 2)
            def forward(self, x):
                return torch.atan2(self.fc(x)[..., 1], x[..., 0]) - self.advance
        model = Stretch().to("cuda")
        model(torch.randn(4, 201, 10, 2).cuda())
        """,
    # ... registered as a buffer, it moves
    "a buffer meets the moved model's output": """
        import math
        import torch
        import torch.nn as nn
        class Stretch(nn.Module):
            def __init__(self, n_freq=201):
                super().__init__()
                self.register_buffer("advance", torch.linspace(0, math.pi, n_freq)[..., None], persistent=False)
                self.fc = nn.Linear(2, 2)
            def forward(self, x):
                return self.fc(x)[..., 0] - self.advance
        model = Stretch().to("cuda")
        model(torch.randn(4, 201, 10, 2).cuda())
        """,
    # a 0-dim GPU tensor with a CPU vector raises too (only a 0-dim CPU tensor is a scalar to a GPU kernel)
    "a 0-dim GPU tensor meets a CPU vector": """
        import torch
        scale = torch.tensor(2.0).cuda()
        offsets = torch.arange(4.0)  # expect: DG009
        shifted = scale - offsets
        """,
    # graphnet #328 (set 59, bb01): a one-hot target made in the loss on the CPU, predictions on meta
    "a one-hot target made on the CPU against meta predictions": """
        import torch
        import torch.nn as nn
        from torch.nn.functional import cross_entropy, one_hot
        model = nn.Linear(4, 3).to("meta")
        pred = model(torch.randn(8, 4).to("meta"))
        target = one_hot(torch.tensor([0, 1, 2, 1, 0, 2, 1, 0]), 3)  # expect: DG009
        loss = cross_entropy(pred, target.float())
        """,
    # offpolicy's MADDPG critic (set 59, bb03): layers in a plain list are not moved by `self.to(device)`
    "layers in a plain list stay on the CPU": """
        import torch
        import torch.nn as nn
        class Critic(nn.Module):
            def __init__(self, device):
                super().__init__()
                self.mlp = nn.Linear(4, 8)
                self.q_outs = [nn.Linear(8, 1) for _ in range(2)]  # expect: DG009
                self.to(device)
            def forward(self, x):
                x = self.mlp(x)
                return [q(x) for q in self.q_outs]
        critic = Critic(torch.device("meta"))
        critic(torch.randn(8, 4).to("meta"))
        """,
    # hippynn #15 (set 59, bb06): Adagrad makes its state in its constructor, before the model moves
    "Adagrad built before the model moves": """
        import torch
        import torch.nn as nn
        class Controller:
            def __init__(self, optimizer):
                self.optimizer = optimizer
        class Patient(Controller):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
        def train(model, controller):
            if not isinstance(controller, Controller):
                controller = Controller(torch.optim.Adam(model.parameters()))
            model.to("cuda")
            opt = controller.optimizer
            for _ in range(2):
                loss = model(torch.randn(8, 3).cuda()).sum()
                loss.backward()
                opt.step()
        model = nn.Linear(3, 1)
        optimizer = torch.optim.Adagrad(model.parameters(), lr=1e-2)  # expect: DG015
        train(model, Patient(optimizer=optimizer))
        """,
    # ... its state reloaded after the move (hippynn's fix) is on the model's device; Adam makes its state at the first step
    "Adagrad reloaded after the model moves, and Adam built before": """
        import torch
        import torch.nn as nn
        model = nn.Linear(3, 1)
        optimizer = torch.optim.Adagrad(model.parameters(), lr=1e-2)
        other = nn.Linear(3, 1)
        adam = torch.optim.Adam(other.parameters())
        model.to("cuda")
        other.to("cuda")
        optimizer.load_state_dict(optimizer.state_dict())
        for _ in range(2):
            x = torch.randn(8, 3).cuda()
            (model(x).sum() + other(x).sum()).backward()
            optimizer.step()
            adam.step()
        """,
    # SO-Net #37 (set 60, bc01): `+` of bool masks is a logical OR, so the "intersection" is never 2
    "a sum of bool masks compared as a count": """
        import torch
        seg, pred = torch.randint(0, 4, (100,)), torch.randint(0, 4, (100,))
        gt = seg == 1
        predict = pred == 1
        intersection = (gt + predict) == 2  # expect: DG004
        union = (gt + predict) >= 1
        """,
    # ... counted in integers, or a union (`>= 1`) of bool masks, is right
    "a sum of masks counted in integers": """
        import torch
        gt, predict = torch.rand(100) > 0.5, torch.rand(100) > 0.5
        intersection = (gt.int() + predict.int()) == 2
        union = (gt + predict) >= 1
        both = (gt & predict).sum()
        """,
    # ultralytics #15782 (set 60, bc02): uint8 masks multiplied in uint8 wrap above 255
    "uint8 masks multiplied": """
        import numpy as np
        import torch
        H = W = 96
        def ellipse(cy, cx, r):
            yy, xx = np.mgrid[:H, :W]
            return (((yy - cy) ** 2 + (xx - cx) ** 2) <= r * r).astype(np.uint8)
        masks = torch.from_numpy(np.stack([ellipse(40, 40, 20), ellipse(50, 50, 18)])).view(2, -1)
        inter = torch.matmul(masks, masks.T)  # expect: DG004
        inter_f = torch.matmul(masks.float(), masks.float().T)
        """,
    # trojanzoo #72 (set 60, bc04): float64 class-count weights through a cache, a `**kwargs`
    # check and a converter that passes its caller's dtype
    "class weights from np.bincount through a cache and a converter": """
        import os
        import numpy as np
        import torch
        import torch.nn as nn
        def to_tensor(x, dtype=None, device="cpu"):
            if x is None:
                return None
            if isinstance(x, (list, tuple)):
                x = torch.stack(x)
            return torch.as_tensor(x, dtype=dtype).to(device=device)
        def get_loss_weights(targets, file_path):
            if os.path.exists(file_path):
                return np.load(file_path)
            counts = np.bincount(targets)
            weights = counts.sum() / counts
            np.save(file_path, weights)
            return weights
        class Model:
            def __init__(self, weights=True, **kwargs):
                lw = None if "loss_weights" not in kwargs.keys() else kwargs["loss_weights"]
                if isinstance(weights, bool):
                    lw = get_loss_weights(np.repeat(np.arange(4), 3), "w.npy") if weights else None
                self.criterion = nn.CrossEntropyLoss(weight=to_tensor(lw))  # expect: DG006
                self.net = nn.Linear(8, 4)
        m = Model()
        out = m.net(torch.randn(12, 8))
        loss = m.criterion(out, torch.randint(0, 4, (12,)))
        """,
    # riiid (scan 30): each Embedding gets a cast column of the float batch, so the model takes floats
    "embeddings of cast columns of a float batch": """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(10, 4)
                self.fc = nn.Linear(6, 1)
            def forward(self, x):
                return self.fc(torch.cat([self.emb(x[:, 0].long()), x[:, 1:3]], 1))
        out = Net()(torch.ones(2, 3))
        """,
    # Feedback_1st (scan 30): the device is a command-line option, so the script runs on both
    "a device option and a load without map_location": """
        import argparse
        import torch
        import torch.nn as nn
        parser = argparse.ArgumentParser()
        parser.add_argument("--device", type=str, default="cuda")
        args = parser.parse_args()
        model = nn.Linear(4, 2)
        model.to(args.device)
        model.load_state_dict(torch.load("fold0.pt"))  # expect: DG010
        """,
    # g2net's CWT (scan 30): a float64 filter bank given by keyword to nn.Parameter meets float32 input
    "a float64 nn.Parameter(data=...) weight in F.conv1d": """
        import numpy as np
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        class Bank(nn.Module):
            def __init__(self):
                super().__init__()
                self.w = nn.Parameter(data=torch.from_numpy(np.ones((4, 1, 9))))  # expect: DG004
            def forward(self, x):
                return F.conv1d(x, self.w)
        Bank()(torch.randn(2, 1, 64))
        """,
    # SASRec on torch #147209 (set 62): a 0/1 float padding mask is added to the scores in training
    "a padding mask cast to float": """
        import torch
        import torch.nn as nn
        enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 1)
        seq = torch.randint(0, 5, (2, 6))
        h = torch.randn(2, 6, 8)
        pad_mask = (seq == 0).float()  # expect: DG004
        out = enc(h, src_key_padding_mask=pad_mask)
        out2 = enc(h, src_key_padding_mask=seq == 0)
        additive = torch.zeros(2, 6).masked_fill(seq == 0, float("-inf"))
        out3 = enc(h, src_key_padding_mask=additive)
        """,
    # UniLM #30 (set 62): `torch.div` of ids is true division; with a rounding mode it stays int64
    "torch.div of indices used in gather": """
        import torch
        x = torch.randn(2, 9)
        scores, ids = torch.topk(x, k=3)
        back = torch.div(ids, 3)  # expect: DG006
        picked = torch.gather(x, 1, back)
        floor = torch.div(ids, 3, rounding_mode="floor")
        picked2 = torch.gather(x, 1, floor)
        """,
    # TRADES (scan 31): a hard-coded `.cuda()` on the input of a model whose device is chosen at run time
    "a hard-coded .cuda() input to a model on the available device": """
        import torch
        import torch.nn as nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        net = nn.Linear(4, 2).to(device)
        x = torch.rand(3, 4).cuda()  # expect: DG009
        out = net(x)
        y = torch.rand(3, 4).to(device)
        out = net(y)
        """,
    # rethinking-network-pruning (scan 31): zero padding moved to CUDA only when the input is a CUDA
    # tensor, inside a ResNet whose blocks run as stages of an nn.Sequential
    "padding moved only when the input is a CUDA tensor": """
        import torch
        import torch.nn as nn
        from functools import partial
        def downsample(x, planes):
            x = nn.AvgPool2d(2, 2)(x)
            pads = torch.Tensor(x.size(0), planes - x.size(1), x.size(2), x.size(3)).zero_()
            if isinstance(x.data, torch.cuda.FloatTensor):
                pads = pads.cuda()
            return torch.cat([x.data, pads], dim=1)
        class Block(nn.Module):
            def __init__(self, cin, cout, down=None):
                super().__init__()
                self.conv = nn.Conv2d(cin, cout, 3, stride=2 if down else 1, padding=1)
                self.down = down
            def forward(self, x):
                res = self.down(x) if self.down is not None else x
                return self.conv(x) + res
        net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), Block(8, 16, partial(downsample, planes=16)), Block(16, 16))
        y = net(torch.FloatTensor(2, 3, 8, 8))
        """,
    # ACmix in YOLOv7 (set 61, bd04): the blocks of an nn.Sequential run their own forwards, and a
    # float32 grid made in one of them meets the model cast with `.half()` for validation
    "a float32 grid made inside a block of a half model": """
        import torch
        import torch.nn as nn
        def position(h, w):
            return torch.linspace(-1.0, 1.0, w).unsqueeze(0).repeat(h, 1)[None, None]  # expect: DG004
        class Mix(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv_p = nn.Conv2d(1, 4, 1)
            def forward(self, x):
                return x + self.conv_p(position(x.shape[2], x.shape[3]))
        model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), Mix())
        model.half()
        out = model(torch.zeros(2, 3, 8, 8).half())
        """,
    # a residual block's output under autocast stays an autocast output through the Sequential (af07)
    "residual blocks under autocast feed a float32 head outside it": """
        import torch
        import torch.nn as nn
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv, self.bn = nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8)
            def forward(self, x):
                return torch.relu(self.bn(self.conv(x)) + x)
        backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), Block(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        fc = nn.Linear(8, 2)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            features = backbone(torch.randn(2, 3, 8, 8))  # expect: DG017
        out = fc(features)
        """,
    # a closure returned by a factory reads its maker's values, bound once there (set 64's torchdde interpolation)
    "a closure returned by its factory multiplies by the float64 scale it was made with": """
        import numpy as np
        import torch
        import torch.nn as nn
        def make_scaler(scale):
            def apply(x):
                return x * scale
            return apply
        scale = torch.from_numpy(np.ones(3))  # expect: DG004
        f = make_scaler(scale)
        layer = nn.Linear(3, 1)
        out = layer(f(torch.ones(2, 3)))
        """,
    # Python closures bind late: the maker rebinds the name after the def, so the closure sees the float32 one
    "a closure whose maker rebinds the name after the def reads the later value": """
        import numpy as np
        import torch
        import torch.nn as nn
        def make_scaler(scale):
            def apply(x):
                return x * scale
            scale = torch.ones(3)
            return apply
        layer = nn.Linear(3, 1)
        out = layer(make_scaler(torch.from_numpy(np.ones(3)))(torch.ones(2, 3)))
        """,
    # torchdde's `ys = torch.empty(...)` filled with a float64 solution for a float64 readout (set 64's bg02):
    # the buffer's default dtype is the mistake, not the readout's `.double()`
    "a default-dtype buffer filled with float64 states meets a float64 readout": """
        import torch
        import torch.nn as nn
        def solve(y0, steps):
            ys = torch.empty(steps, y0.shape[0], y0.shape[1])  # expect: DG004
            y = y0
            for i in range(steps):
                y = y * 0.5
                ys[i] = y
            return ys
        y0 = torch.ones(4, 2, dtype=torch.float64)
        readout = nn.Linear(2, 1).double()
        out = readout(solve(y0, 3))
        """,
    # pytorch-DRL (scan 33): the legacy type chosen by availability makes tensors on the GPU when there is one;
    # only the actor is moved, so the critic meets GPU states
    "a FloatTensor type chosen by CUDA availability feeds a critic never moved": """
        import torch
        import torch.nn as nn
        use_cuda = torch.cuda.is_available()
        FloatTensor = torch.cuda.FloatTensor if use_cuda else torch.FloatTensor
        actor = nn.Linear(4, 2)
        critic = nn.Linear(4, 1)  # expect: DG009
        if use_cuda:
            actor.cuda()
        states = FloatTensor([[0.1, 0.2, 0.3, 0.4]])
        print(actor(states).sum() + critic(states).sum())
        """,
    # pytorch-DRL (scan 33): `super(DQN, self).__init__(...)` sets the flag that guards both `.cuda()` and `.cpu()`
    "a flag set through super(Cls, self).__init__ guards the move and the numpy conversion": """
        import torch
        import torch.nn as nn
        class Agent(object):
            def __init__(self, use_cuda=True):
                self.use_cuda = use_cuda and torch.cuda.is_available()
        class DQN(Agent):
            def __init__(self, use_cuda=True):
                super(DQN, self).__init__(use_cuda)
                self.actor = nn.Linear(4, 2)
                if self.use_cuda:
                    self.actor.cuda()
            def action(self, state):
                out = self.actor(torch.tensor([state], device="cuda" if self.use_cuda else "cpu"))
                if self.use_cuda:
                    return out.data.cpu().numpy()[0]
                else:
                    return out.data.numpy()[0]
        print(DQN().action([0.1, 0.2, 0.3, 0.4]))
        """,
    # VGCN-BERT (set 66): class weights from counts of a label mask (`np.sum(y == i)` is int64), divided into
    # NumPy float64 scalars, passed third to F.cross_entropy
    "class weights counted with np.sum and passed positionally to cross_entropy": """
        import numpy as np
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        y = np.random.choice(3, size=100, p=[0.6, 0.3, 0.1])
        weight = [len(y) / (3 * np.sum(y == i)) for i in range(3)]
        loss_weight = torch.tensor(weight)  # expect: DG006
        logits = nn.Linear(4, 3)(torch.randn(100, 4))
        loss = F.cross_entropy(logits, torch.from_numpy(y), loss_weight)
        """,
    # intro-llm's positional encoder (set 65): a hard-coded `.cuda()` added to activations on the device chosen
    # by availability raises "Torch not compiled with CUDA enabled" on a CPU-only machine
    "a hard-coded .cuda() added to activations on the device chosen by availability": """
        import torch
        import torch.nn as nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        emb = nn.Embedding(10, 4).to(device)
        x = emb(torch.tensor([[1, 2]]).to(device))
        pe = torch.zeros(1, 2, 4)
        y = x + pe.cuda()  # expect: DG009
        """,
    # the same `.cuda()` where the script has checked for a GPU: it runs only where there is one
    "a .cuda() under a CUDA availability test added to activations on the chosen device": """
        import torch
        import torch.nn as nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        emb = nn.Embedding(10, 4).to(device)
        x = emb(torch.tensor([[1, 2]]).to(device))
        pe = torch.zeros(1, 2, 4)
        if torch.cuda.is_available():
            y = x + pe.cuda()
        else:
            y = x + pe
        """,
    # pystiche's rotation (set 66): a matrix built from NumPy cosines is float64; chain_matmul/multi_dot refuse mixed dtypes
    "a float64 rotation matrix in chain_matmul with float32 matrices": """
        import numpy as np
        import torch
        a = torch.ones(3, 3)
        r = torch.tensor(((np.cos(0.5), 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)))  # expect: DG004
        m = torch.linalg.multi_dot([a, a, r])
        """,
    # set 8's multi-label pos_weight: a comparison with a list written out keeps the array's rank
    # (2-D), so the column sums are 1-D and the CPU pos_weight is a vector, not a scalar
    "a pos_weight from column sums of a thresholded 2-D array, left on the CPU": """
        import numpy as np
        import torch
        import torch.nn as nn
        rng = np.random.default_rng(0)
        labels = (rng.random((128, 2)) < [0.3, 0.1]).astype(np.float32)
        positives = labels.sum(0)
        pos_weight = torch.tensor((len(labels) - positives) / np.maximum(positives, 1), dtype=torch.float32)
        criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)  # expect: DG009
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(8, 2).to(device)
        loss = criterion(model(torch.zeros(4, 8, device=device)), torch.zeros(4, 2, device=device))
        """,
    # the same with a 0-dim pos_weight (a sum of all): a CPU scalar is allowed with CUDA tensors
    "a scalar pos_weight from the sum of a thresholded 2-D array, left on the CPU": """
        import numpy as np
        import torch
        import torch.nn as nn
        rng = np.random.default_rng(0)
        labels = (rng.random((128, 2)) < [0.3, 0.1]).astype(np.float32)
        positives = labels.sum()
        pos_weight = torch.tensor((len(labels) - positives) / np.maximum(positives, 1), dtype=torch.float32)
        criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(8, 2).to(device)
        loss = criterion(model(torch.zeros(4, 8, device=device)), torch.zeros(4, 2, device=device))
        """,
    # FARM's optional class weights (set 54): a tensor on one path and None on the other is that
    # tensor where a loss uses it (CrossEntropyLoss(weight=None) is the other path, which runs)
    "an optional float64 class weight given to a float32 cross-entropy": """
        import sys
        import torch
        import torch.nn as nn
        weights = None
        if len(sys.argv) > 1:
            weights = torch.tensor([1.0, 2.0], dtype=torch.float64)  # expect: DG006
        criterion = nn.CrossEntropyLoss(weight=weights)
        loss = criterion(torch.zeros(2, 2), torch.tensor([0, 1]))
        """,
    # whether it is None is not known: the branch for None runs too
    "the branch for an optional weight that is None": """
        import sys
        import torch
        import torch.nn as nn
        model = nn.Linear(3, 2)
        weights = None
        if len(sys.argv) > 1:
            weights = torch.tensor([1.0, 2.0])
        if weights is None:
            out = model(torch.zeros(2, 3, dtype=torch.float64))  # expect: DG004
        """,
    # the conversion under `is not None` may run, so the weight's dtype after it is not known
    "an optional float64 class weight converted when it is not None": """
        import sys
        import torch
        import torch.nn as nn
        weights = None
        if len(sys.argv) > 1:
            weights = torch.tensor([1.0, 2.0], dtype=torch.float64)
        if weights is not None:
            weights = weights.float()
        criterion = nn.CrossEntropyLoss(weight=weights)
        loss = criterion(torch.zeros(2, 2), torch.tensor([0, 1]))
        """,
    # pystiche (set 66): `height, width = tuple(image.shape[-2:])` are ints, so the centre is two
    # Python floats and the translation matrix built from it is float32 against the float64 rotation
    "sizes unpacked from a shape slice make a float32 matrix": """
        import numpy as np
        import torch
        def translation(point):
            y, x = point
            return torch.tensor(((1.0, 0.0, x), (0.0, 1.0, y), (0.0, 0.0, 1.0)))
        def center(image):
            height, width = tuple(image.shape[-2:])
            return height / 2.0, width / 2.0
        rotation = torch.tensor(((np.cos(0.3), 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)))  # expect: DG004
        m = torch.chain_matmul(translation(center(torch.zeros(1, 3, 8, 8))), rotation)
        """,
    # espnet's speaker lists (set 67): `spk2utt[s].append(utt)` grows the list held in the dict, so
    # the loop over it runs (it was taken as the empty list it started as)
    "a loop over lists grown inside a dict runs": """
        import numpy as np
        import torch
        import torch.nn as nn
        model = nn.Linear(4, 2)
        spk2utt = {}
        for s in ("a", "b"):
            spk2utt[s] = []
            for u in range(2):
                spk2utt[s].append(f"{s}{u}")
        for speaker in spk2utt:
            for utt in spk2utt[speaker]:
                wav = np.zeros(4, dtype=np.int16)
                x = torch.from_numpy(wav / 5.0)  # expect: DG004
                out = model(x)
        """,
    # `torch.arange` with its bounds by keyword, or a 0-dim float tensor: the default float dtype
    "float aranges by keyword and from a 0-dim tensor are not indices": """
        import torch
        import torch.nn as nn
        emb = nn.Embedding(10, 4)
        a = emb(torch.arange(start=0.0, end=4))  # expect: DG005
        b = emb(torch.arange(torch.tensor(3.0)))  # expect: DG005
        c = emb(torch.arange(start=0, end=4))
        d = emb(torch.arange(torch.tensor(3)))
        """,
    # YOLOv6's Inferer (set 68): `self.__dict__.update(locals())` makes every parameter an attribute;
    # the local `half = False` written after it does not change `self.half`
    "attributes set from locals() keep a half flag the method then resets only locally": """
        import torch
        import torch.nn as nn
        class Inferer:
            def __init__(self, half):
                self.__dict__.update(locals())
                self.model = nn.Conv2d(3, 4, 1)
                half = False
            def infer(self, img):
                img = img.half() if self.half else img.float()  # expect: DG004
                return self.model(img)
        Inferer(True).infer(torch.zeros(1, 3, 4, 4))
        """,
    # NASBench's cell (set 68): `.to(x.device)` of a device not known moves, it does not cast, and
    # `acc += val` keeps the accumulator's dtype whatever `val` is
    "a float32 accumulator moved to a device read off a parameter, fed to a float64 layer": """
        import torch
        import torch.nn as nn
        class Cell(nn.Module):
            def __init__(self):
                super().__init__()
                self.dev_param = nn.Parameter(torch.empty(0))
                self.conv = nn.Conv2d(2, 2, 1)
            def forward(self, parts):
                acc = torch.zeros(parts[0].shape).to(self.dev_param.device)  # expect: DG004
                for p in parts:
                    acc += p
                return self.conv(acc)
        cell = Cell().double()
        out = cell([torch.zeros(1, 2, 3, 3, dtype=torch.float64)])
        """,
    # speechbrain's Resample (set 67): `F.conv1d(input=..., weight=...)` by keyword; the filter's
    # width `num.max()` is a 0-dim float tensor, so `torch.arange` of it is float32
    "a float64 waveform in a keyword conv1d with float32 filters built from a full reduction": """
        import numpy as np
        import torch
        import torch.nn.functional as F
        pcm = np.zeros(64, dtype=np.int16)
        wave = torch.from_numpy(pcm / 3.0)[None, None]  # expect: DG004
        widths = torch.tensor([3.0, 5.0])
        taps = torch.arange(widths.max())
        out = F.conv1d(input=wave, weight=taps.view(1, 1, -1))
        """,
    "a parameter handed float64 NumPy storage with set_ is refused at the array's promotion, and copy_ converts": """
        import numpy as np
        import torch
        import torch.nn as nn
        lin = nn.Linear(4, 4)
        emb = nn.Embedding(6, 4)
        sigma = np.sqrt(6.0 / 8)
        m = np.random.rand(4, 4).astype("float32") * 2 * sigma - sigma  # expect: DG004
        ok = np.random.rand(6, 4).astype("float32")
        with torch.no_grad():
            emb.weight.set_(torch.tensor(ok))
            lin.weight.copy_(torch.tensor(m))
            lin.weight.set_(torch.tensor(m))
    """,
    "a map_location lambda that moves every storage to the GPU is a CUDA map location; one that keeps them is not": """
        import torch
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = torch.nn.Linear(2, 2).to(device)
        def resume(path):
            model.load_state_dict(torch.load(path, map_location=lambda storage, loc: storage.cuda(device=0)))  # expect: DG010
        def evaluate(path):
            model.load_state_dict(torch.load(path, map_location=lambda storage, loc: storage))
    """,
    "an integer tensor made a parameter cannot require gradients; a frozen one or a float fill can": """
        import torch
        import torch.nn as nn
        class Policy(nn.Module):
            def __init__(self, n, initial_log_std=0):
                super().__init__()
                self.fc = nn.Linear(4, n)
                self.mask = nn.Parameter(torch.ones(n, dtype=torch.uint8), requires_grad=False)
                self.scale = nn.Parameter(torch.full((n,), 0.5))
                self.log_std = nn.Parameter(torch.full(size=(n,), fill_value=initial_log_std))  # expect: DG005
        Policy(2)
    """,
    "an upcast inside a bfloat16 model's forward that reaches its next layer is where the fix goes": """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        class GatedNorm(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.weight = nn.Parameter(torch.ones(n))
            def forward_native(self, x, gate):
                return x * F.silu(gate.to(torch.float32))  # expect: DG004
            def forward(self, x, gate):
                return self.forward_native(x, gate)
        class Mixer(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.in_proj = nn.Linear(n, 2 * n, bias=False)
                self.norm = GatedNorm(n)
                self.out_proj = nn.Linear(n, n, bias=False)
            def forward(self, h):
                gate, x = self.in_proj(h).chunk(2, dim=-1)
                return self.out_proj(self.norm(x, gate))
        model = Mixer(8).to(torch.bfloat16)
        model(torch.randn(2, 8, dtype=torch.bfloat16))
    """,
    "a model moved to the GPU only under a user's CUDA flag runs on both: its CPU path loads without map_location": """
        import argparse
        import torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--no_cuda", action="store_true")
        parser.add_argument("--pretrain_path", default="")
        opt = parser.parse_args()
        model = torch.nn.Linear(2, 2)
        if not opt.no_cuda:
            model = model.cuda()
            if opt.pretrain_path:
                model.load_state_dict(torch.load(opt.pretrain_path, map_location=torch.device("cpu")))
        else:
            if opt.pretrain_path:
                model.load_state_dict(torch.load(opt.pretrain_path))  # expect: DG010
    """,
    "a load under the CUDA flag runs where there is a GPU, and the else branch maps to the CPU": """
        import torch
        USE_CUDA = torch.cuda.device_count() > 0
        encoder = torch.nn.GRU(4, 4)
        def load(path):
            if USE_CUDA:
                trained = torch.load(path + "/enc.th")
            else:
                trained = torch.load(path + "/enc.th", lambda storage, loc: storage)
            encoder.load_state_dict(trained)
        if USE_CUDA:
            encoder.cuda()
    """,
    "a CUDA flag says nothing when the script moves its batches to the GPU whatever the flag": """
        import argparse
        import torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--cuda", default=True, action="store_false")
        parser.add_argument("--init", default="")
        args = parser.parse_args()
        model = torch.nn.Linear(2, 2)
        if args.init:
            model.load_state_dict(torch.load(args.init))
        if args.cuda:
            model.cuda()
        def step(xs):
            x = torch.FloatTensor(xs).cuda()
            return model(x)
    """,
    "integer tensors asked to require gradients are refused where they are made; float ones and a False flag are fine": """
        import torch
        weights = torch.zeros(3, requires_grad=True)
        frozen = torch.arange(4).requires_grad_(False)
        noise = torch.randn(3).requires_grad_()
        ids = torch.tensor([1, 2], requires_grad=True)  # expect: DG005
        steps = torch.arange(4).requires_grad_()  # expect: DG005
    """,
    "a namedtuple saved whole is refused by a weights-only load, and its CPU fields need no map_location": """
        import os
        import torch
        from collections import namedtuple
        Manifold = namedtuple("Manifold", ["features", "kth"])
        class Builder:
            def __init__(self, device):
                self.features = torch.randn(8, 4, device=device).cpu()
            def save(self, path):
                torch.save(Manifold(self.features, self.features.norm(dim=1)), path)  # expect: DG011
        device = "cuda" if torch.cuda.is_available() else "cpu"
        if not os.path.exists("m.pt"):
            Builder(device).save("m.pt")
        else:
            m = torch.load("m.pt")
    """,
    "a tensor tested with isinstance against a CUDA tensor type and moved to the CPU when it is one": """
        import torch
        CUDATensor = torch.cuda.FloatTensor
        def show(t):
            t = t.cpu() if isinstance(t, CUDATensor) else t
            return t.numpy()
        x = torch.randn(4).cuda() if torch.cuda.is_available() else torch.randn(4)
        show(x)
    """,
    "a map_location that is the device the user chose for the model is not a fixed CUDA location": """
        import argparse
        import torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--device", default="cuda:0", type=str)
        args = parser.parse_args()
        device = torch.device(args.device)
        model = torch.nn.Linear(2, 2).to(device)
        def load(path):
            model.load_state_dict(torch.load(path, map_location=device))
        def load_fixed(path):
            model.load_state_dict(torch.load(path, map_location=torch.device("cuda:0")))  # expect: DG010
    """,
    "a .cuda() copied into the else of torch.cuda.is_available() raises on the machine that runs it": """
        import torch
        model = torch.nn.Linear(4, 2)
        if torch.cuda.is_available():
            model.cuda()
        def evaluate(batches):
            for batch in batches:
                if torch.cuda.is_available():
                    batch = [x.cuda() for x in batch]
                else:
                    batch = [x.cuda() for x in batch]  # expect: DG009
                x, y = batch
                model(x)
        def predict(x):
            x = x.cuda() if torch.cuda.is_available() else x
            return model(x)
        evaluate([(torch.randn(3, 4), torch.zeros(3))])
        predict(torch.randn(3, 4))
    """,
    "a forward replaced on the instance runs instead of the class's: a wrapper that casts inputs, a switched method": """
        import functools
        import torch
        import torch.nn as nn
        def amp_initialize(model):
            model.half()
            forward = model.forward
            @functools.wraps(forward)
            def new_fwd(*args, **kwargs):
                cast = [a.half() if torch.is_tensor(a) and a.is_floating_point() else a for a in args]
                return forward(*cast, **kwargs)
            model.forward = new_fwd
            return model
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)
                self.forward = self.forward_train
            def forward_train(self, x):
                return self.fc(x)
            def forward(self, x):
                return self.fc(x.float())
        half = amp_initialize(nn.Linear(4, 2))
        half(torch.randn(3, 4))
        net = Net()
        net(torch.randn(3, 4, dtype=torch.float64))  # expect: DG004
    """,
    "a number written through a uint8 mask is refused; a bool mask, int64 indices and uint8 reads are fine": """
        import numpy as np
        import torch
        dones = np.zeros(4, dtype=np.uint8)
        q_next = torch.randn(4)
        idx = torch.tensor([0, 2])
        q_next[idx] = 0.0
        q_next[torch.from_numpy(dones).bool()] = 0.0
        picked = q_next[torch.from_numpy(dones).bool()]
        done_mask = torch.ByteTensor(dones)  # expect: DG004
        q_next[done_mask] = 0.0
    """,
    "a module's method that moves self moves its parameters, also where no code here builds it": """
        import torch
        import torch.nn as nn
        class Scaled(nn.Module):
            def __init__(self):
                super().__init__()
                self.t = nn.Parameter(torch.ones(1) * 0.5)
            def scale(self, logits):
                return logits / self.t
            def calibrate(self, xs):
                self.cuda()
                logits = torch.cat(xs).cuda()
                return self.scale(logits)
    """,
    "integer class weights are refused by the loss like float64 ones": """
        import numpy as np
        import torch
        import torch.nn as nn
        y = np.concatenate([np.full(n, c) for c, n in enumerate([40, 10, 2])])
        counts = np.bincount(y)
        fine = torch.from_numpy(counts.max() / counts).float()
        ok = nn.CrossEntropyLoss(weight=fine)(torch.randn(52, 3), torch.from_numpy(y))
        class_weights = counts.max() // counts
        criterion = nn.CrossEntropyLoss(weight=torch.from_numpy(class_weights))  # expect: DG006
        loss = criterion(torch.randn(52, 3), torch.from_numpy(y))
    """,
    "a forward that converts an input through a helper of the project moves it itself; a nested dict item is reassigned": """
        import numpy as np
        import torch
        import torch.nn as nn
        def totensor(data, cuda=True):
            tensor = data.detach()
            if cuda:
                tensor = tensor.cuda()
            return tensor
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(5, 2)
            def forward(self, rois, roi_indices):
                roi_indices = totensor(roi_indices).float()
                return self.fc(torch.cat([roi_indices[:, None], totensor(rois)], dim=1))
        def run():
            head = Head().cuda()
            out = head(torch.rand(3, 4).cuda(), torch.zeros(3))
            model = nn.Linear(4, 2).to("cuda")
            imgs = {1: {"image": torch.from_numpy(np.zeros((1, 4), np.float32))}}
            for scale in imgs:
                imgs[scale]["image"] = imgs[scale]["image"].to("cuda")
                out = model(imgs[scale]["image"])
    """,
    "a GPU that only an option's default puts on the path: the run with the option off loads on the CPU": """
        import argparse
        import torch
        import torch.nn as nn
        p = argparse.ArgumentParser()
        p.add_argument("--gpu", type=int, default=0)
        p.add_argument("--ckpt", type=str)
        args = p.parse_args()
        model = nn.Linear(2, 2)
        if args.gpu >= 0:
            model.cuda(args.gpu)
        state = torch.load(args.ckpt)  # expect: DG010
        model.load_state_dict(state["model_state_dict"])
    """,
    "a random-gated augmentation runs on some steps: its float64 noise reaches the model (MONAI #356, dgbpy #14)": """
        import random
        import numpy as np
        import torch
        import torch.nn as nn
        class Noise:
            def __init__(self, p=0.5):
                self.p = float(p)
            def __call__(self, img):
                if random.random() > self.p:
                    return img
                return img + np.random.normal(0, 0.1, size=img.shape)  # expect: DG004
        class Flip:
            def __init__(self, prob):
                self.prob = prob
                self.R = np.random.RandomState(0)
            def __call__(self, img):
                self.go = self.R.random() < self.prob
                return np.ascontiguousarray(img[None][..., ::-1]) if self.go else img[None]
        class Compose:
            def __init__(self, names):
                self.ts = []
                for name in names:
                    self.ts.append(KINDS[name](0.5))
            def __call__(self, x):
                for t in self.ts:
                    x = t(x)
                return x
        KINDS = {"flip": Flip, "noise": Noise}
        chosen = {"flip": 1, "noise": 2}
        aug = Compose(["flip", "noise"]) if chosen else None
        img = np.zeros((8, 8), np.float32)
        x = torch.from_numpy(aug(img))[None]
        if torch.is_tensor(img):
            x = x.float()
        out = nn.Conv2d(1, 2, 3)(x)
    """,
    "an augmentation that never runs (p=0), or whose probability is unknown, is not followed": """
        import random
        import sys
        import numpy as np
        import torch
        import torch.nn as nn
        def noise(img, p):
            if np.random.uniform(0, 1) < p:
                img = img + np.random.normal(0, 0.1, size=img.shape)
            return img
        img = np.zeros((1, 8, 8), np.float32)
        out = nn.Conv2d(1, 2, 3)(torch.from_numpy(noise(img, 0.0))[None])
        out = nn.Conv2d(1, 2, 3)(torch.from_numpy(noise(img, float(sys.argv[0] == "x")))[None])
        out = nn.Conv2d(1, 2, 3)(torch.from_numpy(noise(img, 1.0).astype(np.float32))[None])
    """,
    "torchvision's `if torch.rand(1) < self.p:` gates an augmentation that runs on some steps; the analysis goes on along the side most steps take": """
        import numpy as np
        import torch
        import torch.nn as nn
        class Noise(nn.Module):
            def __init__(self, p=0.5):
                super().__init__()
                self.p = p
            def forward(self, img):
                if torch.rand(1).item() >= self.p:
                    return img
                return img + torch.from_numpy(np.random.normal(0, 0.1, size=(2, 3)))  # expect: DG004
        class Never(Noise):
            def forward(self, img):
                if torch.rand(1) < 0:
                    img = img + torch.from_numpy(np.random.normal(0, 0.1, size=(2, 3)))
                return img
        y = nn.Linear(3, 2)(Noise()(torch.zeros(2, 3)))
        z = nn.Linear(3, 2)(Never()(torch.zeros(2, 3)))
        w = nn.Linear(3, 2)(Noise(p=0.2)(torch.zeros(2, 3)))  # (most steps skip it: not followed)
    """,
    "a layer attached after the model was frozen is trained: made float16 with it, a GradScaler refuses it; made float32 again, it does not": """
        import torch
        import torch.nn as nn
        class Lora(nn.Module):
            def __init__(self, base):
                super().__init__()
                self.base = base
                self.a = nn.Linear(4, 4, bias=False)
                self.a.to(dtype=base.weight.dtype)
            def forward(self, x):
                return self.base(x) + self.a(x)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.q = nn.Linear(4, 4)
            def forward(self, x):
                return self.q(x)
        def train(net):
            opt = torch.optim.SGD([p for p in net.parameters() if p.requires_grad], lr=0.1)
            scaler = torch.amp.GradScaler("cpu")
            with torch.autocast("cpu", dtype=torch.float16):
                loss = net(torch.randn(2, 4)).float().sum()
            scaler.scale(loss).backward()
            scaler.step(opt)
        net = Net()
        net.requires_grad_(False)
        net.q = Lora(net.q)
        net.to(dtype=torch.float16)  # expect: DG014
        train(net)
        unet = Net()
        unet.requires_grad_(False)
        unet.to(dtype=torch.float16)
        unet.q = Lora(unet.q)
        for param in unet.parameters():
            if param.requires_grad:
                param.data = param.to(torch.float32)
        train(unet)
        frozen = Net().half()
        frozen.requires_grad_(False)
        frozen.extra = nn.Linear(4, 4)  # (attached in a way followed: a float32 part, trained)
    """,
    "an indexed assignment through an index tensor takes only values of the tensor's dtype (open-unmix #89)": """
        import torch
        y = torch.zeros(4, 3, dtype=torch.float64)
        t = torch.arange(0, 2)
        y[1:3] = torch.tensor(0.0)
        y[1] = torch.tensor([1.0, 2.0, 3.0])
        y[t] = 0.0
        y[t, ...] = torch.tensor(0.0, dtype=torch.float64)
        y[t, ...] = torch.tensor(0.0)  # expect: DG004
    """,
    "a dict's copy, and a dict filled under keys a loop does not name, still hold the NumPy numbers saved (MAML++, scan 40)": """
        import numpy as np
        import torch
        def summary(losses):
            out = {}
            for key in losses:
                out[key] = np.mean(losses[key])  # expect: DG011
            return out
        def run(path, keys):
            state = {"acc": np.mean([0.7, 0.8])}  # expect: DG011
            torch.save(state.copy(), path + "a.pt")
            torch.load(path + "a.pt")
            torch.save(summary({k: [0.7, 0.8] for k in keys}), path + "b.pt")
            torch.load(path + "b.pt")
        run("/tmp/", ["accuracy", "loss"])
    """,
    "a default set to build one model in float64 and put back in `finally:` is not set after that model (deepmd's get_model)": """
        import torch
        import torch.nn as nn
        def get_model(precision):
            previous = torch.get_default_dtype()
            try:
                if precision == "float64":
                    torch.set_default_dtype(torch.float64)
                return nn.Linear(2, 2)
            finally:
                torch.set_default_dtype(previous)
        params = {"precision": "float64"}
        m = get_model(params.copy().pop("precision"))
        out = m(torch.zeros(1, 2, dtype=torch.float64))
    """,
    "a trajectory transposed with `list(map(list, zip(*traj)))`, its tail restacked by a slice write, keeps each column (ElegantRL, set 73)": """
        import torch
        traj = []
        for step in range(3):
            traj.append((torch.zeros(2), torch.rand(2) > 0.5, torch.ones(2), torch.ones(2, 3)))
        items = list(map(list, zip(*traj)))
        items[0] = torch.stack(items[0])
        items[3:] = [torch.stack(item) for item in items[3:]]
        masks = ((1 - torch.stack(items[2])) * 0.99).unsqueeze(2)
        undone = ((1 - torch.stack(items[1])) * 0.99).unsqueeze(2)  # expect: DG004
    """,
    "a table of Python ints divided by floats is float32; an indexed write of its own values is fine (PapersReimplementations #9)": """
        import torch
        n, d = 6, 4
        embedding = torch.tensor([[i / 10_000 ** (2 * j / d) for j in range(d)] for i in range(n)])
        sin_mask = torch.arange(0, n, 2)
        embedding[sin_mask] = torch.sin(embedding[sin_mask])
        counts = torch.tensor([[i * j for j in range(d)] for i in range(n)])  # expect: DG004
        counts[sin_mask] = torch.sin(embedding[sin_mask])
    """,
    "a classifier head rebuilt after the model is cast to float64 is the odd layer: its creation is the root (timm reset_classifier, set 76)": """
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Linear(4, 8)
                self.head = nn.Linear(8, 10)
            def reset_classifier(self, n):
                self.head = nn.Linear(8, n)  # expect: DG004
            def forward(self, x):
                return self.head(self.body(x))
        model = Net()
        model.to(torch.float64)
        model.reset_classifier(3)
        model(torch.zeros(2, 4, dtype=torch.float64))
    """,
    "a head rebuilt after the cast and cast again, or rebuilt before it, or made with the model's dtype, is fine": """
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Linear(4, 8)
                self.head = nn.Linear(8, 10)
            def reset_classifier(self, n, dtype=None):
                self.head = nn.Linear(8, n, dtype=dtype)
            def forward(self, x):
                return self.head(self.body(x))
        x = torch.zeros(2, 4, dtype=torch.float64)
        a = Net()
        a.to(torch.float64)
        a.reset_classifier(3)
        a.to(torch.float64)
        a(x)
        b = Net()
        b.reset_classifier(3)
        b.double()
        b(x)
        c = Net()
        c.double()
        c.reset_classifier(3, dtype=torch.float64)
        c(x)
    """,
    "a device chosen by a tensor's own get_device() is that tensor's device, not cuda-when-available (pytorch_neural_crf, scan 41)": """
        import torch
        from torch import nn
        class CRF(nn.Module):
            def __init__(self):
                super().__init__()
                self.transition = nn.Parameter(torch.randn(3, 3))
            def forward(self, scores):
                dev_num = scores.get_device()
                dev = torch.device(f"cuda:{dev_num}") if dev_num >= 0 else torch.device("cpu")
                alpha = torch.zeros(3, 3, device=dev)
                return alpha + self.transition + scores
        CRF()(torch.randn(3, 3))
        x = torch.randn(3)
        y = torch.zeros(3, device="cuda" if x.is_cuda else "cpu") + x
    """,
    "`*_like(x, device=...)` is made on the device named, not on x's (Dive-into-DL, scan 42)": """
        import torch
        x = torch.tensor([1.0, 2.0])  # expect: DG009
        device = torch.device("cuda")
        y = torch.ones_like(x, device=device)
        z = x.to(device) + y
        w = torch.zeros_like(x, device=None) + x
        v = x + torch.ones_like(x, device="cuda")
    """,
    "a module's `.type(torch.cuda.FloatTensor)` moves it as a tensor's does (cs231n GAN, scan 42)": """
        import torch
        import torch.nn as nn
        dtype = torch.cuda.FloatTensor if torch.cuda.is_available() else torch.FloatTensor
        G = nn.Linear(96, 784).type(dtype)
        z = torch.rand(128, 96).type(dtype)
        out = G(z)
        H = nn.Linear(96, 784).type(torch.cuda.FloatTensor)
        H(torch.rand(128, 96))  # expect: DG009
    """,
    "layers in a plain list whose parameters are registered by hand move with `.cuda()` (pytorch_RVAE, scan 41)": """
        import torch, torch.nn as nn
        class H(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = [nn.Linear(4, 4)]
                for i, p in enumerate(self.layers[0].parameters()):
                    self.register_parameter('p%d' % i, p)
                self.kernels = [nn.Parameter(torch.randn(4, 4))]
                self.register_parameter('k0', self.kernels[0])
            def forward(self, x):
                return self.layers[0](x) @ self.kernels[0]
        m = H().cuda()
        m(torch.randn(2, 4).cuda())
    """,
    "`.to(None)` changes nothing; a collate instance with `__call__` and pad_sequence keep the dtypes (BertSum, chatglm3, set 82)": """
        import torch
        from torch.nn.utils.rnn import pad_sequence
        from torch.utils.data import DataLoader
        class Collator:
            def __call__(self, items):
                ids = pad_sequence([torch.tensor(i) for i in items], batch_first=True)
                return {"ids": ids, "mask": ids.ne(0)}
        loader = DataLoader([[1, 2], [3, 0]], batch_size=2, collate_fn=Collator())
        for batch in loader:
            m = batch["mask"].to(None)
            y = m - 1  # expect: DG004
    """,
    "workers started by mp.spawn do not inherit a default dtype set under __main__ (pytorch#75269, set 80)": """
        import torch
        import torch.multiprocessing as mp
        from torch import nn
        def worker(rank, data):
            model = nn.Linear(3, 1)
            model(data)
        if __name__ == "__main__":
            torch.set_default_dtype(torch.float64)
            data = torch.zeros(2, 3)
            mp.spawn(worker, args=(data,), nprocs=2)  # expect: DG004
    """,
    "a spawned worker that sets the default again, or a default set at the top level (re-run on import), is fine": """
        import torch
        import torch.multiprocessing as mp
        from torch import nn
        torch.set_default_dtype(torch.float64)
        def worker(rank, data):
            nn.Linear(3, 1)(data)
        def worker2(rank, data):
            torch.set_default_dtype(torch.float64)
            nn.Linear(3, 1)(data)
        if __name__ == "__main__":
            data = torch.zeros(2, 3)
            mp.spawn(worker, args=(data,), nprocs=2)
            mp.spawn(worker2, args=(data,), nprocs=2)
    """,
    "a device chosen by an if/else statement is the GPU where there is one (mrdbourke's fundamentals, scan 42)": """
        import torch
        if torch.cuda.is_available():
            device = "cuda"
        else:
            device = "cpu"
        t = torch.tensor([1, 2, 3]).to(device)
        t.numpy()  # expect: DG009
        t.cpu().numpy()
    """,
    "`sum` of int64 counts is an int64 tensor that `/=` refuses (ImageNet21K, set 80)": """
        import torch
        def reduce(t, n):
            rt = t.clone()
            rt /= n  # expect: DG004
            return rt
        counts = []
        for i in range(3):
            counts.append(torch.sum(torch.rand(4) > 0.5))
        reduce(sum(counts), 2)
        reduce(sum(counts).float(), 2)
    """,
    "an input the forward hands to a method of a module it holds, which moves it when the model is on the GPU, is that method's business (end-to-end-SLU, scan 34)": """
        import torch
        class P(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = []
                self.layers.append(torch.nn.Linear(3, 3))
                self.layers = torch.nn.ModuleList(self.layers)
                self.is_cuda = torch.cuda.is_available()
                if self.is_cuda:
                    self.cuda()
            def compute_features(self, x):
                self.is_cuda = next(self.parameters()).is_cuda
                if self.is_cuda:
                    x = x.cuda()
                out = x
                for layer in self.layers:
                    out = layer(out)
                return out
        class M(torch.nn.Module):
            def __init__(self, p):
                super().__init__()
                self.is_cuda = torch.cuda.is_available()
                self.p = p
                self.fc = torch.nn.Linear(3, 1)
                if self.is_cuda:
                    self.cuda()
            def forward(self, x, y):
                if self.is_cuda:
                    y = y.cuda()
                out = self.p.compute_features(x)
                return self.fc(out)
        m = M(P())
        m(torch.randn(2, 3), torch.zeros(2))
    """,
    "a class-index loss given integer scores has no kernel for them (machine-learning-book #144, set 81)": """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        pred = torch.randn(4, 3).softmax(1)
        y = torch.tensor([0, 1, 2, 0])
        loss = nn.CrossEntropyLoss()(pred.long(), y)  # expect: DG005
        nll = F.nll_loss(pred.argmax(1, keepdim=True).repeat(1, 3), y)  # expect: DG005
        fine = nn.CrossEntropyLoss()(pred, y) + F.nll_loss(pred.log(), y)
    """,
    "`loss.data[0]` of a 0-dim loss raises before NumPy ever sees the list (DeepNLP-models, scan 41); `loss.item()` is a number": """
        import numpy as np
        import torch
        import torch.nn as nn
        model = nn.Linear(4, 3).cuda()
        losses, items = [], []
        loss = nn.CrossEntropyLoss()(model(torch.randn(2, 4).cuda()), torch.tensor([0, 1]).cuda())
        losses.append(loss.data[0])
        items.append(loss.item())
        print(np.mean(losses), np.mean(items))
        per = nn.CrossEntropyLoss(reduction="none")(model(torch.randn(2, 4).cuda()), torch.tensor([0, 1]).cuda())
        np.mean([per.data[0]])  # expect: DG009
    """,
    "a toy data set's targets cast to int32 are refused by cross_entropy (sklearn load_iris, set 81)": """
        import numpy as np
        import torch
        import torch.nn as nn
        from sklearn.datasets import load_iris
        from sklearn.model_selection import train_test_split
        iris = load_iris()
        X, y = iris["data"], iris["target"].astype(np.int32)  # expect: DG006
        X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3)
        model = nn.Linear(4, 3)
        loss = nn.CrossEntropyLoss()(model(torch.from_numpy(X_train).float()), torch.from_numpy(y_train))
        ok = nn.CrossEntropyLoss()(model(torch.from_numpy(X_test).float()), torch.from_numpy(y_test).long())
    """,
    "class ids looked up in a table by a name read from a file, made float by the legacy torch.Tensor (BDD labels, set 83)": """
        import json
        import torch
        import torch.nn.functional as F
        from torch import Tensor
        CLASSES = {"bus": 0, "car": 1, "person": 2}
        SCORES = {"bus": 0.5, "car": 1.5}
        records = json.load(open("labels.json"))
        labels, names = [], []
        for rec in records:
            labels.append(CLASSES[rec["category"]])
        target = Tensor(labels)  # expect: DG006
        loss = F.cross_entropy(torch.randn(len(labels), 3), target)
        fine = F.cross_entropy(torch.randn(len(labels), 3), torch.tensor(labels))
        onehot = Tensor([[0, 1, 0], [1, 0, 0]])
        probs = F.cross_entropy(torch.randn(2, 3), onehot)
        weight = torch.ones(2) * SCORES[records[0]["category"]]
    """,
    "a GAN label put on CUDA by a hard-coded `.cuda()` next to predictions on the device chosen by availability (segan, scan 43)": """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        device = "cuda" if torch.cuda.is_available() else "cpu"
        D = nn.Linear(4, 1).to(device)
        d_real = D(torch.randn(2, 4).to(device))
        lab = torch.ones(2, 1).cuda()  # expect: DG009
        loss = F.mse_loss(d_real, lab) + nn.MSELoss()(d_real, lab)
        fine = F.mse_loss(d_real, torch.ones(2, 1).to(device))
    """,
    "a module moved with `device=` to a device not known is no longer known to be on the CPU (chemprop, set 84)": """
        import os
        import torch
        import torch.nn as nn
        device = os.environ["TRAIN_DEVICE"]
        model = nn.Linear(2, 2)
        model.to(device=device)
        y = model(torch.zeros(1, 2).cuda())
        cpu_model = nn.Linear(2, 2)  # expect: DG009
        z = cpu_model(torch.zeros(1, 2).cuda())
    """,
    "a float64 loss from a float64 regression target, smoothed into a float32 running value with `torch.lerp` (tsai, set 86)": """
        import numpy as np
        import torch
        import torch.nn as nn
        y = torch.from_numpy(np.random.rand(8, 1))  # expect: DG008
        model = nn.Linear(3, 1)
        loss = nn.L1Loss()(model(torch.randn(8, 3)), y)
        val = torch.tensor(0.)  # expect: DG004
        val = torch.lerp(loss.detach(), val, 0.98)
    """,
    "an attention mask padded by hand (`[1] * n + [0] * pad`) is int64 through NumPy, and `torch.where` refuses it (BERT-BiLSTM-CRF, set 87)": """
        import numpy as np
        import torch
        def encode(tokens, max_length):
            ids = [101] + [7 for t in tokens[: max_length - 2]] + [102]
            mask = [1] * len(ids)
            pad = max_length - len(ids)
            return {"input_ids": ids + [0] * pad, "attention_mask": mask + [0] * pad}
        enc = encode(list("some text"), 16)
        masks = torch.from_numpy(np.array(enc["attention_mask"])).unsqueeze(0)  # expect: DG004
        bools = torch.from_numpy(np.array(enc["attention_mask"])).bool().unsqueeze(0)
        scores = torch.randn(1, 16)
        best = torch.where(masks, scores, torch.zeros(1, 16))
        fine = torch.where(bools, scores, torch.zeros(1, 16))
    """,
    "a curve resampled with `np.interp` is float64 whatever its dtype, and the images stacked from it reach a float32 Linear (NASA battery SOH, set 88)": """
        import numpy as np
        import torch
        import torch.nn as nn
        def resample(curve, points=16):
            return np.interp(np.linspace(0, len(curve) - 1, points), np.arange(len(curve)), curve)
        curves = [np.ones(40, dtype=np.float32), np.ones(50, dtype=np.float32)]
        imgs = np.stack([resample(c) for c in curves])
        x = torch.from_numpy(imgs)  # expect: DG004
        y = nn.Linear(16, 1)(x)
        z = nn.Linear(16, 1)(torch.from_numpy(np.stack([resample(c).astype(np.float32) for c in curves])))
    """,
    "a `try` that calls `.to()` on a NumPy array raises AttributeError at once: only its `except` runs (picai_baseline, set 88)": """
        import numpy as np
        import torch
        import torch.nn.functional as F
        seg = np.zeros((2, 4), dtype=np.float32)  # expect: DG006
        batch = {"seg": seg, "other": np.zeros((2, 4), dtype=np.float32)}
        try:
            labels = batch["seg"].to("cpu")
        except Exception:
            labels = torch.from_numpy(batch["seg"]).to("cpu")
        try:
            other = batch["other"].to("cpu")
        except TypeError:
            other = torch.from_numpy(batch["other"]).to("cpu")
        F.one_hot(labels, num_classes=2)
    """,
    "a functional loss with a mean or sum reduction is 0-dim: `loss.data[0]` raises IndexError before NumPy reads it (pytorch-YOLO-v1, scan 44)": """
        import numpy as np
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        use_gpu = torch.cuda.is_available()
        net = nn.Linear(4, 3)
        if use_gpu:
            net.cuda()
        x, y = torch.randn(2, 4), torch.randn(2, 3)
        if use_gpu:
            x, y = x.cuda(), y.cuda()
        loss = F.mse_loss(net(x), y, reduction='sum') / 2
        total = 0.
        total += loss.data[0]
        print(np.column_stack((total, total)))
        each = F.mse_loss(net(x), y, reduction='none')
        print(np.array([each.data[0]]))  # expect: DG009
    """,
    "a `.cuda()` under a GPU flag, after the model's `.cuda()` under the same flag, meets the default device's tensors on a GPU (PytorchSSD, scan 44)": """
        import argparse
        import torch
        import torch.nn as nn
        if torch.cuda.is_available():
            torch.set_default_device('cuda')
        parser = argparse.ArgumentParser()
        parser.add_argument('--cuda', default=True, type=bool)
        args = parser.parse_args()
        priors = torch.tensor([0.1, 0.1, 0.5, 0.5]).view(-1, 4)
        net = nn.Linear(4, 4)
        if args.cuda:
            net.cuda()
        targets = [torch.rand(3, 4).cpu() for _ in range(2)]
        if args.cuda:
            targets = [t.cuda() for t in targets]
        for t in targets:
            print(t + priors)
    """,
    "availability asked in the forward of a model already moved with an unconditional `.cuda()` says nothing about the CPU (FCOS, scan 44)": """
        import torch
        import torch.nn as nn
        class Detector(nn.Module):
            def __init__(self):
                super().__init__()
                self.backbone = nn.Conv2d(3, 8, 3)
                self.backbone.load_state_dict(torch.load('./resnet50.pth'), strict=False)
            def forward(self, x):
                out = self.backbone(x)
                coords = torch.arange(4.0)
                coords = coords.cuda() if torch.cuda.is_available() else coords
                return out, coords
        model = Detector().cuda().eval()
        out, coords = model(torch.randn(1, 3, 16, 16).cuda())
    """,
    "a LightningModule-like `hparams` property holding an attribute dict (a `dict` subclass) pickles by reference to that class (openff-nagl, set 90)": """
        import torch
        class AttributeDict(dict):
            def __getattr__(self, key):
                return self[key]
        class LM(torch.nn.Module):
            def save_hyperparameters(self, hp):
                self._hparams = AttributeDict(hp)
            @property
            def hparams(self):
                if not hasattr(self, "_hparams"):
                    self._hparams = AttributeDict()
                return self._hparams
        class Model(LM):
            def __init__(self, config):
                super().__init__()
                self.lin = torch.nn.Linear(2, 2)
                self.save_hyperparameters({"config": config})
            def save(self, path):
                torch.save({
                    "hyperparameters": self.hparams,  # expect: DG011
                    "plain": dict(self.hparams),
                    "state_dict": self.state_dict(),
                }, path)
            @classmethod
            def load(cls, path, **kwargs):
                return torch.load(path, **kwargs)
        model = Model({"hidden": 2})
        model.save("model.pt")
        Model.load("model.pt")
    """,
    "edge weights of an adjacency built from `np.corrcoef` and `sp.eye` are float64 (patient graphs, set 90)": """
        import numpy as np
        import scipy.sparse as sp
        import torch
        import torch.nn as nn
        feats = np.random.default_rng(0).normal(0, 1, (5, 12)).astype(np.float32)
        sim = np.corrcoef(feats)
        adj = sp.csr_matrix(np.triu(sim > 0.3, k=1))
        mask = torch.from_numpy(adj.tocoo().data)
        adj = adj + adj.T + sp.eye(5)
        weight = torch.from_numpy(adj.tocoo().data)  # expect: DG004
        layer = nn.Linear(1, 4)
        out = layer(weight.view(-1, 1))
        fine = layer(torch.from_numpy(np.cov(feats).astype(np.float32)[:, :1]))
    """,
    "an augmentation run on a coin flip (`if random.randint(2): return results`) adds `np.tile` of Python ints to float32 boxes; a loop over `zip` of two known lists runs each pair (MMDetection's Expand and SSD anchors, set 91)": """
        import numpy as np
        import torch
        import torch.nn as nn
        random = np.random
        class Expand:
            def __call__(self, results):
                if random.randint(2):
                    return results
                left, top = int(random.uniform(0, 8)), int(random.uniform(0, 8))
                results["boxes"] = results["boxes"] + np.tile((left, top), 2)
                return results
        head = nn.Linear(4, 2)
        for stride, ratio in zip((16, 32), [2, 3]):
            ctr = (stride - 1) / 2.0
            anchors = torch.from_numpy(np.full((3, 4), ctr * ratio))  # expect: DG004
            print(head(anchors))
        out = Expand()({"boxes": np.zeros((3, 4), dtype=np.float32)})
        y = head(torch.from_numpy(out["boxes"]))  # expect: DG004
    """,
    "a load that runs before the caller's unconditional `net.cuda()` on every path to the end needs no map_location: the file has no CPU run (CBIM, scan 45)": """
        import argparse
        import torch
        import torch.nn as nn
        parser = argparse.ArgumentParser()
        parser.add_argument('--load', type=str, default='latest.pth')
        parser.add_argument('--pretrain', action='store_true')
        args = parser.parse_args()
        def load_from(net, path):
            device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
            net.load_state_dict(torch.load(path, map_location=device))
        def init_network(args):
            net = nn.Linear(4, 2)
            if args.pretrain:
                load_from(net, 'pretrained.pth')
            net.load_state_dict(torch.load(args.load))
            return net
        if __name__ == '__main__':
            net = init_network(args)
            net.cuda()
    """,
    "a temporary file object holds only what this run wrote to it: its load needs no map_location (RecPack's best model, set 93)": """
        import random
        import tempfile
        import torch
        import torch.nn as nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2).to(device)
        best = tempfile.NamedTemporaryFile()
        for epoch in range(3):
            if random.random() < 0.5:
                best.close()
                best = tempfile.NamedTemporaryFile()
                torch.save(model.state_dict(), best)
        best.seek(0)
        model.load_state_dict(torch.load(best))
        other = torch.load("pretrained.pt")  # expect: DG010
    """,
    "a cache file written under a temporary name and moved onto its own is this run's (MONAI's PersistentDataset, set 92)": """
        import shutil
        import tempfile
        from pathlib import Path
        import numpy as np
        import torch
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        cache_dir = Path("cache")
        def cached(item, key):
            hashfile = cache_dir / f"{key}.pt"
            if hashfile.is_file():
                return torch.load(hashfile, weights_only=False)
            with tempfile.TemporaryDirectory() as tmp:
                temp_hash_file = Path(tmp) / hashfile.name
                torch.save(obj=item, f=temp_hash_file)
                shutil.move(str(temp_hash_file), hashfile)
            return item
        for epoch in range(2):
            x = cached({"image": np.zeros(3, dtype=np.float32)}, "a")
            y = torch.as_tensor(x["image"]).to(device)
    """,
    "a plain class used as a configuration namespace: its fields read the ones above them, and `config.model = stage` is what later reads see (NCF's three stages, set 93)": """
        import os
        import tempfile
        import torch
        import torch.nn as nn
        class config:
            model = "NeuMF-end"
            model_path = os.path.join(tempfile.mkdtemp(), "models") + "/"
            GMF_model_path = model_path + "GMF.pth"
        os.makedirs(config.model_path, exist_ok=True)
        def main():
            if config.model == "NeuMF-pre":
                gmf = torch.load(config.GMF_model_path)
            model = nn.Linear(4, 1)
            torch.save(model, "{}{}.pth".format(config.model_path, config.model))  # expect: DG011
        for stage in ["GMF", "NeuMF-pre"]:
            config.model = stage
            main()
    """,
    "a subclass of a layer with its own `__init__` and `forward` is a module whose `self.weight` is the layer's, of the default dtype; `F.conv3d` does not promote (EfficientNet-3D's padded stem, set 94)": """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        class Same(nn.Conv3d):
            def __init__(self, cin, cout, k, stride=1, **kwargs):
                super().__init__(cin, cout, k, stride, **kwargs)
                self.pad = nn.ConstantPad3d((1, 1, 1, 1, 1, 1), 0.0)
            def forward(self, x):
                x = self.pad(x)
                return F.conv3d(x, self.weight, self.bias, self.stride)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.stem = Same(1, 4, 3, bias=False)
            def forward(self, x):
                return self.stem(x)
        net = Net()
        y = net(torch.randn(1, 1, 4, 4, 4).double())  # expect: DG004
        z = net(torch.randn(1, 1, 4, 4, 4))
    """,
    "`if not self.anchors.is_cuda: self.anchors = self.anchors.cuda()` moves a tensor once, on any machine: no GPU test (G-TAD, scan 46)": """
        import torch
        import torch.nn as nn
        class Align(nn.Module):
            def __init__(self):
                super().__init__()
                self.anchors = torch.zeros(4, 3)
            def forward(self, x):
                if not self.anchors.is_cuda:
                    self.anchors = self.anchors.cuda()
                return x.mean(dim=1, keepdim=True) * self.anchors[:, 1:].sum()
        class Clips(torch.utils.data.Dataset):
            def __getitem__(self, index):
                return index, torch.randn(5)
            def __len__(self):
                return 4
        model = torch.nn.DataParallel(Align(), device_ids=[0]).cuda()
        loader = torch.utils.data.DataLoader(Clips(), batch_size=2, pin_memory=True)
        with torch.no_grad():
            for idx, x in loader:
                y = model(x.cuda())
    """,
}


@pytest.mark.parametrize("name", list(CASES))
def test_case_reports_exactly_its_markers(name: str) -> None:
    source = textwrap.dedent(CASES[name]).lstrip("\n")
    result = check_source(source, "case.py")
    assert not result.internal_error
    assert {(f.span.line, f.code) for f in result.findings} == expected(source)


def test_a_numpy_number_in_a_checkpoint_points_at_where_it_is_made() -> None:
    """DG011's related information names the line that made the NumPy number (DeiT's evaluate
    returning `np.mean(accs)`), besides the save and the load."""
    source = textwrap.dedent(CASES["a best accuracy joined through the epoch loop with a value read back on resume is still the NumPy metric it keeps"]).lstrip("\n")
    (finding,) = check_source(source, "case.py").findings
    assert [(r.span.line, r.message) for r in finding.related if "made here" in r.message] == [(8, "the NumPy number is made here: `np.mean` gives float64")]


def test_one_root_failing_at_two_lines_is_one_finding_with_both_lines_related() -> None:
    """RE-Net's int32 validation target reaches two loss calls: one finding at the root, each
    failing line among its related places (two diagnostics on one range would be noise)."""
    source = textwrap.dedent("""
        import numpy as np
        import torch
        import torch.nn as nn
        target = torch.from_numpy(np.zeros(4, dtype=np.int32))
        logits = torch.randn(4, 3)
        loss_s = nn.CrossEntropyLoss()(logits, target)
        loss_o = nn.CrossEntropyLoss()(logits, target)
        """).lstrip("\n")
    (finding,) = check_source(source, "case.py").findings
    assert finding.code == "DG006" and finding.span.line == 4
    assert sorted(r.span.line for r in finding.related if "fails here" in r.message) == [6, 7]


def test_a_numpy_array_in_a_checkpoint_is_advised_to_be_saved_as_a_tensor(tmp_path: Path) -> None:
    """torchdiffeq's latent_ode (scan 18) saves `orig_ts`, a float64 array, and reads it back as an
    array: `.tolist()` would break that; a tensor loads with `weights_only=True` and `.numpy()`
    gives the array back (checked here with the real torch)."""
    import numpy as np
    import torch

    source = textwrap.dedent("""
        import numpy as np
        import torch
        ts = np.linspace(0, 1, 5)
        torch.save({"ts": ts}, "ckpt.pt")
        ckpt = torch.load("ckpt.pt")
        """).lstrip("\n")
    (finding,) = check_source(source, "case.py").findings
    assert finding.code == "DG011" and "save it as a tensor (`torch.from_numpy(x)`, and `.numpy()` after loading)" in finding.message
    path = tmp_path / "ckpt.pt"
    ts = np.linspace(0, 1, 5)
    torch.save({"ts": torch.from_numpy(ts)}, path)
    back = torch.load(path)["ts"].numpy()
    assert back.dtype == ts.dtype and (back == ts).all()


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("a meta-built module")])
def test_meta_device_cases_fail_in_torch_exactly_when_marked(name: str) -> None:
    """The meta-device cases run on the real torch: the marked ones raise "Cannot copy out of
    meta tensor", the unmarked one runs."""
    source = textwrap.dedent(CASES[name]).lstrip("\n")
    if expected(source):
        with pytest.raises(NotImplementedError, match="Cannot copy out of meta tensor"):
            exec(compile(source, name, "exec"), {})
    else:
        exec(compile(source, name, "exec"), {})


@pytest.mark.parametrize("folder", ['Path(args.resume_from) / ', 'args.resume_from + "/" + '])
def test_a_load_of_a_named_file_under_a_folder_option_is_not_the_pickled_files(folder: str) -> None:
    """llm-baselines (scan 20): `load_checkpoint(..., ckpt_dir / "main.pt")` reads the state-dict
    file, `load_worker_state` the one holding NumPy RNG state; the folder is an option without a
    default (`Path(...) / "main.pt"`, or `+ "/main.pt"`). Only the second load fails."""
    source = textwrap.dedent(f"""
        import argparse
        from pathlib import Path
        import numpy as np
        import torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--resume_from", default=None)
        args = parser.parse_args()
        def save_worker_state(ckpt_dir):
            torch.save({{"rng_np": np.random.get_state()}}, ckpt_dir / "worker_0.pt")
        def load_worker_state(ckpt_dir):
            return torch.load(ckpt_dir / "worker_0.pt")["rng_np"]
        def load_checkpoint(model, ckpt_path):
            model.load_state_dict(torch.load(ckpt_path, map_location="cpu"))
        model = torch.nn.Linear(4, 4)
        if args.resume_from:
            load_checkpoint(model, {folder}"main.pt")
            load_worker_state(Path(args.resume_from))
        torch.save(model.state_dict(), Path("ckpts") / "main.pt")
        save_worker_state(Path("ckpts"))
        """).lstrip("\n")
    (finding,) = check_source(source, "case.py").findings
    assert finding.code == "DG011" and finding.span.line == 9
    assert sorted(r.span.line for r in finding.related if "fails here" in r.message) == [11]
