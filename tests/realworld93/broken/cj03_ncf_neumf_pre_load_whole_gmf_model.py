"""guoyang9/NCF's three-stage run on implicit feedback (re-typed: config.py, data_utils.load_all/NCFData with ng_sample drawing num_ng unseen items per positive, model.NCF in its GMF/MLP/NeuMF-end/NeuMF-pre variants, main.py's BCEWithLogitsLoss loop that saves the best model whole with torch.save(model, ...), evaluate.metrics with HR/NDCG@10 over 1 positive + sampled negatives): NeuMF-pre reads the pickled GMF and MLP models back with a bare torch.load, which the weights-only default refuses because the file is a whole NCF module, not weights
source: https://github.com/guoyang9/NCF/issues/18
reported-error: "when i use NeuMF model with pretraining ... AttributeError: Can't get attribute 'GMF' on <module '__main__' from 'NeuMF.py'> ... when run the torch.load(GMF) this error arose" (torch 1.x, a whole model pickled by reference to its class; on torch >= 2.6 the same torch.load stops earlier, at the weights-only check)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.NCF was not an allowed global by default. ... at line 202
root-cause: line 202
expect: DG011
"""
import os
import tempfile
import time

import numpy as np
import scipy.sparse as sp
import torch
import torch.nn as nn
import torch.optim as optim
import torch.utils.data as data

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


# ---- config.py ---------------------------------------------------------------------------------------------------
class config:
    dataset = "ml-1m"
    model = "NeuMF-end"
    model_path = os.path.join(tempfile.mkdtemp(), "models") + "/"
    GMF_model_path = model_path + "GMF.pth"
    MLP_model_path = model_path + "MLP.pth"
    NeuMF_model_path = model_path + "NeuMF.pth"


class args:
    lr = 0.001
    dropout = 0.0
    batch_size = 256
    epochs = 2
    top_k = 10
    factor_num = 8
    num_layers = 3
    num_ng = 4
    test_num_ng = 49
    out = True


# ---- data_utils.py (the ml-1m .train.rating / .test.negative files are a synthetic stand-in) -----------------------
def load_all(rng, n_users=80, n_items=150):
    train_data, test_data = [], []
    for u in range(n_users):
        taste = rng.integers(0, 3)
        pool = np.arange(n_items)[np.arange(n_items) % 3 == taste]
        seen = rng.choice(pool, 12, replace=False)
        train_data += [[u, int(i)] for i in seen[:-1]]
        test_data.append([u, int(seen[-1])])
        negs = rng.choice(np.setdiff1d(np.arange(n_items), seen), args.test_num_ng, replace=False)
        test_data += [[u, int(i)] for i in negs]
    user_num = max(x[0] for x in train_data) + 1
    item_num = n_items
    train_mat = sp.dok_matrix((user_num, item_num), dtype=np.float32)
    for x in train_data:
        train_mat[x[0], x[1]] = 1.0
    return train_data, test_data, user_num, item_num, train_mat


class NCFData(data.Dataset):
    def __init__(self, features, num_item, train_mat=None, num_ng=0, is_training=None):
        super(NCFData, self).__init__()
        self.features_ps = features
        self.num_item = num_item
        self.train_mat = train_mat
        self.num_ng = num_ng
        self.is_training = is_training
        self.labels = [0 for _ in range(len(features))]

    def ng_sample(self):
        assert self.is_training, "no need to sampling when testing"
        self.features_ng = []
        for x in self.features_ps:
            u = x[0]
            for t in range(self.num_ng):
                j = np.random.randint(self.num_item)
                while (u, j) in self.train_mat:
                    j = np.random.randint(self.num_item)
                self.features_ng.append([u, j])
        labels_ps = [1 for _ in range(len(self.features_ps))]
        labels_ng = [0 for _ in range(len(self.features_ng))]
        self.features_fill = self.features_ps + self.features_ng
        self.labels_fill = labels_ps + labels_ng

    def __len__(self):
        return (self.num_ng + 1) * len(self.labels)

    def __getitem__(self, idx):
        features = self.features_fill if self.is_training else self.features_ps
        labels = self.labels_fill if self.is_training else self.labels
        return features[idx][0], features[idx][1], labels[idx]


# ---- model.py ----------------------------------------------------------------------------------------------------
class NCF(nn.Module):
    def __init__(self, user_num, item_num, factor_num, num_layers, dropout, model, GMF_model=None, MLP_model=None):
        super(NCF, self).__init__()
        self.dropout = dropout
        self.model = model
        self.GMF_model = GMF_model
        self.MLP_model = MLP_model
        self.embed_user_GMF = nn.Embedding(user_num, factor_num)
        self.embed_item_GMF = nn.Embedding(item_num, factor_num)
        self.embed_user_MLP = nn.Embedding(user_num, factor_num * (2 ** (num_layers - 1)))
        self.embed_item_MLP = nn.Embedding(item_num, factor_num * (2 ** (num_layers - 1)))
        MLP_modules = []
        for i in range(num_layers):
            input_size = factor_num * (2 ** (num_layers - i))
            MLP_modules.append(nn.Dropout(p=self.dropout))
            MLP_modules.append(nn.Linear(input_size, input_size // 2))
            MLP_modules.append(nn.ReLU())
        self.MLP_layers = nn.Sequential(*MLP_modules)
        predict_size = factor_num if self.model in ["MLP", "GMF"] else factor_num * 2
        self.predict_layer = nn.Linear(predict_size, 1)
        self._init_weight_()

    def _init_weight_(self):
        if not self.model == "NeuMF-pre":
            nn.init.normal_(self.embed_user_GMF.weight, std=0.01)
            nn.init.normal_(self.embed_user_MLP.weight, std=0.01)
            nn.init.normal_(self.embed_item_GMF.weight, std=0.01)
            nn.init.normal_(self.embed_item_MLP.weight, std=0.01)
            for m in self.MLP_layers:
                if isinstance(m, nn.Linear):
                    nn.init.xavier_uniform_(m.weight)
            nn.init.kaiming_uniform_(self.predict_layer.weight, a=1, nonlinearity="sigmoid")
            for m in self.modules():
                if isinstance(m, nn.Linear) and m.bias is not None:
                    m.bias.data.zero_()
        else:
            self.embed_user_GMF.weight.data.copy_(self.GMF_model.embed_user_GMF.weight)
            self.embed_item_GMF.weight.data.copy_(self.GMF_model.embed_item_GMF.weight)
            self.embed_user_MLP.weight.data.copy_(self.MLP_model.embed_user_MLP.weight)
            self.embed_item_MLP.weight.data.copy_(self.MLP_model.embed_item_MLP.weight)
            for (m1, m2) in zip(self.MLP_layers, self.MLP_model.MLP_layers):
                if isinstance(m1, nn.Linear) and isinstance(m2, nn.Linear):
                    m1.weight.data.copy_(m2.weight)
                    m1.bias.data.copy_(m2.bias)
            predict_weight = torch.cat([self.GMF_model.predict_layer.weight, self.MLP_model.predict_layer.weight], dim=1)
            precit_bias = self.GMF_model.predict_layer.bias + self.MLP_model.predict_layer.bias
            self.predict_layer.weight.data.copy_(0.5 * predict_weight)
            self.predict_layer.bias.data.copy_(0.5 * precit_bias)

    def forward(self, user, item):
        if not self.model == "MLP":
            output_GMF = self.embed_user_GMF(user) * self.embed_item_GMF(item)
        if not self.model == "GMF":
            interaction = torch.cat((self.embed_user_MLP(user), self.embed_item_MLP(item)), -1)
            output_MLP = self.MLP_layers(interaction)
        if self.model == "GMF":
            concat = output_GMF
        elif self.model == "MLP":
            concat = output_MLP
        else:
            concat = torch.cat((output_GMF, output_MLP), -1)
        return self.predict_layer(concat).view(-1)


# ---- evaluate.py -------------------------------------------------------------------------------------------------
def hit(gt_item, pred_items):
    return 1 if gt_item in pred_items else 0


def ndcg(gt_item, pred_items):
    if gt_item in pred_items:
        return np.reciprocal(np.log2(pred_items.index(gt_item) + 2))
    return 0


def metrics(model, test_loader, top_k):
    HR, NDCG = [], []
    for user, item, label in test_loader:
        user = user.to(device)
        item = item.to(device)
        predictions = model(user, item)
        _, indices = torch.topk(predictions, top_k)
        recommends = torch.take(item, indices).cpu().numpy().tolist()
        gt_item = item[0].item()
        HR.append(hit(gt_item, recommends))
        NDCG.append(ndcg(gt_item, recommends))
    return np.mean(HR), np.mean(NDCG)


# ---- main.py, run once per config.model: GMF, then MLP, then NeuMF-pre ----------------------------------------------
train_data, test_data, user_num, item_num, train_mat = load_all(np.random.default_rng(0))
train_dataset = NCFData(train_data, item_num, train_mat, args.num_ng, True)
test_dataset = NCFData(test_data, item_num, train_mat, 0, False)
train_loader = data.DataLoader(train_dataset, batch_size=args.batch_size, shuffle=True, num_workers=0)
test_loader = data.DataLoader(test_dataset, batch_size=args.test_num_ng + 1, shuffle=False, num_workers=0)


def main():
    if config.model == "NeuMF-pre":
        assert os.path.exists(config.GMF_model_path), "lack of GMF model"
        assert os.path.exists(config.MLP_model_path), "lack of MLP model"
        GMF_model = torch.load(config.GMF_model_path)  # root-cause  # fails-here
        MLP_model = torch.load(config.MLP_model_path)
    else:
        GMF_model = None
        MLP_model = None

    model = NCF(user_num, item_num, args.factor_num, args.num_layers, args.dropout, config.model, GMF_model, MLP_model)
    model.to(device)
    loss_function = nn.BCEWithLogitsLoss()
    if config.model == "NeuMF-pre":
        optimizer = optim.SGD(model.parameters(), lr=args.lr)
    else:
        optimizer = optim.Adam(model.parameters(), lr=args.lr)

    count, best_hr = 0, 0
    for epoch in range(args.epochs):
        model.train()
        start_time = time.time()
        train_loader.dataset.ng_sample()
        for user, item, label in train_loader:
            user = user.to(device)
            item = item.to(device)
            label = label.float().to(device)
            model.zero_grad()
            prediction = model(user, item)
            loss = loss_function(prediction, label)
            loss.backward()
            optimizer.step()
            count += 1
        model.eval()
        HR, NDCG = metrics(model, test_loader, args.top_k)
        elapsed_time = time.time() - start_time
        print(f"[{config.model}] epoch {epoch:03d} ({elapsed_time:.1f}s) HR: {np.mean(HR):.3f}\tNDCG: {np.mean(NDCG):.3f}")
        if HR > best_hr:
            best_hr, best_ndcg, best_epoch = HR, NDCG, epoch
            if args.out:
                if not os.path.exists(config.model_path):
                    os.mkdir(config.model_path)
                torch.save(model, "{}{}.pth".format(config.model_path, config.model))  # root-cause-alt
    print("End. Best epoch {:03d}: HR = {:.3f}, NDCG = {:.3f}".format(best_epoch, best_hr, best_ndcg))


for stage in ["GMF", "MLP", "NeuMF-pre"]:
    config.model = stage
    main()
