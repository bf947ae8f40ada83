import torch


def resume_checkpoint(model, checkpoint_path, optimizer=None, log_info=True):
    resume_epoch = None
    checkpoint = torch.load(checkpoint_path, map_location="cpu")  # fails-here
    if isinstance(checkpoint, dict) and "state_dict" in checkpoint:
        if log_info:
            print("Restoring model state from checkpoint...")
        model.load_state_dict(checkpoint["state_dict"])
        if optimizer is not None and "optimizer" in checkpoint:
            optimizer.load_state_dict(checkpoint["optimizer"])
        if "epoch" in checkpoint:
            resume_epoch = checkpoint["epoch"] + 1
    else:
        model.load_state_dict(checkpoint)
    return resume_epoch
