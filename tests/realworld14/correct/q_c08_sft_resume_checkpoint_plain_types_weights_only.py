"""SFT trainer checkpoint holding only weights_only-safe values: state dicts, an (epoch, step) tuple, a set of shard names, the Stage enum stored as its .value string and the timestamp as an ISO string; resumed with the default torch.load
source: https://github.com/allenai/open-instruct/issues/673
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import datetime
import enum
import os
import tempfile

import torch
import torch.nn as nn


class Stage(enum.Enum):
    WARMUP = "warmup"
    MAIN = "main"


def build():
    model = nn.Sequential(nn.Embedding(100, 32), nn.Flatten(), nn.Linear(8 * 32, 100))
    return model, torch.optim.AdamW(model.parameters(), lr=2e-5)


model, opt = build()
for step in range(3):
    tokens = torch.randint(0, 100, (4, 9))
    loss = nn.functional.cross_entropy(model(tokens[:, :8]), tokens[:, 8])
    opt.zero_grad()
    loss.backward()
    opt.step()
path = os.path.join(tempfile.mkdtemp(), "step_3.pt")
torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "position": (0, 3),
            "seen_shards": {"shard-0", "shard-1"}, "stage": Stage.MAIN.value,
            "saved_at": datetime.datetime.now().isoformat(), "best_loss": float(loss.item())}, path)

state = torch.load(path, map_location="cpu")
model2, opt2 = build()
model2.load_state_dict(state["model"])
opt2.load_state_dict(state["optimizer"])
print("resumed", state["position"], Stage(state["stage"]), sorted(state["seen_shards"]),
      datetime.datetime.fromisoformat(state["saved_at"]).year > 2000)
