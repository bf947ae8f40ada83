"""Temporal knowledge-graph extrapolation with RE-Net (INK-USC/RE-Net as in ak03: quadruples loaded as 32-bit NumPy integers as on the reporter's Windows machine, training batches cast with torch.from_numpy(batch_data).long()) with the validation quadruples cast the same way, valid_data = torch.from_numpy(valid_data).long(), the fix suggested for RE-Net issue #68; the int32 total_data is still used for the filtered ranking (comparisons and indexing only)
source: https://github.com/INK-USC/RE-Net/issues/68
reported-error: (none filed; the fixed situation of ak03, an int64 target for CrossEntropyLoss)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile

import numpy as np
from sklearn.utils import shuffle

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- utils.py
def get_total_number(inPath, fileName):
    with open(os.path.join(inPath, fileName), 'r') as fr:
        for line in fr:
            line_split = line.split()
            return int(line_split[0]), int(line_split[1])


def load_quadruples(inPath, fileName, fileName2=None):
    with open(os.path.join(inPath, fileName), 'r') as fr:
        quadrupleList = []
        times = set()
        for line in fr:
            line_split = line.split()
            head = int(line_split[0])
            tail = int(line_split[2])
            rel = int(line_split[1])
            time = int(line_split[3])
            quadrupleList.append([head, rel, tail, time])
            times.add(time)
    if fileName2 is not None:
        with open(os.path.join(inPath, fileName2), 'r') as fr:
            for line in fr:
                line_split = line.split()
                quadrupleList.append([int(line_split[0]), int(line_split[1]), int(line_split[2]), int(line_split[3])])
                times.add(int(line_split[3]))
    times = list(times)
    times.sort()
    # np.asarray(quadrupleList) on the reporter's Windows / NumPy 1.x, where the default integer is 32-bit
    return np.asarray(quadrupleList, dtype=np.intc), np.asarray(times)


def make_batch2(a, b, c, d, e, n):
    for i in range(0, len(a), n):
        yield a[i:i + n], b[i:i + n], c[i:i + n], d[i:i + n], e[i:i + n]


def get_history(data, num_e, num_r, seq_len):
    # data/<dataset>/get_history.py, reduced: for each fact, the neighbours of s (and o) under r at earlier times
    s_his = [[[] for _ in range(num_r)] for _ in range(num_e)]
    o_his = [[[] for _ in range(num_r)] for _ in range(num_e)]
    s_history, o_history = [], []
    latest_t, s_cache, o_cache = 0, {}, {}
    for s, r, o, t in data:
        if t != latest_t:
            for (e, rr), nb in s_cache.items():
                s_his[e][rr] = (s_his[e][rr] + [nb])[-seq_len:]
            for (e, rr), nb in o_cache.items():
                o_his[e][rr] = (o_his[e][rr] + [nb])[-seq_len:]
            s_cache, o_cache, latest_t = {}, {}, t
        s_history.append([list(x) for x in s_his[s][r]])
        o_history.append([list(x) for x in o_his[o][r]])
        s_cache.setdefault((s, r), []).append(o)
        o_cache.setdefault((o, r), []).append(s)
    return s_history, o_history


# ---- model.py (RENet, mean aggregator: model == 1; .cuda() written as .to(self.ent_embeds.device))
class RENet(nn.Module):
    def __init__(self, in_dim, h_dim, num_rels, dropout=0, model=1, seq_len=10, num_k=10):
        super(RENet, self).__init__()
        self.in_dim, self.h_dim, self.num_rels = in_dim, h_dim, num_rels
        self.model, self.seq_len, self.num_k = model, seq_len, num_k
        self.rel_embeds = nn.Parameter(torch.Tensor(num_rels, h_dim))
        nn.init.xavier_uniform_(self.rel_embeds, gain=nn.init.calculate_gain('relu'))
        self.ent_embeds = nn.Parameter(torch.Tensor(in_dim, h_dim))
        nn.init.xavier_uniform_(self.ent_embeds, gain=nn.init.calculate_gain('relu'))
        self.dropout = nn.Dropout(dropout)
        self.sub_rnn = nn.GRU(3 * h_dim, h_dim, batch_first=True)
        self.ob_rnn = nn.GRU(3 * h_dim, h_dim, batch_first=True)
        self.linear_sub = nn.Linear(3 * h_dim, in_dim)
        self.linear_ob = nn.Linear(3 * h_dim, in_dim)
        self.criterion = nn.CrossEntropyLoss()

    def encode_history(self, hist, e, r, rnn):
        # get_input_model_1_2 + the GRU, one fact at a time (the original packs the sorted batch)
        if len(hist) == 0:
            return torch.zeros(self.h_dim, device=self.ent_embeds.device)
        inp = torch.stack([torch.cat((torch.mean(self.ent_embeds[torch.LongTensor(nb)], dim=0),
                                      self.ent_embeds[e], self.rel_embeds[r]), dim=0) for nb in hist])
        _, h = rnn(self.dropout(inp).unsqueeze(0))
        return h.view(-1)

    def forward(self, triplets, s_hist, o_hist):
        s, r, o = triplets[:, 0], triplets[:, 1], triplets[:, 2]
        s_h = torch.stack([self.encode_history(h, s[i], r[i], self.sub_rnn) for i, h in enumerate(s_hist)])
        o_h = torch.stack([self.encode_history(h, o[i], r[i], self.ob_rnn) for i, h in enumerate(o_hist)])
        ob_pred = self.linear_sub(self.dropout(torch.cat((self.ent_embeds[s], s_h, self.rel_embeds[r]), dim=1)))
        sub_pred = self.linear_ob(self.dropout(torch.cat((self.ent_embeds[o], o_h, self.rel_embeds[r]), dim=1)))
        loss_sub = self.criterion(ob_pred, o)
        loss_ob = self.criterion(sub_pred, s)
        return loss_sub + loss_ob

    def predict(self, triplet, s_hist, o_hist):
        s, r, o = triplet[0], triplet[1], triplet[2]
        s_h = self.encode_history(s_hist, s, r, self.sub_rnn)
        o_h = self.encode_history(o_hist, o, r, self.ob_rnn)
        ob_pred = self.linear_sub(torch.cat((self.ent_embeds[s], s_h, self.rel_embeds[r]), dim=0))
        sub_pred = self.linear_ob(torch.cat((self.ent_embeds[o], o_h, self.rel_embeds[r]), dim=0))
        loss_sub = self.criterion(ob_pred.view(1, -1), o.view(-1))
        loss_ob = self.criterion(sub_pred.view(1, -1), s.view(-1))
        return loss_sub + loss_ob, sub_pred, ob_pred

    def evaluate_filter(self, triplet, s_hist, o_hist, all_triplets):
        s, r, o = triplet[0], triplet[1], triplet[2]
        loss, sub_pred, ob_pred = self.predict(triplet, s_hist, o_hist)
        ob_pred = F.sigmoid(ob_pred)
        ground = ob_pred[o].clone()
        s_id = torch.nonzero(all_triplets[:, 0] == s).view(-1)
        idx = torch.nonzero(all_triplets[s_id, 1] == r).view(-1)
        idx = all_triplets[s_id[idx], 2]
        ob_pred[idx] = 0
        ob_pred[o] = ground
        rank_ob = np.sum((ob_pred > ground).data.cpu().numpy()) + 1
        return np.array([rank_ob]), loss


# ---- a small YAGO-like dataset (data/YAGO/stat.txt, train.txt, valid.txt: "s r o t" per line)
def write_dataset(root, num_e=30, num_r=4, seed=0):
    rng = np.random.default_rng(seed)
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, 'stat.txt'), 'w') as f:
        f.write("%d\t%d\n" % (num_e, num_r))
    for name, times in (('train.txt', range(0, 8)), ('valid.txt', range(8, 10))):
        with open(os.path.join(root, name), 'w') as f:
            for t in times:
                for _ in range(24):
                    s, r = rng.integers(num_e), rng.integers(num_r)
                    o = (s * 7 + r * 3 + rng.integers(3)) % num_e
                    f.write("%d\t%d\t%d\t%d\n" % (s, r, o, t))


# ---- train.py
def train(args):
    data_dir = os.path.join(args.data_root, args.dataset)
    num_nodes, num_rels = get_total_number(data_dir, 'stat.txt')
    train_data, train_times = load_quadruples(data_dir, 'train.txt')
    valid_data, valid_times = load_quadruples(data_dir, 'valid.txt')
    total_data, total_times = load_quadruples(data_dir, 'train.txt', 'valid.txt')
    s_history, o_history = get_history(train_data, num_nodes, num_rels, args.seq_len)
    s_h_all, o_h_all = get_history(total_data, num_nodes, num_rels, args.seq_len)
    s_history_valid, o_history_valid = s_h_all[len(train_data):], o_h_all[len(train_data):]

    use_cuda = args.gpu >= 0 and torch.cuda.is_available()
    np.random.seed(999)
    torch.manual_seed(999)
    device = torch.device('cuda' if use_cuda else 'cpu')

    print("start training...")
    model = RENet(num_nodes, args.n_hidden, num_rels, dropout=args.dropout, model=args.model,
                  seq_len=args.seq_len, num_k=args.num_k).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=0.00001)

    valid_data = torch.from_numpy(valid_data).long()
    total_data = torch.from_numpy(total_data).to(device)

    epoch = 0
    best_mrr = 0
    while True:
        model.train()
        if epoch == args.max_epochs:
            break
        epoch += 1
        loss_epoch = 0
        train_data_shuffle, s_history_shuffle, o_history_shuffle = shuffle(train_data, s_history, o_history)
        for batch_data, s_hist, _, o_hist, _ in make_batch2(train_data_shuffle, s_history_shuffle, s_history_shuffle,
                                                             o_history_shuffle, o_history_shuffle, args.batch_size):
            batch_data = torch.from_numpy(batch_data).long().to(device)
            loss = model(batch_data, s_hist, o_hist)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.grad_norm)
            optimizer.step()
            optimizer.zero_grad()
            loss_epoch += loss.item()
        print("Epoch {:04d} | Loss {:.4f}".format(epoch, loss_epoch / (len(train_data) / args.batch_size)))

        if epoch % args.valid_every == 0 and epoch >= int(args.max_epochs / 2):
            model.eval()
            total_loss = 0
            total_ranks = np.array([])
            for i in range(len(valid_data)):
                batch_data = valid_data[i].to(device)
                with torch.no_grad():
                    ranks, loss = model.evaluate_filter(batch_data, s_history_valid[i], o_history_valid[i], total_data)
                    total_ranks = np.concatenate((total_ranks, ranks))
                    total_loss += loss.item()
            mrr = np.mean(1.0 / total_ranks)
            print("valid MRR (filtered): {:.6f}".format(mrr))
            print("valid Loss: {:.6f}".format(total_loss / (len(valid_data))))
            if mrr > best_mrr:
                best_mrr = mrr
    print("training done")


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description='RENet')
    parser.add_argument("--dropout", type=float, default=0.5)
    parser.add_argument("--n-hidden", type=int, default=200)
    parser.add_argument("--gpu", type=int, default=0)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("-d", "--dataset", type=str, default='ICEWS18')
    parser.add_argument("--data-root", type=str, default='./data')
    parser.add_argument("--grad-norm", type=float, default=1.0)
    parser.add_argument("--max-epochs", type=int, default=20)
    parser.add_argument("--model", type=int, default=0)
    parser.add_argument("--seq-len", type=int, default=10)
    parser.add_argument("--num-k", type=int, default=1000)
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--valid-every", type=int, default=1)
    root = tempfile.mkdtemp()
    write_dataset(os.path.join(root, 'YAGO'))
    args = parser.parse_args(['-d', 'YAGO', '--data-root', root, '--model', '1', '--n-hidden', '32',
                              '--max-epochs', '4', '--batch-size', '64', '--num-k', '10'])
    print(args)
    train(args)
