"""Multi-modal human state recognition with Husformer (SMARTlab-Purdue/Husformer main-3.py as in an03: the CUDA default tensor type set when a GPU is present, shuffled train/valid/test loaders, src/train.py's loop) with the workaround given for this error: each shuffled DataLoader gets generator=torch.Generator(device='cuda' if use_cuda else 'cpu'), so the sampler's generator is on the device where torch.randperm now runs; set_default_tensor_type itself is kept
source: https://github.com/SMARTlab-Purdue/Husformer/issues/1
reported-error: (none filed; the fixed situation of an03)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import pickle
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, Dataset


# ---- src/dataset.py (reduced)
class Multimodal_Datasets(Dataset):
    def __init__(self, dataset_path, data='Husformer', split_type='train'):
        super(Multimodal_Datasets, self).__init__()
        dataset = pickle.load(open(os.path.join(dataset_path, data.lower() + '_' + split_type + '.dt'), 'rb'))
        self.m1 = torch.tensor(dataset[split_type]['m1'].astype(np.float32)).cpu().detach()
        self.m2 = torch.tensor(dataset[split_type]['m2'].astype(np.float32)).cpu().detach()
        self.m3 = torch.tensor(dataset[split_type]['m3'].astype(np.float32)).cpu().detach()
        self.labels = torch.tensor(dataset[split_type]['labels'].astype(np.int64)).cpu().detach()

    def get_dim(self):
        return self.m1.shape[2], self.m2.shape[2], self.m3.shape[2]

    def get_seq_len(self):
        return self.m1.shape[1], self.m2.shape[1], self.m3.shape[1]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        return (index, self.m1[index], self.m2[index], self.m3[index]), self.labels[index]


# ---- src/utils.py
def get_data(args, dataset, split='train'):
    data_path = os.path.join(args.data_path, dataset) + f'_{split}.dt'
    print(f"  - Found cached {split} data: {data_path}")
    return Multimodal_Datasets(args.data_path, dataset, split)


# ---- src/models.py (reduced: per-modality projections and one cross-modal encoder)
class HUSFORMERModel(nn.Module):
    def __init__(self, hyp_params):
        super(HUSFORMERModel, self).__init__()
        d = 30
        self.proj = nn.ModuleList([nn.Conv1d(c, d, 1) for c in (hyp_params.orig_d_m1, hyp_params.orig_d_m2, hyp_params.orig_d_m3)])
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, hyp_params.num_heads, 64, hyp_params.attn_dropout, batch_first=True), 1)
        self.out_layer = nn.Linear(d, hyp_params.n_classes)

    def forward(self, m1, m2, m3):
        hs = [p(m.transpose(1, 2)).transpose(1, 2) for p, m in zip(self.proj, (m1, m2, m3))]
        h = self.encoder(torch.cat(hs, dim=1))
        return self.out_layer(h.mean(dim=1))


# ---- src/train.py (reduced)
def initiate(hyp_params, train_loader, valid_loader, test_loader):
    model = HUSFORMERModel(hyp_params)
    if hyp_params.use_cuda:
        model = model.cuda()
    optimizer = getattr(optim, hyp_params.optim)(model.parameters(), lr=hyp_params.lr)
    criterion = getattr(nn, hyp_params.criterion)()
    settings = {'model': model, 'optimizer': optimizer, 'criterion': criterion}
    return train_model(settings, hyp_params, train_loader, valid_loader, test_loader)


def train_model(settings, hyp_params, train_loader, valid_loader, test_loader):
    model, optimizer, criterion = settings['model'], settings['optimizer'], settings['criterion']

    def train(model, optimizer, criterion):
        model.train()
        epoch_loss = 0
        for i_batch, (batch_X, batch_Y) in enumerate(train_loader):
            sample_ind, m1, m2, m3 = batch_X
            eval_attr = batch_Y.squeeze(-1)
            if hyp_params.use_cuda:
                m1, m2, m3, eval_attr = m1.cuda(), m2.cuda(), m3.cuda(), eval_attr.cuda()
            model.zero_grad()
            preds = model(m1, m2, m3)
            loss = criterion(preds, eval_attr)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), hyp_params.clip)
            optimizer.step()
            epoch_loss += loss.item() * m1.size(0)
        return epoch_loss / hyp_params.n_train

    def evaluate(model, criterion, loader, n):
        model.eval()
        total, correct = 0.0, 0
        with torch.no_grad():
            for (_, m1, m2, m3), batch_Y in loader:
                if hyp_params.use_cuda:
                    m1, m2, m3, batch_Y = m1.cuda(), m2.cuda(), m3.cuda(), batch_Y.cuda()
                preds = model(m1, m2, m3)
                total += criterion(preds, batch_Y).item() * m1.size(0)
                correct += (preds.argmax(-1) == batch_Y).sum().item()
        return total / n, correct / n

    for epoch in range(1, hyp_params.num_epochs + 1):
        train_loss = train(model, optimizer, criterion)
        val_loss, val_acc = evaluate(model, criterion, valid_loader, hyp_params.n_valid)
        print(f"Epoch {epoch:2d} | Train Loss {train_loss:5.4f} | Valid Loss {val_loss:5.4f} | Valid Acc {val_acc:.3f}")
    test_loss, test_acc = evaluate(model, criterion, test_loader, hyp_params.n_test)
    print(f"Test Loss {test_loss:5.4f} | Test Acc {test_acc:.3f}")
    return test_loss


# ---- make_data (synthetic EEG / ECG / GSR windows written as the pickled .dt splits)
def make_data(path):
    rng = np.random.RandomState(0)
    for split, n in (("train", 48), ("valid", 16), ("test", 16)):
        labels = rng.randint(0, 3, n)
        d = {split: {"m1": rng.randn(n, 10, 6) + labels[:, None, None], "m2": rng.randn(n, 10, 4),
                     "m3": rng.randn(n, 10, 2), "labels": labels}}
        pickle.dump(d, open(os.path.join(path, f"husformer_{split}.dt"), "wb"))


# ---- main-3.py
parser = argparse.ArgumentParser(description='Husformer Sentiment Analysis')
parser.add_argument('--model', type=str, default='Husformer')
parser.add_argument('--dataset', type=str, default='Husformer')
parser.add_argument('--data_path', type=str, default='data')
parser.add_argument('--attn_dropout', type=float, default=0.05)
parser.add_argument('--num_heads', type=int, default=3)
parser.add_argument('--batch_size', type=int, default=16)
parser.add_argument('--clip', type=float, default=0.8)
parser.add_argument('--lr', type=float, default=1e-3)
parser.add_argument('--optim', type=str, default='Adam')
parser.add_argument('--num_epochs', type=int, default=2)
parser.add_argument('--seed', type=int, default=1111)
parser.add_argument('--no_cuda', action='store_true')
args = parser.parse_args(['--data_path', tempfile.mkdtemp()])
make_data(args.data_path)

torch.manual_seed(args.seed)
dataset = str.lower(args.dataset.strip())
use_cuda = False

torch.set_default_dtype(torch.float32)  # (set_default_tensor_type is deprecated since 2.1: torch warns; same defaults)
if torch.cuda.is_available():
    if args.no_cuda:
        print("WARNING: You have a CUDA device, so you should probably not run with --no_cuda")
    else:
        torch.cuda.manual_seed(args.seed)
        torch.set_default_device('cuda')
        use_cuda = True

print("Start loading the data....")
train_data = get_data(args, dataset, 'train')
valid_data = get_data(args, dataset, 'valid')
test_data = get_data(args, dataset, 'test')

# the samplers draw their permutation on the default device, so their generator must live there too
loader_gen = torch.Generator(device='cuda' if use_cuda else 'cpu')
train_loader = DataLoader(train_data, batch_size=args.batch_size, shuffle=True, generator=loader_gen)
valid_loader = DataLoader(valid_data, batch_size=args.batch_size, shuffle=True, generator=loader_gen)
test_loader = DataLoader(test_data, batch_size=args.batch_size, shuffle=True, generator=loader_gen)
print('Finish loading the data....')

hyp_params = args
hyp_params.orig_d_m1, hyp_params.orig_d_m2, hyp_params.orig_d_m3 = train_data.get_dim()
hyp_params.use_cuda = use_cuda
hyp_params.n_train, hyp_params.n_valid, hyp_params.n_test = len(train_data), len(valid_data), len(test_data)
hyp_params.n_classes = 3
hyp_params.criterion = 'CrossEntropyLoss'

if __name__ == '__main__':
    test_loss = initiate(hyp_params, train_loader, valid_loader, test_loader)
