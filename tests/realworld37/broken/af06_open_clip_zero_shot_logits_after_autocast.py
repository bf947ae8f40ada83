"""open_clip zero-shot ImageNet evaluation (mlfoundations/open_clip src/training/zero_shot.py: zero_shot_eval builds the text classifier with build_zero_shot_classifier, run() encodes each image batch under get_autocast(args.precision) and scores 100. * image_features @ classifier, then top-1/top-5 accuracy) with --precision amp_bf16, the classifier built once in float32 outside any autocast and cached on args, and run() taking the logits after the with-block: the bfloat16 image features made under autocast meet the float32 classifier in a plain matmul
source: https://github.com/mlfoundations/open_clip/blob/43cf086a6a21a40c99c37b3d8cc5a73726f3226b/src/training/zero_shot.py
reported-error: (none filed; run() computes the logits inside the autocast block, where the matmul is cast; the variant moves that line out of the block to score in full precision, but only the classifier is float32)
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float at line 200
root-cause: line 198
expect: DG017
"""
import argparse
from collections import OrderedDict
from contextlib import suppress
from functools import partial
from itertools import islice

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# ---- open_clip/model.py + transformer.py (CLIP at toy size: a ViT image tower and a causal text tower)
class ResidualAttentionBlock(nn.Module):
    def __init__(self, d_model, n_head, mlp_ratio=4.0):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, n_head, batch_first=True)
        self.ln_2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(OrderedDict([
            ("c_fc", nn.Linear(d_model, int(d_model * mlp_ratio))), ("gelu", nn.GELU()),
            ("c_proj", nn.Linear(int(d_model * mlp_ratio), d_model))]))

    def forward(self, x, attn_mask=None):
        y = self.ln_1(x)
        x = x + self.attn(y, y, y, need_weights=False, attn_mask=attn_mask)[0]
        return x + self.mlp(self.ln_2(x))


class Transformer(nn.Module):
    def __init__(self, width, layers, heads):
        super().__init__()
        self.resblocks = nn.ModuleList([ResidualAttentionBlock(width, heads) for _ in range(layers)])

    def forward(self, x, attn_mask=None):
        for r in self.resblocks:
            x = r(x, attn_mask=attn_mask)
        return x


class VisionTransformer(nn.Module):
    def __init__(self, image_size, patch_size, width, layers, heads, output_dim):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, kernel_size=patch_size, stride=patch_size, bias=False)
        scale = width ** -0.5
        self.class_embedding = nn.Parameter(scale * torch.randn(width))
        self.positional_embedding = nn.Parameter(scale * torch.randn((image_size // patch_size) ** 2 + 1, width))
        self.ln_pre = nn.LayerNorm(width)
        self.transformer = Transformer(width, layers, heads)
        self.ln_post = nn.LayerNorm(width)
        self.proj = nn.Parameter(scale * torch.randn(width, output_dim))

    def forward(self, x):
        x = self.conv1(x).flatten(2).permute(0, 2, 1)
        x = torch.cat([self.class_embedding.to(x.dtype) + torch.zeros(x.shape[0], 1, x.shape[-1], dtype=x.dtype, device=x.device), x], dim=1)
        x = self.ln_pre(x + self.positional_embedding.to(x.dtype))
        x = self.transformer(x)
        return self.ln_post(x[:, 0, :]) @ self.proj


class CLIP(nn.Module):
    def __init__(self, embed_dim, vision_cfg, text_cfg, output_dict=False):
        super().__init__()
        self.output_dict = output_dict
        self.visual = VisionTransformer(output_dim=embed_dim, **vision_cfg)
        self.context_length = text_cfg["context_length"]
        self.token_embedding = nn.Embedding(text_cfg["vocab_size"], text_cfg["width"])
        self.positional_embedding = nn.Parameter(torch.empty(self.context_length, text_cfg["width"]).normal_(std=0.01))
        self.transformer = Transformer(text_cfg["width"], text_cfg["layers"], text_cfg["heads"])
        self.ln_final = nn.LayerNorm(text_cfg["width"])
        self.text_projection = nn.Parameter(torch.empty(text_cfg["width"], embed_dim).normal_(std=text_cfg["width"] ** -0.5))
        self.logit_scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))
        self.register_buffer('attn_mask', torch.empty(self.context_length, self.context_length).fill_(float("-inf")).triu_(1), persistent=False)

    def encode_image(self, image, normalize=False):
        features = self.visual(image)
        return F.normalize(features, dim=-1) if normalize else features

    def encode_text(self, text, normalize=False):
        cast_dtype = self.transformer.resblocks[0].mlp.c_fc.weight.dtype
        x = self.token_embedding(text).to(cast_dtype)
        x = x + self.positional_embedding.to(cast_dtype)
        x = self.transformer(x, attn_mask=self.attn_mask.to(cast_dtype))
        x = self.ln_final(x)
        x = x[torch.arange(x.shape[0]), text.argmax(dim=-1)] @ self.text_projection
        return F.normalize(x, dim=-1) if normalize else x

    def forward(self, image=None, text=None):
        image_features = self.encode_image(image, normalize=True) if image is not None else None
        text_features = self.encode_text(text, normalize=True) if text is not None else None
        if self.output_dict:
            return {"image_features": image_features, "text_features": text_features, "logit_scale": self.logit_scale.exp()}
        return image_features, text_features, self.logit_scale.exp()


def get_input_dtype(precision: str):
    input_dtype = None
    if precision in ('bf16', 'pure_bf16'):
        input_dtype = torch.bfloat16
    elif precision in ('fp16', 'pure_fp16'):
        input_dtype = torch.float16
    return input_dtype


# ---- open_clip/factory.py (model configs and pretrained weights replaced by one toy ViT config)
_MODEL_CONFIGS = {"ViT-B-32": dict(embed_dim=32, vision_cfg=dict(image_size=32, patch_size=8, width=32, layers=2, heads=2),
                                   text_cfg=dict(context_length=16, vocab_size=100, width=32, heads=2, layers=2))}


def create_model(model_name, pretrained=None, precision='fp32', device='cpu', output_dict=None):
    model = CLIP(**_MODEL_CONFIGS[model_name], output_dict=bool(output_dict))
    if precision in ("pure_fp16", "pure_bf16"):
        dtype = torch.float16 if 'fp16' in precision else torch.bfloat16
        model.to(device=device, dtype=dtype)
    else:
        model.to(device=device)
    return model


def tokenize(texts, context_length=16):
    out = torch.zeros(len(texts), context_length, dtype=torch.long)
    for i, t in enumerate(texts):
        ids = [1 + (sum(map(ord, w)) % 97) for w in t.split()][:context_length - 2]
        out[i, :len(ids) + 2] = torch.tensor([98] + ids + [99])
    return out


# ---- training/precision.py (the device-aware form of later open_clip versions)
def get_autocast(precision, device_type='cuda'):
    if precision == 'amp':
        amp_dtype = torch.float16
    elif precision == 'amp_bfloat16' or precision == 'amp_bf16':
        amp_dtype = torch.bfloat16
    else:
        return suppress
    return partial(torch.amp.autocast, device_type=device_type, dtype=amp_dtype)


# ---- open_clip/zero_shot_classifier.py + zero_shot_metadata.py (ten classes, two templates)
IMAGENET_CLASSNAMES = ["tench", "goldfish", "great white shark", "tiger shark", "hammerhead shark",
                       "electric ray", "stingray", "rooster", "hen", "ostrich"]
OPENAI_IMAGENET_TEMPLATES = (lambda c: f'a bad photo of a {c}.', lambda c: f'a photo of many {c}.')


def batched(iterable, n):
    it = iter(iterable)
    while True:
        batch = list(islice(it, n))
        if not batch:
            break
        yield batch


def build_zero_shot_classifier(model, tokenizer, classnames, templates, num_classes_per_batch=10, device='cpu'):
    num_templates = len(templates)

    def _process_batch(batch_classnames):
        num_batch_classes = len(batch_classnames)
        texts = [template(c) for c in batch_classnames for template in templates]
        texts = tokenizer(texts).to(device)
        class_embeddings = F.normalize(model.encode_text(texts), dim=-1)
        class_embeddings = class_embeddings.reshape(num_batch_classes, num_templates, -1).mean(dim=1)
        class_embeddings = class_embeddings / class_embeddings.norm(dim=1, keepdim=True)
        return class_embeddings.T

    with torch.no_grad():
        batched_embeds = [_process_batch(batch) for batch in batched(classnames, num_classes_per_batch)]
        zeroshot_weights = torch.cat(batched_embeds, dim=1)
    return zeroshot_weights


# ---- training/zero_shot.py
def accuracy(output, target, topk=(1,)):
    pred = output.topk(max(topk), 1, True, True)[1].t()
    correct = pred.eq(target.view(1, -1).expand_as(pred))
    return [float(correct[:k].reshape(-1).float().sum(0, keepdim=True).cpu().numpy()[0]) for k in topk]


def run(model, classifier, dataloader, args):
    autocast = get_autocast(args.precision, device_type=torch.device(args.device).type)
    input_dtype = get_input_dtype(args.precision)

    with torch.no_grad():
        top1, top5, n = 0., 0., 0.
        for images, target in dataloader:
            images = images.to(device=args.device, dtype=input_dtype)
            target = target.to(args.device)

            with autocast():
                # predict
                output = model(image=images)
                image_features = output['image_features'] if isinstance(output, dict) else output[0]  # root-cause
            # score in full precision
            logits = 100. * image_features @ classifier  # fails-here

            # measure accuracy
            acc1, acc5 = accuracy(logits, target, topk=(1, 5))
            top1 += acc1
            top5 += acc5
            n += images.size(0)

    top1 = (top1 / n)
    top5 = (top5 / n)
    return top1, top5


def zero_shot_eval(model, data, epoch, args):
    if 'imagenet-val' not in data:
        return {}
    print('Building zero-shot classifier (float32, cached for every later epoch)')
    if getattr(args, "zeroshot_classifier", None) is None:
        args.zeroshot_classifier = build_zero_shot_classifier(
            model,
            tokenizer=tokenize,
            classnames=IMAGENET_CLASSNAMES,
            templates=OPENAI_IMAGENET_TEMPLATES,
            num_classes_per_batch=10,
            device=args.device,
        )
    results = {}
    top1, top5 = run(model, args.zeroshot_classifier, data['imagenet-val'], args)
    results['imagenet-zeroshot-val-top1'] = top1
    results['imagenet-zeroshot-val-top5'] = top5
    return results


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="RN50")
    parser.add_argument("--precision", choices=["amp", "amp_bf16", "amp_bfloat16", "bf16", "fp16", "pure_bf16", "pure_fp16", "fp32"], default="amp")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--device", type=str, default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args(argv)
    torch.manual_seed(0)
    model = create_model(args.model, precision=args.precision, device=args.device, output_dict=True)
    model.eval()
    g = torch.Generator().manual_seed(1)
    val = torch.utils.data.TensorDataset(torch.rand(40, 3, 32, 32, generator=g), torch.randint(0, 10, (40,), generator=g))
    data = {'imagenet-val': torch.utils.data.DataLoader(val, batch_size=args.batch_size)}
    print(zero_shot_eval(model, data, 1, args))


if __name__ == "__main__":
    main(["--model", "ViT-B-32", "--precision", "amp_bf16", "--batch-size", "20"])
