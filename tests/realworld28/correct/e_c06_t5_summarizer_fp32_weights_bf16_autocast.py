"""Seq2seq fine-tuning of the same small T5-style summariser with float32 weights owned by AdamW (lr=1e-4) and bfloat16 compute through torch.autocast("cpu", dtype=torch.bfloat16) around the forward pass; the loss is taken in float32 from the autocast logits, and the weights move
source: https://github.com/huggingface/transformers/issues/13033
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn

config = {"vocab_size": 64, "d_model": 32, "lr": 1e-4, "steps": 30, "dtype": torch.bfloat16}


class TinyT5(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.shared = nn.Embedding(vocab_size, d_model)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(d_model, 4, 64, batch_first=True, dropout=0.0), 1)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)
        with torch.no_grad():
            for p in self.parameters():
                p.add_(1.0)

    def forward(self, input_ids, labels):
        logits = self.lm_head(self.encoder(self.shared(input_ids)))
        return nn.functional.cross_entropy(logits.float().view(-1, logits.size(-1)), labels.view(-1))


def main():
    torch.manual_seed(0)
    model = TinyT5(config["vocab_size"], config["d_model"])
    optimizer = torch.optim.AdamW(model.parameters(), lr=config["lr"], weight_decay=0.0)
    before = [p.detach().clone() for p in model.parameters()]
    input_ids = torch.randint(0, config["vocab_size"], (8, 16))
    labels = torch.roll(input_ids, 1, dims=1)
    for step in range(config["steps"]):
        with torch.autocast("cpu", dtype=config["dtype"]):
            loss = model(input_ids, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print({"loss": round(loss.item(), 4), "learning_rate": config["lr"], "step": step})
    changed = sum(int((p != b).sum()) for p, b in zip(model.parameters(), before))
    total = sum(b.numel() for b in before)
    print(f"weights changed after {config['steps']} AdamW steps: {changed}/{total}")


if __name__ == "__main__":
    main()
