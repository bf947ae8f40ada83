"""BLIVA-style instruction tuning with the vision encoder unfrozen (re-typed: create_eva_vit_g with the default precision "fp16" and convert_weights_to_fp16, BLIVA's two visual paths (Q-Former queries through llm_proj and the ViT patch features through vision_project), the frozen float16 Vicuna, the LAVIS-style runner's AdamW + GradScaler + autocast step); with freeze_vit False the EVA-ViT's Linear/Conv weights are float16 and trainable, and the GradScaler refuses their float16 gradients
source: https://github.com/mlpc-ucsd/BLIVA/issues/29
reported-error: "Why does ValueError: Attempting to unscale FP16 gradients appear when I unfreeze the ViT." (traceback ends in torch/cuda/amp/grad_scaler.py _unscale_grads_: raise ValueError("Attempting to unscale FP16 gradients."))
outcome: ValueError: Attempting to unscale FP16 gradients. at line 237
root-cause: line 79
expect: DG014
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, LLAMA_DIM, VIT_DIM, QF_DIM, NUM_QUERY, PATCH = 200, 48, 40, 32, 8, 8
BOS, PAD = 1, 0


def disabled_train(self, mode=True):
    return self


def convert_weights_to_fp16(model: nn.Module):
    """Convert applicable model parameters to fp16"""

    def _convert_weights_to_fp16(l):
        if isinstance(l, (nn.Conv1d, nn.Conv2d, nn.Linear)):
            l.weight.data = l.weight.data.half()
            if l.bias is not None:
                l.bias.data = l.bias.data.half()

    model.apply(_convert_weights_to_fp16)


class Block(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.heads = heads

    def forward(self, x):
        b, n, c = x.shape
        qkv = self.qkv(self.norm1(x)).reshape(b, n, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        attn = F.scaled_dot_product_attention(qkv[0], qkv[1], qkv[2])
        x = x + self.proj(attn.transpose(1, 2).reshape(b, n, c))
        return x + self.mlp(self.norm2(x))


class VisionTransformer(nn.Module):
    def __init__(self, img_size=32, depth=3):
        super().__init__()
        self.num_features = VIT_DIM
        self.patch_embed = nn.Conv2d(3, VIT_DIM, PATCH, PATCH)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, VIT_DIM))
        self.pos_embed = nn.Parameter(torch.zeros(1, (img_size // PATCH) ** 2 + 1, VIT_DIM).normal_(std=0.02))
        self.blocks = nn.ModuleList([Block(VIT_DIM) for _ in range(depth)])

    def get_intermediate_layers(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1).to(x.dtype), x], dim=1) + self.pos_embed
        features = []
        for blk in self.blocks:
            x = blk(x)
            features.append(x)
        return features

    def forward(self, x):
        return self.get_intermediate_layers(x)[-1]


def create_eva_vit_g(img_size=32, drop_path_rate=0.4, use_checkpoint=False, precision="fp16"):
    model = VisionTransformer(img_size=img_size)
    if precision == "fp16":
        convert_weights_to_fp16(model)  # root-cause
    return model


class QFormer(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = type("Cfg", (), {"hidden_size": QF_DIM})()
        self.kv = nn.Linear(VIT_DIM, QF_DIM)
        self.attn = nn.MultiheadAttention(QF_DIM, 4, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(QF_DIM, 2 * QF_DIM), nn.GELU(), nn.Linear(2 * QF_DIM, QF_DIM))

    def forward(self, query_embeds, encoder_hidden_states):
        kv = self.kv(encoder_hidden_states)
        h = query_embeds + self.attn(query_embeds, kv, kv, need_weights=False)[0]
        return h + self.ffn(h)


class LlamaRMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        dtype = x.dtype
        x = x.to(torch.float32)
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * x.to(dtype)


class LlamaDecoderLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_layernorm = LlamaRMSNorm(LLAMA_DIM)
        self.self_attn = nn.MultiheadAttention(LLAMA_DIM, 4, bias=False, batch_first=True)
        self.post_attention_layernorm = LlamaRMSNorm(LLAMA_DIM)
        self.gate_proj = nn.Linear(LLAMA_DIM, 2 * LLAMA_DIM, bias=False)
        self.up_proj = nn.Linear(LLAMA_DIM, 2 * LLAMA_DIM, bias=False)
        self.down_proj = nn.Linear(2 * LLAMA_DIM, LLAMA_DIM, bias=False)

    def forward(self, h, causal_mask):
        x = self.input_layernorm(h)
        h = h + self.self_attn(x, x, x, attn_mask=causal_mask, need_weights=False)[0]
        x = self.post_attention_layernorm(h)
        return h + self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class LlamaModel(nn.Module):
    def __init__(self, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(VOCAB, LLAMA_DIM, padding_idx=PAD)
        self.layers = nn.ModuleList([LlamaDecoderLayer() for _ in range(n_layers)])
        self.norm = LlamaRMSNorm(LLAMA_DIM)


class LlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = LlamaModel()
        self.lm_head = nn.Linear(LLAMA_DIM, VOCAB, bias=False)
        self.config = type("Cfg", (), {"hidden_size": LLAMA_DIM})()

    @classmethod
    def from_pretrained(cls, path, torch_dtype=torch.float32):
        model = cls()
        model.load_state_dict(torch.load(os.path.join(path, "pytorch_model.bin"), map_location="cpu"))
        return model.to(torch_dtype)

    def forward(self, inputs_embeds, attention_mask, labels):
        t = inputs_embeds.shape[1]
        causal = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
        h = inputs_embeds
        for layer in self.model.layers:
            h = layer(h, causal)
        logits = self.lm_head(self.model.norm(h))
        loss = F.cross_entropy(logits[:, :-1].float().reshape(-1, VOCAB), labels[:, 1:].reshape(-1), ignore_index=-100)
        return {"loss": loss}


class BLIVAVicuna(nn.Module):
    def __init__(self, llm_model, img_size=32, vit_precision="fp16", freeze_vit=True, num_query_token=NUM_QUERY, max_txt_len=16):
        super().__init__()
        self.visual_encoder = create_eva_vit_g(img_size, precision=vit_precision)
        self.ln_vision = nn.LayerNorm(VIT_DIM)
        if freeze_vit:
            for name, param in self.visual_encoder.named_parameters():
                param.requires_grad = False
            self.visual_encoder = self.visual_encoder.eval()
            self.visual_encoder.train = disabled_train
        self.Qformer = QFormer()
        self.query_tokens = nn.Parameter(torch.zeros(1, num_query_token, QF_DIM).normal_(std=0.02))
        self.llm_model = LlamaForCausalLM.from_pretrained(llm_model, torch_dtype=torch.float16)
        for name, param in self.llm_model.named_parameters():
            param.requires_grad = False
        self.llm_proj = nn.Linear(self.Qformer.config.hidden_size, self.llm_model.config.hidden_size)
        self.max_txt_len = max_txt_len
        self.vision_project = nn.Linear(self.visual_encoder.num_features, self.llm_model.config.hidden_size)

    def maybe_autocast(self, dtype=torch.float16):
        # Blip2Base.maybe_autocast enables torch.cuda.amp.autocast on the GPU; here the CPU autocast
        return torch.autocast("cpu", dtype=dtype)

    def forward(self, samples):
        image = samples["image"]
        image_features = self.visual_encoder.get_intermediate_layers(image)[-2]
        image_features = image_features[:, 1:]
        add_feature_llm = self.vision_project(image_features)
        with self.maybe_autocast():
            image_embeds = self.ln_vision(self.visual_encoder(image))
        query_tokens = self.query_tokens.expand(image_embeds.shape[0], -1, -1)
        query_output = self.Qformer(query_tokens, image_embeds)
        inputs_llm = self.llm_proj(query_output[:, : query_tokens.size(1), :])
        atts_llm = torch.ones(inputs_llm.size()[:-1], dtype=torch.long)

        tokens = samples["text_tokens"][:, : self.max_txt_len]
        targets = tokens.masked_fill(tokens == PAD, -100)
        empty_targets = torch.ones([atts_llm.shape[0], atts_llm.shape[1] + add_feature_llm.shape[1]], dtype=torch.long).fill_(-100)
        targets = torch.cat([empty_targets, targets], dim=1)
        inputs_embeds = self.llm_model.model.embed_tokens(tokens)
        inputs_embeds = torch.cat([inputs_llm, add_feature_llm, inputs_embeds], dim=1)
        attention_mask = torch.ones(inputs_embeds.shape[:2], dtype=torch.long)
        with self.maybe_autocast():
            outputs = self.llm_model(inputs_embeds=inputs_embeds, attention_mask=attention_mask, labels=targets)
        return {"loss": outputs["loss"]}

    @classmethod
    def from_config(cls, cfg):
        vit_precision = cfg.get("vit_precision", "fp16")  # root-cause-alt
        freeze_vit = cfg.get("freeze_vit", True)
        return cls(llm_model=cfg["llm_model"], img_size=cfg.get("image_size", 32), vit_precision=vit_precision, freeze_vit=freeze_vit)


def build_optimizer(model, init_lr=3e-5, weight_decay=0.05):
    p_wd, p_non_wd = [], []
    for n, p in model.named_parameters():
        if not p.requires_grad:
            continue
        if p.ndim < 2 or "bias" in n or "ln" in n or "bn" in n:
            p_non_wd.append(p)
        else:
            p_wd.append(p)
    optim_params = [{"params": p_wd, "weight_decay": weight_decay}, {"params": p_non_wd, "weight_decay": 0}]
    return torch.optim.AdamW(optim_params, lr=init_lr, weight_decay=weight_decay, betas=(0.9, 0.999))


def train_inner_loop(model, data_loader, optimizer, scaler=None, accum_grad_iters=1):
    use_amp = scaler is not None
    model.train()
    for i, samples in enumerate(data_loader):
        with torch.autocast("cpu", dtype=torch.float16, enabled=use_amp):
            loss = model(samples)["loss"]
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
        print(f"iter {i} loss {loss.item():.4f}")


def make_loader(n=6, batch=4):
    loader = []
    for _ in range(n):
        tokens = torch.randint(2, VOCAB, (batch, 12))
        tokens[:, 9:] = PAD
        loader.append({"image": torch.randn(batch, 3, 32, 32), "text_tokens": tokens})
    return loader


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as ckpt_dir:
        torch.save(LlamaForCausalLM().half().state_dict(), os.path.join(ckpt_dir, "pytorch_model.bin"))  # the float16 Vicuna weights
        # the reporter's config: model.freeze_vit: False (vit_precision left at its default)
        model = BLIVAVicuna.from_config({"llm_model": ckpt_dir, "image_size": 32, "freeze_vit": False})
    optimizer = build_optimizer(model)
    scaler = torch.amp.GradScaler("cpu")  # run_cfg.amp: True
    train_inner_loop(model, make_loader(), optimizer, scaler=scaler)
