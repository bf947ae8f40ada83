"""VGCN-BERT training on an imbalanced SST-like corpus (re-typed: get_class_count_and_weight, CorpusDataset.pad, VocabGraphConvolution, a small VGCN_Bert): the class weights are Python lists of NumPy float64 scalars (len(y)/(n_classes*np.sum(y==i))), torch.tensor of that list is float64, and F.cross_entropy with the float32 logits fails on the first step
source: https://github.com/Louis-udm/VGCN-BERT/issues/19
reported-error: "RuntimeError: expected scalar type Float but found Double" (issue #19; PR #20 changed the loss to F.cross_entropy(logits.view(-1, num_classes), label_ids, loss_weight.float()), commit 5c114f6 later made the weight tensor dtype=torch.float where it is built)
outcome: RuntimeError: expected scalar type Float but found Double at line 160
root-cause: line 140
expect: DG004
"""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.init as init
from torch.utils.data import DataLoader, Dataset

np.random.seed(44)
torch.manual_seed(44)
device = torch.device("cpu")

num_classes, vocab_size, gcn_vocab_size, hidden, gcn_embedding_dim = 3, 60, 40, 32, 4
batch_size, MAX_SEQ_LENGTH = 16, 24


def normalize_adj(adj):
    """Symmetrically normalize adjacency matrix."""
    rowsum = np.array(adj.sum(1))
    d_inv_sqrt = np.power(rowsum, -0.5).flatten()
    d_inv_sqrt[np.isinf(d_inv_sqrt)] = 0.
    d_mat_inv_sqrt = np.diag(d_inv_sqrt)
    return adj.dot(d_mat_inv_sqrt).transpose().dot(d_mat_inv_sqrt)


def get_class_count_and_weight(y, n_classes):
    classes_count = []
    weight = []
    for i in range(n_classes):
        count = np.sum(y == i)
        classes_count.append(count)
        weight.append(len(y) / (n_classes * count))
    return classes_count, weight


class CorpusDataset(Dataset):
    def __init__(self, examples, gcn_vocab_map):
        self.examples, self.gcn_vocab_map = examples, gcn_vocab_map

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, idx):
        ids, confidence, label = self.examples[idx]
        gcn_ids = [self.gcn_vocab_map[t] for t in ids if t in self.gcn_vocab_map][:gcn_embedding_dim]
        gcn_ids += [-1] * (gcn_embedding_dim - len(gcn_ids))
        input_ids = [1] + list(ids) + [0] * gcn_embedding_dim + [2]
        return input_ids, [1] * len(input_ids), [0] * len(input_ids), confidence, label, gcn_ids

    def pad(self, batch):
        maxlen = np.array([len(sample[0]) for sample in batch]).max()
        f_collect = lambda x: [sample[x] for sample in batch]
        f_pad = lambda x, seqlen: [sample[x] + [0] * (seqlen - len(sample[x])) for sample in batch]
        f_pad2 = lambda x, seqlen: [[-1] + sample[x] + [-1] * (seqlen - len(sample[x]) - 1) for sample in batch]
        batch_input_ids = torch.tensor(f_pad(0, maxlen), dtype=torch.long)
        batch_input_mask = torch.tensor(f_pad(1, maxlen), dtype=torch.long)
        batch_segment_ids = torch.tensor(f_pad(2, maxlen), dtype=torch.long)
        batch_confidences = torch.tensor(np.array(f_collect(3)), dtype=torch.float)
        batch_label_ids = torch.tensor(f_collect(4), dtype=torch.long)
        batch_gcn_vocab_ids_paded = np.array(f_pad2(5, maxlen)).reshape(-1)
        batch_gcn_swop_eye = torch.eye(gcn_vocab_size + 1)[batch_gcn_vocab_ids_paded][:, :-1]
        batch_gcn_swop_eye = batch_gcn_swop_eye.view(len(batch), -1, gcn_vocab_size).transpose(1, 2)
        return batch_input_ids, batch_input_mask, batch_segment_ids, batch_confidences, batch_label_ids, batch_gcn_swop_eye


class VocabGraphConvolution(nn.Module):
    def __init__(self, voc_dim, num_adj, hid_dim, out_dim, dropout_rate=0.2):
        super().__init__()
        self.num_adj = num_adj
        for i in range(num_adj):
            setattr(self, "W%d_vh" % i, nn.Parameter(torch.randn(voc_dim, hid_dim)))
        self.fc_hc = nn.Linear(hid_dim, out_dim)
        self.dropout = nn.Dropout(dropout_rate)
        for n, p in self.named_parameters():
            if n.startswith("W"):
                init.kaiming_uniform_(p, a=math.sqrt(5))

    def forward(self, vocab_adj_list, X_dv):
        for i in range(self.num_adj):
            H_vh = self.dropout(vocab_adj_list[i].mm(getattr(self, "W%d_vh" % i)))
            H_dh = X_dv.matmul(H_vh)
            fused_H = H_dh if i == 0 else fused_H + H_dh
        return self.fc_hc(fused_H)


class VGCN_Bert(nn.Module):
    """Small stand-in for VGCN_Bert: BERT-style embeddings, vocab-GCN tokens written into the last positions."""

    def __init__(self, gcn_adj_dim, gcn_adj_num, gcn_embedding_dim, num_labels):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden)
        self.position_embeddings = nn.Embedding(MAX_SEQ_LENGTH + 8, hidden)
        self.token_type_embeddings = nn.Embedding(2, hidden)
        self.vocab_gcn = VocabGraphConvolution(gcn_adj_dim, gcn_adj_num, 16, gcn_embedding_dim)
        self.gcn_embedding_dim = gcn_embedding_dim
        self.encoder = nn.TransformerEncoderLayer(hidden, 4, 64, dropout=0.1, batch_first=True)
        self.pooler = nn.Linear(hidden, hidden)
        self.classifier = nn.Linear(hidden, num_labels)

    def forward(self, vocab_adj_list, gcn_swop_eye, input_ids, token_type_ids, attention_mask):
        words_embeddings = self.word_embeddings(input_ids)
        vocab_input = gcn_swop_eye.matmul(words_embeddings).transpose(1, 2)
        gcn_vocab_out = self.vocab_gcn(vocab_adj_list, vocab_input)
        gcn_words_embeddings = words_embeddings.clone()
        for i in range(self.gcn_embedding_dim):
            tmp_pos = (attention_mask.sum(-1) - 2 - self.gcn_embedding_dim + 1 + i)
            gcn_words_embeddings[torch.arange(input_ids.shape[0]), tmp_pos, :] = gcn_vocab_out[:, :, i]
        positions = torch.arange(input_ids.shape[1]).unsqueeze(0)
        emb = gcn_words_embeddings + self.position_embeddings(positions) + self.token_type_embeddings(token_type_ids)
        h = self.encoder(emb, src_key_padding_mask=attention_mask == 0)
        return self.classifier(torch.tanh(self.pooler(h[:, 0])))


# corpus: imbalanced 3-class sentiment, labels and confidences as prepare_data.py dumps them (NumPy arrays)
n_docs = 96
train_y = np.random.choice(num_classes, size=n_docs, p=[0.6, 0.3, 0.1])
train_y_prob = np.eye(num_classes)[train_y] * 0.9 + 0.1 / num_classes
docs = [np.random.randint(3, vocab_size, size=np.random.randint(6, MAX_SEQ_LENGTH - gcn_embedding_dim - 2)) for _ in range(n_docs)]
examples = [(d.tolist(), train_y_prob[i], int(train_y[i])) for i, d in enumerate(docs)]
gcn_vocab_map = {tok: i for i, tok in enumerate(range(3, 3 + gcn_vocab_size))}

# vocabulary graph: NPMI-like co-occurrence adjacency, thresholded and normalized
co = np.zeros((gcn_vocab_size, gcn_vocab_size), dtype=np.float32)
for d in docs:
    ids = [gcn_vocab_map[t] for t in d if t in gcn_vocab_map]
    for a in ids:
        co[a, ids] += 1.0
gcn_vocab_adj = (co / co.max()) * (co / co.max() > 0.2) + np.eye(gcn_vocab_size, dtype=np.float32)
gcn_adj_list = [torch.from_numpy(normalize_adj(gcn_vocab_adj).astype(np.float32)).to(device)]

train_classes_num, train_classes_weight = get_class_count_and_weight(train_y, num_classes)
loss_weight = torch.tensor(train_classes_weight).to(device)  # root-cause
print("  Train_classes count:", train_classes_num, "weight dtype:", loss_weight.dtype)

ds = CorpusDataset(examples, gcn_vocab_map)
train_dataloader = DataLoader(ds, batch_size=batch_size, shuffle=False, collate_fn=ds.pad)

model = VGCN_Bert(gcn_adj_dim=gcn_vocab_size, gcn_adj_num=len(gcn_adj_list), gcn_embedding_dim=gcn_embedding_dim,
                  num_labels=num_classes).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)

for epoch in range(2):
    tr_loss = 0
    model.train()
    for step, batch in enumerate(train_dataloader):
        batch = tuple(t.to(device) for t in batch)
        input_ids, input_mask, segment_ids, y_prob, label_ids, gcn_swop_eye = batch
        logits = model(gcn_adj_list, gcn_swop_eye, input_ids, segment_ids, input_mask)
        if loss_weight is None:
            loss = F.cross_entropy(logits, label_ids)
        else:
            loss = F.cross_entropy(logits.view(-1, num_classes), label_ids, loss_weight)  # root-cause-alt  # fails-here
        loss.backward()
        tr_loss += loss.item()
        optimizer.step()
        optimizer.zero_grad()
    print("Epoch:{} completed, Total Train Loss:{:.4f}".format(epoch, tr_loss))
