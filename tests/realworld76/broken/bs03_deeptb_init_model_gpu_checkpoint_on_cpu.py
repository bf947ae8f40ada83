"""DeePTB-style `dptb train input.json -i nnsk.best.pth` (re-typed: the train entrypoint that reads the init model's config to fill model_options/train_options/basis, build_model and NNSK.from_reference, a Trainer whose Saver writes {config, model_state_dict, optimizer_state_dict, lr_scheduler_state_dict, epoch, iteration, stats}) fine-tuning a tight-binding chain model on a CPU-only workstation from a checkpoint trained on a GPU node (simulated by tagging the saved storages cuda:0); train() reads the checkpoint with a bare torch.load(f)
source: https://github.com/deepmodeling/DeePTB/pull/182
reported-error: "fix: the error occur when loading checkpoint from cuda to cpu or to cuda to continuous training" (PR #182, commit b539791 "fix device bug": torch.load(f) -> torch.load(f, map_location="cpu") in entrypoints/train.py and nn/build.py, map_location=common_options["device"] in Trainer.restart; PR #178 did the same for NNENV/MIX.from_reference)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 142
root-cause: line 142
expect: DG010
"""
import contextlib
import json
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch import serialization

torch.manual_seed(0)
WORK = tempfile.mkdtemp()


def j_loader(path):
    with open(path) as fp:
        return json.load(fp)


class NNSK(nn.Module):
    """Two-centre Slater-Koster-like chain model: onsite energies per atom type, a distance-dependent hopping per bond type."""
    name = "nnsk"

    def __init__(self, basis, onsite, hopping, dtype="float32", device="cpu", std=0.01, **kwargs):
        super().__init__()
        self.basis, self.dtype, self.device = basis, getattr(torch, dtype), torch.device(device)
        self.atom_types = sorted(basis)
        self.bond_types = [a + "-" + b for i, a in enumerate(self.atom_types) for b in self.atom_types[i:]]
        self.model_options = {"nnsk": {"onsite": onsite, "hopping": hopping}}
        self.onsite_param = nn.Parameter(torch.randn(len(self.atom_types), dtype=self.dtype) * std)
        self.hopping_param = nn.Parameter(torch.stack([torch.tensor([-1.0, 1.5], dtype=self.dtype)] * len(self.bond_types))
                                          + std * torch.randn(len(self.bond_types), 2, dtype=self.dtype))
        self.rs = hopping["rs"]

    @classmethod
    def from_reference(cls, checkpoint, basis=None, onsite=None, hopping=None, dtype=None, device=None, **kwargs):
        f = torch.load(checkpoint, map_location=device)
        common_options = {"basis": basis, "dtype": dtype, "device": device}
        for k, v in common_options.items():
            if v is None:
                common_options[k] = f["config"]["common_options"][k]
        nnsk = {"onsite": onsite or f["config"]["model_options"]["nnsk"]["onsite"],
                "hopping": hopping or f["config"]["model_options"]["nnsk"]["hopping"]}
        model = cls(**common_options, **nnsk)
        model.load_state_dict(f["model_state_dict"])
        return model

    def forward(self, types, positions):
        n = len(types)
        idx = torch.tensor([self.atom_types.index(t) for t in types])
        h = torch.diag(self.onsite_param[idx])
        r = (positions[:, None] - positions[None]).abs()
        bond = torch.tensor([[self.bond_types.index("-".join(sorted((types[i], types[j])))) for j in range(n)] for i in range(n)])
        amp, decay = self.hopping_param[bond, 0], self.hopping_param[bond, 1]
        hop = amp * torch.exp(-decay * (r - 1.0)) * (r < self.rs).to(self.dtype) * (1 - torch.eye(n, dtype=self.dtype))
        return torch.linalg.eigvalsh(h + hop)


def build_dataset(n_frames, frame_seed, types, dtype, **kwargs):
    rng = np.random.RandomState(frame_seed)
    frames = []
    for _ in range(n_frames):
        pos = np.cumsum(1.0 + 0.1 * rng.randn(len(types)))
        n = len(types)
        ref_h = np.diag([-0.3 if t == "B" else 0.4 for t in types])
        for i in range(n - 1):
            ref_h[i, i + 1] = ref_h[i + 1, i] = -1.1 * np.exp(-1.3 * (pos[i + 1] - pos[i] - 1.0))
        frames.append((torch.tensor(pos, dtype=getattr(torch, dtype)),
                       torch.tensor(np.linalg.eigvalsh(ref_h), dtype=getattr(torch, dtype))))
    return frames


def build_model(checkpoint=None, model_options={}, common_options={}):
    if checkpoint is not None:
        f = torch.load(checkpoint)  # root-cause-alt
        ckptconfig = f["config"]
        del f
        if len(model_options) == 0:
            model_options = ckptconfig["model_options"]
        if len(common_options) == 0:
            common_options = ckptconfig["common_options"]
        model = NNSK.from_reference(checkpoint, **model_options["nnsk"], **common_options)
    else:
        model = NNSK(**model_options["nnsk"], **common_options)
    model.to(model.device)
    return model


class Trainer:
    def __init__(self, train_options, common_options, model, train_datasets, types, checkpoint_path):
        self.train_options, self.common_options, self.model = train_options, common_options, model
        self.train_datasets, self.types, self.checkpoint_path = train_datasets, types, checkpoint_path
        self.optimizer = torch.optim.Adam(model.parameters(), lr=train_options["optimizer"]["lr"])
        self.lr_scheduler = torch.optim.lr_scheduler.ExponentialLR(self.optimizer, gamma=train_options["lr_scheduler"]["gamma"])
        self.ep, self.iter, self.stats, self.task = 0, 0, {}, "sktb"

    def _save(self, name):
        obj = {"config": {"model_options": self.model.model_options, "common_options": self.common_options,
                          "train_options": self.train_options},
               "model_state_dict": self.model.state_dict(), "task": self.task,
               "optimizer_state_dict": self.optimizer.state_dict(),
               "lr_scheduler_state_dict": self.lr_scheduler.state_dict(),
               "epoch": self.ep, "iteration": self.iter, "stats": self.stats}
        f_path = os.path.join(self.checkpoint_path, name + ".pth")
        torch.save(obj, f=f_path)
        return f_path

    def run(self, epochs):
        for self.ep in range(epochs):
            total = 0.0
            for pos, eig in self.train_datasets:
                loss = torch.mean((self.model(self.types, pos) - eig) ** 2)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.iter += 1
                total += loss.item()
            self.lr_scheduler.step()
            self.stats["train_loss"] = total / len(self.train_datasets)
        print(f"{self.model.name}: epoch {self.ep} train_loss {self.stats['train_loss']:.3e}")
        return self._save(self.model.name + ".best")


def train(INPUT, init_model, restart, output):
    checkpoint_path = os.path.join(output, "checkpoint")
    os.makedirs(checkpoint_path, exist_ok=True)
    jdata = j_loader(INPUT)
    torch.set_default_dtype(getattr(torch, jdata["common_options"]["dtype"]))

    if restart or init_model:
        f = restart if restart else init_model
        if f.split(".")[-1] == "json":
            assert not restart, "json model can not be used as restart! should be a checkpoint file"
        else:
            f = torch.load(f)  # root-cause  # fails-here
            if jdata.get("model_options", None) is None:
                jdata["model_options"] = f["config"]["model_options"]
            basis = f["config"]["common_options"]["basis"]
            for asym, orb in jdata["common_options"]["basis"].items():
                assert asym in basis.keys(), f"Atom {asym} not found in model's basis"
            if jdata.get("train_options", None) is None:
                jdata["train_options"] = f["config"]["train_options"]
            del f

    train_datasets = build_dataset(**jdata["data_options"]["train"], **jdata["common_options"])
    model = build_model(checkpoint=init_model, model_options=jdata["model_options"], common_options=jdata["common_options"])
    trainer = Trainer(jdata["train_options"], jdata["common_options"], model, train_datasets,
                      jdata["data_options"]["train"]["types"], checkpoint_path)
    return trainer.run(jdata["train_options"]["num_epoch"])


@contextlib.contextmanager
def on_gpu_node():
    """The pretraining ran with device "cuda": every storage in its checkpoints is tagged cuda:0."""
    original_tag = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        serialization.location_tag = original_tag


def write_json(name, obj):
    path = os.path.join(WORK, name)
    with open(path, "w") as fp:
        json.dump(obj, fp)
    return path


common = {"basis": {"B": ["2s"], "N": ["2s"]}, "dtype": "float32", "device": "cpu", "seed": 3982377}
nnsk_options = {"nnsk": {"onsite": {"method": "uniform"}, "hopping": {"method": "powerlaw", "rs": 2.6}}}
train_options = {"num_epoch": 30, "optimizer": {"type": "Adam", "lr": 0.02}, "lr_scheduler": {"type": "exp", "gamma": 0.98}}
chain = ["B", "N", "B", "N", "B", "N"]

# 1) pretraining on the cluster's GPU node (run here on the CPU; only the saved storages carry the cuda:0 tag)
pre_input = write_json("input_pretrain.json", {
    "common_options": common, "model_options": nnsk_options, "train_options": train_options,
    "data_options": {"train": {"n_frames": 8, "frame_seed": 0, "types": chain}}})
with on_gpu_node():
    pretrained = train(pre_input, init_model=None, restart=None, output=os.path.join(WORK, "pretrain"))

# 2) fine-tuning on a longer, strained chain on the CPU-only workstation: dptb train input.json -i nnsk.best.pth
ft_input = write_json("input.json", {
    "common_options": common, "train_options": {**train_options, "num_epoch": 10},
    "data_options": {"train": {"n_frames": 6, "frame_seed": 1, "types": chain + ["B", "N"]}}})
finetuned = train(ft_input, init_model=pretrained, restart=None, output=os.path.join(WORK, "finetune"))
print("fine-tuned checkpoint:", finetuned)
