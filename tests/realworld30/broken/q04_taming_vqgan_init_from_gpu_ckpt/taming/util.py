import importlib

import torch


def get_obj_from_str(string, reload=False):
    module, cls = string.rsplit(".", 1)
    return getattr(importlib.import_module(module, package=None), cls)


def instantiate_from_config(config):
    if "target" not in config:
        raise KeyError("Expected key `target` to instantiate.")
    return get_obj_from_str(config["target"])(**config.get("params", dict()))


def load_state(path, map_location=None):
    return torch.load(path, map_location=map_location)  # fails-here


def save_gpu_checkpoint(obj, path):
    """Write obj as a CUDA training run does: every storage tagged 'cuda:0'."""
    original = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(obj, path)
    finally:
        torch.serialization.location_tag = original
