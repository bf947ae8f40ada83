"""NRTR decoder: generate_square_subsequent_mask builds the causal mask on the CPU
source: https://github.com/RapidAI/RapidOCR/pull/731
reported-error: TypeError: Transformer.generate_square_subsequent_mask() takes 2 positional arguments but 3 were given (the PR adds a device argument because the one-argument helper builds the mask on the CPU; this adaptation keeps that helper)
outcome: cuda-only: RuntimeError (device mismatch between the CPU attn_mask and the CUDA query inside multi-head attention) at line 32; on CPU: ok
root-cause: line 23
expect: DG009
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Transformer(nn.Module):
    def __init__(self, d_model=32, nhead=4, out_channels=20, max_len=12):
        super().__init__()
        self.embedding = nn.Embedding(out_channels, d_model)
        layer = nn.TransformerDecoderLayer(d_model, nhead, dim_feedforward=64, batch_first=False)
        self.decoder = nn.TransformerDecoder(layer, num_layers=2)
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
        output = self.decoder(tgt_emb, src, tgt_mask=tgt_mask)  # fails-here
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
