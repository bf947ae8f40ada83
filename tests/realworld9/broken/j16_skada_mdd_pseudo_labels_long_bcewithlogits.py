"""Domain-adaptation MDD loss (skada-style): the discriminator's pseudo labels are the argmax of the classifier's logits (int64) and go straight into the disc_criterion_ BCEWithLogitsLoss against the one-hot-sized discriminator output
source: https://github.com/scikit-adaptation/skada/pull/273
reported-error: error in MDDLoss.forward at disc_loss_src = self.disc_criterion_(disc_pred_s, pseudo_label_s) (the PR converts the pseudo labels to float)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 23
root-cause: line 21
expect: DG007
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MDDLoss(nn.Module):
    def __init__(self, n_classes, gamma=4.0):
        super().__init__()
        self.n_classes = n_classes
        self.gamma = gamma
        self.disc_criterion_ = nn.BCEWithLogitsLoss()

    def forward(self, y_pred_s, y_pred_t, disc_pred_s, disc_pred_t):
        pseudo_label_s = F.one_hot(y_pred_s.argmax(dim=1), self.n_classes)  # root-cause
        pseudo_label_t = F.one_hot(y_pred_t.argmax(dim=1), self.n_classes)
        disc_loss_src = self.disc_criterion_(disc_pred_s, pseudo_label_s)  # fails-here
        disc_loss_tgt = self.disc_criterion_(disc_pred_t, 1 - pseudo_label_t)
        return self.gamma * disc_loss_src + disc_loss_tgt


class MDDModule(nn.Module):
    def __init__(self, d_in=8, n_classes=3):
        super().__init__()
        self.feature = nn.Sequential(nn.Linear(d_in, 16), nn.ReLU())
        self.classifier = nn.Linear(16, n_classes)
        self.disc = nn.Linear(16, n_classes)

    def forward(self, x):
        f = self.feature(x)
        return self.classifier(f), self.disc(f)


def train_step(module, loss_fn, xs, ys, xt, optimizer):
    y_pred_s, disc_s = module(xs)
    y_pred_t, disc_t = module(xt)
    loss = F.cross_entropy(y_pred_s, ys) + 0.1 * loss_fn(y_pred_s, y_pred_t, disc_s, disc_t)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    module, loss_fn = MDDModule(), MDDLoss(n_classes=3)
    opt = torch.optim.SGD(module.parameters(), lr=0.01)
    xs, ys, xt = torch.randn(32, 8), torch.randint(0, 3, (32,)), torch.randn(32, 8) + 0.5
    print("loss", train_step(module, loss_fn, xs, ys, xt, opt))
