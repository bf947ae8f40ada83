"""Fine-tune a tiny ViT (facebookresearch/mae layout: main_finetune.py, engine_finetune.py train_one_epoch, util/lr_decay.py param_groups_lrd, util/misc.py NativeScalerWithGradNormCount): the AdamW built over the layer-decay groups asks for capturable=True (CUDA-graph setting copied from a GPU config) and the first step, taken inside the loss scaler, fails on the CPU
source: https://github.com/facebookresearch/mae/blob/be47fef7a727943547afb0c670cf1b26034c3c89/util/lr_decay.py
reported-error: (the repository's main_finetune.py builds torch.optim.AdamW(param_groups, lr=args.lr) over util/lr_decay.param_groups_lrd; this variant adds capturable=True, which fails at the first step on a machine without CUDA: RuntimeError: If capturable=True, params and state_steps must be on supported devices)
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at util/misc.py:15
root-cause: main.py:60
expect: DG016
"""
import argparse

import torch
import torch.nn as nn

import util.lr_decay as lrd
import util.misc as misc
from engine_finetune import train_one_epoch
from util.misc import NativeScalerWithGradNormCount as NativeScaler


class TinyViT(nn.Module):
    def __init__(self, num_classes=10, embed_dim=32, depth=2):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, embed_dim, 4, 4)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, 5, embed_dim))
        self.blocks = nn.ModuleList([nn.TransformerEncoderLayer(embed_dim, 2, 64, batch_first=True) for _ in range(depth)])
        self.fc_norm = nn.LayerNorm(embed_dim)
        self.head = nn.Linear(embed_dim, num_classes)

    def no_weight_decay(self):
        return {"pos_embed", "cls_token"}

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1) + self.pos_embed
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.fc_norm(x[:, 1:].mean(dim=1)))


def get_args_parser():
    parser = argparse.ArgumentParser("MAE fine-tuning for image classification", add_help=False)
    parser.add_argument("--batch_size", default=8, type=int)
    parser.add_argument("--epochs", default=1, type=int)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--weight_decay", type=float, default=0.05)
    parser.add_argument("--layer_decay", type=float, default=0.75)
    parser.add_argument("--accum_iter", default=1, type=int)
    parser.add_argument("--clip_grad", type=float, default=None)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    return parser


def main(args):
    device = torch.device(args.device)
    torch.manual_seed(0)
    data_loader_train = [(torch.randn(args.batch_size, 3, 8, 8), torch.randint(0, 10, (args.batch_size,))) for _ in range(3)]
    model = TinyViT().to(device)
    param_groups = lrd.param_groups_lrd(model, args.weight_decay, no_weight_decay_list=model.no_weight_decay(),
                                        layer_decay=args.layer_decay)
    optimizer = torch.optim.AdamW(param_groups, lr=args.lr, capturable=True)  # root-cause
    loss_scaler = NativeScaler()
    criterion = torch.nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        train_stats = train_one_epoch(model, criterion, data_loader_train, optimizer, device, epoch, loss_scaler,
                                      args.clip_grad, args=args)
        misc.log_stats(epoch, train_stats)


if __name__ == "__main__":
    main(get_args_parser().parse_args([]))
