"""A metric-learning run on news articles (re-typed from the reporter's Colab notebook: the left/right "Bias" column label-encoded with pandas Categorical codes, a CustomDataset whose targets are torch.tensor(..., dtype=torch.float), a BERT encoder with a 768->256 embedding head, pytorch-metric-learning's CosFaceLoss(num_classes=2, embedding_size=256) with its own Adam, train/test/fit with StepLR): the train loop casts the class labels to float32 before the loss, and CosFaceLoss's get_target_mask indexes its (batch, num_classes) mask with them, which a float tensor cannot do
source: https://github.com/KevinMusgrave/pytorch-metric-learning/issues/616
reported-error: "Index Error method get_target_mask using CosFaceLoss ... mask[torch.arange(batch_size), labels] = 1 ... IndexError: tensors used as indices must be long, int, byte or bool tensors" (maintainer: "they need to be integers instead of float"; the reporter: "i converted to long and it worked")
outcome: IndexError: tensors used as indices must be long, int, byte or bool tensors at line 129
root-cause: line 232
expect: DG006
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.optim import lr_scheduler
import torch.optim as optim
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)

LEFT_WORDS = "union wages workers climate healthcare equality progressive reform tax rich voters rights".split()
RIGHT_WORDS = "border taxes freedom market liberty regulation patriots security family faith guns business".split()
COMMON = "the a president said on in of and to report congress senate week new plan policy house".split()


# ---- read csv datasets (the three news CSVs are a synthetic stand-in) --------------------------------------------
class NewsPaperData:
    def __init__(self, path):
        self.path = path
        self.list_filenames = ["news-aggregator.csv", "news-february.csv", "news-july.csv"]
        self.df_list = list()

    def read_file(self, filename):
        n = 40
        bias = rng.choice(["left", "right", "center"], n)
        words = {"left": LEFT_WORDS, "right": RIGHT_WORDS, "center": COMMON}
        return pd.DataFrame({
            "Source": rng.choice(["cnn.com", "foxnews.com", "investors.com"], n),
            "Title": [" ".join(rng.choice(words[b] + COMMON, 5)) for b in bias],
            "Content": [" ".join(rng.choice(words[b] + COMMON, 30)) for b in bias],
            "Bias": bias,
        })

    def union_title_corpus(self, df, column_title, column_corpus):
        df["text"] = df[[column_title, column_corpus]].apply(lambda x: str(x.iloc[0]) + " " + str(x.iloc[1]), axis=1)
        return df

    def df_label_encoded(self, df, column_label):
        df = df.query(f"`{column_label}` == 'left' or `{column_label}` == 'right'").copy()
        df[column_label] = pd.Categorical(df[column_label])
        df[column_label] = df[column_label].cat.codes
        return df.reset_index(drop=True)

    def rename_columns(self, df, dict_map):
        return df.rename(columns=dict_map)

    def get_dataset_custom(self):
        dict_map = {"Bias": "labels"}
        for filename in self.list_filenames:
            self.df_list.append(self.read_file(filename))
        df = pd.concat(self.df_list, ignore_index=True)
        df = self.union_title_corpus(df, "Title", "Content")
        df = self.df_label_encoded(df, "Bias")
        df = self.rename_columns(df, dict_map)
        return df


# ---- transformers.BertTokenizer / BertModel stand-ins (word-level vocabulary, a one-layer encoder + pooler) -------
class BertTokenizer:
    def __init__(self):
        vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"] + sorted(set(LEFT_WORDS + RIGHT_WORDS + COMMON))
        self.vocab = {w: i for i, w in enumerate(vocab)}

    @classmethod
    def from_pretrained(cls, name):
        return cls()

    def encode_plus(self, text, text_pair=None, add_special_tokens=True, max_length=512, pad_to_max_length=False,
                    return_token_type_ids=True):
        ids = [self.vocab.get(w.lower(), 1) for w in text.split()][:max_length - 2]
        ids = [2] + ids + [3]
        mask = [1] * len(ids)
        if pad_to_max_length:
            ids, mask = ids + [0] * (max_length - len(ids)), mask + [0] * (max_length - len(mask))
        return {"input_ids": ids, "attention_mask": mask, "token_type_ids": [0] * len(ids)}


class BertModel(nn.Module):
    def __init__(self, vocab_size=64, hidden=768):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.token_type = nn.Embedding(2, hidden)
        self.encoder = nn.TransformerEncoderLayer(hidden, nhead=8, dim_feedforward=256, batch_first=True)
        self.pooler = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh())

    @classmethod
    def from_pretrained(cls, name, return_dict=False):
        return cls()

    def forward(self, input_ids, attention_mask=None, token_type_ids=None):
        h = self.embeddings(input_ids) + self.token_type(token_type_ids)
        h = self.encoder(h, src_key_padding_mask=attention_mask == 0)
        return h, self.pooler(h[:, 0])


# ---- pytorch_metric_learning 2.1.0: CosFaceLoss(LargeMarginSoftmaxLoss), the parts the traceback runs through ----
class CosineSimilarity:
    def __call__(self, query_emb, ref_emb):
        return torch.nn.functional.normalize(query_emb, dim=1) @ torch.nn.functional.normalize(ref_emb, dim=1).t()


class CosFaceLoss(nn.Module):
    def __init__(self, num_classes, embedding_size, margin=0.35, scale=64):
        super().__init__()
        self.num_classes = num_classes
        self.margin = margin
        self.scale = scale
        self.distance = CosineSimilarity()
        self.W = torch.nn.Parameter(torch.Tensor(embedding_size, num_classes))
        torch.nn.init.normal_(self.W)
        self.cross_entropy = torch.nn.CrossEntropyLoss(reduction="none")

    def forward(self, embeddings, labels):
        labels = labels.to(embeddings.device)
        loss = self.compute_loss(embeddings, labels)
        return torch.mean(loss)

    def get_target_mask(self, embeddings, labels):
        batch_size = labels.size(0)
        mask = torch.zeros(batch_size, self.num_classes, dtype=embeddings.dtype, device=embeddings.device)
        mask[torch.arange(batch_size), labels] = 1  # fails-here
        return mask

    def get_cosine(self, embeddings):
        return self.distance(embeddings, self.W.t())

    def modify_cosine_of_target_classes(self, cosine_of_target_classes):
        return cosine_of_target_classes - self.margin

    def scale_logits(self, logits, *_):
        return logits * self.scale

    def compute_loss(self, embeddings, labels):
        self.W.data = self.W.data.to(device=embeddings.device, dtype=embeddings.dtype)
        mask = self.get_target_mask(embeddings, labels)
        cosine = self.get_cosine(embeddings)
        cosine_of_target_classes = cosine[mask == 1]
        modified = self.modify_cosine_of_target_classes(cosine_of_target_classes)
        diff = (modified - cosine_of_target_classes).unsqueeze(1)
        logits = self.scale_logits(cosine + (mask * diff), embeddings)
        return self.cross_entropy(logits, labels)


# ---- the notebook ------------------------------------------------------------------------------------------------
class CustomDataset(Dataset):
    def __init__(self, dataframe, tokenizer, max_len):
        self.tokenizer = tokenizer
        self.data = dataframe
        self.article_text = dataframe.text
        self.targets = self.data.labels
        self.max_len = max_len

    def __len__(self):
        return len(self.article_text)

    def __getitem__(self, index):
        article_text = str(self.article_text[index])
        article_text = " ".join(article_text.split())
        inputs = self.tokenizer.encode_plus(article_text, None, add_special_tokens=True, max_length=self.max_len,
                                            pad_to_max_length=True, return_token_type_ids=True)
        ids = inputs["input_ids"]
        mask = inputs["attention_mask"]
        token_type_ids = inputs["token_type_ids"]
        return {
            "ids": torch.tensor(ids, dtype=torch.long),
            "mask": torch.tensor(mask, dtype=torch.long),
            "token_type_ids": torch.tensor(token_type_ids, dtype=torch.long),
            "targets": torch.tensor(self.targets[index], dtype=torch.float),  # root-cause-alt
        }


dataset = NewsPaperData("/content/drive/MyDrive/mestrado/src/")
df = dataset.get_dataset_custom()
df_train = df[:40].reset_index()
df_val = df[40:60].reset_index()

tokenizer = BertTokenizer.from_pretrained("bert-base-uncased")
training_set = CustomDataset(df_train, tokenizer, 48)
validating_set = CustomDataset(df_val, tokenizer, 48)

TRAIN_BATCH_SIZE = 4
VALID_BATCH_SIZE = 4
train_params = {"batch_size": TRAIN_BATCH_SIZE, "shuffle": True, "num_workers": 0}
test_params = {"batch_size": VALID_BATCH_SIZE, "shuffle": True, "num_workers": 0}
training_loader = DataLoader(training_set, **train_params)
validating_loader = DataLoader(validating_set, **test_params)

device = "cuda" if torch.cuda.is_available() else "cpu"

### pytorch-metric-learning stuff ###
num_classes = 2
embedding_size = 256
loss_func = CosFaceLoss(num_classes, embedding_size).to(device=device)
loss_optimizer = torch.optim.Adam(loss_func.parameters(), lr=1e-4)


class BERTClass(torch.nn.Module):
    def __init__(self):
        super(BERTClass, self).__init__()
        self.l1 = BertModel.from_pretrained("bert-base-uncased", return_dict=False)
        self.l3 = torch.nn.Linear(768, 256)

    def forward(self, ids, mask, token_type_ids):
        _, output_1 = self.l1(ids, attention_mask=mask, token_type_ids=token_type_ids)
        output = self.l3(output_1)
        return output

    def get_embedding(self, ids, mask, token_type_ids):
        return self.forward(ids, mask, token_type_ids)


bert_model = BERTClass()
bert_model.to(device)


def train(model, loss_func, loss_optimizer, device, train_loader, optimizer, mining_func=None):
    model.train()
    losses = []
    total_loss = 0
    for batch_idx, data in enumerate(train_loader):
        ids = data["ids"].to(device, dtype=torch.int64)
        mask = data["mask"].to(device, dtype=torch.int64)
        token_type_ids = data["token_type_ids"].to(device, dtype=torch.int64)
        targets = data["targets"].to(device, torch.float32)  # root-cause

        optimizer.zero_grad()
        loss_optimizer.zero_grad()
        embeddings = model(ids, mask, token_type_ids)
        loss = loss_func(embeddings, targets)
        losses.append(loss.item())
        total_loss += loss.item()
        loss.backward()
        optimizer.step()
        loss_optimizer.step()

        if batch_idx % 20 == 0:
            print("Train: [{}/{} ({:.0f}%)]\tLoss: {:.6f}".format(
                batch_idx * len(data), len(train_loader.dataset), 100. * batch_idx / len(train_loader), np.mean(losses)))
            losses = []

        total_loss /= (batch_idx + 1)
        return total_loss


def test(model, loss_func, device, val_loader, mining_func=None):
    with torch.no_grad():
        model.eval()
        val_loss = 0
        for batch_idx, data in enumerate(val_loader):
            ids = data["ids"].to(device, dtype=torch.int64)
            mask = data["mask"].to(device, dtype=torch.int64)
            token_type_ids = data["token_type_ids"].to(device, dtype=torch.int64)
            targets = data["targets"].to(device, torch.float32)
            embeddings = model(ids, mask, token_type_ids)
            loss_outputs = loss_func(embeddings, targets)
            loss = loss_outputs[0] if type(loss_outputs) in (tuple, list) else loss_outputs
            val_loss += loss.item()
        return val_loss


def fit(train_loader, val_loader, model, loss_func, loss_optimizer, optimizer, scheduler, num_epochs, device,
        loss_scheduler, mining_func=None, start_epoch=0):
    for epoch in range(0, start_epoch):
        scheduler.step()
        loss_scheduler.step()
    train_plot, val_plot = [], []
    for epoch in range(start_epoch, num_epochs):
        scheduler.step()
        train_loss = train(model, loss_func, loss_optimizer, device, train_loader, optimizer)
        train_plot.append(train_loss)
        message = "Epoch: {}/{}. Train set: Average Loss: {:.4f}".format(epoch + 1, num_epochs, train_loss)
        val_loss = test(model, loss_func, device, val_loader)
        val_loss /= len(val_loader)
        val_plot.append(val_loss)
        message += "\nEpoch: {}/{}. Validation set: Average Loss: {:.4f}".format(epoch + 1, num_epochs, val_loss)
        print(message)


optimizer = optim.Adam(bert_model.parameters(), lr=1e-4)
scheduler = lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.1)
loss_scheduler = optim.lr_scheduler.StepLR(loss_optimizer, step_size=1, gamma=0.1)
num_epochs = 2
fit(training_loader, validating_loader, bert_model, loss_func, loss_optimizer, optimizer, scheduler, num_epochs,
    device, loss_scheduler)
