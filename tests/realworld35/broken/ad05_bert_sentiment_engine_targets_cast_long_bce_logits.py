"""IMDB sentiment fine-tuning of a BERT classifier (abhishekkrthakur/bert-sentiment src/: config constants, BERTDataset returning ids/mask/token_type_ids/targets, BERTBaseUncased = BERT pooled output + dropout + Linear(768, 1), engine.train_fn/eval_fn with BCEWithLogitsLoss, train.run with a pandas frame and sklearn split): the variant's train_fn moves the targets with the same dtype=torch.long as the token ids, so BCEWithLogitsLoss gets int64 labels
source: https://github.com/abhishekkrthakur/bert-sentiment/blob/6b60ce1650e23b93da2407611efaa47a59290095/src/engine.py
reported-error: (none filed; engine.py moves targets with dtype=torch.float; the variant's int64 targets fail in loss_fn)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 89
root-cause: line 103
expect: DG007
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn import metrics, model_selection


# ---- config.py (BERT_PATH / TOKENIZER replaced by a toy tokenizer and encoder)
MAX_LEN = 32
TRAIN_BATCH_SIZE = 8
VALID_BATCH_SIZE = 4
EPOCHS = 1


class ToyTokenizer:
    def encode_plus(self, text, text_pair=None, add_special_tokens=True, max_length=MAX_LEN):
        ids = [101] + [1000 + sum(map(ord, w)) % 2000 for w in text.split()][:max_length - 2] + [102]
        return {"input_ids": ids, "attention_mask": [1] * len(ids), "token_type_ids": [0] * len(ids)}


TOKENIZER = ToyTokenizer()


class ToyBertModel(nn.Module):
    def __init__(self, hidden=768):
        super().__init__()
        self.embeddings = nn.Embedding(3100, hidden)
        self.pooler = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh())

    def forward(self, ids, attention_mask=None, token_type_ids=None):
        seq = self.embeddings(ids) * attention_mask.unsqueeze(-1)
        return seq, self.pooler(seq[:, 0])


# ---- dataset.py
class BERTDataset:
    def __init__(self, review, target):
        self.review = review
        self.target = target
        self.tokenizer = TOKENIZER
        self.max_len = MAX_LEN

    def __len__(self):
        return len(self.review)

    def __getitem__(self, item):
        review = str(self.review[item])
        review = " ".join(review.split())
        inputs = self.tokenizer.encode_plus(review, None, add_special_tokens=True, max_length=self.max_len)
        ids = inputs["input_ids"]
        mask = inputs["attention_mask"]
        token_type_ids = inputs["token_type_ids"]
        padding_length = self.max_len - len(ids)
        ids = ids + ([0] * padding_length)
        mask = mask + ([0] * padding_length)
        token_type_ids = token_type_ids + ([0] * padding_length)
        return {
            'ids': torch.tensor(ids, dtype=torch.long),
            'mask': torch.tensor(mask, dtype=torch.long),
            'token_type_ids': torch.tensor(token_type_ids, dtype=torch.long),
            'targets': torch.tensor(self.target[item], dtype=torch.float)
        }


# ---- model.py
class BERTBaseUncased(nn.Module):
    def __init__(self):
        super(BERTBaseUncased, self).__init__()
        self.bert = ToyBertModel()
        self.bert_drop = nn.Dropout(0.3)
        self.out = nn.Linear(768, 1)

    def forward(self, ids, mask, token_type_ids):
        _, o2 = self.bert(ids, attention_mask=mask, token_type_ids=token_type_ids)
        bo = self.bert_drop(o2)
        output = self.out(bo)
        return output


# ---- engine.py
def loss_fn(outputs, targets):
    return nn.BCEWithLogitsLoss()(outputs, targets.view(-1, 1))  # fails-here


def train_fn(data_loader, model, optimizer, device, scheduler):
    model.train()
    for bi, d in enumerate(data_loader):
        ids = d["ids"]
        token_type_ids = d["token_type_ids"]
        mask = d["mask"]
        targets = d["targets"]

        ids = ids.to(device, dtype=torch.long)
        token_type_ids = token_type_ids.to(device, dtype=torch.long)
        mask = mask.to(device, dtype=torch.long)
        targets = targets.to(device, dtype=torch.long)  # root-cause

        optimizer.zero_grad()
        outputs = model(ids=ids, mask=mask, token_type_ids=token_type_ids)
        loss = loss_fn(outputs, targets)
        loss.backward()
        optimizer.step()
        scheduler.step()


def eval_fn(data_loader, model, device):
    model.eval()
    fin_targets = []
    fin_outputs = []
    with torch.no_grad():
        for bi, d in enumerate(data_loader):
            ids = d["ids"].to(device, dtype=torch.long)
            token_type_ids = d["token_type_ids"].to(device, dtype=torch.long)
            mask = d["mask"].to(device, dtype=torch.long)
            targets = d["targets"].to(device, dtype=torch.float)
            outputs = model(ids=ids, mask=mask, token_type_ids=token_type_ids)
            fin_targets.extend(targets.cpu().detach().numpy().tolist())
            fin_outputs.extend(torch.sigmoid(outputs).cpu().detach().numpy().tolist())
    return fin_outputs, fin_targets


# ---- train.py (IMDB Dataset.csv replaced by a synthetic frame; transformers' AdamW/scheduler by torch's)
def run():
    rng = np.random.RandomState(0)
    words = ["great", "awful", "movie", "plot", "acting", "boring", "loved", "hated", "the", "was"]
    dfx = pd.DataFrame({"review": [" ".join(rng.choice(words, 12)) for _ in range(64)],
                        "sentiment": rng.choice(["positive", "negative"], 64)}).fillna("none")
    dfx.sentiment = dfx.sentiment.apply(lambda x: 1 if x == "positive" else 0)
    df_train, df_valid = model_selection.train_test_split(dfx, test_size=0.1, random_state=42, stratify=dfx.sentiment.values)
    df_train = df_train.reset_index(drop=True)
    df_valid = df_valid.reset_index(drop=True)

    train_dataset = BERTDataset(review=df_train.review.values, target=df_train.sentiment.values)
    train_data_loader = torch.utils.data.DataLoader(train_dataset, batch_size=TRAIN_BATCH_SIZE, num_workers=0)
    valid_dataset = BERTDataset(review=df_valid.review.values, target=df_valid.sentiment.values)
    valid_data_loader = torch.utils.data.DataLoader(valid_dataset, batch_size=VALID_BATCH_SIZE, num_workers=0)

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = BERTBaseUncased()
    model.to(device)

    param_optimizer = list(model.named_parameters())
    no_decay = ["bias", "LayerNorm.bias", "LayerNorm.weight"]
    optimizer_parameters = [
        {'params': [p for n, p in param_optimizer if not any(nd in n for nd in no_decay)], 'weight_decay': 0.001},
        {'params': [p for n, p in param_optimizer if any(nd in n for nd in no_decay)], 'weight_decay': 0.0},
    ]
    num_train_steps = int(len(df_train) / TRAIN_BATCH_SIZE * EPOCHS)
    optimizer = torch.optim.AdamW(optimizer_parameters, lr=3e-5)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: max(0.0, 1 - step / num_train_steps))
    model = nn.DataParallel(model)

    best_accuracy = 0
    for epoch in range(EPOCHS):
        train_fn(train_data_loader, model, optimizer, device, scheduler)
        outputs, targets = eval_fn(valid_data_loader, model, device)
        outputs = np.array(outputs) >= 0.5
        accuracy = metrics.accuracy_score(targets, outputs)
        print(f"Accuracy Score = {accuracy}")
        if accuracy > best_accuracy:
            best_accuracy = accuracy


if __name__ == "__main__":
    run()
