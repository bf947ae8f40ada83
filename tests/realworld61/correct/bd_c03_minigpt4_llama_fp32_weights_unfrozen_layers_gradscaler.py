"""The MiniGPT-4-style stage-2 fine-tuning of bd03 (Vision-CAIR/MiniGPT-4 #213) with the fix given in the thread: LLaMA is loaded with torch_dtype=torch.float32, so the unfrozen decoder layer has float32 weights and float32 gradients, the GradScaler unscales them and the AdamW step runs under CPU float16 autocast; the frozen float16 EVA-ViT (vit_precision="fp16", requires_grad False), the float16 checkpoint read with map_location="cpu" and the GradScaler are kept
source: https://github.com/Vision-CAIR/MiniGPT-4/issues/213
reported-error: (none filed; the fixed situation of bd03)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, LLAMA_DIM, VIT_DIM, QF_DIM, NUM_QUERY = 200, 48, 40, 32, 8
BOS, PAD = 1, 0


def disabled_train(self, mode=True):
    return self


def convert_weights_to_fp16(model):
    def _convert(m):
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            m.weight.data = m.weight.data.half()
            if m.bias is not None:
                m.bias.data = m.bias.data.half()

    model.apply(_convert)


class VisionTransformer(nn.Module):
    def __init__(self, img_size=32, patch=8):
        super().__init__()
        self.num_features = VIT_DIM
        self.patch_embed = nn.Conv2d(3, VIT_DIM, patch, patch)
        layer = nn.TransformerEncoderLayer(VIT_DIM, 4, 2 * VIT_DIM, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)

    def forward(self, x):
        return self.blocks(self.patch_embed(x).flatten(2).transpose(1, 2))


def create_eva_vit_g(img_size=32, precision="fp16"):
    model = VisionTransformer(img_size)
    if precision == "fp16":
        convert_weights_to_fp16(model)
    return model


class QFormer(nn.Module):
    """Query tokens cross-attending to the image embeddings."""

    def __init__(self):
        super().__init__()
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


class MiniGPT4(nn.Module):
    def __init__(self, llama_model, vit_precision="fp16", freeze_vit=True, freeze_qformer=True, max_txt_len=16):
        super().__init__()
        self.visual_encoder = create_eva_vit_g(precision=vit_precision)
        self.ln_vision = nn.LayerNorm(VIT_DIM)
        if freeze_vit:
            for name, param in self.visual_encoder.named_parameters():
                param.requires_grad = False
            self.visual_encoder = self.visual_encoder.eval()
            self.visual_encoder.train = disabled_train
            for name, param in self.ln_vision.named_parameters():
                param.requires_grad = False
        self.Qformer = QFormer()
        self.query_tokens = nn.Parameter(torch.zeros(1, NUM_QUERY, QF_DIM).normal_(std=0.02))
        if freeze_qformer:
            for name, param in self.Qformer.named_parameters():
                param.requires_grad = False
            self.Qformer = self.Qformer.eval()
            self.Qformer.train = disabled_train
            self.query_tokens.requires_grad = False

        print("Loading LLAMA")
        self.llama_model = LlamaForCausalLM.from_pretrained(
            llama_model,
            torch_dtype=torch.float32,  # trainable LLM layers: keep float32 weights under autocast + GradScaler
        )
        for name, param in self.llama_model.named_parameters():
            param.requires_grad = False
        # the reporter's change: fine-tune the last decoder layer of the LLM as well
        for name, param in self.llama_model.named_parameters():
            if "model.layers.1." in name:
                param.requires_grad = True
        print("Loading LLAMA Done")

        self.llama_proj = nn.Linear(QF_DIM, self.llama_model.config.hidden_size)
        self.max_txt_len = max_txt_len

    @property
    def device(self):
        return self.llama_proj.weight.device

    def maybe_autocast(self, dtype=torch.float16):
        # Blip2Base.maybe_autocast enables torch.cuda.amp.autocast on the GPU; here the CPU autocast
        return torch.autocast("cpu", dtype=dtype)

    def encode_img(self, image):
        with self.maybe_autocast():
            image_embeds = self.ln_vision(self.visual_encoder(image))
            query_tokens = self.query_tokens.expand(image_embeds.shape[0], -1, -1)
            query_output = self.Qformer(query_tokens, image_embeds)
            inputs_llama = self.llama_proj(query_output)
            atts_llama = torch.ones(inputs_llama.size()[:-1], dtype=torch.long)
        return inputs_llama, atts_llama

    def forward(self, samples):
        img_embeds, atts_img = self.encode_img(samples["image"])
        tokens = samples["text_tokens"][:, : self.max_txt_len]
        targets = tokens.masked_fill(tokens == PAD, -100)
        empty_targets = torch.ones([atts_img.shape[0], atts_img.shape[1] + 1], dtype=torch.long).fill_(-100)
        targets = torch.cat([empty_targets, targets], dim=1)
        bos = torch.ones([tokens.shape[0], 1], dtype=tokens.dtype) * BOS
        bos_embeds = self.llama_model.model.embed_tokens(bos)
        to_regress_embeds = self.llama_model.model.embed_tokens(tokens)
        inputs_embeds = torch.cat([bos_embeds, img_embeds, to_regress_embeds], dim=1)
        attention_mask = torch.cat([atts_img[:, :1], atts_img, (tokens != PAD).long()], dim=1)
        with self.maybe_autocast():
            outputs = self.llama_model(inputs_embeds=inputs_embeds, attention_mask=attention_mask, labels=targets)
        return {"loss": outputs["loss"]}


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
                scaler.step(optimizer)
                scaler.update()
            else:
                optimizer.step()
            optimizer.zero_grad()
        print(f"iter {i} loss {loss.item():.4f}")
        assert torch.isfinite(loss)


def make_loader(n=6, batch=4):
    loader = []
    for _ in range(n):
        tokens = torch.randint(2, VOCAB, (batch, 12))
        tokens[:, 9:] = PAD
        loader.append({"image": torch.randn(batch, 3, 32, 32), "text_tokens": tokens})
    return loader


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as ckpt_dir:
        torch.save(LlamaForCausalLM().half().state_dict(), os.path.join(ckpt_dir, "pytorch_model.bin"))  # the released fp16 Vicuna weights
        model = MiniGPT4(llama_model=ckpt_dir)
    optimizer = build_optimizer(model)
    scaler = torch.amp.GradScaler("cpu")  # run_cfg.amp: True
    train_inner_loop(model, make_loader(), optimizer, scaler=scaler)
