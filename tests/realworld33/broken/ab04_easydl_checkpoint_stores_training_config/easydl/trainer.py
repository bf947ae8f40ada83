import os

import torch
import torch.nn.functional as F

from .config import RuntimeConfig, TrainingConfig


def train_supervised_classification(model, train_data, train_cfg: TrainingConfig, run_cfg: RuntimeConfig):
    model = model.to(run_cfg.device)
    opt = torch.optim.SGD(model.parameters(), lr=train_cfg.lr, momentum=train_cfg.momentum,
                          weight_decay=train_cfg.weight_decay)
    for epoch in range(1, train_cfg.train_epoch + 1):
        for x, y in train_data:
            x, y = x.to(run_cfg.device), y.to(run_cfg.device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print('epoch {} loss {:.3f}'.format(epoch, loss.item()))
        ckpt = {'epoch': epoch, 'model': model.state_dict(), 'train_cfg': train_cfg}  # root-cause
        torch.save(ckpt, os.path.join(run_cfg.model_dir, 'model_epoch_{}.torch'.format(epoch)))
    return model
