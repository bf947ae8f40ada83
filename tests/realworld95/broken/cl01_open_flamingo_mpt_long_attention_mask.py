"""An OpenFlamingo-3B (MPT-1B language encoder) training run on interleaved MMC4-style batches (re-typed from open_flamingo at the PR's date: train_one_epoch's MMC4 pass stacking the tokenizer's input_ids and attention_mask and building -100 labels, Flamingo.forward passing attention_mask straight to the language encoder, the FlamingoLMMixin layers, MosaicGPT's _attn_bias): the tokenizer's int64 attention mask reaches MosaicGPT, whose ~attention_mask is a bitwise NOT of integers and whose masked_fill refuses a non-bool mask in the first step
source: https://github.com/mlfoundations/open_flamingo/pull/214
reported-error: "If I use mpt-1b-redpajama-200b as LM, the attention mask would throw an issue that attention mask should be bool rather than long." (fix: attention_mask=attention_mask > 0 in Flamingo.forward)
outcome: RuntimeError: masked_fill_ only supports boolean masks, but got mask with dtype long int at line 97
root-cause: line 221
expect: DG004
"""
import math
import random

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
random.seed(0)


class Tokenizer:
    """The MPT (GPT-NeoX) tokenizer as OpenFlamingo's factory leaves it: <|endofchunk|>, <image> and <PAD> added;
    __call__ returns int64 input_ids and an int64 attention_mask, as return_tensors="pt" does."""

    def __init__(self):
        self.vocab = {"<PAD>": 0, "<|endofchunk|>": 1, "<image>": 2}
        self.pad_token_id = 0
        self.padding_side = "right"

    def _id(self, word):
        if word not in self.vocab:
            self.vocab[word] = len(self.vocab)
        return self.vocab[word]

    def __call__(self, text, max_length=32, padding=False, truncation=True, return_tensors="pt",
                 add_special_tokens=True):
        texts = [text] if isinstance(text, str) else text
        ids, masks = [], []
        for t in texts:
            toks = [self._id(w) for w in t.replace("<image>", " <image> ").replace("<|endofchunk|>", " <|endofchunk|> ").split()]
            toks = toks[:max_length]
            pad = max_length - len(toks) if padding == "max_length" else 0
            ids.append(toks + [self.pad_token_id] * pad)
            masks.append([1] * len(toks) + [0] * pad)
        return {"input_ids": torch.tensor(ids), "attention_mask": torch.tensor(masks)}


# ---- MosaicGPT (mpt-1b-redpajama-200b's remote code), reduced to what the forward pass uses ----
class MultiheadAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.Wqkv = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x, attn_bias=None):
        b, s, d = x.shape
        q, k, v = self.Wqkv(x).chunk(3, dim=-1)
        q, k, v = (t.view(b, s, self.n_heads, -1).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
        if attn_bias is not None:
            scores = scores + attn_bias
        causal = torch.ones(s, s, dtype=torch.bool).tril()
        scores = scores.masked_fill(~causal, torch.finfo(scores.dtype).min)
        return self.out_proj((scores.softmax(-1) @ v).transpose(1, 2).reshape(b, s, d))


class GPTBlock(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d_model)
        self.attn = MultiheadAttention(d_model, n_heads)
        self.ln_2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, past_key_value=None, attn_bias=None, attention_mask=None, is_causal=True):
        x = x + self.attn(self.ln_1(x), attn_bias=attn_bias)
        return x + self.mlp(self.ln_2(x)), None


class MosaicGPT(nn.Module):
    def __init__(self, vocab_size=64, d_model=32, n_heads=4, n_layers=2, max_seq_len=32):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, d_model)
        self.wpe = nn.Embedding(max_seq_len, d_model)
        self.blocks = nn.ModuleList(GPTBlock(d_model, n_heads) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d_model)
        self.vocab_size = vocab_size

    def get_input_embeddings(self):
        return self.wte

    def _attn_bias(self, device, dtype, attention_mask=None):
        attn_bias = None
        if attention_mask is not None:
            s_k = attention_mask.shape[-1]
            attn_bias = torch.zeros((1, 1, 1, s_k), device=device, dtype=dtype)
            min_val = torch.finfo(attn_bias.dtype).min
            attn_bias = attn_bias.masked_fill(~attention_mask.view(-1, 1, 1, s_k), min_val)  # fails-here
        return attn_bias

    def forward(self, input_ids, attention_mask=None, labels=None, past_key_values=None, use_cache=False):
        s = input_ids.shape[1]
        x = self.wte(input_ids) + self.wpe(torch.arange(s, device=input_ids.device))
        attn_bias = self._attn_bias(device=x.device, dtype=x.dtype, attention_mask=attention_mask)
        for block in self.blocks:
            x, _ = block(x, attn_bias=attn_bias, attention_mask=attention_mask, is_causal=True)
        logits = F.linear(self.ln_f(x), self.wte.weight)
        loss = None
        if labels is not None:
            shift_logits = logits[:, :-1].reshape(-1, self.vocab_size)
            loss = F.cross_entropy(shift_logits, labels[:, 1:].reshape(-1), ignore_index=-100)
        return (loss, logits)


# ---- OpenFlamingo: gated cross-attention inserted before each decoder block ----
class GatedCrossAttentionBlock(nn.Module):
    def __init__(self, dim, dim_visual):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_kv = nn.Linear(dim_visual, 2 * dim, bias=False)
        self.attn_gate = nn.Parameter(torch.tensor([0.0]))
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU())
        self.ff_gate = nn.Parameter(torch.tensor([0.0]))

    def forward(self, x, media, media_locations):
        q = self.to_q(self.norm(x))
        k, v = self.to_kv(media.flatten(1, 2)).chunk(2, dim=-1)
        attn = (q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])).softmax(-1)
        text_after_media = media_locations.cumsum(-1) > 0
        x = x + (attn @ v) * text_after_media[..., None] * self.attn_gate.tanh()
        return x + self.ff(x) * self.ff_gate.tanh()


class FlamingoLayer(nn.Module):
    def __init__(self, gated_cross_attn_layer, decoder_layer):
        super().__init__()
        self.gated_cross_attn_layer = gated_cross_attn_layer
        self.decoder_layer = decoder_layer
        self.vis_x = None
        self.media_locations = None

    def is_conditioned(self):
        return self.vis_x is not None

    def forward(self, lang_x, attention_mask=None, **decoder_layer_kwargs):
        if self.gated_cross_attn_layer is not None and self.vis_x is not None:
            lang_x = self.gated_cross_attn_layer(lang_x, self.vis_x, media_locations=self.media_locations)
        return self.decoder_layer(lang_x, attention_mask=attention_mask, **decoder_layer_kwargs)


class FlamingoLM(MosaicGPT):
    """MosaicGPT extended with FlamingoLMMixin (extend_instance in open_flamingo/src/factory.py)."""

    def init_flamingo(self, media_token_id, vis_hidden_size, cross_attn_every_n_layers=1):
        self.gated_cross_attn_layers = nn.ModuleList(
            GatedCrossAttentionBlock(self.wte.embedding_dim, vis_hidden_size)
            if (i + 1) % cross_attn_every_n_layers == 0 else None
            for i in range(len(self.blocks)))
        self.blocks = nn.ModuleList(FlamingoLayer(g, d) for g, d in zip(self.gated_cross_attn_layers, self.blocks))
        self.media_token_id = media_token_id
        self.initialized_flamingo = True
        self._use_cached_vision_x = False

    def forward(self, input_ids, attention_mask=None, **kwargs):
        media_locations = input_ids == self.media_token_id
        for layer in self.blocks:
            layer.media_locations = media_locations
        return super().forward(input_ids, attention_mask=attention_mask, **kwargs)

    def clear_conditioned_layers(self):
        for layer in self.blocks:
            layer.vis_x = None
            layer.media_locations = None

    def is_conditioned(self):
        return all(layer.is_conditioned() for layer in self.blocks)


class PerceiverResampler(nn.Module):
    def __init__(self, dim, num_latents=4):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(num_latents, dim))
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)

    def forward(self, x):  # (b, T, F, v, d) -> (b, T, n, d)
        b, T = x.shape[:2]
        x = x.flatten(0, 1).flatten(1, 2)
        lat = self.latents.expand(x.shape[0], -1, -1)
        out, _ = self.attn(lat, torch.cat([x, lat], 1), torch.cat([x, lat], 1))
        return out.view(b, T, *out.shape[1:])


class VisionEncoder(nn.Module):
    """CLIP ViT-L/14 stand-in: 16x16 patches of a 3x32x32 image into 48-wide tokens."""

    def __init__(self, width=48):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, 16, 16)

    def forward(self, x):
        return self.conv1(x).flatten(2).transpose(1, 2)


class Flamingo(nn.Module):
    def __init__(self, vision_encoder, lang_encoder, eoc_token_id, media_token_id, vis_dim, cross_attn_every_n_layers=1):
        super().__init__()
        self.eoc_token_id = eoc_token_id
        self.media_token_id = media_token_id
        self.vision_encoder = vision_encoder
        self.perceiver = PerceiverResampler(dim=vis_dim)
        self.lang_encoder = lang_encoder
        self.lang_encoder.init_flamingo(media_token_id=media_token_id, vis_hidden_size=vis_dim,
                                        cross_attn_every_n_layers=cross_attn_every_n_layers)

    def forward(self, vision_x, lang_x, attention_mask=None, labels=None, clear_conditioned_layers=True,
                past_key_values=None, use_cache=False):
        assert self.lang_encoder.initialized_flamingo, "Flamingo layers are not initialized."
        self._encode_vision_x(vision_x=vision_x)
        output = self.lang_encoder(
            input_ids=lang_x,
            attention_mask=attention_mask,  # root-cause
            labels=labels,
            past_key_values=past_key_values,
            use_cache=use_cache,
        )
        if clear_conditioned_layers:
            self.lang_encoder.clear_conditioned_layers()
        return output

    def _encode_vision_x(self, vision_x):
        assert vision_x.ndim == 6, "vision_x should be of shape (b, T_img, F, C, H, W)"
        b, T, F_ = vision_x.shape[:3]
        vision_x = vision_x.flatten(0, 2)
        with torch.no_grad():
            vision_x = self.vision_encoder(vision_x)
        vision_x = vision_x.view(b, T, F_, *vision_x.shape[1:])
        vision_x = self.perceiver(vision_x)
        for layer in self.lang_encoder.blocks:
            layer.vis_x = vision_x


def create_model_and_transforms():
    tokenizer = Tokenizer()
    lang_encoder = FlamingoLM()
    model = Flamingo(VisionEncoder(), lang_encoder, tokenizer("<|endofchunk|>")["input_ids"][0, 0],
                     tokenizer("<image>")["input_ids"][0, 0], vis_dim=48)
    model.requires_grad_(False)
    model.perceiver.requires_grad_(True)
    model.lang_encoder.gated_cross_attn_layers.requires_grad_(True)
    model.lang_encoder.get_input_embeddings().requires_grad_(True)
    return model, tokenizer


WORDS = "a dog runs on the grass while a cat sleeps near the red door of an old house".split()


def mmc4_batches(tokenizer, n_batches, batch_size=2, max_tokens=32):
    """preprocess_interleaved: images stacked as (T_img, C, H, W), text with <image> and <|endofchunk|> markers."""
    for _ in range(n_batches):
        images, texts = [], []
        for _ in range(batch_size):
            images.append(torch.randn(2, 3, 32, 32))
            chunks = [" ".join(random.choices(WORDS, k=random.randint(3, 7))) for _ in range(2)]
            texts.append(tokenizer(f"<image> {chunks[0]} <|endofchunk|> <image> {chunks[1]} <|endofchunk|>",
                                   max_length=max_tokens, padding="max_length", truncation=True,
                                   return_tensors="pt"))
        yield torch.stack(images), [(t["input_ids"], t["attention_mask"]) for t in texts]


def train_one_epoch(model, epoch, mmc4_loader, tokenizer, optimizer, lr_scheduler, device_id):
    media_token_id = tokenizer("<image>", add_special_tokens=False)["input_ids"][0, -1]
    endofchunk_token_id = tokenizer("<|endofchunk|>", add_special_tokens=False)["input_ids"][0, -1]
    model.train()
    for num_steps, batch_mmc4 in enumerate(mmc4_loader):
        #### MMC4 FORWARD PASS ####
        images = batch_mmc4[0].to(device_id, non_blocking=True).unsqueeze(2)
        input_ids = torch.stack([x[0] for x in batch_mmc4[1]]).squeeze(1)
        attention_mask = torch.stack([x[1] for x in batch_mmc4[1]]).squeeze(1)  # root-cause-alt

        # set up labels; language model is expected to handle shifting
        labels = input_ids.clone()
        labels[labels == tokenizer.pad_token_id] = -100
        labels[:, 0] = -100
        for i in range(labels.shape[0]):
            # remove loss for any token before the first <image> token
            label_idx = 0
            while label_idx < labels.shape[1] and labels[i][label_idx] != media_token_id:
                labels[i][label_idx] = -100
                label_idx += 1
            # remove loss for any token between <|endofchunk|> and <image>, except <image>
            endofchunk_idxs = torch.where(labels[i] == endofchunk_token_id)[0]
            for endofchunk_idx in endofchunk_idxs:
                token_idx = endofchunk_idx + 1
                while token_idx < labels.shape[1] and labels[i][token_idx] != media_token_id:
                    labels[i][token_idx] = -100
                    token_idx += 1
        labels[labels == media_token_id] = -100
        labels = labels.to(device_id)

        loss_mmc4 = model(
            vision_x=images,
            lang_x=input_ids.to(device_id),
            attention_mask=attention_mask.to(device_id),
            labels=labels,
        )[0]
        loss_mmc4.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        lr_scheduler.step()
        optimizer.zero_grad(set_to_none=True)
        print(f"epoch {epoch} step {num_steps}: loss_mmc4 {loss_mmc4.item():.4f}")


def main():
    device_id = "cpu"
    model, tokenizer = create_model_and_transforms()
    model = model.to(device_id)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=1e-4, weight_decay=0.1)
    lr_scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: min(1.0, (step + 1) / 5))
    for epoch in range(2):
        train_one_epoch(model, epoch, mmc4_batches(tokenizer, 3), tokenizer, optimizer, lr_scheduler, device_id)


if __name__ == "__main__":
    main()
