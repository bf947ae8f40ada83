import os
from dataclasses import dataclass, replace

import numpy as np
import torch


@dataclass(frozen=True)
class Dataset:
    data: dict

    @property
    def n_num_features(self):
        return self.data["X_num"]["train"].shape[1]

    def to_torch(self, device):
        return replace(self, data={key: {part: torch.as_tensor(value).to(device)  # root-cause
                                         for part, value in self.data[key].items()} for key in self.data})


def transform_num(X_num, policy):
    mean, std = X_num["train"].mean(0), X_num["train"].std(0) + 1e-8
    return {part: (x - mean) / std for part, x in X_num.items()}


def build_dataset(*, path, num_policy=None):
    parts = ("train", "val", "test")
    X_num = {part: np.load(os.path.join(path, f"X_num_{part}.npy")) for part in parts}
    Y = {part: np.load(os.path.join(path, f"Y_{part}.npy")).astype(np.int64) for part in parts}
    if num_policy is not None:
        X_num = transform_num(X_num, num_policy)
    return Dataset({"X_num": X_num, "Y": Y})
