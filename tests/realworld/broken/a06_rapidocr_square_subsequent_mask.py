"""NRTR decoder: generate_square_subsequent_mask builds the causal mask on the CPU
source: https://github.com/RapidAI/RapidOCR/pull/731
reported-error: TypeError: Transformer.generate_square_subsequent_mask() takes 2 positional arguments but 3 were given (the PR adds a device argument because the one-argument helper builds the mask on the CPU; this adaptation keeps that helper and, like RapidOCR's NRTR, its own attention that adds the mask to the scores: torch's nn.TransformerDecoder would find this causal mask causal and drop it, which runs on a GPU, checked on an H200)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! at line 27; on CPU: ok
root-cause: line 42
expect: DG009
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedSelfAttention(nn.Module):
    """NRTR's own attention: the mask is added to the scores."""

    def __init__(self, d_model, nhead):
        super().__init__()
        self.nhead = nhead
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, attn_mask=None):
        t, b, d = x.shape
        q, k, v = self.qkv(x).reshape(t, b * self.nhead, 3 * d // self.nhead).transpose(0, 1).chunk(3, dim=-1)
        scores = torch.bmm(q, k.transpose(1, 2)) / (d // self.nhead) ** 0.5
        if attn_mask is not None:
            scores = scores + attn_mask.unsqueeze(0)  # fails-here
        ctx = torch.bmm(scores.softmax(-1), v).transpose(0, 1).reshape(t, b, d)
        return self.out(ctx)


class Transformer(nn.Module):
    def __init__(self, d_model=32, nhead=4, out_channels=20, max_len=12):
        super().__init__()
        self.embedding = nn.Embedding(out_channels, d_model)
        self.self_attn = MaskedSelfAttention(d_model, nhead)
        self.cross = nn.Linear(2 * d_model, d_model)
        self.tgt_word_prj = nn.Linear(d_model, out_channels)
        self.max_len = max_len

    def generate_square_subsequent_mask(self, sz):
        mask = torch.zeros([sz, sz], dtype=torch.float32)  # root-cause
        mask_inf = torch.triu(torch.full(size=[sz, sz], dtype=torch.float32, fill_value=-torch.inf), diagonal=1)
        mask = mask + mask_inf
        return mask

    def forward_train(self, src, tgt):
        tgt = tgt[:, :-1]
        tgt_emb = self.embedding(tgt).permute(1, 0, 2)
        tgt_mask = self.generate_square_subsequent_mask(tgt_emb.shape[0])
        output = self.self_attn(tgt_emb, attn_mask=tgt_mask)
        output = self.cross(torch.cat([output, src.mean(0, keepdim=True).expand_as(output)], dim=-1))
        return self.tgt_word_prj(output).permute(1, 0, 2)

    def forward(self, src, targets):
        return self.forward_train(src, targets)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Transformer().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(3):
        memory = torch.randn(10, 4, 32, device=device)
        targets = torch.randint(0, 20, (4, 8), device=device)
        logits = model(memory, targets)
        loss = F.cross_entropy(logits.reshape(-1, 20), targets[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())
