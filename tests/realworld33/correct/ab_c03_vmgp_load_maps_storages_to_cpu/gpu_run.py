"""Writes the checkpoint the way the authors' CUDA meta-training run does (storages tagged 'cuda:0'), without a GPU."""
import torch
import torch.serialization

from models import VMGP


def meta_train_on_gpu(path):
    model = VMGP()
    original = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        model.save(path)
    finally:
        torch.serialization.location_tag = original
