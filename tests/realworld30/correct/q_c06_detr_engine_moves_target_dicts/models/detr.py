import torch
import torch.nn.functional as F
from torch import nn


class DETR(nn.Module):
    def __init__(self, num_classes, num_queries, hidden_dim):
        super().__init__()
        self.num_queries = num_queries
        self.backbone = nn.Sequential(nn.Conv2d(3, hidden_dim, 4, 4), nn.ReLU())
        self.transformer = nn.TransformerDecoder(nn.TransformerDecoderLayer(hidden_dim, 2, 64, batch_first=True), 1)
        self.query_embed = nn.Embedding(num_queries, hidden_dim)
        self.class_embed = nn.Linear(hidden_dim, num_classes + 1)
        self.bbox_embed = nn.Sequential(nn.Linear(hidden_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, 4))

    def forward(self, samples):
        src, mask = samples.decompose()
        memory = self.backbone(src).flatten(2).transpose(1, 2)
        tgt = self.query_embed.weight.unsqueeze(0).expand(src.shape[0], -1, -1)
        hs = self.transformer(tgt, memory)
        return {"pred_logits": self.class_embed(hs), "pred_boxes": self.bbox_embed(hs).sigmoid()}


class InOrderMatcher(nn.Module):
    """Stand-in for the HungarianMatcher: query i predicts target i."""

    @torch.no_grad()
    def forward(self, outputs, targets):
        return [(torch.arange(len(t["labels"])), torch.arange(len(t["labels"]))) for t in targets]


class SetCriterion(nn.Module):
    def __init__(self, num_classes, matcher, weight_dict, eos_coef=0.1):
        super().__init__()
        self.num_classes = num_classes
        self.matcher = matcher
        self.weight_dict = weight_dict
        empty_weight = torch.ones(num_classes + 1)
        empty_weight[-1] = eos_coef
        self.register_buffer("empty_weight", empty_weight)

    def _get_src_permutation_idx(self, indices):
        batch_idx = torch.cat([torch.full_like(src, i) for i, (src, _) in enumerate(indices)])
        src_idx = torch.cat([src for (src, _) in indices])
        return batch_idx, src_idx

    def loss_boxes(self, outputs, targets, indices, num_boxes):
        idx = self._get_src_permutation_idx(indices)
        src_boxes = outputs["pred_boxes"][idx]
        target_boxes = torch.cat([t["boxes"][i] for t, (_, i) in zip(targets, indices)], dim=0)
        loss_bbox = F.l1_loss(src_boxes, target_boxes, reduction="none")
        return {"loss_bbox": loss_bbox.sum() / num_boxes}

    def loss_labels(self, outputs, targets, indices, num_boxes):
        src_logits = outputs["pred_logits"]
        idx = self._get_src_permutation_idx(indices)
        target_classes_o = torch.cat([t["labels"][J] for t, (_, J) in zip(targets, indices)])
        target_classes = torch.full(src_logits.shape[:2], self.num_classes, dtype=torch.int64, device=src_logits.device)
        target_classes[idx] = target_classes_o
        return {"loss_ce": F.cross_entropy(src_logits.transpose(1, 2), target_classes, self.empty_weight)}

    def forward(self, outputs, targets):
        indices = self.matcher(outputs, targets)
        num_boxes = max(sum(len(t["labels"]) for t in targets), 1)
        losses = {}
        for loss_fn in (self.loss_boxes, self.loss_labels):
            losses.update(loss_fn(outputs, targets, indices, num_boxes))
        return losses


def build(args):
    num_classes = 3
    model = DETR(num_classes, num_queries=args.num_queries, hidden_dim=args.hidden_dim)
    criterion = SetCriterion(num_classes, matcher=InOrderMatcher(), weight_dict={"loss_ce": 1, "loss_bbox": 5})
    criterion.to(torch.device(args.device))  # as DETR's build() does: the class-weight buffer goes to the logits' device
    return model, criterion
