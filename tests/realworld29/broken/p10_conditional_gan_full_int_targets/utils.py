import torch
import torch.nn.functional as F


def get_noise(n_samples, input_dim, device="cpu"):
    return torch.randn(n_samples, input_dim, device=device)


def get_one_hot_labels(labels, n_classes):
    return F.one_hot(labels, n_classes)


def combine_vectors(x, y):
    return torch.cat((x.float(), y.float()), 1)


def make_targets(pred, value):
    """Targets for the discriminator: a tensor shaped like its prediction, filled with `value`."""
    return torch.full(pred.shape, value, device=pred.device)  # root-cause
