"""The glue-factory-style GlueStick training of bd01 (cvg/glue-factory #76) with the endpoint messages brought back to the descriptors' dtype: LineLayer.get_endpoint_update returns self.mlp(message).to(ldesc.dtype), so the float16 messages the autocast MLP makes are written into the float32 zeros_like buffers by scatter_reduce_ and the matcher trains under --mixed_precision float16 with the GradScaler; the float16 autocast, the custom_fwd(cast_inputs=float32) attention, the zeros_like buffers and the int64 junction/ground-truth indices are kept
source: https://github.com/cvg/glue-factory/issues/76
reported-error: (none filed; the fixed situation of bd01)
outcome: ok
root-cause: -
expect: none
"""
from copy import deepcopy

import torch
from torch import nn

torch.manual_seed(0)
ETH_EPS = 1e-8
DIM = 32


def MLP(channels, do_bn=True):
    n = len(channels)
    layers = []
    for i in range(1, n):
        layers.append(nn.Conv1d(channels[i - 1], channels[i], kernel_size=1, bias=True))
        if i < (n - 1):
            if do_bn:
                layers.append(nn.BatchNorm1d(channels[i]))
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


def normalize_keypoints(kpts, shape_or_size):
    h, w = shape_or_size[-2:]
    size = kpts.new_tensor([[w, h]])
    c = size / 2
    f = size.max(1, keepdim=True).values * 0.7
    return (kpts - c[:, None, :]) / f[:, None, :]


class KeypointEncoder(nn.Module):
    def __init__(self, feature_dim, layers):
        super().__init__()
        self.encoder = MLP([3] + list(layers) + [feature_dim], do_bn=True)
        nn.init.constant_(self.encoder[-1].bias, 0.0)

    def forward(self, kpts, scores):
        inputs = [kpts.transpose(1, 2), scores.unsqueeze(1)]
        return self.encoder(torch.cat(inputs, dim=1))


class EndPtEncoder(nn.Module):
    def __init__(self, feature_dim, layers):
        super().__init__()
        self.encoder = MLP([5] + list(layers) + [feature_dim], do_bn=True)
        nn.init.constant_(self.encoder[-1].bias, 0.0)

    def forward(self, endpoints, scores):
        b_size, n_pts, _, _ = endpoints.shape
        endpt_offset = (endpoints[:, :, 1] - endpoints[:, :, 0]).unsqueeze(2)
        endpt_offset = torch.cat([endpt_offset, -endpt_offset], dim=2)
        endpt_offset = endpt_offset.reshape(b_size, 2 * n_pts, 2).transpose(1, 2)
        inputs = [endpoints.flatten(1, 2).transpose(1, 2), endpt_offset, scores.repeat(1, 2).unsqueeze(1)]
        return self.encoder(torch.cat(inputs, dim=1))


@torch.amp.custom_fwd(cast_inputs=torch.float32, device_type="cpu")
def attention(query, key, value):
    dim = query.shape[1]
    scores = torch.einsum("bdhn,bdhm->bhnm", query, key) / dim**0.5
    prob = torch.nn.functional.softmax(scores, dim=-1)
    return torch.einsum("bhnm,bdhm->bdhn", prob, value), prob


class MultiHeadedAttention(nn.Module):
    def __init__(self, h, d_model):
        super().__init__()
        self.dim = d_model // h
        self.h = h
        self.merge = nn.Conv1d(d_model, d_model, kernel_size=1)
        self.proj = nn.ModuleList([deepcopy(self.merge) for _ in range(3)])

    def forward(self, query, key, value):
        b = query.size(0)
        query, key, value = [layer(x).view(b, self.dim, self.h, -1) for layer, x in zip(self.proj, (query, key, value))]
        x, _ = attention(query, key, value)
        return self.merge(x.contiguous().view(b, self.dim * self.h, -1))


class AttentionalPropagation(nn.Module):
    def __init__(self, num_dim, num_heads):
        super().__init__()
        self.attn = MultiHeadedAttention(num_heads, num_dim)
        self.mlp = MLP([num_dim * 2, num_dim * 2, num_dim], do_bn=True)
        nn.init.constant_(self.mlp[-1].bias, 0.0)

    def forward(self, x, source):
        message = self.attn(x, source, source)
        return self.mlp(torch.cat([x, message], dim=1))


class GNNLayer(nn.Module):
    def __init__(self, feature_dim, layer_type):
        super().__init__()
        self.type = layer_type
        self.update = AttentionalPropagation(feature_dim, 4)

    def forward(self, desc0, desc1):
        src0, src1 = (desc1, desc0) if self.type == "cross" else (desc0, desc1)
        delta0, delta1 = self.update(desc0, src0), self.update(desc1, src1)
        return desc0 + delta0, desc1 + delta1


class LineLayer(nn.Module):
    def __init__(self, feature_dim):
        super().__init__()
        self.dim = feature_dim
        self.mlp = MLP([self.dim * 3, self.dim * 2, self.dim], do_bn=True)

    def get_endpoint_update(self, ldesc, line_enc, lines_junc_idx):
        b_size = lines_junc_idx.shape[0]
        line_desc = torch.gather(ldesc, 2, lines_junc_idx[:, None].repeat(1, self.dim, 1))
        line_desc2 = line_desc.reshape(b_size, self.dim, -1, 2).flip([-1])
        message = torch.cat([line_desc, line_desc2.flatten(2, 3).clone(), line_enc], dim=1)
        # the MLP runs under autocast: bring its messages back to the descriptors' dtype
        return self.mlp(message).to(ldesc.dtype)

    def forward(self, ldesc0, ldesc1, line_enc0, line_enc1, lines_junc_idx0, lines_junc_idx1):
        lupdate0 = self.get_endpoint_update(ldesc0, line_enc0, lines_junc_idx0)
        lupdate1 = self.get_endpoint_update(ldesc1, line_enc1, lines_junc_idx1)

        update0, update1 = torch.zeros_like(ldesc0), torch.zeros_like(ldesc1)
        dim = ldesc0.shape[1]
        # Average the updates for each junction (requires torch > 1.12)
        update0 = update0.scatter_reduce_(dim=2, index=lines_junc_idx0[:, None].repeat(1, dim, 1), src=lupdate0, reduce="mean", include_self=False)
        update1 = update1.scatter_reduce_(dim=2, index=lines_junc_idx1[:, None].repeat(1, dim, 1), src=lupdate1, reduce="mean", include_self=False)
        return ldesc0 + update0, ldesc1 + update1


class AttentionalGNN(nn.Module):
    def __init__(self, feature_dim, layer_types):
        super().__init__()
        self.layers = nn.ModuleList([GNNLayer(feature_dim, t) for t in layer_types])
        self.line_layers = nn.ModuleList([LineLayer(feature_dim) for _ in range(len(layer_types) // 2)])

    def forward(self, desc0, desc1, line_enc0, line_enc1, lines_junc_idx0, lines_junc_idx1):
        for i, layer in enumerate(self.layers):
            desc0, desc1 = layer(desc0, desc1)
            if layer.type == "self" and lines_junc_idx0.shape[1] > 0 and lines_junc_idx1.shape[1] > 0:
                desc0, desc1 = self.line_layers[i // 2](desc0, desc1, line_enc0, line_enc1, lines_junc_idx0, lines_junc_idx1)
        return desc0, desc1


def log_double_softmax(scores, bin_score):
    b, m, n = scores.shape
    bin_ = bin_score[None, None, None]
    scores0 = torch.cat([scores, bin_.expand(b, m, 1)], 2)
    scores1 = torch.cat([scores, bin_.expand(b, 1, n)], 1)
    scores0 = torch.nn.functional.log_softmax(scores0, 2)
    scores1 = torch.nn.functional.log_softmax(scores1, 1)
    scores = scores.new_full((b, m + 1, n + 1), 0)
    scores[:, :m, :n] = (scores0[:, :, :n] + scores1[:, :m, :]) / 2
    scores[:, :-1, -1] = scores0[:, :, -1]
    scores[:, -1, :-1] = scores1[:, -1, :]
    return scores


class GlueStick(nn.Module):
    def __init__(self, descriptor_dim=DIM):
        super().__init__()
        self.kenc = KeypointEncoder(descriptor_dim, [16, 32])
        self.lenc = EndPtEncoder(descriptor_dim, [16, 32])
        self.gnn = AttentionalGNN(descriptor_dim, ["self", "cross"] * 2)
        self.final_proj = nn.Conv1d(descriptor_dim, descriptor_dim, kernel_size=1)
        self.bin_score = nn.Parameter(torch.tensor(1.0))
        self.descriptor_dim = descriptor_dim

    def forward(self, data):
        b_size = len(data["keypoints0"])
        image_size = data["view0"]["image"].shape
        desc0, desc1 = data["descriptors0"].mT, data["descriptors1"].mT
        n_lines0, n_lines1 = data["lines0"].shape[1], data["lines1"].shape[1]
        lines0 = data["lines0"].flatten(1, 2)
        lines1 = data["lines1"].flatten(1, 2)
        lines_junc_idx0 = data["lines_junc_idx0"].flatten(1, 2)
        lines_junc_idx1 = data["lines_junc_idx1"].flatten(1, 2)

        kpts0 = normalize_keypoints(data["keypoints0"], image_size)
        kpts1 = normalize_keypoints(data["keypoints1"], image_size)
        desc0 = desc0 + self.kenc(kpts0, data["keypoint_scores0"])
        desc1 = desc1 + self.kenc(kpts1, data["keypoint_scores1"])

        lines0 = normalize_keypoints(lines0, image_size).reshape(b_size, n_lines0, 2, 2)
        lines1 = normalize_keypoints(lines1, image_size).reshape(b_size, n_lines1, 2, 2)
        line_enc0 = self.lenc(lines0, data["line_scores0"])
        line_enc1 = self.lenc(lines1, data["line_scores1"])

        desc0, desc1 = self.gnn(desc0, desc1, line_enc0, line_enc1, lines_junc_idx0, lines_junc_idx1)
        mdesc0, mdesc1 = self.final_proj(desc0), self.final_proj(desc1)
        kp_scores = torch.einsum("bdn,bdm->bnm", mdesc0, mdesc1) / self.descriptor_dim**0.5
        return {"log_assignment": log_double_softmax(kp_scores, self.bin_score)}

    def loss(self, pred, data):
        gt0, gt1 = data["gt_matches0"], data["gt_matches1"]
        la = pred["log_assignment"]
        m = la.shape[1] - 1
        idx0 = torch.where(gt0 >= 0, gt0, torch.full_like(gt0, la.shape[2] - 1))
        nll0 = -la[:, :m, :].gather(2, idx0[..., None]).squeeze(-1)
        idx1 = torch.where(gt1 >= 0, gt1, torch.full_like(gt1, m))
        nll1 = -la[:, :, : la.shape[2] - 1].gather(1, idx1[:, None]).squeeze(1)
        return {"total": (nll0.mean(1) + nll1.mean(1)) / 2}


def make_batch(b=2, n_kpts=24, n_lines=8, h=64, w=80):
    """A homography-style pair: the keypoints and line endpoints of view1 are those of view0, shifted."""
    kpts0 = torch.rand(b, n_kpts, 2) * torch.tensor([w, h])
    kpts1 = kpts0 + torch.randn(b, n_kpts, 2)
    desc0 = torch.nn.functional.normalize(torch.randn(b, n_kpts, DIM), dim=-1)
    desc1 = torch.nn.functional.normalize(desc0 + 0.1 * torch.randn(b, n_kpts, DIM), dim=-1)
    # line endpoints are the first 2 * n_lines keypoints (junctions), as in GlueStick
    junc = torch.arange(2 * n_lines).reshape(1, n_lines, 2).repeat(b, 1, 1)
    perm = torch.randperm(n_kpts)
    gt0 = perm.unsqueeze(0).repeat(b, 1)
    gt0[:, -4:] = -1
    gt1 = torch.full((b, n_kpts), -1, dtype=torch.long)
    for i in range(n_kpts - 4):
        gt1[:, perm[i]] = i
    return {
        "view0": {"image": torch.zeros(b, 1, h, w)}, "view1": {"image": torch.zeros(b, 1, h, w)},
        "keypoints0": kpts0, "keypoints1": kpts1[:, perm],
        "descriptors0": desc0, "descriptors1": desc1[:, perm],
        "keypoint_scores0": torch.rand(b, n_kpts), "keypoint_scores1": torch.rand(b, n_kpts),
        "lines0": kpts0[:, : 2 * n_lines].reshape(b, n_lines, 2, 2),
        "lines1": kpts1[:, perm][:, : 2 * n_lines].reshape(b, n_lines, 2, 2),
        "lines_junc_idx0": junc, "lines_junc_idx1": junc.clone(),
        "line_scores0": torch.rand(b, n_lines), "line_scores1": torch.rand(b, n_lines),
        "gt_matches0": gt0, "gt_matches1": gt1,
    }


if __name__ == "__main__":
    model = GlueStick()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    mixed_precision = "float16"  # --mixed_precision float16
    scaler = torch.amp.GradScaler("cpu", enabled=mixed_precision is not None)
    mp_dtype = {"float16": torch.float16, "bfloat16": torch.bfloat16, None: torch.float32}[mixed_precision]

    model.train()
    for it in range(5):
        data = make_batch()
        optimizer.zero_grad()
        with torch.autocast("cpu", enabled=mixed_precision is not None, dtype=mp_dtype):
            pred = model(data)
            loss = torch.mean(model.loss(pred, data)["total"])
        if torch.isnan(loss).any():
            print(f"Detected NAN, skipping iteration {it}")
            continue
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        print(f"it {it} loss {loss.item():.4f}")
    assert torch.isfinite(loss), loss
