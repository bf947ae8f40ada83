"""In-shop clothes retrieval demo (open-mmlab/mmfashion demo/test_retriever.py as in ap03, with mmcv's load_checkpoint and a small stand-in retriever) with the fix given in the thread, as the other mmfashion demos (test_attr_predictor.py, test_fashion_recommender.py) already have it: load_checkpoint(model, args.checkpoint, map_location='cpu') reads the GPU-saved epoch_100.pth onto the CPU, and the model is moved to CUDA afterwards only where use_cuda is set, so the demo runs on a CPU-only machine
source: https://github.com/open-mmlab/mmfashion/issues/155
reported-error: (none filed; the fixed situation of ap03)
outcome: ok
root-cause: -
expect: none
"""
from __future__ import division
import argparse
import contextlib
import os
import tempfile
from collections import OrderedDict

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- mmcv.runner.checkpoint (re-typed: load_checkpoint for a local file)
def load_state_dict(module, state_dict, strict=False, logger=None):
    missing = module.load_state_dict(state_dict, strict=strict)
    if missing.missing_keys or missing.unexpected_keys:
        print('mismatched keys:', missing)


def load_checkpoint(model, filename, map_location=None, strict=False, logger=None):
    if not os.path.isfile(filename):
        raise IOError('{} is not a checkpoint file'.format(filename))
    checkpoint = torch.load(filename, map_location=map_location)
    # get state_dict from checkpoint
    if isinstance(checkpoint, OrderedDict):
        state_dict = checkpoint
    elif isinstance(checkpoint, dict) and 'state_dict' in checkpoint:
        state_dict = checkpoint['state_dict']
    else:
        raise RuntimeError('No state_dict found in checkpoint file {}'.format(filename))
    # strip prefix of state_dict
    if list(state_dict.keys())[0].startswith('module.'):
        state_dict = {k[7:]: v for k, v in checkpoint['state_dict'].items()}
    load_state_dict(model, state_dict, strict, logger)
    return checkpoint


# ---- mmfashion.models.build_retriever(cfg.model) (re-typed: VGG-like backbone, GlobalPooling, EmbedExtractor)
class GlobalRetriever(nn.Module):
    def __init__(self, embed_dim=32):
        super(GlobalRetriever, self).__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2))
        self.global_pool = nn.AdaptiveAvgPool2d(1)
        self.embed_extractor = nn.Linear(32, embed_dim)

    def forward(self, img, landmark=None, return_loss=False):
        x = self.global_pool(self.backbone(img)).flatten(1)
        return F.normalize(self.embed_extractor(x), dim=1)


def build_retriever(cfg_model):
    return GlobalRetriever()


# ---- mmfashion.utils.get_img_tensor (re-typed: a seeded 224x224 RGB image, normalized as ToTensor + Normalize)
def get_img_tensor(img_path, use_cuda, get_size=False):
    seed = sum(map(ord, img_path))
    img = np.random.default_rng(seed).integers(0, 256, (224, 224, 3)).astype(np.float32) / 255.
    mean, std = np.array([0.485, 0.456, 0.406]), np.array([0.229, 0.224, 0.225])
    img_tensor = torch.from_numpy(((img - mean) / std).astype(np.float32)).permute(2, 0, 1)
    img_tensor = torch.unsqueeze(img_tensor, 0)
    if use_cuda:
        img_tensor = img_tensor.cuda()
    return img_tensor


# ---- the gallery (re-typed build_dataset / build_dataloader / ClothesRetriever over seeded images)
def build_dataloader(n=12, batch=4):
    for start in range(0, n, batch):
        imgs = torch.cat([get_img_tensor('gallery_%d.jpg' % i, False) for i in range(start, start + batch)])
        yield {'img': imgs, 'landmark': None}


class ClothesRetriever(object):
    def __init__(self, topk=5):
        self.topk = topk

    def show_retrieved_images(self, query_feat, gallery_embeds):
        sims = (gallery_embeds @ query_feat.T).ravel()
        order = np.argsort(-sims)[:self.topk]
        for rank, i in enumerate(order):
            print('Retrieved Top%d Image: gallery_%d.jpg (similarity %.3f)' % (rank + 1, i, sims[i]))


# ---- the released checkpoint: trained and saved on a GPU (storages tagged cuda:0, as torch.save records them)
@contextlib.contextmanager
def storages_tagged_cuda():
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: 'cuda:0'
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def write_released_checkpoint(path):
    torch.manual_seed(1)
    trained = build_retriever(None)
    state = OrderedDict(('module.' + k, v) for k, v in trained.state_dict().items())
    with storages_tagged_cuda():
        torch.save({'meta': {'epoch': 100}, 'state_dict': state}, path)


# ---- demo/test_retriever.py
def parse_args(ckpt):
    parser = argparse.ArgumentParser(
        description='MMFashion In-shop Clothes Retriever Demo')
    parser.add_argument(
        '--input',
        type=str,
        help='input image path',
        default='demo/imgs/06_1_front.jpg')
    parser.add_argument(
        '--topk', type=int, default=5, help='retrieve topk items')
    parser.add_argument(
        '--checkpoint',
        type=str,
        default=ckpt,
        help='the checkpoint file to resume from')
    parser.add_argument(
        '--use_cuda', type=bool, default=torch.cuda.is_available(), help='use gpu or not')
    args = parser.parse_args([])
    return args


def _process_embeds(model, use_cuda=True):
    embeds = []
    with torch.no_grad():
        for data in build_dataloader():
            img = data['img'].cuda() if use_cuda else data['img']
            embed = model(img, landmark=data['landmark'], return_loss=False)
            embeds.append(embed)

    embeds = torch.cat(embeds)
    embeds = embeds.data.cpu().numpy()
    return embeds


def main():
    seed = 0
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)

    ckpt = os.path.join(tempfile.mkdtemp(), 'epoch_100.pth')
    write_released_checkpoint(ckpt)
    args = parse_args(ckpt)

    model = build_retriever(None)
    load_checkpoint(model, args.checkpoint, map_location='cpu')
    print('load checkpoint from {}'.format(args.checkpoint))

    if args.use_cuda:
        model.cuda()
    model.eval()

    img_tensor = get_img_tensor(args.input, args.use_cuda)

    with torch.no_grad():
        query_feat = model(img_tensor, landmark=None, return_loss=False)
    query_feat = query_feat.data.cpu().numpy()

    gallery_embeds = _process_embeds(model, args.use_cuda)

    retriever = ClothesRetriever(topk=args.topk)
    retriever.show_retrieved_images(query_feat, gallery_embeds)


if __name__ == '__main__':
    main()
