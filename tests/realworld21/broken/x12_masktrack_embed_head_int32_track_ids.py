"""Video instance segmentation tracker (MaskTrack R-CNN-style track embedding head): get_targets() builds the per-proposal track-match labels with dtype=torch.int32 to save memory, and the head's loss feeds them to F.cross_entropy, which needs int64 class indices
source: https://github.com/open-mmlab/mmtracking/pull/498
reported-error: F.cross_entropy only allows the labels with the type of int64 rather than int32 (get_target() of roi_embed_head.py, PyTorch 1.11)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 33
root-cause: line 30
expect: DG006
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- mmtrack/models/track_heads/roi_embed_head.py
class RoIEmbedHead(nn.Module):
    def __init__(self, in_dim=32, embed_dim=16):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, embed_dim))

    def forward(self, x, ref_x):
        emb, ref_emb = self.fc(x), self.fc(ref_x)
        sim = emb @ ref_emb.t()
        dummy = torch.zeros(sim.size(0), 1)
        return torch.cat([dummy, sim], dim=1)

    def get_targets(self, gt_instance_ids, ref_gt_instance_ids):
        labels = []
        for ins_id in gt_instance_ids.tolist():
            match = (ref_gt_instance_ids == ins_id).nonzero()
            labels.append(int(match[0, 0]) + 1 if len(match) else 0)
        return torch.tensor(labels, dtype=torch.int32)  # root-cause

    def loss(self, match_score, track_id_targets):
        loss_match = F.cross_entropy(match_score, track_id_targets)  # fails-here
        acc = (match_score.argmax(1) == track_id_targets).float().mean()
        return {"loss_match": loss_match, "match_accuracy": acc}


# ---- tools/train.py (one clip pair per step)
def sample_clip(n_obj=5, n_ref=4, dim=32, g=None):
    ids = torch.randperm(8, generator=g)[:n_obj]
    ref_ids = torch.cat([ids[:n_ref - 1], torch.tensor([99])])
    feats = torch.randn(n_obj, dim, generator=g)
    ref_feats = torch.randn(n_ref, dim, generator=g)
    return feats, ids, ref_feats, ref_ids


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    head = RoIEmbedHead()
    optimizer = torch.optim.SGD(head.parameters(), lr=0.02, momentum=0.9)
    for it in range(5):
        feats, ids, ref_feats, ref_ids = sample_clip(g=g)
        match_score = head(feats, ref_feats)
        targets = head.get_targets(ids, ref_ids)
        losses = head.loss(match_score, targets)
        optimizer.zero_grad()
        losses["loss_match"].backward()
        optimizer.step()
        print(f"iter {it}: {losses['loss_match'].item():.4f} acc {losses['match_accuracy'].item():.2f}")
