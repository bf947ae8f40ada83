"""A taishan1994/pytorch_bert_bilstm_crf_ner-style Chinese character NER run (re-typed: NerDataset with uint8 attention masks, BertNerModel = BERT stand-in + BiLSTM + torchcrf CRF, BertForNer.train/predict): training works, but predict() builds the attention mask of the raw sentence with torch.from_numpy(np.array(...)), an int64 tensor, and CRF.decode's torch.where refuses it
source: https://github.com/taishan1994/pytorch_bert_bilstm_crf_ner/issues/1
reported-error: "RuntimeError: Expected condition to have ScalarType Byte, but got ScalarType Long" at torchcrf/__init__.py _viterbi_decode `score = torch.where(mask[i].unsqueeze(1), next_score, score)` when calling bertForNer.predict (fixed by converting the predict attention mask to uint8)
outcome: RuntimeError: where expected condition to be a boolean tensor, but got a tensor with dtype Long at line 204
root-cause: line 353
expect: DG004
"""
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, RandomSampler

random.seed(123)
np.random.seed(123)
torch.manual_seed(123)


class Args:
    bert_dir = "./model_hub/chinese-bert-wwm-ext/"
    dropout_prob = 0.1
    dropout = 0.3
    num_layers = 1
    lstm_hidden = 32
    gpu_ids = "-1"
    use_lstm = "True"
    use_crf = "True"
    max_seq_len = 24
    train_epochs = 8
    train_batch_size = 8
    lr = 1e-2
    max_grad_norm = 1.0
    num_tags = 0


args = Args()

# ---- data: character vocab and BIOES tags built by hand (stand-in for the CNER pickles) ----
ENT_TYPES = ["NAME", "ORG", "TITLE"]
ent2id = {"O": 0}
for t in ENT_TYPES:
    for p in "BIES":
        ent2id[f"{p}-{t}"] = len(ent2id)
id2query = {v: k for k, v in ent2id.items()}
args.num_tags = len(ent2id)

SURNAMES = list("王李张刘陈杨赵黄周吴")
GIVEN = list("伟芳娜敏静丽强磊军洋")
ORGS = ["浙江银行", "中国电信", "华为公司", "上海大学"]
TITLES = ["经济师", "工程师", "董事长", "会计师"]
FILLERS = list("先生女士现任出生于年月汉族中国国籍无境外永久居留权的是在")
vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
for ch in "".join(SURNAMES + GIVEN + ORGS + TITLES + FILLERS) + "，。：":
    vocab.setdefault(ch, len(vocab))


def tag_span(tags, start, length, typ):
    if length == 1:
        tags[start] = f"S-{typ}"
        return
    tags[start] = f"B-{typ}"
    for k in range(start + 1, start + length - 1):
        tags[k] = f"I-{typ}"
    tags[start + length - 1] = f"E-{typ}"


def make_sentence():
    name = random.choice(SURNAMES) + "".join(random.choices(GIVEN, k=random.randint(1, 2)))
    org, title = random.choice(ORGS), random.choice(TITLES)
    pieces = [(name, "NAME"), ("".join(random.choices(FILLERS, k=3)), None), (org, "ORG"),
              ("".join(random.choices(FILLERS, k=2)), None), (title, "TITLE"), ("。", None)]
    text, tags = "", []
    for piece, typ in pieces:
        start = len(text)
        text += piece
        tags += ["O"] * len(piece)
        if typ:
            tag_span(tags, start, len(piece), typ)
    return text, tags


class BertFeature:
    def __init__(self, token_ids, attention_masks, token_type_ids, labels=None):
        self.token_ids = token_ids
        self.attention_masks = attention_masks
        self.token_type_ids = token_type_ids
        self.labels = labels


def encode_plus(tokens, max_length):
    """The BertTokenizer.encode_plus subset used here: [CLS] + tokens + [SEP], padded to max_length."""
    ids = [vocab["[CLS]"]] + [vocab.get(t, vocab["[UNK]"]) for t in tokens[: max_length - 2]] + [vocab["[SEP]"]]
    mask = [1] * len(ids)
    pad = max_length - len(ids)
    return {"input_ids": ids + [0] * pad, "attention_mask": mask + [0] * pad, "token_type_ids": [0] * max_length}


def convert_example(text, tags):
    enc = encode_plus(list(text), args.max_seq_len)
    label_ids = [0] + [ent2id[t] for t in tags[: args.max_seq_len - 2]] + [0]
    label_ids += [0] * (args.max_seq_len - len(label_ids))
    return BertFeature(enc["input_ids"], enc["attention_mask"], enc["token_type_ids"], label_ids)


class NerDataset(Dataset):
    def __init__(self, features):
        self.nums = len(features)
        self.token_ids = [torch.tensor(example.token_ids).long() for example in features]
        self.attention_masks = [torch.tensor(example.attention_masks, dtype=torch.uint8) for example in features]
        self.token_type_ids = [torch.tensor(example.token_type_ids).long() for example in features]
        self.labels = [torch.tensor(example.labels).long() for example in features]

    def __len__(self):
        return self.nums

    def __getitem__(self, index):
        data = {"token_ids": self.token_ids[index], "attention_masks": self.attention_masks[index],
                "token_type_ids": self.token_type_ids[index]}
        data["labels"] = self.labels[index]
        return data


# ---- torchcrf.CRF (pytorch-crf 0.7.2), re-typed ----
class CRF(nn.Module):
    def __init__(self, num_tags, batch_first=False):
        super().__init__()
        self.num_tags = num_tags
        self.batch_first = batch_first
        self.start_transitions = nn.Parameter(torch.empty(num_tags))
        self.end_transitions = nn.Parameter(torch.empty(num_tags))
        self.transitions = nn.Parameter(torch.empty(num_tags, num_tags))
        nn.init.uniform_(self.start_transitions, -0.1, 0.1)
        nn.init.uniform_(self.end_transitions, -0.1, 0.1)
        nn.init.uniform_(self.transitions, -0.1, 0.1)

    def forward(self, emissions, tags, mask=None, reduction="sum"):
        self._validate(emissions, tags=tags, mask=mask)
        if mask is None:
            mask = torch.ones_like(tags, dtype=torch.uint8)
        if self.batch_first:
            emissions = emissions.transpose(0, 1)
            tags = tags.transpose(0, 1)
            mask = mask.transpose(0, 1)
        numerator = self._compute_score(emissions, tags, mask)
        denominator = self._compute_normalizer(emissions, mask)
        llh = numerator - denominator
        if reduction == "none":
            return llh
        if reduction == "sum":
            return llh.sum()
        if reduction == "mean":
            return llh.mean()
        return llh.sum() / mask.float().sum()

    def decode(self, emissions, mask=None):
        self._validate(emissions, mask=mask)
        if mask is None:
            mask = emissions.new_ones(emissions.shape[:2], dtype=torch.uint8)
        if self.batch_first:
            emissions = emissions.transpose(0, 1)
            mask = mask.transpose(0, 1)
        return self._viterbi_decode(emissions, mask)

    def _validate(self, emissions, tags=None, mask=None):
        if emissions.dim() != 3 or emissions.size(2) != self.num_tags:
            raise ValueError("emissions must have dimension of 3 and num_tags last")
        if mask is not None:
            no_empty_seq = not self.batch_first and mask[0].all()
            no_empty_seq_bf = self.batch_first and mask[:, 0].all()
            if not no_empty_seq and not no_empty_seq_bf:
                raise ValueError("mask of the first timestep must all be on")

    def _compute_score(self, emissions, tags, mask):
        seq_length, batch_size = tags.shape
        mask = mask.float()
        score = self.start_transitions[tags[0]]
        score += emissions[0, torch.arange(batch_size), tags[0]]
        for i in range(1, seq_length):
            score += self.transitions[tags[i - 1], tags[i]] * mask[i]
            score += emissions[i, torch.arange(batch_size), tags[i]] * mask[i]
        seq_ends = mask.long().sum(dim=0) - 1
        last_tags = tags[seq_ends, torch.arange(batch_size)]
        score += self.end_transitions[last_tags]
        return score

    def _compute_normalizer(self, emissions, mask):
        seq_length = emissions.size(0)
        score = self.start_transitions + emissions[0]
        for i in range(1, seq_length):
            next_score = score.unsqueeze(2) + self.transitions + emissions[i].unsqueeze(1)
            next_score = torch.logsumexp(next_score, dim=1)
            score = torch.where(mask[i].unsqueeze(1), next_score, score)
        score += self.end_transitions
        return torch.logsumexp(score, dim=1)

    def _viterbi_decode(self, emissions, mask):
        seq_length, batch_size = mask.shape
        score = self.start_transitions + emissions[0]
        history = []
        for i in range(1, seq_length):
            next_score = score.unsqueeze(2) + self.transitions + emissions[i].unsqueeze(1)
            next_score, indices = next_score.max(dim=1)
            score = torch.where(mask[i].unsqueeze(1), next_score, score)  # fails-here
            history.append(indices)
        score += self.end_transitions
        seq_ends = mask.long().sum(dim=0) - 1
        best_tags_list = []
        for idx in range(batch_size):
            _, best_last_tag = score[idx].max(dim=0)
            best_tags = [best_last_tag.item()]
            for hist in reversed(history[: seq_ends[idx]]):
                best_last_tag = hist[idx][best_tags[-1]]
                best_tags.append(best_last_tag.item())
            best_tags.reverse()
            best_tags_list.append(best_tags)
        return best_tags_list


# ---- model ----
class TinyBert(nn.Module):
    """Stand-in for BertModel.from_pretrained(bert_dir): word + position + segment embeddings, LayerNorm, one FFN."""

    def __init__(self, vocab_size, hidden_size, max_len, dropout_prob):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_len, hidden_size)
        self.token_type_embeddings = nn.Embedding(2, hidden_size)
        self.LayerNorm = nn.LayerNorm(hidden_size)
        self.dropout = nn.Dropout(dropout_prob)
        self.ffn = nn.Sequential(nn.Linear(hidden_size, hidden_size), nn.GELU())

    def forward(self, input_ids, attention_mask=None, token_type_ids=None):
        pos = torch.arange(input_ids.size(1)).unsqueeze(0)
        x = self.word_embeddings(input_ids) + self.position_embeddings(pos) + self.token_type_embeddings(token_type_ids)
        x = self.dropout(self.LayerNorm(x))
        x = x + self.ffn(x)
        return (x,)


class BertConfig:
    hidden_size = 48
    initializer_range = 0.02


class BaseModel(nn.Module):
    def __init__(self, bert_dir, dropout_prob):
        super().__init__()
        self.bert_config = BertConfig()
        self.bert_module = TinyBert(len(vocab), self.bert_config.hidden_size, args.max_seq_len, dropout_prob)

    @staticmethod
    def _init_weights(blocks, **kwargs):
        for block in blocks:
            for module in block.modules():
                if isinstance(module, nn.Linear):
                    if module.bias is not None:
                        nn.init.zeros_(module.bias)
                elif isinstance(module, nn.Embedding):
                    nn.init.normal_(module.weight, mean=0, std=kwargs.pop("initializer_range", 0.02))
                elif isinstance(module, nn.LayerNorm):
                    nn.init.ones_(module.weight)
                    nn.init.zeros_(module.bias)


class BertNerModel(BaseModel):
    def __init__(self, args):
        super().__init__(bert_dir=args.bert_dir, dropout_prob=args.dropout_prob)
        self.args = args
        self.num_layers = args.num_layers
        self.lstm_hidden = args.lstm_hidden
        gpu_ids = args.gpu_ids.split(",")
        self.device = torch.device("cpu" if gpu_ids[0] == "-1" else "cuda:" + gpu_ids[0])
        out_dims = self.bert_config.hidden_size
        self.lstm = nn.LSTM(out_dims, args.lstm_hidden, args.num_layers, bidirectional=True, batch_first=True,
                            dropout=0.0 if args.num_layers == 1 else args.dropout)
        self.linear = nn.Linear(args.lstm_hidden * 2, args.num_tags)
        self.criterion = nn.CrossEntropyLoss()
        self._init_weights([self.linear], initializer_range=self.bert_config.initializer_range)
        self.crf = CRF(args.num_tags, batch_first=True)

    def init_hidden(self, batch_size):
        h0 = torch.randn(2 * self.num_layers, batch_size, self.lstm_hidden, requires_grad=True).to(self.device)
        c0 = torch.randn(2 * self.num_layers, batch_size, self.lstm_hidden, requires_grad=True).to(self.device)
        return h0, c0

    def forward(self, token_ids, attention_masks, token_type_ids, labels):
        bert_outputs = self.bert_module(input_ids=token_ids, attention_mask=attention_masks, token_type_ids=token_type_ids)
        seq_out = bert_outputs[0]
        batch_size = seq_out.size(0)
        hidden = self.init_hidden(batch_size)
        seq_out, (hn, _) = self.lstm(seq_out, hidden)
        seq_out = seq_out.contiguous().view(-1, self.lstm_hidden * 2)
        seq_out = self.linear(seq_out)
        seq_out = seq_out.contiguous().view(batch_size, self.args.max_seq_len, -1)
        logits = self.crf.decode(seq_out, mask=attention_masks)
        if labels is None:
            return logits
        loss = -self.crf(seq_out, labels, mask=attention_masks, reduction="mean")
        return (loss,) + (logits,)


def bioes_decode(pred, text, id2ent):
    entities, i = {}, 0
    while i < len(text):
        tag = id2ent[pred[i]]
        if tag.startswith("S-"):
            entities.setdefault(tag[2:], []).append((text[i], i))
        elif tag.startswith("B-"):
            j = i + 1
            while j < len(text) and id2ent[pred[j]] == "I-" + tag[2:]:
                j += 1
            if j < len(text) and id2ent[pred[j]] == "E-" + tag[2:]:
                entities.setdefault(tag[2:], []).append((text[i:j + 1], i))
                i = j
        i += 1
    return entities


class BertForNer:
    def __init__(self, args, train_loader, idx2tag):
        self.train_loader = train_loader
        self.args = args
        self.idx2tag = idx2tag
        self.model = BertNerModel(args)
        self.device = torch.device("cpu")
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=args.lr)

    def train(self):
        global_step = 0
        self.model.zero_grad()
        for epoch in range(self.args.train_epochs):
            for step, batch_data in enumerate(self.train_loader):
                self.model.train()
                for key in batch_data.keys():
                    batch_data[key] = batch_data[key].to(self.device)
                loss, logits = self.model(batch_data["token_ids"], batch_data["attention_masks"],
                                          batch_data["token_type_ids"], batch_data["labels"])
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.args.max_grad_norm)
                self.optimizer.step()
                self.model.zero_grad()
                global_step += 1
            print(f"[train] epoch:{epoch} step:{global_step} loss:{loss.item():.4f}")

    def predict(self, raw_text):
        model = self.model
        model.eval()
        with torch.no_grad():
            tokens = list(raw_text)
            encode_dict = encode_plus(tokens, self.args.max_seq_len)
            token_ids = torch.from_numpy(np.array(encode_dict["input_ids"])).unsqueeze(0)
            attention_masks = torch.from_numpy(np.array(encode_dict["attention_mask"])).unsqueeze(0)  # root-cause
            token_type_ids = torch.from_numpy(np.array(encode_dict["token_type_ids"])).unsqueeze(0)
            logits = model(token_ids.to(self.device), attention_masks.to(self.device), token_type_ids.to(self.device), None)
            output = logits
            pred_entities = bioes_decode(output[0][1:1 + len(tokens)], "".join(tokens), self.idx2tag)
            print(pred_entities)
            return pred_entities


train_features = [convert_example(*make_sentence()) for _ in range(64)]
train_dataset = NerDataset(train_features)
train_loader = DataLoader(dataset=train_dataset, batch_size=args.train_batch_size, sampler=RandomSampler(train_dataset))
bertForNer = BertForNer(args, train_loader, id2query)
bertForNer.train()

raw_text = "王伟先生现任浙江银行董事长。"
bertForNer.predict(raw_text)
