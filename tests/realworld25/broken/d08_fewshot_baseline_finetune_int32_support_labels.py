"""CloserLookFewShot test.py (Baseline++ fine-tuning on saved features): set_forward_adaptation builds the support labels with np.repeat over a C-int arange (int32, as numpy's default int on the reporter's Windows machine), so the linear classifier's CrossEntropyLoss gets an Int target
source: https://github.com/wyharveychen/CloserLookFewShot/issues/81
reported-error: File "methods/baselinefinetune.py", line 48, in set_forward_adaptation: loss = loss_function(scores,y_batch) ... RuntimeError: "nll_loss_forward_reduce_cuda_kernel_2d_index" not implemented for 'Int'
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 68
root-cause: line 54
expect: DG006
"""
import argparse

import numpy as np
import torch
import torch.nn as nn


def parse_args():
    parser = argparse.ArgumentParser(description="few-shot script test")
    parser.add_argument("--n_way", type=int, default=5)
    parser.add_argument("--n_shot", type=int, default=5)
    parser.add_argument("--n_query", type=int, default=15)
    parser.add_argument("--feat_dim", type=int, default=64)
    parser.add_argument("--iter_num", type=int, default=3)
    parser.add_argument("--adaptation", action="store_true", default=True)
    return parser.parse_args([])


# ---- methods/meta_template.py
class MetaTemplate(nn.Module):
    def __init__(self, n_way, n_support):
        super().__init__()
        self.n_way = n_way
        self.n_support = n_support
        self.n_query = -1

    def parse_feature(self, x):
        z_support = x[:, : self.n_support]
        z_query = x[:, self.n_support:]
        return z_support, z_query


# ---- methods/baselinefinetune.py
class BaselineFinetune(MetaTemplate):
    def __init__(self, n_way, n_support, feat_dim, loss_type="softmax"):
        super().__init__(n_way, n_support)
        self.feat_dim = feat_dim
        self.loss_type = loss_type

    def set_forward(self, x, is_feature=True):
        return self.set_forward_adaptation(x, is_feature)

    def set_forward_adaptation(self, x, is_feature=True):
        z_support, z_query = self.parse_feature(x)
        z_support = z_support.contiguous().view(self.n_way * self.n_support, -1)
        z_query = z_query.contiguous().view(self.n_way * self.n_query, -1)
        y_support = torch.from_numpy(np.repeat(np.arange(self.n_way, dtype=np.intc), self.n_support))  # root-cause
        linear_clf = nn.Linear(self.feat_dim, self.n_way)
        set_optimizer = torch.optim.SGD(linear_clf.parameters(), lr=0.01, momentum=0.9, dampening=0.9, weight_decay=0.001)
        loss_function = nn.CrossEntropyLoss()
        batch_size = 4
        support_size = self.n_way * self.n_support
        for epoch in range(10):
            rand_id = np.random.permutation(support_size)
            for i in range(0, support_size, batch_size):
                set_optimizer.zero_grad()
                selected_id = torch.from_numpy(rand_id[i: min(i + batch_size, support_size)])
                z_batch = z_support[selected_id]
                y_batch = y_support[selected_id]
                scores = linear_clf(z_batch)
                loss = loss_function(scores, y_batch)  # fails-here
                loss.backward()
                set_optimizer.step()
        return linear_clf(z_query)


# ---- test.py
def feature_evaluation(cl_data_file, model, n_way=5, n_support=5, n_query=15, adaptation=False):
    class_list = list(cl_data_file.keys())
    select_class = np.random.choice(class_list, n_way, replace=False)
    z_all = []
    for cl in select_class:
        img_feat = cl_data_file[cl]
        perm_ids = np.random.permutation(len(img_feat)).tolist()
        z_all.append([np.squeeze(img_feat[perm_ids[i]]) for i in range(n_support + n_query)])
    z_all = torch.from_numpy(np.array(z_all, dtype=np.float32))
    model.n_query = n_query
    scores = model.set_forward(z_all, is_feature=True)
    pred = scores.detach().argmax(1).numpy()
    y = np.repeat(range(n_way), n_query)
    return np.mean(pred == y) * 100


if __name__ == "__main__":
    params = parse_args()
    np.random.seed(0)
    torch.manual_seed(0)
    cl_data_file = {c: [np.random.randn(1, params.feat_dim).astype(np.float32) + c for _ in range(30)] for c in range(20)}
    model = BaselineFinetune(params.n_way, params.n_shot, params.feat_dim)
    acc_all = [feature_evaluation(cl_data_file, model, params.n_way, params.n_shot, params.n_query, params.adaptation)
               for _ in range(params.iter_num)]
    print("%d Test Acc = %4.2f%%" % (params.iter_num, np.mean(acc_all)))
