"""Multi-label tagging with BCEWithLogitsLoss; the tag matrix is built as a long tensor."""
import torch
import torch.nn as nn

N_TAGS = 5


def tags_to_multihot(tag_lists):
    out = torch.zeros(len(tag_lists), N_TAGS, dtype=torch.long)  # expect: DG007
    for i, tags in enumerate(tag_lists):
        out[i, tags] = 1
    return out


class Tagger(nn.Module):
    def __init__(self, d=12):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d, 24), nn.ReLU())
        self.head = nn.Linear(24, N_TAGS)

    def forward(self, x):
        return self.head(self.encoder(x))


def train(model, steps=5):
    pos_weight = torch.full((N_TAGS,), 2.0)
    criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(steps):
        x = torch.randn(16, 12)
        y = tags_to_multihot([[s % N_TAGS, (s * 3) % N_TAGS] for s in range(step, step + 16)])
        logits = model(x)
        loss = criterion(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: {loss.item():.4f}")


if __name__ == "__main__":
    train(Tagger())
