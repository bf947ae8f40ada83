"""Distributed-training miner that downloads activation and gradient tensors written by a GPU peer from object storage and deserialises the bytes with torch.load(io.BytesIO(blob)) without map_location, on a CPU-only worker
source: https://github.com/macrocosm-os/iota/pull/47
reported-error: Attempting to deserialize object on CUDA device 5 but torch.cuda.device_count() is 1. Please use torch.load with map_location to map your storages to an existing device.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 39
root-cause: line 39
expect: DG010
"""
import io

import torch
import torch.nn as nn
from torch import serialization


class FakeBucket:
    def __init__(self):
        self.objects = {}

    def upload(self, key, payload: bytes):
        self.objects[key] = payload

    def download(self, key) -> bytes:
        return self.objects[key]


def peer_upload_from_gpu(bucket, key, tensors):
    buf = io.BytesIO()
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(tensors, buf)
    finally:
        serialization.location_tag = original
    bucket.upload(key, buf.getvalue())


def download_activations(bucket, key):
    blob = bucket.download(key)
    return torch.load(io.BytesIO(blob))  # root-cause  # fails-here


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Sequential(nn.Linear(32, 32), nn.GELU())

    def forward(self, x):
        return self.block(x)


bucket = FakeBucket()
peer_upload_from_gpu(bucket, "layer3/acts/step-17", {"activations": torch.randn(8, 32), "step": 17})
layer = Layer()
payload = download_activations(bucket, "layer3/acts/step-17")
out = layer(payload["activations"])
print("forwarded", tuple(out.shape), "for step", payload["step"])
