"""Fine-tune, then export the weights to a flat binary file: the exporter walks model.state_dict() and calls .numpy() on each tensor while the model is still on the GPU
source: https://github.com/ztxz16/fastllm/issues/231
reported-error: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first. (torch2flm.py tofile: cur = dict[key].numpy().astype(ori_np_data_type))
outcome: cuda-only: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first. at line 34; on CPU: ok
root-cause: line 34
expect: DG009
"""
import os
import struct
import tempfile

import numpy as np
import torch
import torch.nn as nn


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        return self.lm_head(self.mlp(self.embed_tokens(ids)))


def tofile(exportPath, model, dtype="float32"):
    dict = model.state_dict()
    ori_np_data_type = np.dtype(dtype)
    with open(exportPath, "wb") as fo:
        fo.write(struct.pack("i", len(dict)))
        for key in dict:
            cur = dict[key].numpy().astype(ori_np_data_type)  # root-cause  # fails-here
            fo.write(struct.pack("i", len(key)))
            fo.write(key.encode())
            fo.write(struct.pack("i", len(cur.shape)))
            for d in cur.shape:
                fo.write(struct.pack("i", d))
            fo.write(cur.tobytes())


def finetune(model, device, steps=5):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(steps):
        ids = torch.randint(0, 64, (4, 17), device=device)
        logits = model(ids[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, 64), ids[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyCausalLM().to(device)
    print("final loss", finetune(model, device))
    exportPath = os.path.join(tempfile.mkdtemp(), "tiny-fp32.flm")
    tofile(exportPath, model, dtype="float32")
    print("exported", os.path.getsize(exportPath), "bytes")
