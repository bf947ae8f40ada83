"""The ChemBERTa-style Delaney regression fine-tune of az03 (seyonechithrananda/bert-loves-chemistry #57) with the labels read as float32 where FinetuneDataset takes the column (the thread's "ensure that ... labels are ... floats"), so the per-item torch.tensor(label), the norm_mean/norm_std buffers computed from them and the MSELoss all stay float32; torch.tensor of a NumPy scalar in __getitem__, np.mean/np.std into the config and torch.tensor(config.norm_mean) buffers are kept
source: https://github.com/seyonechithrananda/bert-loves-chemistry/issues/57
reported-error: (none filed; the fixed situation of az03)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.nn import MSELoss

torch.manual_seed(0)
rng = np.random.default_rng(0)


class SmilesTokenizer:
    """Stand-in for RobertaTokenizerFast on SMILES: one id per character, padded to the longest string."""

    def __init__(self, alphabet="CNOSFClBr()=#123456[]@+-Hcnos"):
        self.vocab = {ch: i + 3 for i, ch in enumerate(sorted(set(alphabet)))}

    def __call__(self, texts, truncation=True, padding=True, max_length=64):
        ids = [[0] + [self.vocab.get(ch, 2) for ch in t][: max_length - 2] + [1] for t in texts]
        width = max(len(x) for x in ids)
        return {"input_ids": [x + [1] * (width - len(x)) for x in ids],
                "attention_mask": [[1] * len(x) + [0] * (width - len(x)) for x in ids]}


class FinetuneDataset(torch.utils.data.Dataset):
    def __init__(self, df, tokenizer, include_labels=True):
        self.encodings = tokenizer(df["smiles"].tolist(), truncation=True, padding=True)
        self.labels = df.iloc[:, 1].values.astype(np.float32)
        self.include_labels = include_labels

    def __getitem__(self, idx):
        item = {key: torch.tensor(val[idx]) for key, val in self.encodings.items()}
        if self.include_labels and self.labels is not None:
            item["labels"] = torch.tensor(self.labels[idx])
        return item

    def __len__(self):
        return len(self.encodings["input_ids"])


class Config:
    vocab_size, hidden_size, num_attention_heads, hidden_dropout_prob, num_labels = 40, 32, 4, 0.1, 1
    norm_mean, norm_std = None, None


class RobertaRegressionHead(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        self.out_proj = nn.Linear(config.hidden_size, config.num_labels)

    def forward(self, features):
        x = self.dropout(features[:, 0, :])  # take <s> token
        x = torch.relu(self.dense(x))
        return self.out_proj(self.dropout(x))


class RobertaForRegression(nn.Module):
    """chemberta.utils.roberta_regression.RobertaForRegression with a one-layer encoder standing in for RoBERTa."""

    def __init__(self, config):
        super().__init__()
        self.num_labels = config.num_labels
        self.register_buffer("norm_mean", torch.tensor(config.norm_mean))
        # Replace any 0 stddev norms with 1
        self.register_buffer("norm_std", torch.tensor([s if s != 0 else 1 for s in config.norm_std]))
        self.embeddings = nn.Embedding(config.vocab_size, config.hidden_size, padding_idx=1)
        self.encoder = nn.TransformerEncoderLayer(config.hidden_size, config.num_attention_heads, 64, batch_first=True)
        self.regression = RobertaRegressionHead(config)

    def forward(self, input_ids=None, attention_mask=None, labels=None):
        sequence_output = self.encoder(self.embeddings(input_ids), src_key_padding_mask=attention_mask == 0)
        logits = self.regression(sequence_output)
        if labels is None:
            return self.unnormalize_logits(logits)
        normalized_labels = self.normalize_logits(labels)
        loss_fct = MSELoss()
        loss = loss_fct(logits.view(-1), normalized_labels.view(-1))
        return loss, logits

    def normalize_logits(self, tensor):
        return (tensor - self.norm_mean) / self.norm_std

    def unnormalize_logits(self, tensor):
        return (tensor * self.norm_std) + self.norm_mean


def default_data_collator(features):
    """transformers.default_data_collator for dict items of tensors (a "labels" tensor is stacked as it is)."""
    return {k: torch.stack([f[k] for f in features]) for k in features[0]}


def get_finetune_datasets(train_df, valid_df, tokenizer):
    train_dataset = FinetuneDataset(train_df, tokenizer)
    valid_dataset = FinetuneDataset(valid_df, tokenizer)
    norm_mean = [np.mean(np.array(train_dataset.labels), axis=0)]
    norm_std = [np.std(np.array(train_dataset.labels), axis=0)]
    return train_dataset, valid_dataset, norm_mean, norm_std


# A Delaney-like table (MoleculeNet ESOL, chemprop format): smiles, measured log solubility
frags = ["CCO", "c1ccccc1", "CC(=O)O", "CCN", "OCC(O)CO", "Clc1ccccc1", "CC(C)C", "O=C(N)N", "CCCCCC", "c1ccncc1"]
smiles = ["".join(rng.choice(frags, size=int(rng.integers(1, 4)))) for _ in range(96)]
logs = [-0.4 * s.count("c") - 0.2 * s.count("C") + 0.8 * s.count("O") + float(rng.normal(0, 0.3)) for s in smiles]
df = pd.DataFrame({"smiles": smiles, "measured log solubility in mols per litre": logs})
train_df, valid_df = df.iloc[:80], df.iloc[80:]

tokenizer = SmilesTokenizer()
train_dataset, valid_dataset, norm_mean, norm_std = get_finetune_datasets(train_df, valid_df, tokenizer)
config = Config()
config.norm_mean, config.norm_std = norm_mean, norm_std
model = RobertaForRegression(config)

# Trainer(model, args, train_dataset=...).train(): AdamW, shuffled batches of 16, default_data_collator
loader = torch.utils.data.DataLoader(train_dataset, batch_size=16, shuffle=True, collate_fn=default_data_collator)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
model.train()
for epoch in range(3):
    for batch in loader:
        optimizer.zero_grad()
        loss, _ = model(**batch)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: train loss {loss.item():.4f}")
print("loss dtype:", loss.dtype)

model.eval()
with torch.no_grad():
    batch = default_data_collator([valid_dataset[i] for i in range(len(valid_dataset))])
    preds = model(batch["input_ids"], batch["attention_mask"]).view(-1)
rmse = torch.sqrt(((preds - batch["labels"]) ** 2).mean()).item()
print(f"valid rmse {rmse:.3f} (prediction dtype {preds.dtype})")
