"""SAM3-style TransformerDecoder: coordinates for the relative position bias are created with device="cuda" hard-coded
source: https://github.com/facebookresearch/sam3/pull/188
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
outcome: AssertionError: Torch not compiled with CUDA enabled at line 25 (on a CUDA machine, with the model on the CPU: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! at line 27)
root-cause: line 25
expect: DG009
"""
import torch
import torch.nn as nn


class TransformerDecoder(nn.Module):
    def __init__(self, d_model=32, nhead=4, num_layers=2, feat_hw=(8, 8), num_queries=5):
        super().__init__()
        self.feat_hw = feat_hw
        self.query_embed = nn.Embedding(num_queries, d_model)
        self.box_head = nn.Linear(d_model, 4)
        self.layers = nn.ModuleList(
            [nn.TransformerDecoderLayer(d_model, nhead, 64, batch_first=True) for _ in range(num_layers)])
        self.nhead = nhead

    def _get_rpb_matrix(self, reference_boxes):
        H, W = self.feat_hw
        boxes_xyxy = reference_boxes.sigmoid()
        coords_h = torch.arange(0, H, device="cuda", dtype=torch.float32) / H  # root-cause # fails-here
        coords_w = torch.arange(0, W, device="cuda", dtype=torch.float32) / W
        deltas_y = coords_h.view(1, -1, 1) - boxes_xyxy.reshape(-1, 1, 4)[:, :, 1:4:2]
        deltas_x = coords_w.view(1, -1, 1) - boxes_xyxy.reshape(-1, 1, 4)[:, :, 0:3:2]
        rpb = -(deltas_y.abs().sum(-1)[:, :, None] + deltas_x.abs().sum(-1)[:, None, :])
        return rpb.flatten(1)

    def forward(self, memory):
        B = memory.shape[0]
        tgt = self.query_embed.weight.unsqueeze(0).expand(B, -1, -1)
        reference_boxes = self.box_head(tgt)
        rpb = self._get_rpb_matrix(reference_boxes)  # (B*Q, H*W)
        attn_bias = rpb.view(B, -1, rpb.shape[-1]).repeat_interleave(self.nhead, dim=0)
        for layer in self.layers:
            tgt = layer(tgt, memory, memory_mask=attn_bias)
        return self.box_head(tgt)


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    # CPU inference was the point of the PR: run on the CPU even when a GPU exists
    device = "cpu"
    decoder = TransformerDecoder().to(device)
    optimizer = torch.optim.AdamW(decoder.parameters(), lr=1e-4)
    memory = torch.randn(2, 64, 32, device=device)
    target_boxes = torch.rand(2, 5, 4, device=device)
    for step in range(3):
        pred = decoder(memory).sigmoid()
        loss = nn.functional.l1_loss(pred, target_boxes)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
