"""LEBERT Chinese NER (lexicon-enhanced BERT, re-typed small): the processor stores each character's matched-word mask as `(word_ids != word_pad_id).long()`, and the WordEmbeddingAdapter inserted after the first BERT layer calls socres.masked_fill_(word_mask, -1e9) with that int64 mask, which torch refuses
source: https://github.com/yangjianxin1/LEBERT-NER-Chinese/issues/11
reported-error: models/lebert.py line 59 `socres.masked_fill_(word_mask, -1e9)  # 将pad的注意力设为很小的数` -> RuntimeError: expected mask dtype to be Bool but got Long (fix in the thread: `socres.masked_fill_(word_mask.bool(), -1e9)`)
outcome: RuntimeError: masked_fill_ only supports boolean masks, but got mask with dtype long int at line 102
root-cause: line 68
expect: DG004
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
random.seed(0)
CHARS = list("北京上海天安门广场大学生活动中心人民公园")
LEXICON = ["北京", "上海", "天安门", "广场", "大学", "大学生", "学生", "活动", "中心", "人民", "公园", "人民公园"]
LABELS = ["O", "B-LOC", "I-LOC", "[PAD]"]
MAX_SEQ_LEN, MAX_WORD_NUM, HIDDEN, WORD_DIM = 16, 3, 32, 16


class Vocab:
    def __init__(self, tokens):
        self.token2id = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]"] + tokens)}

    def convert_token_to_id(self, t):
        return self.token2id.get(t, 1)

    def convert_tokens_to_ids(self, ts):
        return [self.convert_token_to_id(t) for t in ts]


char_vocab, word_vocab, label_vocab = Vocab(CHARS), Vocab(LEXICON), {l: i for i, l in enumerate(LABELS)}


def get_char2words(text):
    """Trie lookup stand-in: every lexicon word that covers text[i]."""
    char_index2words = [[] for _ in text]
    for idx in range(len(text)):
        for word in LEXICON:
            if "".join(text[idx:idx + len(word)]) == word:
                for i in range(idx, idx + len(word)):
                    char_index2words[i].append(word)
    return char_index2words


def get_input_data(lines):
    features = []
    word_pad_id = word_vocab.convert_token_to_id("[PAD]")
    for text, labels in lines:
        char_index2words = get_char2words(text)
        input_ids = [2] + char_vocab.convert_tokens_to_ids(text) + [3]
        label_ids = [0] + [label_vocab[l] for l in labels] + [0]
        word_ids_list = []
        for words in char_index2words:
            words = words[:MAX_WORD_NUM]
            word_ids = word_vocab.convert_tokens_to_ids(words)
            word_ids_list.append(word_ids + [word_pad_id] * (MAX_WORD_NUM - len(words)))
        word_ids_list = [[word_pad_id] * MAX_WORD_NUM] + word_ids_list + [[word_pad_id] * MAX_WORD_NUM]
        input_mask = [1] * len(input_ids)
        padding_length = MAX_SEQ_LEN - len(input_ids)
        input_ids += [0] * padding_length
        input_mask += [0] * padding_length
        label_ids += [label_vocab["[PAD]"]] * padding_length
        word_ids_list += [[word_pad_id] * MAX_WORD_NUM] * padding_length
        word_ids = torch.LongTensor(word_ids_list)
        word_mask = (word_ids != word_pad_id).long()  # root-cause
        features.append({"input_ids": torch.LongTensor(input_ids), "attention_mask": torch.LongTensor(input_mask),
                         "token_type_ids": torch.zeros(MAX_SEQ_LEN, dtype=torch.long), "word_ids": word_ids,
                         "word_mask": word_mask, "label_ids": torch.LongTensor(label_ids)})
    return features


class NERDataset(Dataset):
    def __init__(self, features):
        self.features = features

    def __len__(self):
        return len(self.features)

    def __getitem__(self, index):
        return self.features[index]


class WordEmbeddingAdapter(nn.Module):
    def __init__(self):
        super().__init__()
        self.dropout = nn.Dropout(0.1)
        self.tanh = nn.Tanh()
        self.linear1 = nn.Linear(WORD_DIM, HIDDEN)
        self.linear2 = nn.Linear(HIDDEN, HIDDEN)
        self.attn_W = nn.Parameter(torch.zeros(HIDDEN, HIDDEN))
        self.attn_W.data.normal_(mean=0.0, std=0.02)
        self.layer_norm = nn.LayerNorm(HIDDEN, eps=1e-12)

    def forward(self, layer_output, word_embeddings, word_mask):
        word_outputs = self.dropout(self.linear2(self.tanh(self.linear1(word_embeddings))))
        socres = torch.matmul(layer_output.unsqueeze(2), self.attn_W)
        socres = torch.matmul(socres, torch.transpose(word_outputs, 2, 3))
        socres = socres.squeeze(2)
        socres.masked_fill_(word_mask, -1e9)  # fails-here
        socres = F.softmax(socres, dim=-1)
        attn = socres.unsqueeze(-1)
        weighted_word_embedding = torch.sum(word_outputs * attn, dim=2)
        layer_output = layer_output + weighted_word_embedding
        return self.layer_norm(self.dropout(layer_output))


class LEBertSoftmaxForNer(nn.Module):
    def __init__(self, num_layers=2, add_layer=0):
        super().__init__()
        self.word_embeddings = nn.Embedding(len(word_vocab.token2id), WORD_DIM)
        self.char_emb = nn.Embedding(len(char_vocab.token2id), HIDDEN)
        self.pos_emb = nn.Embedding(MAX_SEQ_LEN, HIDDEN)
        self.type_emb = nn.Embedding(2, HIDDEN)
        self.emb_ln = nn.LayerNorm(HIDDEN, eps=1e-12)
        self.layer = nn.ModuleList([nn.TransformerEncoderLayer(HIDDEN, 4, 64, dropout=0.1, batch_first=True)
                                    for _ in range(num_layers)])
        self.add_layer = add_layer
        self.word_embedding_adapter = WordEmbeddingAdapter()
        self.classifier = nn.Linear(HIDDEN, len(LABELS))

    def forward(self, input_ids, attention_mask, token_type_ids, word_ids, word_mask, ignore_index, labels=None):
        word_embeddings = self.word_embeddings(word_ids)
        pos = torch.arange(input_ids.size(1)).unsqueeze(0)
        hidden_states = self.emb_ln(self.char_emb(input_ids) + self.pos_emb(pos) + self.type_emb(token_type_ids))
        for i, layer_module in enumerate(self.layer):
            hidden_states = layer_module(hidden_states, src_key_padding_mask=attention_mask == 0)
            if i == self.add_layer:
                hidden_states = self.word_embedding_adapter(hidden_states, word_embeddings, word_mask)
        logits = self.classifier(hidden_states)
        active_loss = attention_mask.contiguous().view(-1) == 1
        loss = F.cross_entropy(logits.view(-1, len(LABELS))[active_loss], labels.view(-1)[active_loss],
                               ignore_index=ignore_index)
        return loss, logits


def random_sentence():
    text, labels = [], []
    while len(text) < 10:
        if random.random() < 0.5:
            w = random.choice(["北京", "上海", "天安门", "人民公园"])
            text += list(w)
            labels += ["B-LOC"] + ["I-LOC"] * (len(w) - 1)
        else:
            c = random.choice(CHARS)
            text.append(c)
            labels.append("O")
    return text[:12], labels[:12]


train_loader = DataLoader(NERDataset(get_input_data([random_sentence() for _ in range(32)])), batch_size=8, shuffle=True)
model = LEBertSoftmaxForNer()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for epoch in range(2):
    for step, data in enumerate(train_loader):
        loss, _ = model(data["input_ids"], data["attention_mask"], data["token_type_ids"], data["word_ids"],
                        data["word_mask"], label_vocab["[PAD]"], data["label_ids"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
