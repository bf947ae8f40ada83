"""Multi-label topic tagging with a bottleneck adapter on a frozen text encoder: the new multilabel classification head uses BCEWithLogitsLoss, but the collate builds the multi-hot label matrix from Python ints with torch.tensor, i.e. int64, and the head passes it to the loss unchanged
source: https://github.com/adapter-hub/adapters/pull/40
reported-error: multilabel_classification head: BCEWithLogitsLoss needs float labels (the PR casts labels when labels.dtype != torch.float32)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 45
root-cause: line 17
expect: DG007
"""
import torch
import torch.nn as nn
from torch.nn import BCEWithLogitsLoss


# ---- data/collator.py
def collate(batch, num_labels=5):
    input_ids = torch.stack([b["input_ids"] for b in batch])
    multi_hot = [[1 if k in b["topics"] else 0 for k in range(num_labels)] for b in batch]
    return {"input_ids": input_ids, "labels": torch.tensor(multi_hot)}  # root-cause


# ---- adapters/heads.py
class Adapter(nn.Module):
    def __init__(self, dim=32, bottleneck=8):
        super().__init__()
        self.down, self.up = nn.Linear(dim, bottleneck), nn.Linear(bottleneck, dim)

    def forward(self, h):
        return h + self.up(torch.relu(self.down(h)))


class EncoderWithHeads(nn.Module):
    def __init__(self, vocab=100, dim=32, num_labels=5):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True), 1)
        self.adapter = Adapter(dim)
        self.heads = nn.ModuleDict({"topics": nn.Linear(dim, num_labels)})
        for p in list(self.embed.parameters()) + list(self.encoder.parameters()):
            p.requires_grad_(False)

    def forward_head(self, sequence_output, head_name, labels=None):
        logits = self.heads[head_name](sequence_output[:, 0])
        outputs = (logits,)
        if labels is not None:
            loss_fct = BCEWithLogitsLoss()
            loss = loss_fct(logits, labels)  # fails-here
            outputs = (loss,) + outputs
        return outputs

    def forward(self, input_ids, labels=None, head="topics"):
        return self.forward_head(self.adapter(self.encoder(self.embed(input_ids))), head, labels)


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    data = [{"input_ids": torch.randint(0, 100, (12,), generator=g), "topics": set(torch.randint(0, 5, (2,), generator=g).tolist())} for _ in range(32)]
    model = EncoderWithHeads()
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)
    for epoch in range(2):
        for i in range(0, len(data), 8):
            batch = collate(data[i:i + 8])
            loss, logits = model(**batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
