"""Reference-mapping classifier (scArches-style classify()): the query expression matrix is parsed by hand from CSV text into a float64 NumPy array and handed to the float32 encoder through a to_tensor() helper that uses torch.from_numpy without a dtype conversion
source: https://github.com/theislab/scarches/issues/246
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float (in scpoli_query.classify)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 23
root-cause: line 39
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn

GENES = 12
QUERY_CSV = "\n".join(",".join(f"{((c * 31 + g * 7) % 17) / 4:.3f}" for g in range(GENES)) for c in range(40))


class Encoder(nn.Module):
    def __init__(self, n_in=GENES, latent=4):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(n_in, 16), nn.Linear(16, latent)])

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)  # fails-here
            if i < len(self.layers) - 1:
                x = torch.relu(x)
        return x


def parse_matrix(text):
    return np.array([[float(v) for v in line.split(",")] for line in text.splitlines()])


def log1p_normalize(x):
    lib = x.sum(axis=1, keepdims=True)
    return np.log1p(x / np.maximum(lib, 1e-8) * 1e4)


def to_tensor(arr):
    return torch.from_numpy(arr)  # root-cause


def classify(encoder, query, prototypes, labels):
    encoder.eval()
    with torch.no_grad():
        z = encoder(to_tensor(query))
        dist = torch.cdist(z, prototypes)
        conf = torch.softmax(-dist, dim=1).max(1).values
        return [labels[i] for i in dist.argmin(1).tolist()], conf


def main():
    torch.manual_seed(0)
    encoder = Encoder()
    prototypes = torch.randn(3, 4)
    query = log1p_normalize(parse_matrix(QUERY_CSV))
    pred, conf = classify(encoder, query, prototypes, ["B cell", "T cell", "NK"])
    print(pred[:5], float(conf.mean()))


if __name__ == "__main__":
    main()
