"""Speech-translation script that reloads a checkpoint it has just written itself (argparse.Namespace included) with torch.load(path, map_location=device, weights_only=False), a trusted local file
source: https://github.com/facebookresearch/seamless_communication/issues/159
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn


class UnitDecoder(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.proj, self.out = nn.Linear(d_model, d_model), nn.Linear(d_model, 100)

    def forward(self, h):
        return self.out(torch.tanh(self.proj(h)))


parser = argparse.ArgumentParser()
parser.add_argument("--d-model", type=int, default=32)
parser.add_argument("--tgt-lang", choices=["deu", "fra"], default="fra")
args = parser.parse_args([])
run_dir = tempfile.mkdtemp()
path = os.path.join(run_dir, "checkpoint_last.pt")
model = UnitDecoder(args.d_model)
torch.save({"model": model.state_dict(), "args": args}, path)

# the file was produced a few lines above by this same process: trusted
state = torch.load(path, map_location=torch.device("cpu"), weights_only=False)
restored = UnitDecoder(state["args"].d_model)
restored.load_state_dict(state["model"])
print("restored for", state["args"].tgt_lang, restored(torch.randn(2, args.d_model)).shape)
