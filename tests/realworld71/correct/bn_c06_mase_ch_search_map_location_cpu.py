"""mase (machop) style `./ch search --accelerator cpu --load best.ckpt --load-type pl` with the checkpoint mapped to the CPU, as a mase fork changed load_lightning_ckpt_to_unwrapped_model: torch.load(checkpoint, map_location=torch.device('cpu')) restores the cuda:0-tagged storages of the GPU-trained JSC_Tiny checkpoint on the CPU-only machine, the unwrapped model is evaluated and the test accuracy, confusion matrix and per-row predictions (pandas) are produced
source: https://github.com/DeepWok/mase/issues/46
reported-error: (none; the fixed situation of bn06)
outcome: ok
root-cause: -
expect: none
"""
import logging
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.metrics import accuracy_score, confusion_matrix
from torch import serialization

torch.manual_seed(0)
logger = logging.getLogger(__name__)
RUN_DIR = tempfile.mkdtemp(prefix="mase_output_")
FEATURES = [f"j_feat{i}" for i in range(16)]
CLASSES = ["g", "q", "w", "z", "t"]


class JSC_Tiny(nn.Module):
    def __init__(self, info):
        super().__init__()
        self.seq_blocks = nn.Sequential(nn.BatchNorm1d(16), nn.ReLU(16), nn.Linear(16, 5), nn.ReLU(5))

    def forward(self, x):
        return self.seq_blocks(x)


class WrapperBase(nn.Module):
    """The Lightning wrapper: parameters appear as model.seq_blocks.* in the checkpoint's state_dict."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)


def jsc_dataframe(n, rng):
    labels = rng.integers(0, 5, n)
    centres = np.random.default_rng(42).normal(0, 1.5, (5, 16))
    feats = centres[labels] + rng.normal(0, 1.0, (n, 16))
    df = pd.DataFrame(feats, columns=FEATURES)
    df["label"] = labels
    return df


def to_tensors(df):
    x = torch.tensor(df[FEATURES].to_numpy(dtype=np.float32))
    y = torch.tensor(df["label"].to_numpy(), dtype=torch.long)
    return x, y


# --- ./ch train jsc-tiny jsc --max-epochs 10 on a Colab GPU (Lightning ModelCheckpoint -> best.ckpt) ---
rng = np.random.default_rng(0)
train_x, train_y = to_tensors(jsc_dataframe(2048, rng))
pl_model = WrapperBase(JSC_Tiny({"num_features": 16, "num_classes": 5}))
opt = torch.optim.Adam(pl_model.parameters(), lr=1e-2)
for epoch in range(10):
    for i in range(0, len(train_x), 256):
        loss = nn.functional.cross_entropy(pl_model(train_x[i : i + 256]), train_y[i : i + 256])
        opt.zero_grad()
        loss.backward()
        opt.step()
ckpt_dir = os.path.join(RUN_DIR, "jsc-tiny_classification_jsc", "software", "training_ckpts")
os.makedirs(ckpt_dir)
ckpt_path = os.path.join(ckpt_dir, "best.ckpt")
original_tag = serialization.location_tag
serialization.location_tag = lambda storage: "cuda:0"
try:
    torch.save({"epoch": 9, "global_step": 80, "state_dict": pl_model.state_dict(),
                "optimizer_states": [opt.state_dict()], "pytorch-lightning_version": "2.0.9"}, ckpt_path)
finally:
    serialization.location_tag = original_tag


# --- chop/tools/checkpoint_load.py ---
def load_lightning_ckpt_to_unwrapped_model(checkpoint: str, model: torch.nn.Module):
    src_state_dict = torch.load(checkpoint, map_location=torch.device("cpu"))["state_dict"]
    tgt_state_dict = model.state_dict()
    new_tgt_state_dict = {}
    for k, v in src_state_dict.items():
        possible_tgt_k = ".".join(k.split(".")[1:]) if "model." in k else k
        if possible_tgt_k in tgt_state_dict:
            new_tgt_state_dict[possible_tgt_k] = v
    model.load_state_dict(state_dict=new_tgt_state_dict, strict=False)
    return model


def load_model(load_name: str, load_type: str = "mz", model: torch.nn.Module = None):
    if load_type == "pl":
        model = load_lightning_ckpt_to_unwrapped_model(checkpoint=load_name, model=model)
        logger.info(f"Loaded pytorch lightning checkpoint from {load_name}")
    else:
        raise ValueError(f"Unknown extension for 'load_type': {load_type}")
    return model


# --- ./ch search --config jsc_search.toml --accelerator cpu --load best.ckpt --load-type pl (CPU-only machine) ---
def search(model_name, load_name, load_type, accelerator="cpu"):
    model = JSC_Tiny({"num_features": 16, "num_classes": 5})
    model = load_model(load_name=load_name, load_type=load_type, model=model)
    model.to(accelerator).eval()
    test_df = jsc_dataframe(512, np.random.default_rng(1))
    x, y = to_tensors(test_df)
    with torch.no_grad():
        preds = model(x.to(accelerator)).argmax(-1).cpu()
    test_df["pred"] = [CLASSES[p] for p in preds.tolist()]
    print(f"{model_name}: test accuracy {accuracy_score(y.numpy(), preds.numpy()):.3f}")
    print(confusion_matrix(y.numpy(), preds.numpy(), labels=range(5)))
    return test_df


search("jsc-tiny", ckpt_path, "pl", accelerator="cpu")
