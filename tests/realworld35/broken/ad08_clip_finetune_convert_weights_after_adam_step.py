"""CLIP fine-tuning on image-caption pairs with the training code shared in openai/CLIP#83 (image_title_dataset, clip.load with jit=False, model.float() on CPU, two CrossEntropyLoss heads over logits_per_image/logits_per_text, Adam(lr=5e-5, betas=(0.9, 0.98), eps=1e-6, weight_decay=0.2)): the variant keeps only the last line of the thread's GPU branch, calling clip.model.convert_weights(model) after every optimizer.step() without convert_models_to_fp32 before it, so the second step meets float16 weights and grads with float32 Adam state
source: https://github.com/openai/CLIP/issues/83
reported-error: (thread shares working code; its GPU branch is convert_models_to_fp32(model); optimizer.step(); clip.model.convert_weights(model) (from openai/CLIP#57); the variant drops the first call and fails at the second step)
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::Half at line 166
root-cause: line 167
expect: DG015
"""
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, Dataset


# ---- clip/model.py (openai/CLIP at toy size: same fp16 conventions, convert_weights, dtype property)
class LayerNorm(nn.LayerNorm):
    """Subclass torch's LayerNorm to handle fp16."""
    def forward(self, x: torch.Tensor):
        orig_type = x.dtype
        ret = super().forward(x.type(torch.float32))
        return ret.type(orig_type)


class ResidualAttentionBlock(nn.Module):
    def __init__(self, d_model: int, n_head: int, attn_mask: torch.Tensor = None):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_head)
        self.ln_1 = LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, d_model * 4), nn.GELU(), nn.Linear(d_model * 4, d_model))
        self.ln_2 = LayerNorm(d_model)
        self.attn_mask = attn_mask

    def attention(self, x: torch.Tensor):
        mask = self.attn_mask.to(dtype=x.dtype, device=x.device) if self.attn_mask is not None else None
        return self.attn(x, x, x, need_weights=False, attn_mask=mask)[0]

    def forward(self, x: torch.Tensor):
        x = x + self.attention(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class VisionTransformer(nn.Module):
    def __init__(self, input_resolution=32, patch_size=8, width=64, heads=4, output_dim=32):
        super().__init__()
        scale = width ** -0.5
        self.conv1 = nn.Conv2d(3, width, kernel_size=patch_size, stride=patch_size, bias=False)
        self.class_embedding = nn.Parameter(scale * torch.randn(width))
        self.positional_embedding = nn.Parameter(scale * torch.randn((input_resolution // patch_size) ** 2 + 1, width))
        self.ln_pre = LayerNorm(width)
        self.transformer = ResidualAttentionBlock(width, heads)
        self.ln_post = LayerNorm(width)
        self.proj = nn.Parameter(scale * torch.randn(width, output_dim))

    def forward(self, x: torch.Tensor):
        x = self.conv1(x).flatten(2).permute(0, 2, 1)
        cls = self.class_embedding.to(x.dtype) + torch.zeros(x.shape[0], 1, x.shape[-1], dtype=x.dtype, device=x.device)
        x = torch.cat([cls, x], dim=1) + self.positional_embedding.to(x.dtype)
        x = self.transformer(self.ln_pre(x).permute(1, 0, 2)).permute(1, 0, 2)
        return self.ln_post(x[:, 0, :]) @ self.proj


class CLIP(nn.Module):
    def __init__(self, embed_dim=32, context_length=16, vocab_size=512, width=64, heads=4):
        super().__init__()
        self.visual = VisionTransformer(output_dim=embed_dim)
        mask = torch.empty(context_length, context_length).fill_(float("-inf")).triu_(1)
        self.transformer = ResidualAttentionBlock(width, heads, attn_mask=mask)
        self.token_embedding = nn.Embedding(vocab_size, width)
        self.positional_embedding = nn.Parameter(torch.randn(context_length, width) * 0.01)
        self.ln_final = LayerNorm(width)
        self.text_projection = nn.Parameter(torch.randn(width, embed_dim) * width ** -0.5)
        self.logit_scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))

    @property
    def dtype(self):
        return self.visual.conv1.weight.dtype

    def encode_image(self, image):
        return self.visual(image.type(self.dtype))

    def encode_text(self, text):
        x = self.token_embedding(text).type(self.dtype) + self.positional_embedding.type(self.dtype)
        x = self.ln_final(self.transformer(x.permute(1, 0, 2)).permute(1, 0, 2)).type(self.dtype)
        return x[torch.arange(x.shape[0]), text.argmax(dim=-1)] @ self.text_projection

    def forward(self, image, text):
        image_features = self.encode_image(image)
        text_features = self.encode_text(text)
        image_features = image_features / image_features.norm(dim=1, keepdim=True)
        text_features = text_features / text_features.norm(dim=1, keepdim=True)
        logit_scale = self.logit_scale.exp()
        logits_per_image = logit_scale * image_features @ text_features.t()
        return logits_per_image, logits_per_image.t()


def convert_weights(model: nn.Module):
    """Convert applicable model parameters to fp16"""
    def _convert_weights_to_fp16(l):
        if isinstance(l, (nn.Conv1d, nn.Conv2d, nn.Linear)):
            l.weight.data = l.weight.data.half()
            if l.bias is not None:
                l.bias.data = l.bias.data.half()
        if isinstance(l, nn.MultiheadAttention):
            for attr in [*[f"{s}_proj_weight" for s in ["in", "q", "k", "v"]], "in_proj_bias", "bias_k", "bias_v"]:
                tensor = getattr(l, attr)
                if tensor is not None:
                    tensor.data = tensor.data.half()
        for name in ["text_projection", "proj"]:
            if hasattr(l, name):
                attr = getattr(l, name)
                if attr is not None:
                    attr.data = attr.data.half()
    model.apply(_convert_weights_to_fp16)


# ---- clip/clip.py (load and tokenize without downloads: a toy word-hash tokenizer with <sot>/<eot>)
def tokenize(texts, context_length=16):
    result = torch.zeros(len(texts), context_length, dtype=torch.long)
    for i, text in enumerate(texts):
        tokens = [509] + [1 + sum(map(ord, w)) % 500 for w in text.split()][:context_length - 2] + [511]
        result[i, :len(tokens)] = torch.tensor(tokens)
    return result


# ---- training script from the thread
class image_title_dataset(Dataset):
    def __init__(self, list_image, list_txt):
        self.images = list_image
        self.title = tokenize(list_txt)  # tokenize everything at once here

    def __len__(self):
        return len(self.title)

    def __getitem__(self, idx):
        image = self.images[idx]  # preprocess(Image.open(path)) in the thread
        title = self.title[idx]
        return image, title


BATCH_SIZE = 8  # must be larger than 1
EPOCH = 1
rng = np.random.RandomState(0)
captions = [" ".join(rng.choice(["a", "photo", "of", "red", "dog", "cat", "car", "on", "grass", "street"], 6)) for _ in range(32)]
train_dataloader = DataLoader(image_title_dataset(torch.randn(32, 3, 32, 32), captions), batch_size=BATCH_SIZE)

device = "cuda:0" if torch.cuda.is_available() else "cpu"  # If using GPU then use mixed precision training.
model = CLIP().to(device)  # clip.load("ViT-B/32", device=device, jit=False); must set jit=False for training
if device == "cpu":
    model.float()
else:
    convert_weights(model)  # clip.load already returns float16 weights on the GPU

loss_img = nn.CrossEntropyLoss()
loss_txt = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=5e-5, betas=(0.9, 0.98), eps=1e-6, weight_decay=0.2)

for epoch in range(EPOCH):
    for batch in train_dataloader:
        optimizer.zero_grad()
        images, texts = batch
        images, texts = images.to(device), texts.to(device)
        logits_per_image, logits_per_text = model(images, texts)
        ground_truth = torch.arange(len(images), dtype=torch.long, device=device)
        total_loss = (loss_img(logits_per_image, ground_truth) + loss_txt(logits_per_text, ground_truth)) / 2
        total_loss.backward()
        optimizer.step()  # fails-here
        convert_weights(model)  # root-cause
        print(f"epoch {epoch} loss {total_loss.item():.4f}")
