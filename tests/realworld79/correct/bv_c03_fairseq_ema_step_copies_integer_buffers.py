"""The BiomedGPT-style VQA-RAD finetuning of bv03 with the EMA of BiomedGPT's bundled fairseq copy: _step_internal copies non-float entries (the BatchNorm num_batches_tracked int64 counters) from the model instead of decaying them, so the EMA updates after every step and tracks the counters; the ema_fp32 copies (floats upcast, integers kept int64) and the whole-state_dict walk are kept
source: https://github.com/taokz/BiomedGPT/issues/16
reported-error: (none filed; the fixed situation of bv03)
outcome: ok
root-cause: -
expect: none
"""
import copy
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class EMAConfig:
    store_ema: bool = True
    ema_decay: float = 0.9999
    ema_start_update: int = 0
    ema_fp32: bool = True
    ema_update_freq: int = 1
    ema_seed_model: Optional[str] = None


# ---- BiomedGPT's fairseq/fairseq/models/ema/ema.py (re-typed) -----------------------------
class EMA(object):
    def __init__(self, model, config, device=None, skip_keys=None):
        self.decay = config.ema_decay
        self.model = copy.deepcopy(model)
        self.model.requires_grad_(False)
        self.config = config
        self.skip_keys = skip_keys or set()
        self.fp32_params = {}
        if device is not None:
            self.model = self.model.to(device=device)
        if self.config.ema_fp32:
            self.build_fp32_params()
        self.update_freq_counter = 0

    def get_model(self):
        return self.model

    def build_fp32_params(self, state_dict=None):
        if state_dict is None:
            state_dict = self.model.state_dict()

        def _to_float(t):
            return t.float() if torch.is_floating_point(t) else t

        for param_key in state_dict:
            if param_key in self.fp32_params:
                self.fp32_params[param_key].copy_(state_dict[param_key])
            else:
                self.fp32_params[param_key] = _to_float(state_dict[param_key])

    def restore(self, state_dict, build_fp32_params=False):
        self.model.load_state_dict(state_dict, strict=False)
        if build_fp32_params:
            self.build_fp32_params(state_dict)

    def _set_decay(self, decay):
        self.decay = decay

    def _step_internal(self, new_model, updates=None):
        """One update of the EMA model based on new model weights"""
        decay = self.decay
        ema_state_dict = {}
        ema_params = self.fp32_params if self.config.ema_fp32 else self.model.state_dict()
        for key, param in new_model.state_dict().items():
            if isinstance(param, dict):
                continue
            try:
                ema_param = ema_params[key]
            except KeyError:
                ema_param = param.float().clone() if param.ndim == 1 else copy.deepcopy(param)
            if param.shape != ema_param.shape:
                raise ValueError("incompatible tensor shapes between model param and ema param")
            if "version" in key:
                continue
            # for non-float params (like registered symbols), they are covered in each update
            if not torch.is_floating_point(ema_param):
                if ema_param.dtype != param.dtype:
                    raise ValueError("incompatible tensor dtypes between model param and ema param")
                ema_param.copy_(param)
            elif key in self.skip_keys:
                ema_param = param.to(dtype=ema_param.dtype).clone()
            else:
                ema_param.mul_(decay)
                ema_param.add_(param.to(dtype=ema_param.dtype), alpha=1 - decay)
            ema_state_dict[key] = ema_param
        self.restore(ema_state_dict, build_fp32_params=False)

    def step(self, new_model, updates=None):
        if updates is not None:
            self._set_decay(0 if updates < self.config.ema_start_update else self.config.ema_decay)
        if self.config.ema_update_freq > 1:
            self.update_freq_counter += 1
            if self.update_freq_counter >= self.config.ema_update_freq:
                self._step_internal(new_model, updates)
                self.update_freq_counter = 0
        else:
            self._step_internal(new_model, updates)


def build_ema(model, cfg, device):
    return EMA(model, cfg, device)


# ---- an OFA-tiny stand-in ----------------------------------------------------------------
class BasicBlock(nn.Module):
    def __init__(self, inplanes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.down = nn.Sequential(nn.Conv2d(inplanes, planes, 1, stride, bias=False), nn.BatchNorm2d(planes))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(out)) + self.down(x))


class OFATiny(nn.Module):
    def __init__(self, vocab=200, dim=64, num_answers=20):
        super().__init__()
        self.embed_images = nn.Sequential(BasicBlock(3, 32, 2), BasicBlock(32, dim, 2))
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.encoder = nn.TransformerEncoderLayer(dim, 4, 128, dropout=0.1, batch_first=True)
        self.classifier = nn.Linear(dim, num_answers)

    def forward(self, patch_images, src_tokens):
        img = self.embed_images(patch_images).flatten(2).transpose(1, 2)
        x = self.encoder(torch.cat([img, self.embed_tokens(src_tokens)], dim=1))
        return self.classifier(x.mean(1))


class Trainer:
    def __init__(self, model, ema_cfg, lr=5e-5):
        self._model = model
        self.cfg_ema = ema_cfg
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01)
        self._num_updates = 0
        self._ema = build_ema(self._model, ema_cfg, None) if ema_cfg.store_ema else None

    def get_model(self):
        return self._model

    def get_num_updates(self):
        return self._num_updates

    def train_step(self, sample):
        self._model.train()
        logits = self._model(sample["patch_images"], sample["src_tokens"])
        loss = F.cross_entropy(logits, sample["target"], label_smoothing=0.1)
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self._model.parameters(), 1.0)
        self.optimizer.step()
        self._num_updates += 1
        if self.cfg_ema.store_ema:
            self._ema.step(self.get_model(), self.get_num_updates())
        return loss.item()


torch.manual_seed(0)
g = torch.Generator().manual_seed(0)
trainer = Trainer(OFATiny(), EMAConfig())
for epoch in range(2):
    for it in range(4):
        sample = {"patch_images": torch.randn(8, 3, 32, 32, generator=g),
                  "src_tokens": torch.randint(0, 200, (8, 12), generator=g),
                  "target": torch.randint(0, 20, (8,), generator=g)}
        loss = trainer.train_step(sample)
    print(f"epoch {epoch}: loss {loss:.4f}, updates {trainer.get_num_updates()}")
ema_model = trainer._ema.get_model()
counter = ema_model.embed_images[0].bn1.num_batches_tracked
assert counter.dtype == torch.int64 and counter.item() == trainer.get_num_updates(), counter
print("ema bn counter:", counter.item())
