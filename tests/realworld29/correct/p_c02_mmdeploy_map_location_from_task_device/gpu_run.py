"""Writes a checkpoint the way a CUDA training run does (storages tagged 'cuda:0'), without a GPU."""
import torch
import torch.serialization

import models


def save_as_if_on_gpu(model_cfg, path):
    model = models.build(model_cfg)
    original = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"meta": {"epoch": 12}, "state_dict": model.state_dict()}, path)
    finally:
        torch.serialization.location_tag = original
