"""The aspect-term tagging + polarity multi-task training of bo05 (rikeda71/TorchCRF PR #4) with the PR's change: CRF._compute_denominator_log_likelihood keeps padded steps with score * (~ mask_t), the logical complement of the bool padding mask input_ids != PAD from the collate_fn, so training runs and Viterbi decoding tags the aspects; the bool mask multiplied into float scores in the numerator and summed with mask.long() for the sequence lengths are kept
source: https://github.com/rikeda71/TorchCRF/pull/4
reported-error: -
outcome: ok
root-cause: -
expect: none
"""
from typing import List

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)
VOCAB, PAD = 300, 0
ASPECT_TAGS = ["O", "B-ASP", "I-ASP"]
POLARITIES = ["negative", "neutral", "positive"]


class CRF(nn.Module):
    """TorchCRF.CRF as of commit 4fc00a1 (before PR #4)."""

    def __init__(self, num_labels: int, pad_idx: int = None) -> None:
        super().__init__()
        self.num_labels = num_labels
        self.trans_matrix = nn.Parameter(torch.empty(num_labels, num_labels).uniform_(-0.1, 0.1))
        self.start_trans = nn.Parameter(torch.empty(num_labels).uniform_(-0.1, 0.1))
        self.end_trans = nn.Parameter(torch.empty(num_labels).uniform_(-0.1, 0.1))

    def forward(self, h: torch.FloatTensor, labels: torch.LongTensor, mask: torch.FloatTensor) -> torch.FloatTensor:
        log_numerator = self._compute_numerator_log_likelihood(h, labels, mask)
        log_denominator = self._compute_denominator_log_likelihood(h, mask)
        return log_numerator - log_denominator

    @staticmethod
    def logsumexp(x: torch.Tensor, dim: int) -> torch.Tensor:
        vmax = x.max(dim, keepdim=True)[0]
        return vmax.squeeze(dim) + torch.log(torch.sum(torch.exp(x - vmax), dim))

    def _compute_denominator_log_likelihood(self, h: torch.FloatTensor, mask: torch.FloatTensor):
        batch_size, seq_len, _ = h.size()
        trans = self.trans_matrix.view(1, self.num_labels, self.num_labels)
        score = self.start_trans.view(1, -1) + h[:, 0]
        for t in range(1, seq_len):
            before_score = score.view(batch_size, self.num_labels, 1)
            mask_t = mask[:, t].view(batch_size, 1)
            h_t = h[:, t].view(batch_size, 1, self.num_labels)
            score_t = self.logsumexp(before_score + h_t + trans, 1)
            score = score_t * mask_t + score * (~ mask_t)
        score = score + self.end_trans.view(1, -1)
        return self.logsumexp(score, 1)

    def _compute_numerator_log_likelihood(self, h: torch.FloatTensor, y: torch.LongTensor, mask: torch.FloatTensor):
        batch_size, seq_len, _ = h.size()
        score = self.start_trans[y[:, 0]]
        for t in range(seq_len - 1):
            mask_t, mask_t1 = mask[:, t], mask[:, t + 1]
            h_t = h[torch.arange(batch_size), t, y[:, t]]
            trans_t = self.trans_matrix[y[:, t], y[:, t + 1]]
            score = score + h_t * mask_t + trans_t * mask_t1
        last_mask_index = mask.long().sum(1) - 1
        last_labels = y.gather(1, last_mask_index.unsqueeze(-1))
        score = score + h[:, -1].gather(1, last_labels).squeeze(1) * mask[:, -1]
        score = score + self.end_trans[last_labels].view(batch_size)
        return score

    def viterbi_decode(self, h: torch.FloatTensor, mask: torch.FloatTensor) -> List[List[int]]:
        batch_size, seq_len, _ = h.size()
        seq_lens = mask.long().sum(dim=1)
        score, path = [self.start_trans.data + h[:, 0]], []
        for t in range(1, seq_len):
            score_t = score[t - 1].view(batch_size, -1, 1) + self.trans_matrix + h[:, t].view(batch_size, 1, -1)
            best_score, best_path = score_t.max(1)
            score.append(best_score)
            path.append(best_path)
        paths = []
        for b in range(batch_size):
            end = int(seq_lens[b]) - 1
            labels = [int((score[end][b] + self.end_trans).argmax())]
            for p in reversed(path[:end]):
                labels.insert(0, int(p[b][labels[0]]))
            paths.append(labels)
        return paths


class ReviewSentences(Dataset):
    """Laptop-review-like sentences: word ids, aspect BIO tags and one polarity label each."""

    def __init__(self, n=96):
        self.samples = []
        for _ in range(n):
            length = int(rng.integers(6, 20))
            ids = rng.integers(1, VOCAB, length)
            tags = np.zeros(length, dtype=np.int64)
            start = int(rng.integers(0, length - 2))
            ids[start] = 1 + int(rng.integers(0, 20))  # aspect words come from a small sub-vocabulary
            tags[start] = 1
            if rng.random() < 0.5:
                ids[start + 1] = 21 + int(rng.integers(0, 20))
                tags[start + 1] = 2
            polarity = int(ids.sum() % 3)
            self.samples.append((ids, tags, polarity))

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, idx):
        return self.samples[idx]


def collate_fn(batch):
    max_len = max(len(ids) for ids, _, _ in batch)
    input_ids = torch.full((len(batch), max_len), PAD, dtype=torch.long)
    aspect_tags = torch.zeros((len(batch), max_len), dtype=torch.long)
    for row, (ids, tags, _) in enumerate(batch):
        input_ids[row, : len(ids)] = torch.from_numpy(ids)
        aspect_tags[row, : len(tags)] = torch.from_numpy(tags)
    return {
        "input_ids": input_ids,
        "aspect_tags": aspect_tags,
        "mask": input_ids != PAD,
        "polarity": torch.tensor([polarity for _, _, polarity in batch]),
    }


class AspectSentimentModel(nn.Module):
    def __init__(self, emb=48, hidden=48):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, emb, padding_idx=PAD)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.tagger = nn.Linear(2 * hidden, len(ASPECT_TAGS))
        self.crf = CRF(len(ASPECT_TAGS))
        self.polarity_head = nn.Linear(2 * hidden, len(POLARITIES))

    def forward(self, input_ids):
        h, _ = self.lstm(self.embed(input_ids))
        return self.tagger(h), self.polarity_head(h.max(1).values)


loader = DataLoader(ReviewSentences(), batch_size=16, shuffle=True, collate_fn=collate_fn)
model = AspectSentimentModel()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_weights = {"aspect": 1.0, "polarity": 0.5}
polarity_loss_fn = nn.CrossEntropyLoss()

epoch_losses = []
for epoch in range(3):
    total = 0.0
    for batch in loader:
        emissions, polarity_logits = model(batch["input_ids"])
        aspect_loss = -model.crf(emissions, batch["aspect_tags"], batch["mask"]).mean()
        polarity_loss = polarity_loss_fn(polarity_logits, batch["polarity"])
        loss = loss_weights["aspect"] * aspect_loss + loss_weights["polarity"] * polarity_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print("epoch %d loss %.3f" % (epoch, total / len(loader)))
    epoch_losses.append(total / len(loader))

model.eval()
correct = count = 0
with torch.no_grad():
    for batch in DataLoader(loader.dataset, batch_size=32, collate_fn=collate_fn):
        emissions, _ = model(batch["input_ids"])
        for row, path in enumerate(model.crf.viterbi_decode(emissions, batch["mask"])):
            gold = batch["aspect_tags"][row, : len(path)].tolist()
            correct += sum(int(p == g) for p, g in zip(path, gold))
            count += len(path)
print("aspect tag accuracy: %.3f" % (correct / count))
assert epoch_losses[-1] < epoch_losses[0] and correct / count > 0.5
