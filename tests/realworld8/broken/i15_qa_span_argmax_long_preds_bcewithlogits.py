"""Extractive-QA fine-tuning with BCEWithLogitsLoss: train_fn turns the start/end scores into argmax positions, zips them into a tensor and moves it with dtype=torch.long, so the loss receives integer predictions and integer labels
source: https://github.com/pytorch/pytorch/issues/40357
reported-error: RuntimeError: _th_exp_out not supported on CUDAType for Long
outcome: NotImplementedError: "log_sigmoid_cpu" not implemented for 'Long' at line 30
root-cause: line 39
expect: DG007
"""
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class QAModel(nn.Module):
    def __init__(self, vocab=200, dim=32, max_len=24):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.type_embed = nn.Embedding(2, dim)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True), 1)
        self.qa_outputs = nn.Linear(dim, 2)

    def forward(self, token_ids, attention_mask, token_type_ids):
        h = self.encoder(self.embed(token_ids) + self.type_embed(token_type_ids), src_key_padding_mask=attention_mask == 0)
        start_logits, end_logits = self.qa_outputs(h).unbind(-1)
        return start_logits, end_logits


class Trainer:
    def loss_fn(self, preds, labels):
        return torch.nn.BCEWithLogitsLoss()(preds, labels)  # fails-here

    def train_fn(self, dataloader, model, optimizer, device):
        model.train()
        for token_ids, attention_mask, token_type_ids, label in dataloader:
            pred = model(token_ids=token_ids.to(device), attention_mask=attention_mask.to(device), token_type_ids=token_type_ids.to(device))
            start_scores = torch.argmax(pred[0], dim=1)
            end_scores = torch.argmax(pred[1], dim=1)
            pred = torch.tensor(list(zip(start_scores, end_scores)))
            pred = pred.to(device, dtype=torch.long)  # root-cause
            batch_loss = self.loss_fn(pred, label.to(device))
            optimizer.zero_grad()
            batch_loss.backward()
            optimizer.step()
        return batch_loss.item()


def make_batches(n_batches=3, batch_size=16, seq_len=24):
    g = torch.Generator().manual_seed(0)
    for _ in range(n_batches):
        token_ids = torch.randint(1, 200, (batch_size, seq_len), generator=g)
        attention_mask = torch.ones(batch_size, seq_len, dtype=torch.long)
        token_type_ids = (torch.arange(seq_len) > seq_len // 3).long().expand(batch_size, -1)
        start = torch.randint(9, 16, (batch_size,), generator=g)
        label = torch.stack([start, start + 3], dim=1)
        yield token_ids, attention_mask, token_type_ids, label


model = QAModel().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
print("loss", Trainer().train_fn(list(make_batches()), model, optimizer, device))
