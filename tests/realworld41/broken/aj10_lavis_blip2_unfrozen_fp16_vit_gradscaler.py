"""BLIP-2 style Q-Former pre-training with LAVIS (salesforce/LAVIS: eva_vit.create_eva_vit_g with convert_weights_to_fp16, Blip2Base.init_vision_encoder / maybe_autocast, Blip2Qformer with its freeze_vit option, the runner's AdamW parameter groups and BaseTask.train_inner_loop with amp and a GradScaler), LAVIS issue #279 "Maybe a bug? ValueError: Attempting to unscale FP16 gradients.": with freeze_vit set to False and vit_precision left at "fp16", the EVA ViT's conv and linear weights are made float16 by convert_weights_to_fp16 and are now trained, so the GradScaler finds float16 gradients when it unscales them
source: https://github.com/salesforce/LAVIS/issues/279
reported-error: ValueError: Attempting to unscale FP16 gradients. (setting freeze_vit to False; the maintainer: when setting freeze_vit to False, you also need to set vit_precision to fp32)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 257
root-cause: line 85
expect: DG014
"""
import contextlib
import logging

import numpy as np

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- lavis/models/eva_vit.py (reduced EVA ViT-g: patch embedding, pre-norm blocks)
class PatchEmbed(nn.Module):
    def __init__(self, img_size=224, patch_size=14, in_chans=3, embed_dim=1408):
        super().__init__()
        self.num_patches = (img_size // patch_size) ** 2
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class Attention(nn.Module):
    def __init__(self, dim, num_heads=8):
        super().__init__()
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = ((q * self.scale) @ k.transpose(-2, -1)).softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, -1)
        return self.proj(x)


class Block(nn.Module):
    def __init__(self, dim, num_heads, mlp_ratio=4.3637):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.attn = Attention(dim, num_heads=num_heads)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        hidden = int(dim * mlp_ratio)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class VisionTransformer(nn.Module):
    def __init__(self, img_size=224, patch_size=14, embed_dim=1408, depth=39, num_heads=16):
        super().__init__()
        self.num_features = self.embed_dim = embed_dim
        self.patch_embed = PatchEmbed(img_size, patch_size, 3, embed_dim)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, self.patch_embed.num_patches + 1, embed_dim))
        self.blocks = nn.ModuleList([Block(embed_dim, num_heads) for _ in range(depth)])
        nn.init.trunc_normal_(self.pos_embed, std=.02)
        nn.init.trunc_normal_(self.cls_token, std=.02)

    def forward(self, x):
        x = self.patch_embed(x)
        cls_tokens = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat((cls_tokens, x), dim=1) + self.pos_embed
        for blk in self.blocks:
            x = blk(x)
        return x


def convert_weights_to_fp16(model: nn.Module):
    """Convert applicable model parameters to fp16"""

    def _convert_weights_to_fp16(l):
        if isinstance(l, (nn.Conv1d, nn.Conv2d, nn.Linear)):
            l.weight.data = l.weight.data.half()  # root-cause
            if l.bias is not None:
                l.bias.data = l.bias.data.half()

    model.apply(_convert_weights_to_fp16)


def create_eva_vit_g(img_size=224, drop_path_rate=0.4, use_checkpoint=False, precision="fp16", width=1408, depth=39):
    model = VisionTransformer(img_size=img_size, patch_size=14, embed_dim=width, depth=depth, num_heads=4)
    # (the pretrained eva_vit_g.pth would be loaded here)
    if precision == "fp16":
        convert_weights_to_fp16(model)
    return model


# ---- lavis/models/blip2_models/blip2.py
class LayerNorm(nn.LayerNorm):
    """Subclass torch's LayerNorm to handle fp16."""

    def forward(self, x):
        orig_type = x.dtype
        ret = super().forward(x.type(torch.float32))
        return ret.type(orig_type)


def disabled_train(self, mode=True):
    return self


class Blip2Base(nn.Module):
    @property
    def device(self):
        return list(self.parameters())[0].device

    def maybe_autocast(self, dtype=torch.float16):
        # LAVIS enables torch.cuda.amp.autocast only off the CPU; here the same autocast on the model's device type
        return torch.autocast(device_type=self.device.type, dtype=dtype)

    @classmethod
    def init_vision_encoder(cls, model_name, img_size, drop_path_rate, use_grad_checkpoint, precision, cfg):
        assert model_name == "eva_clip_g", "vit model must be eva_clip_g for current version of BLIP-2"
        visual_encoder = create_eva_vit_g(img_size, drop_path_rate, use_grad_checkpoint, precision,
                                          width=cfg["vit_width"], depth=cfg["vit_depth"])
        ln_vision = LayerNorm(visual_encoder.num_features)
        return visual_encoder, ln_vision


# ---- lavis/models/blip2_models/blip2_qformer.py (reduced Q-Former: learned queries cross-attending the ViT tokens)
class Blip2Qformer(Blip2Base):
    def __init__(self, cfg):
        super().__init__()
        self.visual_encoder, self.ln_vision = self.init_vision_encoder(
            cfg.get("vit_model", "eva_clip_g"), cfg["image_size"], cfg.get("drop_path_rate", 0),
            cfg.get("use_grad_checkpoint", False), cfg.get("vit_precision", "fp16"), cfg)
        if cfg.get("freeze_vit", True):
            for name, param in self.visual_encoder.named_parameters():
                param.requires_grad = False
            self.visual_encoder = self.visual_encoder.eval()
            self.visual_encoder.train = disabled_train
            logging.info("freeze vision encoder")
        hidden = cfg["qformer_hidden"]
        self.query_tokens = nn.Parameter(torch.zeros(1, cfg["num_query_token"], hidden).normal_(std=0.02))
        self.vision_proj_in = nn.Linear(self.visual_encoder.num_features, hidden)
        self.cross_attn = nn.MultiheadAttention(hidden, 4, batch_first=True)
        self.query_ffn = nn.Sequential(nn.LayerNorm(hidden), nn.Linear(hidden, hidden * 2), nn.GELU(),
                                       nn.Linear(hidden * 2, hidden))
        self.word_embeddings = nn.Embedding(cfg["vocab_size"], hidden)
        self.text_encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(hidden, 4, hidden * 2, batch_first=True), num_layers=1)
        self.vision_proj = nn.Linear(hidden, cfg["embed_dim"])
        self.text_proj = nn.Linear(hidden, cfg["embed_dim"])
        self.temp = nn.Parameter(0.07 * torch.ones([]))

    def forward(self, samples):
        image, text_ids = samples["image"], samples["text_input"]
        with self.maybe_autocast():
            image_embeds = self.ln_vision(self.visual_encoder(image))
        image_embeds = image_embeds.float()
        query_tokens = self.query_tokens.expand(image_embeds.shape[0], -1, -1)
        kv = self.vision_proj_in(image_embeds)
        query_output = query_tokens + self.cross_attn(query_tokens, kv, kv, need_weights=False)[0]
        query_output = query_output + self.query_ffn(query_output)
        image_feats = F.normalize(self.vision_proj(query_output), dim=-1)
        text_output = self.text_encoder(self.word_embeddings(text_ids))
        text_feat = F.normalize(self.text_proj(text_output[:, 0, :]), dim=-1)

        # image-text contrastive loss over the best-matching query
        sim_q2t = torch.matmul(image_feats.unsqueeze(1), text_feat.unsqueeze(-1)).squeeze()
        sim_i2t, _ = sim_q2t.max(-1)
        sim_i2t = sim_i2t / self.temp
        sim_t2q = torch.matmul(text_feat.unsqueeze(1).unsqueeze(1), image_feats.permute(0, 2, 1)).squeeze()
        sim_t2i, _ = sim_t2q.max(-1)
        sim_t2i = sim_t2i / self.temp
        targets = torch.arange(image.size(0), device=image.device)
        loss_itc = (F.cross_entropy(sim_i2t, targets, label_smoothing=0.1)
                    + F.cross_entropy(sim_t2i, targets, label_smoothing=0.1)) / 2
        return {"loss": loss_itc, "loss_itc": loss_itc}


# ---- lavis/runners/runner_base.py + lavis/tasks/base_task.py (reduced)
class RunnerBase:
    def __init__(self, cfg, task, model, datasets):
        self.config = cfg
        self.task = task
        self._model = model
        self.datasets = datasets
        self._optimizer = None
        self._scaler = None
        self.device = torch.device(cfg["run"]["device"])

    @property
    def use_amp(self):
        return self.config["run"].get("amp", False)

    @property
    def optimizer(self):
        if self._optimizer is None:
            p_wd, p_non_wd = [], []
            for n, p in self._model.named_parameters():
                if not p.requires_grad:
                    continue  # frozen weights
                if p.ndim < 2 or "bias" in n or "ln" in n or "bn" in n:
                    p_non_wd.append(p)
                else:
                    p_wd.append(p)
            optim_params = [
                {"params": p_wd, "weight_decay": float(self.config["run"]["weight_decay"])},
                {"params": p_non_wd, "weight_decay": 0},
            ]
            beta2 = self.config["run"].get("beta2", 0.999)
            self._optimizer = torch.optim.AdamW(optim_params, lr=float(self.config["run"]["init_lr"]),
                                                weight_decay=float(self.config["run"]["weight_decay"]),
                                                betas=(0.9, beta2))
        return self._optimizer

    @property
    def scaler(self):
        if self.use_amp and self._scaler is None:
            self._scaler = torch.amp.GradScaler(self.device.type)
        return self._scaler

    def train(self):
        for cur_epoch in range(self.config["run"]["max_epoch"]):
            stats = self.task.train_epoch(epoch=cur_epoch, model=self._model, data_loader=self.datasets,
                                          optimizer=self.optimizer, scaler=self.scaler, device=self.device)
            logging.info("epoch %d: %s", cur_epoch, stats)
            print("Train: epoch {} loss {:.4f}".format(cur_epoch, stats["loss"]))


class BaseTask:
    def train_step(self, model, samples):
        return model(samples)["loss"]

    def train_epoch(self, epoch, model, data_loader, optimizer, scaler=None, device=None, accum_grad_iters=1):
        return self._train_inner_loop(epoch, len(data_loader), model, data_loader, optimizer, scaler, device,
                                      accum_grad_iters)

    def _train_inner_loop(self, epoch, iters_per_epoch, model, data_loader, optimizer, scaler=None, device=None,
                          accum_grad_iters=1):
        use_amp = scaler is not None
        model.train()
        losses = []
        for i, samples in enumerate(data_loader):
            samples = {k: v.to(device) for k, v in samples.items()}
            with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_amp):
                loss = self.train_step(model=model, samples=samples)
            if use_amp:
                scaler.scale(loss).backward()
            else:
                loss.backward()
            if (i + 1) % accum_grad_iters == 0:
                if use_amp:
                    scaler.step(optimizer)  # fails-here
                    scaler.update()
                else:
                    optimizer.step()
                optimizer.zero_grad()
            losses.append(loss.item())
        return {"loss": float(np.mean(losses))}


# ---- the user's run: configs/models/blip2/blip2_pretrain.yaml with freeze_vit: False
def make_coco_like_batches(cfg, n_batches=3, batch_size=4, seed=0):
    rng = np.random.default_rng(seed)
    batches = []
    for _ in range(n_batches):
        images = rng.normal(0, 1, (batch_size, 3, cfg["image_size"], cfg["image_size"])).astype(np.float32)
        captions = rng.integers(1, cfg["vocab_size"], (batch_size, 12))
        batches.append({"image": torch.from_numpy(images), "text_input": torch.from_numpy(captions)})
    return batches


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {
        "model": {"arch": "blip2", "vit_model": "eva_clip_g", "image_size": 56, "drop_path_rate": 0,
                  "use_grad_checkpoint": False, "vit_precision": "fp16", "freeze_vit": False,
                  "num_query_token": 8, "vit_width": 96, "vit_depth": 2, "qformer_hidden": 64, "embed_dim": 32,
                  "vocab_size": 500},
        "run": {"task": "image_text_pretrain", "init_lr": 1e-4, "weight_decay": 0.05, "max_epoch": 1,
                "amp": True, "device": "cuda" if torch.cuda.is_available() else "cpu"},
    }
    model = Blip2Qformer(cfg["model"]).to(cfg["run"]["device"])
    runner = RunnerBase(cfg, BaseTask(), model, make_coco_like_batches(cfg["model"]))
    runner.train()
