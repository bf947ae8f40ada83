"""Conversion script saving only tensors (state_dict) and loading with map_location='cpu' under weights_only=True
source: https://github.com/YeongChanLee/ICD2Vec/issues/13
reported-error: _pickle.UnpicklingError: Weights only load failed
outcome: ok
root-cause: none
expect: none
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--path_to_checkpoint", default=os.path.join(tempfile.mkdtemp(), "MegatronBERT.pt"))
    args = parser.parse_args([])
    bert = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, batch_first=True)
    torch.save({"state_dict": bert.state_dict(), "hidden_size": 16}, args.path_to_checkpoint)

    input_state_dict = torch.load(args.path_to_checkpoint, map_location="cpu", weights_only=True)
    output_model = nn.TransformerEncoderLayer(d_model=input_state_dict["hidden_size"], nhead=2,
                                              dim_feedforward=32, batch_first=True)
    output_model.load_state_dict(input_state_dict["state_dict"])
    print("converted", len(input_state_dict["state_dict"]), "tensors")


if __name__ == "__main__":
    main()
