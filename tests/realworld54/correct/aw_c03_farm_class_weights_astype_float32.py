"""Fine-tuning a small transformer text classifier on imbalanced support tickets the FARM way (deepset-ai/FARM #352 as in aw03) with the cast of PR #392: DataSilo.calculate_class_weights converts the "balanced" weights with .astype(np.float32) ("conversion necessary to have class weights of same type as model weights") before returning them as a list, so torch.tensor of the np.float32 scalars makes a float32 CrossEntropyLoss weight; the float64 frequency arithmetic of compute_class_weight and the int64 token and label ids stay as they are
source: https://github.com/deepset-ai/FARM/issues/352
reported-error: (none filed; the fixed situation of aw03)
outcome: ok
root-cause: -
expect: none
"""
import copy
import os
import random
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.nn import CrossEntropyLoss
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)
np.random.seed(0)
save_dir = tempfile.mkdtemp()

# --- synthetic, imbalanced ticket corpus ---
label_list = ["billing", "login", "shipping", "refund", "other"]
keywords = {"billing": "invoice charge card", "login": "password account locked", "shipping": "parcel courier late",
            "refund": "return money back", "other": "question hello thanks"}
filler = "please help with my order today the app website again".split()
label_freq = [0.5, 0.25, 0.12, 0.08, 0.05]
texts, labels = [], []
for _ in range(600):
    label = np.random.choice(label_list, p=label_freq)
    words = random.sample(filler, 5) + random.sample(keywords[label].split(), 2)
    random.shuffle(words)
    texts.append(" ".join(words))
    labels.append(label)

vocab = {"[PAD]": 0, "[CLS]": 1}
for text in texts:
    for w in text.split():
        vocab.setdefault(w, len(vocab))
max_seq_len = 12


def encode(text):
    ids = [1] + [vocab[w] for w in text.split()][: max_seq_len - 1]
    return ids + [0] * (max_seq_len - len(ids))


input_ids = torch.tensor([encode(t) for t in texts])
label_ids = torch.tensor([label_list.index(lab) for lab in labels])
n_train = 480
data = {"train": TensorDataset(input_ids[:n_train], label_ids[:n_train]),
        "dev": TensorDataset(input_ids[n_train:], label_ids[n_train:])}


def compute_class_weight(class_weight, classes, y):
    """sklearn.utils.class_weight.compute_class_weight, "balanced" only."""
    y = np.asarray(y)
    recip_freq = len(y) / (len(classes) * np.array([np.sum(y == c) for c in classes]).astype(np.float64))
    return recip_freq


class DataSilo:
    def __init__(self, data, label_list):
        self.data, self.label_list = data, label_list

    def calculate_class_weights(self, source="train"):
        observed_labels = copy.deepcopy(self.label_list)
        datasets = [self.data["train"]] if source == "train" else self.data.values()
        for dataset in datasets:
            observed_labels += [self.label_list[x[1].item()] for x in dataset]
        class_weights = compute_class_weight("balanced", np.asarray(self.label_list), observed_labels)
        # conversion necessary to have class weights of same type as model weights
        class_weights = list(class_weights.astype(np.float32))
        return class_weights

    def get_data_loader(self, name):
        return DataLoader(self.data[name], batch_size=32, shuffle=(name == "train"))


class LanguageModel(nn.Module):
    def __init__(self, vocab_size, dim=64):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.pos = nn.Parameter(torch.zeros(1, max_seq_len, dim))
        layer = nn.TransformerEncoderLayer(dim, 4, 128, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)

    def forward(self, input_ids):
        h = self.encoder(self.embed(input_ids) + self.pos, src_key_padding_mask=input_ids == 0)
        return h[:, 0]  # [CLS] pooling


class TextClassificationHead(nn.Module):
    def __init__(self, layer_dims, class_weights=None):
        super().__init__()
        self.feed_forward = nn.Sequential(nn.Dropout(0.1), nn.Linear(layer_dims[0], layer_dims[1]))
        self.class_weights = class_weights
        if class_weights:
            print(f"Using class weights: {[round(float(w), 3) for w in class_weights]}")
            balanced_weights = nn.Parameter(torch.tensor(class_weights), requires_grad=False)
        else:
            balanced_weights = None
        self.loss_fct = CrossEntropyLoss(weight=balanced_weights, reduction="none")

    def forward(self, x):
        return self.feed_forward(x)

    def logits_to_loss(self, logits, label_ids):
        return self.loss_fct(logits, label_ids.view(-1))


class AdaptiveModel(nn.Module):
    def __init__(self, language_model, prediction_head):
        super().__init__()
        self.language_model, self.prediction_head = language_model, prediction_head

    def forward(self, input_ids):
        return self.prediction_head(self.language_model(input_ids))


data_silo = DataSilo(data, label_list)
prediction_head = TextClassificationHead(layer_dims=[64, len(label_list)],
                                         class_weights=data_silo.calculate_class_weights())
model = AdaptiveModel(LanguageModel(len(vocab)), prediction_head)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)

for epoch in range(3):
    model.train()
    for step, (ids, labs) in enumerate(data_silo.get_data_loader("train")):
        logits = model(ids)
        per_sample_loss = model.prediction_head.logits_to_loss(logits, labs)
        loss = per_sample_loss.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        preds = torch.cat([model(ids).argmax(-1) for ids, _ in data_silo.get_data_loader("dev")])
    gold = data["dev"].tensors[1]
    f1s = []
    for c in range(len(label_list)):
        tp = ((preds == c) & (gold == c)).sum().item()
        f1s.append(2 * tp / max((preds == c).sum().item() + (gold == c).sum().item(), 1))
    print(f"epoch {epoch} train loss {loss.item():.4f} dev f1_macro {np.mean(f1s):.3f}")

torch.save(model.state_dict(), os.path.join(save_dir, "text_classifier.pt"))
