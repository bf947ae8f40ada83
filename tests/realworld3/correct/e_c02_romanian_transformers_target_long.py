"""Token classification head: labels cast with .long() before CrossEntropyLoss (fix for Int targets on Windows)
source: https://github.com/dumitrescustefan/Romanian-Transformers/pull/6
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target'
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import torch
import torch.nn as nn


class TransformerModel(nn.Module):
    def __init__(self, vocab=100, hidden=32, num_labels=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, hidden)
        self.classifier = nn.Linear(hidden, num_labels)
        self.num_labels = num_labels

    def forward(self, input_ids, labels=None):
        logits = self.classifier(self.emb(input_ids))
        loss = None
        if labels is not None:
            loss_fct = nn.CrossEntropyLoss()
            loss = loss_fct(logits.view(-1, self.num_labels), labels.view(-1).long())
        return loss, logits


model = TransformerModel()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
input_ids = torch.from_numpy(np.random.randint(0, 100, (4, 12)).astype(np.int64))
labels = torch.from_numpy(np.random.randint(0, 5, (4, 12)).astype(np.int32))
for step in range(3):
    loss, _ = model(input_ids, labels=labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
