"""Distributed miner whose download helper forwards **load_kwargs to torch.load; the caller passes map_location="cpu" (and weights_only=True), so tensors written by a GPU peer load on a CPU-only worker
source: https://github.com/macrocosm-os/iota/pull/47
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import io

import torch
import torch.nn as nn
from torch import serialization


class FakeBucket(dict):
    def upload(self, key, payload):
        self[key] = payload

    def download(self, key):
        return self[key]


def peer_upload_from_gpu(bucket, key, tensors):
    buf = io.BytesIO()
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(tensors, buf)
    finally:
        serialization.location_tag = original
    bucket.upload(key, buf.getvalue())


def download_tensors(bucket, key, **load_kwargs):
    return torch.load(io.BytesIO(bucket.download(key)), **load_kwargs)


LOAD_KWARGS = {"map_location": "cpu", "weights_only": True}
bucket = FakeBucket()
peer_upload_from_gpu(bucket, "layer3/acts/step-17", {"activations": torch.randn(8, 32), "step": 17})
payload = download_tensors(bucket, "layer3/acts/step-17", **LOAD_KWARGS)
layer = nn.Sequential(nn.Linear(32, 32), nn.GELU())
print("forwarded", tuple(layer(payload["activations"]).shape), "device", payload["activations"].device)
