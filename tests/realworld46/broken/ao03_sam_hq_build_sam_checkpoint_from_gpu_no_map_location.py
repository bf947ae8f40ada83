"""HQ-SAM point/box prompted segmentation demo (SysCV/sam-hq: demo/demo_hqsam.py, segment_anything/build_sam.py's sam_model_registry and _build_sam, predictor.py's SamPredictor; the ViT encoder, prompt encoder and MaskDecoderHQ reduced to small modules), the state of the issue: the released sam_hq_vit_l.pth was saved from CUDA tensors and _build_sam reads it with torch.load(f) without map_location, so on a machine without CUDA (the user ran the demo with device set to the CPU) the registry call fails before any image is processed
source: https://github.com/SysCV/sam-hq/issues/24
reported-error: sam = sam_model_registry[model_type](checkpoint=sam_checkpoint) -> build_sam.py line 106 in _build_sam: state_dict = torch.load(f) -> RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 181
root-cause: line 181
expect: DG010
"""
import contextlib
import os
import tempfile
from functools import partial

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- segment_anything/modeling (re-typed: a patch-embedding encoder, the point/box prompt encoder, an HQ decoder)
class ImageEncoderViT(nn.Module):
    def __init__(self, depth=2, embed_dim=32, img_size=64, patch_size=8, num_heads=2, out_chans=16,
                 norm_layer=nn.LayerNorm, mlp_ratio=4, **kwargs):
        super().__init__()
        self.img_size = img_size
        self.patch_embed = nn.Conv2d(3, embed_dim, kernel_size=patch_size, stride=patch_size)
        layer = nn.TransformerEncoderLayer(embed_dim, num_heads, int(embed_dim * mlp_ratio), batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth)
        self.neck = nn.Sequential(nn.Conv2d(embed_dim, out_chans, 1, bias=False), nn.GroupNorm(1, out_chans))

    def forward(self, x):
        x = self.patch_embed(x)
        b, c, h, w = x.shape
        x = self.blocks(x.flatten(2).transpose(1, 2)).transpose(1, 2).reshape(b, c, h, w)
        return self.neck(x)


class PromptEncoder(nn.Module):
    def __init__(self, embed_dim, image_embedding_size, input_image_size, mask_in_chans):
        super().__init__()
        self.embed_dim = embed_dim
        self.input_image_size = input_image_size
        self.image_embedding_size = image_embedding_size
        self.pe = nn.Parameter(torch.randn(2, embed_dim // 2))
        self.point_embeddings = nn.Embedding(4, embed_dim)  # neg, pos, box corner 1, box corner 2
        self.no_mask_embed = nn.Embedding(1, embed_dim)

    def _pe_encoding(self, coords):
        coords = 2 * coords - 1
        coords = 2 * np.pi * coords @ self.pe
        return torch.cat([torch.sin(coords), torch.cos(coords)], dim=-1)

    def get_dense_pe(self):
        h, w = self.image_embedding_size
        ys = (torch.arange(h, device=self.pe.device) + 0.5) / h
        xs = (torch.arange(w, device=self.pe.device) + 0.5) / w
        grid = torch.stack(torch.meshgrid(xs, ys, indexing="xy"), dim=-1)
        return self._pe_encoding(grid).permute(2, 0, 1).unsqueeze(0)

    def forward(self, points, boxes, masks):
        sparse = []
        if points is not None:
            coords, labels = points
            coords = (coords + 0.5) / torch.tensor(self.input_image_size[::-1], device=coords.device)
            emb = self._pe_encoding(coords) + self.point_embeddings(labels.long())
            sparse.append(emb)
        if boxes is not None:
            corners = (boxes.reshape(-1, 2, 2) + 0.5) / torch.tensor(self.input_image_size[::-1], device=boxes.device)
            emb = self._pe_encoding(corners)
            emb = emb + self.point_embeddings.weight[2:4]
            sparse.append(emb)
        sparse = torch.cat(sparse, dim=1)
        h, w = self.image_embedding_size
        dense = self.no_mask_embed.weight.reshape(1, -1, 1, 1).expand(sparse.shape[0], -1, h, w)
        return sparse, dense


class MaskDecoderHQ(nn.Module):
    def __init__(self, transformer_dim, num_multimask_outputs=3, vit_dim=32, **kwargs):
        super().__init__()
        self.num_mask_tokens = num_multimask_outputs + 1
        self.mask_tokens = nn.Embedding(self.num_mask_tokens, transformer_dim)
        self.hf_token = nn.Embedding(1, transformer_dim)
        self.attn = nn.MultiheadAttention(transformer_dim, 2, batch_first=True)
        self.hf_mlp = nn.Linear(transformer_dim, transformer_dim)
        self.iou_prediction_head = nn.Linear(transformer_dim, self.num_mask_tokens)
        self.upscale = nn.ConvTranspose2d(transformer_dim, transformer_dim, 4, stride=4)

    def forward(self, image_embeddings, image_pe, sparse_prompt_embeddings, dense_prompt_embeddings,
                multimask_output, hq_token_only):
        b = sparse_prompt_embeddings.shape[0]
        tokens = torch.cat([self.mask_tokens.weight, self.hf_token.weight], 0).unsqueeze(0).expand(b, -1, -1)
        tokens = torch.cat([tokens, sparse_prompt_embeddings], dim=1)
        src = image_embeddings.expand(b, -1, -1, -1) + dense_prompt_embeddings
        keys = (src + image_pe).flatten(2).transpose(1, 2)
        hs, _ = self.attn(tokens, keys, keys)
        up = self.upscale(src)
        mask_tok = hs[:, : self.num_mask_tokens + 1]
        mask_tok = torch.cat([mask_tok[:, :-1], self.hf_mlp(mask_tok[:, -1:])], dim=1)
        masks = torch.einsum("bnc,bchw->bnhw", mask_tok, up)
        iou_pred = self.iou_prediction_head(hs[:, 0])
        if hq_token_only:
            return masks[:, -1:], iou_pred[:, :1]
        sl = slice(1, None) if multimask_output else slice(0, 1)
        return masks[:, sl][:, : iou_pred[:, sl].shape[1]] + masks[:, -1:], iou_pred[:, sl]


class Sam(nn.Module):
    mask_threshold = 0.0

    def __init__(self, image_encoder, prompt_encoder, mask_decoder, pixel_mean, pixel_std):
        super().__init__()
        self.image_encoder = image_encoder
        self.prompt_encoder = prompt_encoder
        self.mask_decoder = mask_decoder
        self.register_buffer("pixel_mean", torch.Tensor(pixel_mean).view(-1, 1, 1), False)
        self.register_buffer("pixel_std", torch.Tensor(pixel_std).view(-1, 1, 1), False)

    @property
    def device(self):
        return self.pixel_mean.device

    def preprocess(self, x):
        return (x - self.pixel_mean) / self.pixel_std


# ---- segment_anything/build_sam.py
def build_sam_vit_l(checkpoint=None):
    return _build_sam(
        encoder_embed_dim=32,
        encoder_depth=2,
        encoder_num_heads=2,
        encoder_global_attn_indexes=[0, 1],
        checkpoint=checkpoint,
    )


sam_model_registry = {
    "vit_l": build_sam_vit_l,
}


def _build_sam(
    encoder_embed_dim,
    encoder_depth,
    encoder_num_heads,
    encoder_global_attn_indexes,
    checkpoint=None,
):
    prompt_embed_dim = 16
    image_size = 64
    vit_patch_size = 8
    image_embedding_size = image_size // vit_patch_size
    sam = Sam(
        image_encoder=ImageEncoderViT(
            depth=encoder_depth,
            embed_dim=encoder_embed_dim,
            img_size=image_size,
            mlp_ratio=4,
            norm_layer=partial(torch.nn.LayerNorm, eps=1e-6),
            num_heads=encoder_num_heads,
            patch_size=vit_patch_size,
            out_chans=prompt_embed_dim,
        ),
        prompt_encoder=PromptEncoder(
            embed_dim=prompt_embed_dim,
            image_embedding_size=(image_embedding_size, image_embedding_size),
            input_image_size=(image_size, image_size),
            mask_in_chans=16,
        ),
        mask_decoder=MaskDecoderHQ(
            num_multimask_outputs=3,
            transformer_dim=prompt_embed_dim,
            vit_dim=encoder_embed_dim,
        ),
        pixel_mean=[123.675, 116.28, 103.53],
        pixel_std=[58.395, 57.12, 57.375],
    )
    # sam.eval()
    if checkpoint is not None:
        with open(checkpoint, "rb") as f:
            state_dict = torch.load(f)  # root-cause  # fails-here
        info = sam.load_state_dict(state_dict, strict=False)
        print(info)
    for n, p in sam.named_parameters():
        if 'hf_token' not in n and 'hf_mlp' not in n and 'compress_vit_feat' not in n and 'embedding_encoder' not in n and 'embedding_maskfeature' not in n:
            p.requires_grad = False
    return sam


# ---- segment_anything/predictor.py (SamPredictor, reduced: ResizeLongestSide is a plain resize to 64x64)
class SamPredictor:
    def __init__(self, sam_model):
        self.model = sam_model
        self.device = sam_model.device
        self.features = None

    def set_image(self, image):
        self.original_size = image.shape[:2]
        x = torch.as_tensor(image, device=self.model.device).permute(2, 0, 1).contiguous()[None].float()
        x = F.interpolate(x, size=(64, 64), mode="bilinear", align_corners=False)
        with torch.no_grad():
            self.features = self.model.image_encoder(self.model.preprocess(x))

    def _scale(self, coords):
        h, w = self.original_size
        return coords * torch.tensor([64.0 / w, 64.0 / h], device=self.device)

    @torch.no_grad()
    def predict(self, point_coords=None, point_labels=None, box=None, multimask_output=True, hq_token_only=False):
        points = None
        if point_coords is not None:
            coords = self._scale(torch.as_tensor(point_coords, dtype=torch.float, device=self.device))[None]
            labels = torch.as_tensor(point_labels, dtype=torch.int, device=self.device)[None]
            points = (coords, labels)
        boxes = None
        if box is not None:
            boxes = self._scale(torch.as_tensor(box, dtype=torch.float, device=self.device).reshape(-1, 2)).reshape(-1, 4)
        sparse, dense = self.model.prompt_encoder(points=points, boxes=boxes, masks=None)
        low_res, iou = self.model.mask_decoder(self.features, self.model.prompt_encoder.get_dense_pe(), sparse, dense,
                                               multimask_output, hq_token_only)
        masks = F.interpolate(low_res, self.original_size, mode="bilinear", align_corners=False) > self.model.mask_threshold
        return masks[0].cpu().numpy(), iou[0].cpu().numpy(), low_res[0].cpu().numpy()


# ---- the released checkpoint: trained and saved on a GPU
@contextlib.contextmanager
def storages_tagged_cuda():
    # what torch.save records for a state dict whose tensors live on the GPU
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def write_pretrained_checkpoint(path):
    torch.manual_seed(0)
    trained = sam_model_registry["vit_l"]()
    with storages_tagged_cuda():
        torch.save(trained.state_dict(), path)


# ---- demo/demo_hqsam.py (cv2 images replaced by seeded arrays; plots replaced by a print)
if __name__ == "__main__":
    ckpt_dir = tempfile.mkdtemp()
    sam_checkpoint = os.path.join(ckpt_dir, "sam_hq_vit_l.pth")
    write_pretrained_checkpoint(sam_checkpoint)

    model_type = "vit_l"
    device = "cuda" if torch.cuda.is_available() else "cpu"
    sam = sam_model_registry[model_type](checkpoint=sam_checkpoint)
    sam.to(device=device)
    predictor = SamPredictor(sam)

    rng = np.random.default_rng(0)
    for i in range(4):
        print("image:   ", i)
        hq_token_only = False
        image = rng.integers(0, 256, size=(96, 128, 3)).astype(np.uint8)
        predictor.set_image(image)
        if i == 0:
            input_box = np.array([[4, 13, 100, 90]])
            input_point, input_label = None, None
        elif i == 1:
            input_box = np.array([[30, 13, 92, 89]])
            input_point, input_label = None, None
            hq_token_only = True
        else:
            input_point = np.array([[49, 51], [21, 14]])
            input_label = np.ones(input_point.shape[0])
            input_box = None
        masks, scores, logits = predictor.predict(
            point_coords=input_point,
            point_labels=input_label,
            box=input_box,
            multimask_output=False,
            hq_token_only=hq_token_only,
        )
        for mask, score in zip(masks, scores):
            print(f"Score: {score:.3f} mask pixels {int(mask.sum())}")
