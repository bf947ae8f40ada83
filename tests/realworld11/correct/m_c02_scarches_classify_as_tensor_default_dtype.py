"""Reference-mapping classify() whose hand-parsed CSV query matrix stays float64 in NumPy for the log-normalisation, and whose to_tensor() helper converts with torch.as_tensor(arr, dtype=torch.get_default_dtype()) before the float32 encoder
source: https://github.com/theislab/scarches/issues/246
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn

GENES = 12
QUERY_CSV = "\n".join(",".join(f"{((c * 31 + g * 7) % 17) / 4:.3f}" for g in range(GENES)) for c in range(40))


def parse_matrix(text):
    return np.array([[float(v) for v in line.split(",")] for line in text.splitlines()])


def log1p_normalize(x):
    return np.log1p(x / np.maximum(x.sum(axis=1, keepdims=True), 1e-8) * 1e4)


def to_tensor(arr):
    return torch.as_tensor(arr, dtype=torch.get_default_dtype())


def classify(encoder, query, prototypes, labels):
    with torch.no_grad():
        z = encoder(to_tensor(query))
        dist = torch.cdist(z, prototypes)
        return [labels[i] for i in dist.argmin(1).tolist()]


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Linear(GENES, 16), nn.ReLU(), nn.Linear(16, 4)).eval()
    query = log1p_normalize(parse_matrix(QUERY_CSV))
    print(query.dtype, classify(encoder, query, torch.randn(3, 4), ["B cell", "T cell", "NK"])[:5])
