"""Continued pretraining of a small GPT from a checkpoint (LLMs-from-scratch chapter 5 exercise): the script rebuilds the model and AdamW, restores both state dicts while everything is still on the CPU, and only then moves the model to the GPU; AdamW's restored exp_avg/exp_avg_sq stay on the CPU while the parameters and gradients are CUDA tensors
source: https://github.com/rasbt/LLMs-from-scratch/issues/232
reported-error: chapter 5 Exercise 5.4: after optimizer.load_state_dict(checkpoint["optimizer_state_dict"]) the continued pretraining fails with tensors on different devices (optimizer not on the same device)
outcome: cuda-only: RuntimeError: Tensors of the same index must be on the same device and the same dtype except `step` tensors that can be CPU and float32/64 notwithstanding (AdamW's foreach step groups the CUDA parameters with the CPU exp_avg state restored before model.to(device); expected wording, not verified on a GPU) at line 38; on CPU: ok
root-cause: line 57
expect: DG009
"""
import io

import torch
import torch.nn as nn

CFG = {"vocab_size": 128, "context_length": 32, "emb_dim": 64, "n_heads": 4, "n_layers": 2}


class GPTModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok_emb = nn.Embedding(cfg["vocab_size"], cfg["emb_dim"])
        self.pos_emb = nn.Embedding(cfg["context_length"], cfg["emb_dim"])
        layer = nn.TransformerEncoderLayer(cfg["emb_dim"], cfg["n_heads"], 4 * cfg["emb_dim"], batch_first=True)
        self.trf_blocks = nn.TransformerEncoder(layer, cfg["n_layers"])
        self.out_head = nn.Linear(cfg["emb_dim"], cfg["vocab_size"], bias=False)

    def forward(self, idx):
        pos = torch.arange(idx.size(1), device=idx.device)
        mask = nn.Transformer.generate_square_subsequent_mask(idx.size(1), device=idx.device)
        return self.out_head(self.trf_blocks(self.tok_emb(idx) + self.pos_emb(pos), mask=mask, is_causal=True))


def train_steps(model, optimizer, device, steps=3):
    for _ in range(steps):
        batch = torch.randint(0, CFG["vocab_size"], (4, CFG["context_length"] + 1), device=device)
        logits = model(batch[:, :-1])
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), batch[:, 1:].flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
    return loss.item()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(123)
    first = GPTModel(CFG)
    opt0 = torch.optim.AdamW(first.parameters(), lr=4e-4, weight_decay=0.1)
    train_steps(first, opt0, "cpu", steps=1)
    buf = io.BytesIO()
    torch.save({"model_state_dict": first.state_dict(), "optimizer_state_dict": opt0.state_dict()}, buf)
    buf.seek(0)

    checkpoint = torch.load(buf, map_location="cpu")
    model = GPTModel(CFG)
    model.load_state_dict(checkpoint["model_state_dict"])
    optimizer = torch.optim.AdamW(model.parameters(), lr=4e-4, weight_decay=0.1)
    optimizer.load_state_dict(checkpoint["optimizer_state_dict"])
    model.to(device)  # root-cause
    print("continued pretraining loss", train_steps(model, optimizer, device))


if __name__ == "__main__":
    main()
