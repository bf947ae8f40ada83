"""A bag-of-embeddings text classifier: token ids are int64, features are float32."""
import torch
import torch.nn.functional as F
from torch import nn

VOCAB_SIZE = 1000
PAD = 0


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab_size, dim=32, num_classes=4):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim, padding_idx=PAD)
        self.classifier = nn.Linear(dim, num_classes)

    def forward(self, token_ids):
        mask = (token_ids != PAD).unsqueeze(-1).float()
        summed = (self.embedding(token_ids) * mask).sum(dim=1)
        mean = summed / mask.sum(dim=1).clamp(min=1.0)
        return self.classifier(mean)


def make_batch(batch_size=16, seq_len=12):
    token_ids = torch.randint(1, VOCAB_SIZE, (batch_size, seq_len))
    token_ids[:, seq_len // 2 :] = PAD  # right padding
    labels = torch.randint(0, 4, (batch_size,))
    return token_ids, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BagOfEmbeddings(VOCAB_SIZE)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(10):
        token_ids, labels = make_batch()
        optimizer.zero_grad()
        loss = F.cross_entropy(model(token_ids), labels)
        loss.backward()
        optimizer.step()
