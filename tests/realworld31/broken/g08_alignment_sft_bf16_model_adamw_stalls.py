"""Supervised fine-tuning of a small causal LM loaded in bfloat16 (ModelAlignmentFromScratch cs336_alignment/sft.py: from_pretrained(..., torch_dtype=torch.bfloat16), cross-entropy on the shifted labels) with a plain AdamW at lr=1e-5 over the bfloat16 weights: nearly every update is below half a bf16 spacing and rounds away, so training silently does nothing
source: https://github.com/Sherlock1956/ModelAlignmentFromScratch/blob/3ba622aa3926e09dae4f9e3fb8e228ff1adc1d93/cs336_alignment/sft.py
reported-error: (none filed; the file loads the policy with torch_dtype=torch.bfloat16; the variant trains those bf16 parameters directly with torch.optim.AdamW, no error is raised)
outcome: ok (silent: the optimizer.step() at line 48 leaves almost all bfloat16 weights bit-identical, printed as "after 5 AdamW steps: 0.045 of weights changed")
root-cause: line 36
expect: DG013
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

cfg = {"vocab": 64, "d_model": 64, "n_layer": 2, "lr": 1e-5, "steps": 5, "seq": 16, "batch": 4}


# ---- stand-in for AutoModelForCausalLM (Qwen2.5-Math-1.5B) at toy size
class TinyCausalLM(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.embed = nn.Embedding(c["vocab"], c["d_model"])
        layer = nn.TransformerEncoderLayer(c["d_model"], 4, 4 * c["d_model"], batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, c["n_layer"])
        self.lm_head = nn.Linear(c["d_model"], c["vocab"], bias=False)

    def forward(self, input_ids):
        n = input_ids.size(1)
        causal = torch.triu(torch.ones(n, n, dtype=torch.bool), 1)
        return self.lm_head(self.blocks(self.embed(input_ids), mask=causal))

    @classmethod
    def from_pretrained(cls, c, torch_dtype=torch.float32):
        torch.manual_seed(0)
        return cls(c).to(torch_dtype)


# ---- sft.py
model = TinyCausalLM.from_pretrained(cfg, torch_dtype=torch.bfloat16)  # root-cause
device = "cpu"
optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=0.0)
before = [p.detach().clone() for p in model.parameters()]
for step in range(cfg["steps"]):
    train_batch = {"input_ids": torch.randint(0, cfg["vocab"], (cfg["batch"], cfg["seq"]))}
    input_ids = train_batch["input_ids"][:, :-1].to(device)
    labels = train_batch["input_ids"][:, 1:].to(device)
    logits = model(input_ids)
    loss = F.cross_entropy(logits.reshape(-1, cfg["vocab"]).float(), labels.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()  # fails-here
changed = sum((p.detach() != b).sum().item() for p, b in zip(model.parameters(), before))
total = sum(p.numel() for p in model.parameters())
print(f"after {cfg['steps']} AdamW steps: {changed / total:.3f} of weights changed (loss {loss.item():.4f})")
