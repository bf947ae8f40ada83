import torch


def _load_checkpoint(filename, map_location=None):
    return torch.load(filename, map_location=map_location)


def load_checkpoint(model, filename, map_location=None, strict=False):
    """Load a checkpoint from a file into the model (mmengine.runner.checkpoint style)."""
    checkpoint = _load_checkpoint(filename, map_location)
    state_dict = checkpoint.get("state_dict", checkpoint)
    state_dict = {k[7:] if k.startswith("module.") else k: v for k, v in state_dict.items()}
    model.load_state_dict(state_dict, strict=strict)
    return checkpoint
