"""Character-level language model on a Shakespeare-style corpus with styalai/xLSTM-pytorch's sLSTM blocks (the package's tinyshakespeare example, trained the way the reporter's Lightning module did: built from an x_example batch, then moved with model.to(device)): sLSTMblock.init_states keeps the recurrent states nt_1/ct_1/ht_1/mt_1 as plain tensor attributes made with device=x_example.device, so nn.Module.to() never moves them and on a GPU the first forward mixes CPU states with CUDA weights
source: https://github.com/styalai/xLSTM-pytorch/issues/2
reported-error: "the buffers self.nt_1 and so on are initialized on the same device as x_example, but simply as a variable and not a Buffer. They are therefore not moved together with the model when calling model.to(device)" (no traceback quoted; fixed in PR #3 by nn.Buffer)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (the issue quotes no traceback; this is what F.linear raises for the CPU ht_1 with CUDA weights; wording varies with the torch version; not run on a GPU for this set) at line 26; on CPU: ok
root-cause: line 64
expect: DG009
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# ---- xLSTM/utils.py
class BlockDiagonal(nn.Module):
    def __init__(self, in_features, out_features, num_blocks, bias=True):
        super().__init__()
        assert out_features % num_blocks == 0
        self.blocks = nn.ModuleList([nn.Linear(in_features, out_features // num_blocks, bias=bias)
                                     for _ in range(num_blocks)])

    def forward(self, x):
        x = [block(x) for block in self.blocks]  # fails-here
        return torch.cat(x, dim=-1)


class CausalConv1D(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, dilation=1):
        super().__init__()
        self.padding = (kernel_size - 1) * dilation
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=self.padding, dilation=dilation)

    def forward(self, x):
        return self.conv(x)[:, :, :-self.padding]


# ---- xLSTM/sLSTMblock.py (before PR #3)
class sLSTMblock(nn.Module):
    def __init__(self, x_example, depth, dropout=0.2):
        super().__init__()
        self.input_size = x_example.shape[2]
        d = self.input_size
        self.ln = nn.LayerNorm(d)
        self.conv = CausalConv1D(d, d, int(d / 8))
        self.drop = nn.Dropout(dropout)
        self.i_gate, self.f_gate = BlockDiagonal(d, d, depth), BlockDiagonal(d, d, depth)
        self.o_gate, self.z_gate = BlockDiagonal(d, d, depth), BlockDiagonal(d, d, depth)
        self.ri_gate, self.rf_gate = BlockDiagonal(d, d, depth, bias=False), BlockDiagonal(d, d, depth, bias=False)
        self.ro_gate, self.rz_gate = BlockDiagonal(d, d, depth, bias=False), BlockDiagonal(d, d, depth, bias=False)
        self.ln_i, self.ln_f, self.ln_o, self.ln_z = (nn.LayerNorm(d) for _ in range(4))
        self.GN, self.ln_c, self.ln_n, self.ln_h = (nn.LayerNorm(d) for _ in range(4))
        self.left_linear = nn.Linear(d, int(d * (4 / 3)))
        self.right_linear = nn.Linear(d, int(d * (4 / 3)))
        self.ln_out = nn.LayerNorm(int(d * (4 / 3)))
        self.proj = nn.Linear(int(d * (4 / 3)), d)
        self.init_states(x_example)

    def init_states(self, x):
        self.nt_1 = torch.zeros(1, 1, x.shape[2], device=x.device)
        self.ct_1 = torch.zeros(1, 1, x.shape[2], device=x.device)
        self.ht_1 = torch.zeros(1, 1, x.shape[2], device=x.device)  # root-cause
        self.mt_1 = torch.zeros(1, 1, x.shape[2], device=x.device)

    def forward(self, x):
        x = self.ln(x)
        x_conv = F.silu(self.drop(self.conv(x.transpose(1, 2)).transpose(1, 2)))
        # start sLSTM
        ht_1 = self.ht_1
        i = torch.exp(self.ln_i(self.i_gate(x_conv) + self.ri_gate(ht_1)))
        f = torch.exp(self.ln_f(self.f_gate(x_conv) + self.rf_gate(ht_1)))
        m = torch.max(torch.log(f) + self.mt_1[:, 0, :].unsqueeze(1), torch.log(i))
        i = torch.exp(torch.log(i) - m)
        f = torch.exp(torch.log(f) + self.mt_1[:, 0, :].unsqueeze(1) - m)
        self.mt_1 = m.detach()
        o = torch.sigmoid(self.ln_o(self.o_gate(x) + self.ro_gate(ht_1)))
        z = torch.tanh(self.ln_z(self.z_gate(x) + self.rz_gate(ht_1)))
        ct = f * self.ct_1 + i * z
        ct = torch.mean(self.ln_c(ct), [0, 1], keepdim=True)
        self.ct_1 = ct.detach()
        nt = f * self.nt_1 + i
        nt = torch.mean(self.ln_n(nt), [0, 1], keepdim=True)
        self.nt_1 = nt.detach()
        ht = o * (ct / nt)
        ht = torch.mean(self.ln_h(ht), [0, 1], keepdim=True)
        self.ht_1 = ht.detach()
        # end sLSTM
        slstm_out = self.GN(ht)
        out = self.ln_out(self.left_linear(slstm_out) * F.gelu(self.right_linear(slstm_out)))
        return self.proj(out)


# ---- xLSTM/xLSTM.py (sLSTM layers only)
class xLSTM(nn.Module):
    def __init__(self, layers, x_example, depth=4):
        super().__init__()
        self.layers = nn.ModuleList([sLSTMblock(x_example, depth) for _ in layers])

    def forward(self, x):
        x_original = x.clone()
        for l in self.layers:
            x = l(x) + x_original
        return x


# ---- the example's language model
class XLSTMLanguageModel(nn.Module):
    def __init__(self, vocab_size, n_embd, x_example, layers="ss"):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
        self.xlstm = xLSTM(list(layers), x_example, depth=4)
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx, targets=None):
        x = self.xlstm(self.token_embedding_table(idx))
        logits = self.lm_head(self.ln_f(x))
        if targets is None:
            return logits, None
        B, T, C = logits.shape
        return logits, F.cross_entropy(logits.view(B * T, C), targets.view(B * T))


verses = ["First Citizen: Before we proceed any further, hear me speak.",
          "All: Speak, speak.", "First Citizen: You are all resolved rather to die than to famish?",
          "All: Resolved. resolved.", "First Citizen: First, you know Caius Marcius is chief enemy to the people.",
          "MENENIUS: Why, masters, my good friends, mine honest neighbours, will you undo yourselves?"]
text = "\n".join(verses[i % len(verses)] for i in range(120))
chars = sorted(set(text))
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
n = int(0.1 * len(data))
train_data, val_data = data[n:], data[:n]

batch_size, block_size, n_embd = 16, 32, 64


def get_batch_xlstm(split, idx):
    src = train_data if split == "train" else val_data
    if idx + block_size + batch_size > len(src):
        idx = 1
    ix = torch.arange(idx, idx + batch_size)
    x = torch.stack([src[i:i + block_size] for i in ix])
    y = torch.stack([src[i + 1:i + block_size + 1] for i in ix])
    return x.to(device), y.to(device)


x_example = torch.zeros(batch_size, block_size, n_embd)  # root-cause-alt
model = XLSTMLanguageModel(len(chars), n_embd, x_example).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
print(f"{sum(p.numel() for p in model.parameters()) / 1e3:.1f}k parameters on {device}")

idx = 1
for step in range(40):
    xb, yb = get_batch_xlstm("train", idx)
    idx += batch_size
    _, loss = model(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    if step % 10 == 0:
        model.eval()
        with torch.no_grad():
            _, val_loss = model(*get_batch_xlstm("val", 1))
        model.train()
        print(f"step {step}: train loss {loss.item():.3f}, val loss {val_loss.item():.3f}")

context = torch.tensor([[stoi["F"]] * block_size], dtype=torch.long, device=device)
with torch.no_grad():
    logits, _ = model(context)
print("next char after 'F...':", repr(itos[int(logits[0, -1].argmax())]))
